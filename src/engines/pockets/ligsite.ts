// Pockets of a receptor with no ligand given (docs/structure.md, "Pockets"): a LIGSITE grid
// search (Hendlich, Rippmann & Barnickel 1997). A grid of GRID_SPACING over the protein's
// heavy atoms; a point within an atom's van der Waals radius plus PROBE_RADIUS is protein, every
// other point is space. Each space point is scanned along the 7 LIGSITE directions (the three
// axes and the four cube diagonals): a direction counts when protein lies on both sides of the
// point within MAX_SCAN (a protein-space-protein event). Points with at least MIN_BURIED of the
// 7 are buried; buried points that touch (6-connected) form a pocket; pockets of fewer than
// MIN_POINTS points are dropped; the rest are scored by points x mean buriedness, best first.
// Pure code: no files, no processes.
import { MAX_BOX_SIDE } from '../docking/box.js';
import type { ProteinAtoms } from './protein-atoms.js';

/** Grid spacing (A): LIGSITE's 1 A. */
export const GRID_SPACING = 1;
/** The grid holds at most this many points: a larger receptor (a ribosome) is refused, the limit named. */
export const MAX_GRID_POINTS = 16_000_000;
/** Added to each atom's van der Waals radius when marking protein points (A): a point closer than this to an atom's surface has no room for a ligand atom. */
export const PROBE_RADIUS = 0.5;
/** How far a direction is scanned for protein on each side of a point (A). */
export const MAX_SCAN = 10;
/** Directions (of 7) with protein on both sides for a point to be buried. */
export const MIN_BURIED = 6;
/** A pocket has at least this many grid points (about A^3 at 1 A): smaller clusters are crevices, not sites. */
export const MIN_POINTS = 30;
/** A residue lines a pocket when one of its heavy atoms is within this distance of one of its points (A). */
export const LINING_DISTANCE = 4;
/** The Vina box: the pocket points' extent plus this on every side (A; docking's padding, docs/engines.md). */
export const BOX_PADDING = 4;

/** Van der Waals radii (A, Bondi 1964) of the elements proteins and their kept groups hold; others 1.8. */
const VDW: Record<string, number> = { C: 1.7, N: 1.55, O: 1.52, S: 1.8, P: 1.8, SE: 1.9, F: 1.47, CL: 1.75, BR: 1.85, I: 1.98 };
const DEFAULT_VDW = 1.8;

/** The 7 LIGSITE directions in grid steps. */
const DIRECTIONS: readonly [number, number, number][] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 1],
  [1, 1, -1],
  [1, -1, 1],
  [-1, 1, 1],
];

export interface Pocket {
  rank: number;
  center: [number, number, number];
  size: [number, number, number];
  volume_a3: number;
  score: number;
  /** Mean buried directions of its points (of 7). */
  buriedness: number;
  residues: string[];
}

export interface PocketSearch {
  pockets: Pocket[];
  /** Pockets found before max_pockets was applied. */
  found: number;
  spacing: number;
  grid_points: number;
}

