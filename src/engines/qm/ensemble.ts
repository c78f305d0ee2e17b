// Conformer ensembles (docs/engines.md, "Conformers"): pure functions, no engine. The RMSD of
// two conformers is the heavy-atom RMSD after optimal superposition (Kabsch, by Horn's
// quaternion method: proper rotations only, so mirror images stay apart), minimised over the
// heavy-atom graph's symmetries (a phenyl ring's flip or an isopropyl's two methyls give the
// same conformer under another atom numbering). Pruning keeps the lowest conformer, drops those
// above the energy window and those within the RMSD threshold of a lower one, and keeps at most
// the given count; Boltzmann weights at a temperature sum to 1.

import { readMolblock } from '../molblock.js';

export type Vec3 = readonly [number, number, number];

/** kcal/mol per Hartree (CODATA 2018, as the engine code uses). */
export const KCAL_PER_HARTREE = 627.5094740631;
/** Boltzmann constant in kcal/(mol K) (CODATA 2018: R = 8.314462618 J/(mol K)). */
export const R_KCAL = 8.314462618 / 4184;

/**
 * The largest eigenvalue of Horn's 4 x 4 key matrix built from the correlation matrix
 * s = [xx, xy, xz, yx, yy, yz, zx, zy, zz] (Σ a_i b_i^T of centred points): the largest root of
 * its characteristic polynomial λ⁴ + c2 λ² + c1 λ + c0 (traceless, so no cubic term), by
 * Newton's method from (Ga + Gb) / 2, an upper bound, as in Theobald's QCP.
 */
function keyEigenvalue(s: ArrayLike<number>, e0: number): number {
  const xx = s[0]!;
  const xy = s[1]!;
  const xz = s[2]!;
  const yx = s[3]!;
  const yy = s[4]!;
  const yz = s[5]!;
  const zx = s[6]!;
  const zy = s[7]!;
  const zz = s[8]!;
  const c2 = -2 * (xx * xx + xy * xy + xz * xz + yx * yx + yy * yy + yz * yz + zx * zx + zy * zy + zz * zz);
  const c1 = -8 * (xx * (yy * zz - yz * zy) - xy * (yx * zz - yz * zx) + xz * (yx * zy - yy * zx));
  // det of the key matrix (rows a, b, c, d) through its 2 x 2 minors.
  const a0 = xx + yy + zz;
  const a1 = yz - zy;
  const a2 = zx - xz;
  const a3 = xy - yx;
  const b1 = xx - yy - zz;
  const b2 = xy + yx;
  const b3 = zx + xz;
  const c2k = -xx + yy - zz;
  const c3k = yz + zy;
  const d3 = -xx - yy + zz;
  const [b0, c0k, c1k, d0, d1, d2] = [a1, a2, b2, a3, b3, c3k];
  const s0 = a0 * b1 - a1 * b0;
  const s1 = a0 * b2 - a2 * b0;
  const s2 = a0 * b3 - a3 * b0;
  const s3 = a1 * b2 - a2 * b1;
  const s4 = a1 * b3 - a3 * b1;
  const s5 = a2 * b3 - a3 * b2;
  const t5 = c2k * d3 - c3k * d2;
  const t4 = c1k * d3 - c3k * d1;
  const t3 = c1k * d2 - c2k * d1;
  const t2 = c0k * d3 - c3k * d0;
  const t1 = c0k * d2 - c2k * d0;
  const t0 = c0k * d1 - c1k * d0;
  const c0 = s0 * t5 - s1 * t4 + s2 * t3 + s3 * t2 - s4 * t1 + s5 * t0;
  let l = e0;
  for (let i = 0; i < 100; i++) {
    const l2 = l * l;
    const p = l2 * l2 + c2 * l2 + c1 * l + c0;
    const dp = 4 * l2 * l + 2 * c2 * l + c1;
    if (dp === 0) break;
    const next = l - p / dp;
    if (Math.abs(next - l) <= 1e-14 * Math.abs(next)) return next;
    l = next;
  }
  return l;
}

/** n points as centred coordinates (x0, y0, z0, x1, ...) and their sum of squares. */
export interface Shape {
  xyz: Float64Array;
  norm2: number;
}

