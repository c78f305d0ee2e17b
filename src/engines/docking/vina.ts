// Ligands for AutoDock Vina and Vina itself (docs/engines.md, "Docking"). A ligand is given 3D
// coordinates with every hydrogen in its input atom order (prepare.ts), protonated
// at the job's pH by Open Babel (-p: heavy atoms keep their order and coordinates, the hydrogens
// follow them), stripped of the hydrogens on carbon (AutoDock's united atoms: written by us, so
// that each PDBQT atom is a known atom of the molblock, and no rotor is made of a methyl) and
// written as a PDBQT with Open Babel (-xp keeps our atom numbers). Vina's poses come back as
// molblocks of the protonated ligand: the atoms Vina moved take its coordinates, each hydrogen
// on carbon follows its carbon's frame (a rigid fit of the carbon and its neighbours).
import fs from 'node:fs';
import path from 'node:path';
import { readMolblock, subsetMolblock, withCoords, type Mol, type Vec } from '../molblock.js';
import { prepare } from '../prepare.js';
import { ItemFailure, lastLines, type EngineTools, type Structure } from '../tools.js';
import { torsionTree } from './pdbqt.js';
import { ReceptorProblem, type Box } from './receptor.js';

/** A prepared ligand's molblock (Open Babel writes V2000 up to 999 atoms). */
function parseMolblock(molblock: string): Mol {
  if (/V3000/.test(molblock.replace(/\r/g, '').split('\n')[3] ?? ''))
    throw new ItemFailure('preparation_failed', 'the prepared structure is a V3000 molblock (more than 999 atoms)');
  return readMolblock(molblock);
}

export interface DockLigand {
  /** The protonated ligand with every hydrogen: the atoms of every pose molblock. */
  molblock: string;
  mol: Mol;
  /** Atoms in the PDBQT (indices into mol), in PDBQT serial order 1..n. */
  kept: number[];
  pdbqt: string;
  torsions: number;
  charge: number;
  /** Parts of a salt or mixture left out (the largest part is docked). */
  dropped: number;
}

/** The AutoDock atom types Vina 1.2 reads. */
const VINA_TYPES = new Set(['C', 'A', 'N', 'O', 'P', 'S', 'H', 'F', 'I', 'NA', 'OA', 'SA', 'HD', 'Mg', 'Mn', 'Zn', 'Ca', 'Fe', 'Cl', 'Br', 'Si']);

/** Element of an AutoDock atom type (A aromatic carbon, NA/OA/SA acceptors, HD polar hydrogen). */
function elementOfType(t: string): string {
  const map: Record<string, string> = { A: 'C', NA: 'N', NS: 'N', OA: 'O', OS: 'O', SA: 'S', HD: 'H', HS: 'H' };
  return (map[t] ?? t).toUpperCase();
}

/** Reads a prepared SDF/MOL file of a step (its first record), or null. */
function readMol(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8').split('$$$$')[0]!.replace(/\s+$/, '\n');
  return /M {2}END/.test(text) ? text : null;
}

/**
 * A ligand ready for Vina: 3D with hydrogens (input atom order), protonated at `ph` (null: as
 * given), its PDBQT with the hydrogens on carbon merged. Problems are ItemFailures.
 */
