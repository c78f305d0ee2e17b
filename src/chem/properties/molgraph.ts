// The atoms and bonds of a parsed molecule, read once from RDKit MinimalLib's JSON
// (Mol.get_json(), "rdkitjson" v12: per-atom z, impHs = total H count, chg, isotope; bonds;
// the rdkitRepresentation extension carries aromatic atoms and the SSSR atom rings).

export interface MolGraph {
  /** atom count (explicit atoms only; implicit hydrogens are in `hs`) */
  n: number;
  z: Int16Array;
  /** hydrogens attached to the atom and not present as atoms (RDKit getTotalNumHs) */
  hs: Int16Array;
  chg: Int16Array;
  /** isotope mass number, 0 when unspecified */
  iso: Int16Array;
  /** 1 for aromatic atoms */
  aromatic: Uint8Array;
  /** bond i joins atoms bondA[i] and bondB[i] */
  bondA: Int32Array;
  bondB: Int32Array;
}

interface JsonAtom {
  z?: number;
  impHs?: number;
  chg?: number;
  isotope?: number;
}

interface JsonDoc {
  defaults?: { atom?: JsonAtom };
  molecules: {
    atoms?: JsonAtom[];
    bonds?: { atoms: [number, number] }[];
    extensions?: { name?: string; aromaticAtoms?: number[] }[];
  }[];
}

export function readMolGraph(json: string): MolGraph {
  const doc = JSON.parse(json) as JsonDoc;
  const def = doc.defaults?.atom ?? {};
  const dz = def.z ?? 6;
  const dh = def.impHs ?? 0;
  const dc = def.chg ?? 0;
  const di = def.isotope ?? 0;
  const m = doc.molecules[0] ?? { atoms: [], bonds: [] };
  const atoms = m.atoms ?? [];
  const bonds = m.bonds ?? [];
  const n = atoms.length;
  const g: MolGraph = {
    n,
    z: new Int16Array(n),
    hs: new Int16Array(n),
    chg: new Int16Array(n),
    iso: new Int16Array(n),
    aromatic: new Uint8Array(n),
    bondA: new Int32Array(bonds.length),
    bondB: new Int32Array(bonds.length),
  };
  for (const [i, a] of atoms.entries()) {
    g.z[i] = a.z ?? dz;
    g.hs[i] = a.impHs ?? dh;
    g.chg[i] = a.chg ?? dc;
    g.iso[i] = a.isotope ?? di;
  }
  for (const [i, bond] of bonds.entries()) {
    const [a, b] = bond.atoms;
    g.bondA[i] = a;
    g.bondB[i] = b;
  }
  const rep = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
  for (const a of rep?.aromaticAtoms ?? []) g.aromatic[a] = 1;
  return g;
}

/** Connected components: comp[i] is the component index of atom i; returns [comp, count]. */
export function components(g: MolGraph, removed?: Uint8Array): [Int32Array, number] {
  const parent = new Int32Array(g.n);
  for (let i = 0; i < g.n; i++) parent[i] = i;
  const find = (atom: number): number => {
    let x = atom;
    // (an index outside the graph has no parent entry: it is its own root)
    for (let p = parent[x] ?? x; p !== x; p = parent[x] ?? x) {
      const grandparent = parent[p] ?? p;
      parent[x] = grandparent;
      x = grandparent;
    }
    return x;
  };
  for (let b = 0; b < g.bondA.length; b++) {
    const a = g.bondA[b];
    const c = g.bondB[b];
    if (a === undefined || c === undefined || (removed && (removed[a] || removed[c]))) continue;
    const ra = find(a);
    const rc = find(c);
    if (ra !== rc) parent[ra] = rc;
  }
  const comp = new Int32Array(g.n).fill(-1);
  const index = new Map<number, number>();
  for (let i = 0; i < g.n; i++) {
    if (removed && removed[i]) continue;
    const r = find(i);
    let k = index.get(r);
    if (k === undefined) {
      k = index.size;
      index.set(r, k);
    }
    comp[i] = k;
  }
  return [comp, index.size];
}

/**
 * Number of rings in a smallest set of smallest rings of the graph left after removing
 * the flagged atoms: the cycle rank, bonds - atoms + connected components (a minimum cycle
 * basis always has exactly that many cycles).
 */
export function cycleRank(g: MolGraph, removed: Uint8Array): number {
  let atoms = 0;
  for (let i = 0; i < g.n; i++) if (!removed[i]) atoms++;
  let bonds = 0;
  for (let b = 0; b < g.bondA.length; b++) {
    const a = g.bondA[b];
    const c = g.bondB[b];
    if (a !== undefined && c !== undefined && !removed[a] && !removed[c]) bonds++;
  }
  const [, count] = components(g, removed);
  return bonds - atoms + count;
}

/** Atom count per class (atomic number + 1000 if aromatic), the classes of Prefilter data. */
export function classCounts(g: MolGraph): Int32Array {
  const counts = new Int32Array(2000);
  for (let i = 0; i < g.n; i++) {
    const cls = (g.z[i] ?? 0) + 1000 * (g.aromatic[i] ?? 0);
    counts[cls] = (counts[cls] ?? 0) + 1;
  }
  return counts;
}