export function shapeOf(points: readonly Vec3[]): Shape {
  const n = points.length;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (const p of points) {
    cx += p[0] / n;
    cy += p[1] / n;
    cz += p[2] / n;
  }
  const xyz = new Float64Array(3 * n);
  let norm2 = 0;
  points.forEach((p, i) => {
    xyz[3 * i] = p[0] - cx;
    xyz[3 * i + 1] = p[1] - cy;
    xyz[3 * i + 2] = p[2] - cz;
    norm2 += (p[0] - cx) ** 2 + (p[1] - cy) ** 2 + (p[2] - cz) ** 2;
  });
  return { xyz, norm2 };
}

const corr = new Float64Array(9);

/** RMSD of two shapes after optimal superposition, point i of `a` against point perm[i] of `b` (identity when absent). */
export function shapeRmsd(a: Shape, b: Shape, perm?: readonly number[]): number {
  const n = a.xyz.length / 3;
  if (n === 0) return 0;
  corr.fill(0);
  for (let i = 0; i < n; i++) {
    const j = perm ? perm[i]! : i;
    const x0 = a.xyz[3 * i]!;
    const x1 = a.xyz[3 * i + 1]!;
    const x2 = a.xyz[3 * i + 2]!;
    const y0 = b.xyz[3 * j]!;
    const y1 = b.xyz[3 * j + 1]!;
    const y2 = b.xyz[3 * j + 2]!;
    corr[0]! += x0 * y0;
    corr[1]! += x0 * y1;
    corr[2]! += x0 * y2;
    corr[3]! += x1 * y0;
    corr[4]! += x1 * y1;
    corr[5]! += x1 * y2;
    corr[6]! += x2 * y0;
    corr[7]! += x2 * y1;
    corr[8]! += x2 * y2;
  }
  const e0 = (a.norm2 + b.norm2) / 2;
  return Math.sqrt(Math.max(0, (2 * (e0 - keyEigenvalue(corr, e0))) / n));
}

/**
 * RMSD of two point sets in correspondence (same length) after the optimal proper rotation and
 * translation: Horn's quaternion form of the Kabsch superposition, RMSD² = (Ga + Gb - 2 λmax) / N.
 */
export function kabschRmsd(a: readonly Vec3[], b: readonly Vec3[]): number {
  if (a.length !== b.length) throw new Error(`kabschRmsd: ${a.length} and ${b.length} points`);
  return shapeRmsd(shapeOf(a), shapeOf(b));
}

/** The heavy atoms of a molblock's graph: their indices, and for each its heavy neighbours and hydrogen count. */
export interface HeavyGraph {
  /** Atom indices (molblock order) of the heavy atoms. */
  atoms: number[];
  /** Per heavy atom (position in `atoms`): element symbol. */
  symbols: string[];
  /** Per heavy atom: positions (in `atoms`) of its heavy neighbours. */
  neighbours: number[][];
  /** Per heavy atom: hydrogens bonded to it. */
  hydrogens: number[];
}

/** The heavy-atom graph of a V2000 molblock (bond orders and charges left out: Kekulé forms and resonance do not tell atoms apart). */
export function heavyGraph(molblock: string): HeavyGraph {
  const lines = molblock.split(/\r?\n/);
  const n = Number((lines[3] ?? '').slice(0, 3));
  const m = Number((lines[3] ?? '').slice(3, 6));
  const symbol = Array.from({ length: n }, (_, i) => (lines[4 + i] ?? '').slice(31, 34).trim());
  const isHeavy = (i: number) => symbol[i] !== 'H' && symbol[i] !== 'D' && symbol[i] !== 'T';
  const atoms = symbol.map((_, i) => i).filter(isHeavy);
  const pos = new Map(atoms.map((a, k) => [a, k]));
  const neighbours: number[][] = atoms.map(() => []);
  const hydrogens = atoms.map(() => 0);
  for (let i = 0; i < m; i++) {
    const l = lines[4 + n + i] ?? '';
    const a = Number(l.slice(0, 3)) - 1;
    const b = Number(l.slice(3, 6)) - 1;
    const pa = pos.get(a);
    const pb = pos.get(b);
    if (pa !== undefined && pb !== undefined) {
      neighbours[pa]!.push(pb);
      neighbours[pb]!.push(pa);
    } else if (pa !== undefined) hydrogens[pa]!++;
    else if (pb !== undefined) hydrogens[pb]!++;
  }
  return { atoms, symbols: atoms.map((a) => symbol[a]!), neighbours, hydrogens };
}