export async function prepareLigand(s: Structure, tools: EngineTools, dir: string, ph: number | null): Promise<DockLigand> {
  // Open Babel on one thread: with more, its 3D builds differ from run to run (and the poses with them).
  const single: EngineTools = { threads: tools.threads, run: (engine, args, cwd, o = {}) => tools.run(engine, args, cwd, engine === 'obabel' ? { ...o, threads: 1 } : o) };
  const prepared = await prepare(s, single, dir);
  let molblock = prepared.molblock;
  if (ph !== null) {
    fs.writeFileSync(path.join(dir, 'neutral.mol'), molblock);
    const r = await tools.run('obabel', ['neutral.mol', '-p', String(ph), '-O', 'protonated.mol'], dir, { timeoutMs: 120_000, threads: 1 });
    const out = readMol(path.join(dir, 'protonated.mol'));
    if (!out) throw new ItemFailure('preparation_failed', `Open Babel could not protonate the ligand at pH ${ph}: ${lastLines(r.stderr || r.stdout)}`);
    const before = parseMolblock(molblock);
    const after = parseMolblock(out);
    const heavy = before.symbols.filter((e) => e !== 'H').length;
    const same = before.symbols.slice(0, heavy).every((e, i) => e === after.symbols[i] && before.coords[i]!.every((c, k) => Math.abs(c - after.coords[i]![k]!) < 1e-3));
    if (!same || after.symbols.slice(heavy).some((e) => e !== 'H'))
      throw new ItemFailure('preparation_failed', `Open Babel's protonation at pH ${ph} changed the ligand's heavy atoms`);
    molblock = out;
  }
  let mol = parseMolblock(molblock);
  // A salt or mixture: the largest part (most heavy atoms) is docked, the rest dropped.
  const parts = components(mol);
  let dropped = 0;
  if (parts.length > 1) {
    const main = parts.reduce((a, b) => (heavyCount(mol, b) > heavyCount(mol, a) ? b : a));
    dropped = parts.length - 1;
    molblock = subsetMolblock(mol, main);
    mol = parseMolblock(molblock);
  }
  const neighbours = adjacency(mol);
  const kept = mol.symbols.map((_, i) => i).filter((i) => !(mol.symbols[i] === 'H' && neighbours[i]!.length === 1 && mol.symbols[neighbours[i]![0]!] === 'C'));
  fs.writeFileSync(path.join(dir, 'ligand.mol'), subsetMolblock(mol, kept));
  // Open Babel types the atoms (a rigid PDBQT, our atom numbers); the torsion tree is ours.
  const r = await tools.run('obabel', ['ligand.mol', '-xr', '-xp', '-O', 'typed.pdbqt'], dir, { timeoutMs: 120_000, threads: 1 });
  const file = path.join(dir, 'typed.pdbqt');
  const typed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const atomLines = typed.split('\n').filter((l) => l.startsWith('ATOM  ') || l.startsWith('HETATM'));
  if (!atomLines.length) throw new ItemFailure('preparation_failed', `Open Babel could not write the ligand as PDBQT: ${lastLines(r.stderr || r.stdout)}`);
  const bySerial = new Map<number, string>();
  for (const l of atomLines) {
    const type = l.slice(77, 79).trim();
    if (!VINA_TYPES.has(type)) throw new ItemFailure('unsupported_element', `AutoDock Vina has no atom type for ${type} (atom ${Number(l.slice(6, 11))})`);
    const serial = Number(l.slice(6, 11));
    const atom = kept[serial - 1];
    if (atom === undefined || bySerial.has(serial) || elementOfType(l.slice(77, 79).trim()) !== mol.symbols[atom]!.toUpperCase())
      throw new ItemFailure('preparation_failed', `the ligand's PDBQT atom ${serial} does not match its structure`);
    bySerial.set(serial, `ATOM  ${l.slice(6)}`);
  }
  if (bySerial.size !== kept.length) throw new ItemFailure('preparation_failed', `the ligand's PDBQT has ${bySerial.size} atoms, ${kept.length} expected`);
  const tree = torsionTree(mol, kept, bySerial, s.name ?? s.id);
  fs.writeFileSync(path.join(dir, 'ligand.pdbqt'), tree.pdbqt);
  return { molblock, mol, kept, pdbqt: tree.pdbqt, torsions: tree.torsdof, charge: mol.charges.reduce((a, b) => a + b, 0), dropped };
}

function adjacency(mol: Mol): number[][] {
  const n = mol.symbols.map(() => [] as number[]);
  for (const [a, b] of mol.bonds) {
    n[a]!.push(b);
    n[b]!.push(a);
  }
  return n;
}

function heavyCount(mol: Mol, atoms: number[]): number {
  return atoms.filter((i) => mol.symbols[i] !== 'H').length;
}

