// Geometry of prepared structures for the frequency and scan job types (docs/engines.md,
// "Frequencies and scans"): the bonds of a V2000 molblock, dihedral angles, turning a torsion
// to a target value, and whether a structure is linear (5 rotations and translations, not 6)
// or centrosymmetric (the rotational symmetry number of a linear molecule).

import { readMolblock } from '../molblock.js';

export type Vec3 = readonly [number, number, number];

/** The bonds [a, b] (0-based) of a V2000 molblock's bond block. */
export function molblockBonds(molblock: string): [number, number][] {
  return readMolblock(molblock).bonds.filter(([a, b]) => Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0);
}

/**
 * Why four atom indices are not a dihedral of a structure with `atoms` atoms and `bonds`
 * (null when they are): each index must exist, and i-j, j-k, k-l must be bonds.
 */
export function dihedralProblem(d: readonly number[], atoms: number, bonds: readonly (readonly [number, number])[]): string | null {
  if (new Set(d).size !== 4) return `the dihedral needs 4 different atoms, got ${d.join(', ')}`;
  const missing = d.find((i) => i >= atoms);
  if (missing !== undefined) return `atom ${missing} does not exist: the structure has ${atoms} atoms with hydrogens (indices 0 to ${atoms - 1})`;
  const bonded = new Set(bonds.map(([a, b]) => (a < b ? `${a}-${b}` : `${b}-${a}`)));
  for (let k = 0; k < 3; k++) {
    const a = d[k]!;
    const b = d[k + 1]!;
    if (!bonded.has(a < b ? `${a}-${b}` : `${b}-${a}`))
      return `atoms ${a} and ${b} are not bonded: a dihedral i, j, k, l needs the bonds i-j, j-k and k-l (indices 0-based, input atom order, hydrogens after the heavy atoms)`;
  }
  return null;
}

const sub = (a: Vec3, b: Vec3): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3) => Math.sqrt(dot(a, a));
const scale = (a: Vec3, f: number): [number, number, number] => [a[0] * f, a[1] * f, a[2] * f];

/** The dihedral angle i-j-k-l in degrees, (-180, 180] (IUPAC sign). */
export function dihedralDeg(coords: readonly Vec3[], [i, j, k, l]: readonly number[]): number {
  const p0 = coords[i!]!;
  const p1 = coords[j!]!;
  const p2 = coords[k!]!;
  const p3 = coords[l!]!;
  const b0 = sub(p0, p1);
  const b1 = sub(p2, p1);
  const b2 = sub(p3, p2);
  const len = norm(b1) || 1;
  const u = scale(b1, 1 / len);
  const v = sub(b0, scale(u, dot(b0, u)));
  const w = sub(b2, scale(u, dot(b2, u)));
  const deg = (Math.atan2(dot(cross(u, v), w), dot(v, w)) * 180) / Math.PI;
  return deg <= -180 ? deg + 360 : deg;
}

/** An angle in degrees brought to (-180, 180]. */
export function wrapDeg(a: number): number {
  const r = ((((a + 180) % 360) + 360) % 360) - 180;
  return r === -180 ? 180 : r;
}

/**
 * The coordinates with the torsion j-k turned so that i-j-k-l is `target` degrees: the atoms on
 * l's side of the j-k bond rotate about it. A j-k bond in a ring cannot turn that way: the
 * coordinates come back unchanged (the restraint of the optimisation then does the turning).
 */
export function turnDihedral(coords: readonly Vec3[], bonds: readonly (readonly [number, number])[], d: readonly number[], target: number): [number, number, number][] {
  const [, j, k] = d as [number, number, number, number];
  const nb = new Map<number, number[]>();
  for (const [a, b] of bonds) {
    nb.set(a, [...(nb.get(a) ?? []), b]);
    nb.set(b, [...(nb.get(b) ?? []), a]);
  }
  const side = new Set<number>([k]);
  const todo = [k];
  while (todo.length) {
    const a = todo.pop()!;
    for (const b of nb.get(a) ?? []) {
      if (a === k && b === j) continue;
      if (b === j) return coords.map((p) => [p[0], p[1], p[2]]);
      if (!side.has(b)) {
        side.add(b);
        todo.push(b);
      }
    }
  }
  const delta = (wrapDeg(target - dihedralDeg(coords, d)) * Math.PI) / 180;
  const origin = coords[k]!;
  const axis = sub(coords[k]!, coords[j]!);
  const len = norm(axis) || 1;
  const [ux, uy, uz] = [axis[0] / len, axis[1] / len, axis[2] / len];
  const c = Math.cos(delta);
  const s = Math.sin(delta);
  return coords.map((p, idx) => {
    if (!side.has(idx) || idx === k) return [p[0], p[1], p[2]];
    // Rodrigues' rotation about the axis through k.
    const [x, y, z] = sub(p, origin);
    const dt = ux * x + uy * y + uz * z;
    const [cx, cy, cz] = [uy * z - uz * y, uz * x - ux * z, ux * y - uy * x];
    return [origin[0] + x * c + cx * s + ux * dt * (1 - c), origin[1] + y * c + cy * s + uy * dt * (1 - c), origin[2] + z * c + cz * s + uz * dt * (1 - c)];
  });
}

/** Whether the atoms lie on one line (within `tol` Å): a molecule of 2 atoms always does. */
export function isLinear(coords: readonly Vec3[], tol = 0.01): boolean {
  if (coords.length < 2) return false;
  if (coords.length === 2) return true;
  let far = 1;
  for (let i = 1; i < coords.length; i++) if (norm(sub(coords[i]!, coords[0]!)) > norm(sub(coords[far]!, coords[0]!))) far = i;
  const axis = sub(coords[far]!, coords[0]!);
  const len = norm(axis);
  if (len < 1e-6) return false;
  return coords.every((p) => norm(cross(sub(p, coords[0]!), axis)) / len < tol);
}

/** Whether every atom has a twin of its element through the centre (D∞h for a linear molecule). */
export function isCentrosymmetric(symbols: readonly string[], coords: readonly Vec3[], tol = 0.02): boolean {
  const n = coords.length;
  const c = coords.reduce<[number, number, number]>((s, p) => [s[0] + p[0] / n, s[1] + p[1] / n, s[2] + p[2] / n], [0, 0, 0]);
  return coords.every((p, i) => {
    const mirror: Vec3 = [2 * c[0] - p[0], 2 * c[1] - p[1], 2 * c[2] - p[2]];
    return coords.some((q, k) => symbols[k] === symbols[i] && norm(sub(q, mirror)) < tol);
  });
}