/**
 * The graph's automorphisms (permutations p of heavy-atom positions with p[i] the image of i),
 * the identity first, at most `cap`: atoms of the same element and hydrogen count, with
 * neighbourhoods refined as in Morgan's algorithm, matched by backtracking in breadth-first order.
 */
export function automorphisms(g: HeavyGraph, cap = 256): number[][] {
  const n = g.atoms.length;
  if (n === 0) return [[]];
  // Refined atom classes: element and hydrogens, then the multiset of neighbour classes, until stable.
  let cls = g.symbols.map((s, i) => `${s}:${g.hydrogens[i]}:${g.neighbours[i]!.length}`);
  for (let round = 0; round < n; round++) {
    const next = cls.map(
      (c, i) =>
        `${c}|${g.neighbours[i]!.map((j) => cls[j])
          .sort()
          .join(',')}`,
    );
    const ids = new Map<string, number>();
    const renamed = next.map((c) => String(ids.has(c) ? ids.get(c) : (ids.set(c, ids.size), ids.size - 1)));
    const before = new Set(cls).size;
    cls = renamed;
    if (ids.size === before) break;
  }
  // Breadth-first order, so that each atom after the first of its fragment has a mapped neighbour.
  const order: number[] = [];
  const seen = new Array<boolean>(n).fill(false);
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    seen[s] = true;
    const queue = [s];
    while (queue.length) {
      const v = queue.shift()!;
      order.push(v);
      for (const w of g.neighbours[v]!)
        if (!seen[w]) {
          seen[w] = true;
          queue.push(w);
        }
    }
  }
  const adj = g.neighbours.map((ns) => new Set(ns));
  const map = new Array<number>(n).fill(-1);
  const used = new Array<boolean>(n).fill(false);
  const found: number[][] = [];
  const extend = (k: number): void => {
    if (found.length >= cap) return;
    if (k === n) {
      found.push(map.slice());
      return;
    }
    const v = order[k]!;
    // The identity first: try v itself before the others.
    const targets = [v, ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== v)];
    for (const t of targets) {
      if (used[t] || cls[t] !== cls[v]) continue;
      let ok = true;
      for (const w of g.neighbours[v]!) if (map[w]! >= 0 && !adj[t]!.has(map[w]!)) ok = false;
      if (!ok) continue;
      map[v] = t;
      used[t] = true;
      extend(k + 1);
      map[v] = -1;
      used[t] = false;
      if (found.length >= cap) return;
    }
  };
  extend(0);
  return found;
}

/** What the RMSD of two conformers of one structure needs: heavy-atom indices and the symmetries among them. */
export interface RmsdContext {
  heavy: number[];
  perms: number[][];
}

export function rmsdContext(molblock: string, cap = 256): RmsdContext {
  const g = heavyGraph(molblock);
  return { heavy: g.atoms, perms: automorphisms(g, cap) };
}

/** The heavy-atom shape of a conformer (its full coordinate list). */
export function heavyShape(ctx: RmsdContext, coords: readonly Vec3[]): Shape {
  return shapeOf(ctx.heavy.map((i) => coords[i]!));
}

/**
 * Whether two heavy-atom shapes are within `threshold` Å under some symmetry: a cheap lower
 * bound first (|‖a‖ - ‖b‖| / √n: no rotation or renumbering changes a shape's size), then the
 * symmetries until one is close enough.
 */
export function shapesWithin(ctx: RmsdContext, a: Shape, b: Shape, threshold: number): boolean {
  const n = ctx.heavy.length;
  if (n === 0) return true;
  if (Math.abs(Math.sqrt(a.norm2) - Math.sqrt(b.norm2)) / Math.sqrt(n) > threshold) return false;
  return ctx.perms.some((p) => shapeRmsd(a, b, p) <= threshold);
}