/** The connected parts of a molecule (atom indices, ascending). */
function components(mol: Mol): number[][] {
  const adj = adjacency(mol);
  const seen = new Set<number>();
  const out: number[][] = [];
  for (let i = 0; i < mol.symbols.length; i++) {
    if (seen.has(i)) continue;
    const part: number[] = [];
    const stack = [i];
    seen.add(i);
    while (stack.length) {
      const x = stack.pop()!;
      part.push(x);
      for (const n of adj[x]!)
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
    }
    out.push(part.sort((a, b) => a - b));
  }
  return out;
}

export interface VinaOptions {
  receptor: string;
  box: Box;
  exhaustiveness: number;
  numModes: number;
  /** Vina's --energy_range (kcal/mol; Vina's default 3 when absent). */
  energyRange?: number;
  seed: number;
  /** Vina 1.2's scoring function (vina by default). */
  scoring?: 'vina' | 'vinardo';
  timeoutMs?: number;
  /** Told Vina's own progress (0..1) as it docks: the asterisks it prints under its 0%..100% ruler. */
  onProgress?: (fraction: number) => void;
}

/** Asterisks Vina prints under its ruler ("|----|...|", 51 characters wide) from 0% to 100%. */
export const VINA_STARS = 51;

/**
 * Reads Vina's progress from its stdout as it comes: the asterisks after the ruler line
 * (`|----|----|...`), one per 2% of the search; told as a fraction each time it grows.
 */
export function vinaProgressReader(tell: (fraction: number) => void): (chunk: Buffer) => void {
  let text = '';
  let ruler = false;
  let stars = 0;
  return (chunk) => {
    const piece = chunk.toString('latin1');
    if (!ruler) {
      text += piece;
      const at = text.indexOf('|----');
      if (at < 0) {
        text = text.slice(-64);
        return;
      }
      const eol = text.indexOf('\n', at);
      if (eol < 0) return;
      ruler = true;
      const rest = text.slice(eol + 1);
      text = '';
      return count(rest);
    }
    count(piece);
  };
  function count(s: string) {
    if (stars >= VINA_STARS) return;
    const n = (s.match(/\*/g) ?? []).length;
    if (!n) return;
    stars = Math.min(VINA_STARS, stars + n);
    tell(stars / VINA_STARS);
  }
}

export interface Pose {
  molblock: string;
  score_kcal_mol: number;
  rmsd_lb: number;
  rmsd_ub: number;
}

/** Vina's command line for one ligand (ligand.pdbqt in the item's directory, poses.pdbqt out). */
export function vinaArgs(o: VinaOptions, threads: number): string[] {
  const f = (v: number) => String(Math.round(v * 1000) / 1000);
  return [
    '--receptor',
    o.receptor,
    '--ligand',
    'ligand.pdbqt',
    ...(['x', 'y', 'z'] as const).flatMap((a, k) => [`--center_${a}`, f(o.box.center[k]!)]),
    ...(['x', 'y', 'z'] as const).flatMap((a, k) => [`--size_${a}`, f(o.box.size[k]!)]),
    '--exhaustiveness',
    String(o.exhaustiveness),
    '--num_modes',
    String(o.numModes),
    ...(o.energyRange !== undefined && o.energyRange !== 3 ? ['--energy_range', String(o.energyRange)] : []),
    '--seed',
    String(o.seed),
    '--cpu',
    String(threads),
    '--out',
    'poses.pdbqt',
    ...(o.scoring && o.scoring !== 'vina' ? ['--scoring', o.scoring] : []),
  ];
}

/** Docks one prepared ligand; its poses best first. */
export async function runVina(tools: EngineTools, dir: string, lig: DockLigand, o: VinaOptions): Promise<Pose[]> {
  fs.rmSync(path.join(dir, 'poses.pdbqt'), { force: true });
  const r = await tools.run('vina', vinaArgs(o, tools.threads), dir, { timeoutMs: o.timeoutMs, onStdout: o.onProgress && vinaProgressReader(o.onProgress) });
  const out = path.join(dir, 'poses.pdbqt');
  if (r.code !== 0 || !fs.existsSync(out)) {
    const why = lastLines(r.stderr || r.stdout, 4);
    // Vina names a line it cannot read ("> ATOM ..."): one of the receptor's is the receptor's problem, not this ligand's.
    const line = /^ > (.+)$/m.exec(`${r.stderr}\n${r.stdout}`)?.[1]?.trim();
    if (line && fs.readFileSync(o.receptor, 'utf8').includes(line)) throw new ReceptorProblem(`Vina could not read the prepared receptor: ${why}`);
    throw new ItemFailure('engine_failed', `vina: ${why}`);
  }
  const poses = readPoses(fs.readFileSync(out, 'utf8'), lig);
  if (!poses.length) throw new ItemFailure('engine_failed', `vina gave no pose: ${lastLines(r.stdout)}`);
  return poses;
}