/** A receptor with no heavy atom to search (the job's input problem). */
export class PocketProblem extends Error {
  override name = 'PocketProblem';
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** Finds the pockets of the protein, best first, at most `maxPockets`. */
export function findPockets(atoms: ProteinAtoms, maxPockets: number): PocketSearch {
  const n = atoms.elements.length;
  if (n === 0) throw new PocketProblem('the receptor has no protein heavy atoms to search for pockets');
  const c = atoms.coords;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, c[3 * i + k]!);
      hi[k] = Math.max(hi[k]!, c[3 * i + k]!);
    }
  const span = [0, 1, 2].map((k) => hi[k]! - lo[k]! + 2);
  // A huge assembly (a ribosome, a virus capsid) is refused, with the limit named: a coarser grid
  // would find other pockets than LIGSITE's 1 A grid does (docs/structure.md, "Pockets").
  const points = span.reduce((t, v) => t * (Math.ceil(v / GRID_SPACING) + 1), 1);
  if (points > MAX_GRID_POINTS)
    throw new PocketProblem(
      `the receptor spans ${span.map((v) => Math.round(v)).join(' x ')} A: its ${GRID_SPACING} A grid would have ${points.toLocaleString('en-US')} points, and a pocket search takes at most ${MAX_GRID_POINTS.toLocaleString('en-US')} (about 250 A a side); search a part of it (the chains around the site)`,
    );
  const spacing = GRID_SPACING;
  const origin = lo.map((v) => v - 1);
  const [nx, ny, nz] = span.map((s) => Math.ceil(s / spacing) + 1) as [number, number, number];
  const total = nx * ny * nz;
  const at = (i: number, j: number, k: number) => (i * ny + j) * nz + k;

  // Protein points: within an atom's radius plus the probe.
  const protein = new Uint8Array(total);
  for (let a = 0; a < n; a++) {
    const r = (VDW[atoms.elements[a]!] ?? DEFAULT_VDW) + PROBE_RADIUS;
    const g = [0, 1, 2].map((k) => (c[3 * a + k]! - origin[k]!) / spacing);
    const reach = r / spacing;
    const from = g.map((v) => Math.max(0, Math.ceil(v - reach)));
    const to = g.map((v, k) => Math.min([nx, ny, nz][k]! - 1, Math.floor(v + reach)));
    for (let i = from[0]!; i <= to[0]!; i++)
      for (let j = from[1]!; j <= to[1]!; j++)
        for (let k = from[2]!; k <= to[2]!; k++) {
          const d2 = (i - g[0]!) ** 2 + (j - g[1]!) ** 2 + (k - g[2]!) ** 2;
          if (d2 <= reach * reach) protein[at(i, j, k)] = 1;
        }
  }

  // Buriedness: directions with protein on both sides within MAX_SCAN.
  const buried = new Uint8Array(total);
  const hits = (i: number, j: number, k: number, d: readonly number[], sign: number, steps: number) => {
    for (let s = 1; s <= steps; s++) {
      const x = i + sign * s * d[0]!;
      const y = j + sign * s * d[1]!;
      const z = k + sign * s * d[2]!;
      if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) return false;
      if (protein[at(x, y, z)]) return true;
    }
    return false;
  };
  const stepsOf = DIRECTIONS.map((d) => Math.floor(MAX_SCAN / (spacing * Math.hypot(...d))));
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) {
        const p = at(i, j, k);
        if (protein[p]) continue;
        let count = 0;
        for (let d = 0; d < DIRECTIONS.length; d++) if (hits(i, j, k, DIRECTIONS[d]!, 1, stepsOf[d]!) && hits(i, j, k, DIRECTIONS[d]!, -1, stepsOf[d]!)) count++;
        buried[p] = count;
      }

  // Clusters of buried points (6-connected), by flood fill.
  const seen = new Uint8Array(total);
  const clusters: number[][] = [];
  const stack: number[] = [];
  for (let p = 0; p < total; p++) {
    if (seen[p] || buried[p]! < MIN_BURIED) continue;
    const members: number[] = [];
    seen[p] = 1;
    stack.push(p);
    while (stack.length) {
      const q = stack.pop()!;
      members.push(q);
      const k = q % nz;
      const j = Math.floor(q / nz) % ny;
      const i = Math.floor(q / (nz * ny));
      for (const [di, dj, dk] of [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
      ] as const) {
        const x = i + di;
        const y = j + dj;
        const z = k + dk;
        if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
        const r = at(x, y, z);
        if (!seen[r] && buried[r]! >= MIN_BURIED) {
          seen[r] = 1;
          stack.push(r);
        }
      }
    }
    if (members.length >= MIN_POINTS) clusters.push(members);
  }

  const scored = clusters.map((members) => {
    const pts = new Float64Array(members.length * 3);
    let sum = 0;
    members.forEach((q, m) => {
      pts[3 * m] = origin[0]! + Math.floor(q / (nz * ny)) * spacing;
      pts[3 * m + 1] = origin[1]! + (Math.floor(q / nz) % ny) * spacing;
      pts[3 * m + 2] = origin[2]! + (q % nz) * spacing;
      sum += buried[q]!;
    });
    const mean = sum / members.length;
    return { pts, mean, score: members.length * mean };
  });
  scored.sort((a, b) => b.score - a.score);
  const pockets = scored.slice(0, maxPockets).map((s, idx) => describe(s.pts, s.mean, s.score, idx + 1, spacing, atoms));
  return { pockets, found: scored.length, spacing: r3(spacing), grid_points: total };
}

/** A pocket's centre (the mean of its points), box, volume and lining residues. */
function describe(pts: Float64Array, mean: number, score: number, rank: number, spacing: number, atoms: ProteinAtoms): Pocket {
  const m = pts.length / 3;
  const sum = [0, 0, 0];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let q = 0; q < m; q++)
    for (let k = 0; k < 3; k++) {
      const v = pts[3 * q + k]!;
      sum[k]! += v;
      lo[k] = Math.min(lo[k]!, v);
      hi[k] = Math.max(hi[k]!, v);
    }
  // Lining residues: a heavy atom within LINING_DISTANCE of a point (atoms pre-filtered by the pocket's extent).
  const lining = new Set<number>();
  const c = atoms.coords;
  const d2max = LINING_DISTANCE * LINING_DISTANCE;
  for (let a = 0; a < atoms.elements.length; a++) {
    const x = c[3 * a]!;
    const y = c[3 * a + 1]!;
    const z = c[3 * a + 2]!;
    if (x < lo[0]! - LINING_DISTANCE || x > hi[0]! + LINING_DISTANCE || y < lo[1]! - LINING_DISTANCE || y > hi[1]! + LINING_DISTANCE) continue;
    if (z < lo[2]! - LINING_DISTANCE || z > hi[2]! + LINING_DISTANCE || lining.has(atoms.residueOf[a]!)) continue;
    for (let q = 0; q < m; q++) {
      const d2 = (pts[3 * q]! - x) ** 2 + (pts[3 * q + 1]! - y) ** 2 + (pts[3 * q + 2]! - z) ** 2;
      if (d2 <= d2max) {
        lining.add(atoms.residueOf[a]!);
        break;
      }
    }
  }
  return {
    rank,
    center: sum.map((s) => r3(s / m)) as Pocket['center'],
    size: [0, 1, 2].map((k) => r3(Math.min(MAX_BOX_SIDE, hi[k]! - lo[k]! + 2 * BOX_PADDING))) as Pocket['size'],
    volume_a3: r3(m * spacing ** 3),
    score: Math.round(score * 10) / 10,
    buriedness: Math.round(mean * 100) / 100,
    residues: [...lining].sort((a, b) => a - b).map((r) => atoms.residues[r]!),
  };
}
