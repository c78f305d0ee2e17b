// The one reader of V2000 molblocks the engine chemistry uses (Open Babel's, xtb's and MOPAC's
// structures: docs/engines.md, "Structures"), and the few ways it writes one back: new
// coordinates, a title, a subset of the atoms, an SDF record with data fields.

export type Vec = [number, number, number];

/** A V2000 molblock, parsed enough to take atoms out and put coordinates back. */
export interface Mol {
  lines: string[];
  symbols: string[];
  coords: Vec[];
  /** Bonds [a, b], 0-based, in the bond block's order. */
  bonds: [number, number][];
  /** Formal charge per atom (M  CHG, else the atom block's charge code). */
  charges: number[];
}

const CHARGE_CODES: Record<string, number> = { '1': 3, '2': 2, '3': 1, '5': -1, '6': -2, '7': -3 };

/** Reads a V2000 molblock: atoms, coordinates, bonds and charges (a V3000 one reads as no atoms). */
export function readMolblock(molblock: string): Mol {
  const lines = molblock.replace(/\r/g, '').split('\n');
  const counts = lines[3] ?? '';
  const nA = Number(counts.slice(0, 3));
  const nB = Number(counts.slice(3, 6));
  const symbols: string[] = [];
  const coords: Vec[] = [];
  const charges: number[] = [];
  for (let i = 0; i < nA; i++) {
    const l = lines[4 + i] ?? '';
    coords.push([Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30))]);
    symbols.push(l.slice(31, 34).trim());
    charges.push(CHARGE_CODES[l.slice(36, 39).trim()] ?? 0);
  }
  const bonds: [number, number][] = [];
  for (let i = 0; i < nB; i++) {
    const l = lines[4 + nA + i] ?? '';
    bonds.push([Number(l.slice(0, 3)) - 1, Number(l.slice(3, 6)) - 1]);
  }
  let chgSeen = false;
  for (const l of lines.slice(4 + nA + nB)) {
    if (!l.startsWith('M  CHG')) continue;
    if (!chgSeen) charges.fill(0);
    chgSeen = true;
    const t = l.slice(6).trim().split(/\s+/).map(Number);
    for (let k = 1; k + 1 < t.length; k += 2) charges[t[k]! - 1] = t[k + 1]!;
  }
  return { lines, symbols, coords, bonds, charges };
}

/** Atom symbols and coordinates of a V2000 molblock. */
export function readMolblockAtoms(molblock: string): { symbols: string[]; coords: Vec[] } {
  const { symbols, coords } = readMolblock(molblock);
  return { symbols, coords };
}

/** `molblock` with its atoms moved to `coords` (same atoms, same order), 4 decimals as V2000 carries. */
export function withCoords(molblock: string, coords: readonly (readonly [number, number, number])[]): string {
  const lines = molblock.split(/\r?\n/);
  const n = Number((lines[3] ?? '').slice(0, 3));
  if (n !== coords.length) throw new Error(`the molblock has ${n} atoms, the coordinates ${coords.length}`);
  for (let i = 0; i < n; i++) {
    const l = lines[4 + i]!;
    const [x, y, z] = coords[i]!;
    lines[4 + i] = `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${z.toFixed(4).padStart(10)}${l.slice(30)}`;
  }
  return lines.join('\n');
}

/** Names a molblock: its first line. */
export function titled(molblock: string, title: string): string {
  const lines = molblock.split('\n');
  lines[0] = title.replace(/[\r\n]/g, ' ').slice(0, 80);
  return lines.join('\n');
}

/** One SDF record: the molblock titled, then its data fields in order (null and undefined ones left out), then `$$$$`. */
export function sdfRecord(molblock: string, title: string, fields: Record<string, string | number | null | undefined>): string {
  const body = titled(molblock, title).replace(/\s*$/, '\n');
  const data = Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `>  <${k}>\n${v}\n\n`)
    .join('');
  return `${body}${data}$$$$\n`;
}

/** The molblock of the atoms `keep` (indices, in order), bonds and charge, isotope and radical lines renumbered. */
export function subsetMolblock(mol: Mol, keep: number[]): string {
  const nA = mol.symbols.length;
  const nB = mol.bonds.length;
  const newIndex = new Map(keep.map((old, i) => [old, i + 1]));
  const head = mol.lines.slice(0, 3);
  const atoms = keep.map((i) => mol.lines[4 + i]!);
  const bonds: string[] = [];
  mol.bonds.forEach(([a, b], k) => {
    const na = newIndex.get(a);
    const nb = newIndex.get(b);
    if (na && nb) bonds.push(`${String(na).padStart(3)}${String(nb).padStart(3)}${mol.lines[4 + nA + k]!.slice(6)}`);
  });
  const props: string[] = [];
  for (const l of mol.lines.slice(4 + nA + nB)) {
    const m = /^M {2}(CHG|ISO|RAD)/.exec(l);
    if (!m) continue;
    const t = l.slice(6).trim().split(/\s+/).map(Number);
    const pairs: string[] = [];
    for (let k = 1; k + 1 < t.length; k += 2) {
      const ni = newIndex.get(t[k]! - 1);
      if (ni) pairs.push(`${String(ni).padStart(4)}${String(t[k + 1]).padStart(4)}`);
    }
    if (pairs.length) props.push(`M  ${m[1]}${String(pairs.length).padStart(3)}${pairs.join('')}`);
  }
  const counts = `${String(keep.length).padStart(3)}${String(bonds.length).padStart(3)}${mol.lines[3]!.slice(6)}`;
  return [...head, counts, ...atoms, ...bonds, ...props, 'M  END', ''].join('\n');
}
