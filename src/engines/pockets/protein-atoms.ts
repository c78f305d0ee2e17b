// The heavy atoms of a receptor for the pocket search (docs/structure.md, "Pockets"): read from
// the PDB text the docking receptor reader filtered (src/engines/docking/receptor.ts: first
// model, first alternate location, waters and hetero groups out unless kept), each with its
// element and the residue it belongs to (`RESNAME CHAIN NUMBER`, e.g. `MET A 318`).

export interface ProteinAtoms {
  /** x y z of each heavy atom, flattened. */
  coords: Float64Array;
  /** Element of each atom (upper case). */
  elements: string[];
  /** Index into `residues` of each atom. */
  residueOf: Int32Array;
  /** Residue labels, `RESNAME CHAIN NUMBER` (insertion code appended to the number). */
  residues: string[];
}

/** The element of a PDB atom line: columns 77-78, else guessed from the atom name. */
function elementOf(line: string): string {
  const e = line.slice(76, 78).trim();
  if (e) return e.toUpperCase();
  const name = line.slice(12, 16);
  return (/^[A-Za-z]/.test(name) ? name.slice(0, 2) : name.slice(1, 2)).trim().toUpperCase();
}

/** The heavy atoms of ATOM and HETATM records (hydrogens and deuterium left out). */
export function proteinAtoms(pdb: string): ProteinAtoms {
  const coords: number[] = [];
  const elements: string[] = [];
  const residueOf: number[] = [];
  const residues: string[] = [];
  const index = new Map<string, number>();
  for (const raw of pdb.split('\n')) {
    if (!raw.startsWith('ATOM  ') && !raw.startsWith('HETATM')) continue;
    const el = elementOf(raw);
    if (el === 'H' || el === 'D') continue;
    const x = Number(raw.slice(30, 38));
    const y = Number(raw.slice(38, 46));
    const z = Number(raw.slice(46, 54));
    if (![x, y, z].every(Number.isFinite)) continue;
    const chain = raw.slice(21, 22).trim() || '_';
    const label = `${raw.slice(17, 20).trim()} ${chain} ${raw.slice(22, 27).trim()}`;
    let r = index.get(label);
    if (r === undefined) {
      r = residues.length;
      residues.push(label);
      index.set(label, r);
    }
    coords.push(x, y, z);
    elements.push(el);
    residueOf.push(r);
  }
  return { coords: Float64Array.from(coords), elements, residueOf: Int32Array.from(residueOf), residues };
}
