// The atoms and bonds of a parsed molecule, read once from RDKit MinimalLib's JSON
// (Mol.get_json(), "rdkitjson" v12: per-atom z, impHs = total H count, chg, nRad, isotope,
// stereo; per-bond bo (kekulé form), stereo and stereoAtoms; the rdkitRepresentation extension
// carries the aromatic atoms and bonds and the CIP ranks). The one reader of that JSON: the
// properties engine, the jobs' and the utilities' handlers read it as it is, and the D-MPNN
// library (src/ml/molgraph.ts) derives its bond properties over it (docs/models.md,
// "Featurisation").

export interface MolGraph {
  /** atom count (explicit atoms only; implicit hydrogens are in `hs`) */
  n: number;
  z: Int16Array;
  /** hydrogens attached to the atom and not present as atoms (RDKit getTotalNumHs) */
  hs: Int16Array;
  chg: Int16Array;
  /** isotope mass number, 0 when unspecified */
  isotope: Int16Array;
  /** radical electrons */
  nRad: Int16Array;
  /** RDKit chiral tag: 0 unspecified, 1 CW, 2 CCW, 3 other, 4 any tag this reader does not know */
  chiral: Int8Array;
  /** 1 for aromatic atoms */
  aromaticAtom: Uint8Array;
  nBonds: number;
  /** bond i joins atoms bondA[i] and bondB[i] */
  bondA: Int32Array;
  bondB: Int32Array;
  /** bond order as in the JSON (kekulé form): 1, 2, 3, 0 for zero-order bonds */
  order: Float32Array;
  /** 1 for aromatic bonds */
  aromaticBond: Uint8Array;
  /** the JSON's stereo label of each bond ('unspecified', 'either', 'cis', 'trans') */
  stereoLabel: string[];
  /** the JSON's stereo atoms of each bond (begin side first), when it gives them */
  stereoAtoms: ([number, number] | undefined)[];
  /** CIP rank of each atom, when the JSON gives them */
  cipRanks: number[] | undefined;
  /** the JSON's "rdkitjson" header (its format version), for writing an edited molecule back */
  rdkitjson: unknown;
}

/** An atom and a bond of MinimalLib's JSON (get_json()), as this reader reads them. */
export interface JsonAtom {
  z?: number;
  impHs?: number;
  chg?: number;
  nRad?: number;
  isotope?: number;
  stereo?: string;
}
export interface JsonBond {
  bo?: number;
  atoms: [number, number];
  stereo?: string;
  stereoAtoms?: [number, number];
}
interface JsonDoc {
  rdkitjson?: unknown;
  defaults?: { atom?: JsonAtom; bond?: Omit<JsonBond, 'atoms'> };
  molecules: {
    atoms?: JsonAtom[];
    bonds?: JsonBond[];
    extensions?: { name?: string; aromaticAtoms?: number[]; aromaticBonds?: number[]; cipRanks?: number[] }[];
  }[];
}

const CHIRAL: Record<string, number> = { unspecified: 0, cw: 1, ccw: 2, other: 3 };

/** Reads MinimalLib's JSON of one molecule (its first molecule). */
export function readMolGraph(json: string): MolGraph {
  const doc = JSON.parse(json) as JsonDoc;
  const da = doc.defaults?.atom ?? {};
  const db = doc.defaults?.bond ?? {};
  const m = doc.molecules[0] ?? {};
  const atoms = m.atoms ?? [];
  const bonds = m.bonds ?? [];
  const n = atoms.length;
  const nb = bonds.length;
  const rep = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
  const g: MolGraph = {
    n,
    z: new Int16Array(n),
    hs: new Int16Array(n),
    chg: new Int16Array(n),
    isotope: new Int16Array(n),
    nRad: new Int16Array(n),
    chiral: new Int8Array(n),
    aromaticAtom: new Uint8Array(n),
    nBonds: nb,
    bondA: new Int32Array(nb),
    bondB: new Int32Array(nb),
    order: new Float32Array(nb),
    aromaticBond: new Uint8Array(nb),
    stereoLabel: new Array<string>(nb),
    stereoAtoms: new Array<[number, number] | undefined>(nb),
    cipRanks: rep?.cipRanks,
    rdkitjson: doc.rdkitjson,
  };
  for (const [i, a] of atoms.entries()) {
    g.z[i] = a.z ?? da.z ?? 6;
    g.hs[i] = a.impHs ?? da.impHs ?? 0;
    g.chg[i] = a.chg ?? da.chg ?? 0;
    g.isotope[i] = a.isotope ?? da.isotope ?? 0;
    g.nRad[i] = a.nRad ?? da.nRad ?? 0;
    g.chiral[i] = CHIRAL[a.stereo ?? da.stereo ?? 'unspecified'] ?? 4;
  }
  for (const [i, b] of bonds.entries()) {
    const [a, c] = b.atoms;
    g.bondA[i] = a;
    g.bondB[i] = c;
    g.order[i] = b.bo ?? db.bo ?? 1;
    g.stereoLabel[i] = b.stereo ?? db.stereo ?? 'unspecified';
    g.stereoAtoms[i] = b.stereoAtoms;
  }
  for (const a of rep?.aromaticAtoms ?? []) g.aromaticAtom[a] = 1;
  for (const b of rep?.aromaticBonds ?? []) g.aromaticBond[b] = 1;
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
    const cls = (g.z[i] ?? 0) + 1000 * (g.aromaticAtom[i] ?? 0);
    counts[cls] = (counts[cls] ?? 0) + 1;
  }
  return counts;
}