/** Heavy-atom RMSD (Å) of two conformers (full coordinate lists, same atom order), the smallest over the symmetries. */
export function conformerRmsd(ctx: RmsdContext, a: readonly Vec3[], b: readonly Vec3[]): number {
  const sa = heavyShape(ctx, a);
  const sb = heavyShape(ctx, b);
  let best = Infinity;
  for (const p of ctx.perms) {
    best = Math.min(best, shapeRmsd(sa, sb, p));
    if (best < 1e-6) break;
  }
  return best;
}

/** Boltzmann weights of energies (Hartree) at `temperatureK`, normalised to sum 1. */
export function boltzmannWeights(energiesHartree: readonly number[], temperatureK: number): number[] {
  if (!energiesHartree.length) return [];
  const min = Math.min(...energiesHartree);
  const raw = energiesHartree.map((e) => Math.exp(-((e - min) * KCAL_PER_HARTREE) / (R_KCAL * temperatureK)));
  const sum = raw.reduce((s, x) => s + x, 0);
  return raw.map((x) => x / sum);
}

export interface Candidate {
  energyHartree: number;
  coords: Vec3[];
}

interface PruneOptions {
  windowKcal: number;
  rmsdThreshold: number;
  max: number;
}

/** The pruning, pausing (yield) every few thousand comparisons so that an async caller can let its event loop turn. */
function* pruneSteps<C extends Candidate>(ctx: RmsdContext, candidates: readonly C[], o: PruneOptions): Generator<void, C[]> {
  const sorted = [...candidates].sort((x, y) => x.energyHartree - y.energyHartree);
  const kept: { c: C; shape: Shape }[] = [];
  const lowest = sorted[0]?.energyHartree ?? 0;
  let work = 0;
  for (const c of sorted) {
    if (kept.length >= o.max) break;
    if ((c.energyHartree - lowest) * KCAL_PER_HARTREE > o.windowKcal) break;
    const shape = heavyShape(ctx, c.coords);
    let duplicate = false;
    for (const k of kept) {
      if ((work += ctx.perms.length) >= 5_000) {
        work = 0;
        yield;
      }
      if (shapesWithin(ctx, k.shape, shape, o.rmsdThreshold)) {
        duplicate = true;
        break;
      }
    }
    if (!duplicate) kept.push({ c, shape });
  }
  return kept.map((k) => k.c);
}

/**
 * The ensemble kept from `candidates`: sorted by energy, those within `windowKcal` of the
 * lowest, each more than `rmsdThreshold` Å (heavy-atom RMSD) from every lower one kept, at most `max`.
 */
export function pruneEnsemble<C extends Candidate>(ctx: RmsdContext, candidates: readonly C[], o: PruneOptions): C[] {
  const steps = pruneSteps(ctx, candidates, o);
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/** pruneEnsemble, letting the event loop turn between batches of comparisons (a worker's heartbeats go on). */
export async function pruneEnsembleAsync<C extends Candidate>(ctx: RmsdContext, candidates: readonly C[], o: PruneOptions): Promise<C[]> {
  const steps = pruneSteps(ctx, candidates, o);
  let r = steps.next();
  while (!r.done) {
    await new Promise((resolve) => setImmediate(resolve));
    r = steps.next();
  }
  return r.value;
}

/** The bonds [a, b] (0-based atom indices) of a V2000 molblock. */
export function bondsOf(molblock: string): [number, number][] {
  return readMolblock(molblock).bonds;
}

/** Whether every bond of the molblock is still a bond in `coords`: none stretched past 1.4 times its length in `reference` (a proton that moved, a ring that opened). */
export function bondsKept(bonds: readonly (readonly [number, number])[], reference: readonly Vec3[], coords: readonly Vec3[]): boolean {
  const d = (c: readonly Vec3[], i: number, j: number) => Math.hypot(c[i]![0] - c[j]![0], c[i]![1] - c[j]![1], c[i]![2] - c[j]![2]);
  return bonds.every(([i, j]) => d(coords, i, j) <= 1.4 * d(reference, i, j));
}

/** Up to `k` items of `list` spread evenly over it (first kept). */
export function spread<T>(list: readonly T[], k: number): T[] {
  if (k >= list.length) return [...list];
  if (k <= 0) return [];
  return Array.from({ length: k }, (_, i) => list[Math.floor((i * list.length) / k)]!);
}