/** The poses of Vina's output, as molblocks of the ligand. */
export function readPoses(pdbqt: string, lig: DockLigand): Pose[] {
  const poses: Pose[] = [];
  for (const block of pdbqt.split(/^MODEL\b.*$/m).slice(1)) {
    const m = /^REMARK VINA RESULT:\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)/m.exec(block);
    if (!m) continue;
    const moved = new Map<number, Vec>();
    for (const l of block.split('\n')) {
      if (!l.startsWith('ATOM  ') && !l.startsWith('HETATM')) continue;
      const atom = lig.kept[Number(l.slice(6, 11)) - 1];
      if (atom !== undefined) moved.set(atom, [Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54))]);
    }
    if (moved.size !== lig.kept.length) continue;
    poses.push({ molblock: withCoords(lig.molblock, placeAll(lig.mol, moved)), score_kcal_mol: Number(m[1]), rmsd_lb: Number(m[2]), rmsd_ub: Number(m[3]) });
  }
  return poses;
}

/** Every atom's pose coordinates: the moved atoms as Vina put them, each other atom by a rigid fit of its neighbourhood. */
function placeAll(mol: Mol, moved: Map<number, Vec>): Vec[] {
  const neighbours = adjacency(mol);
  return mol.coords.map((c, i) => {
    const at = moved.get(i);
    if (at) return at;
    // A hydrogen on carbon: its carbon, the carbon's moved neighbours, and theirs when fewer than three.
    const parent = neighbours[i]![0]!;
    const refs = [parent, ...neighbours[parent]!.filter((j) => moved.has(j))];
    for (const j of refs.slice(1)) if (refs.length < 3) refs.push(...neighbours[j]!.filter((k) => moved.has(k) && !refs.includes(k)));
    return fitTransform(
      refs.map((j) => mol.coords[j]!),
      refs.map((j) => moved.get(j)!),
    )(c);
  });
}

/** The rigid motion (Horn's quaternion fit) taking points `from` onto `to`, as a function. */
export function fitTransform(from: Vec[], to: Vec[]): (p: Vec) => Vec {
  const n = from.length;
  const ca: Vec = [0, 0, 0];
  const cb: Vec = [0, 0, 0];
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      ca[k]! += from[i]![k]! / n;
      cb[k]! += to[i]![k]! / n;
    }
  const S = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) S[a]![b]! += (from[i]![a]! - ca[a]!) * (to[i]![b]! - cb[b]!);
  const [[xx, xy, xz], [yx, yy, yz], [zx, zy, zz]] = S as [Vec, Vec, Vec];
  const N = [
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ];
  const [w, x, y, z] = n < 2 ? [1, 0, 0, 0] : topEigenvector(N);
  const R = [
    [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
  ];
  return (p) => {
    const d = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    return [0, 1, 2].map((r) => R[r]![0]! * d[0]! + R[r]![1]! * d[1]! + R[r]![2]! * d[2]! + cb[r]!) as Vec;
  };
}

/** The unit eigenvector of the largest eigenvalue of a symmetric 4x4 matrix (cyclic Jacobi). */
function topEigenvector(m: number[][]): [number, number, number, number] {
  const a = m.map((r) => [...r]);
  const v: number[][] = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += a[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < 4; p++)
      for (let q = p + 1; q < 4; q++) {
        if (Math.abs(a[p]![q]!) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 4; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i]![i]! > a[best]![best]!) best = i;
  const q = [0, 1, 2, 3].map((k) => v[k]![best]!);
  const norm = Math.hypot(...q) || 1;
  return q.map((x) => x / norm) as [number, number, number, number];
}
