// The conformer ensemble's pure parts (src/engines/qm/ensemble.ts): Kabsch RMSD,
// heavy-atom graph symmetries, Boltzmann weights, pruning. No engine needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  automorphisms,
  boltzmannWeights,
  bondsKept,
  conformerRmsd,
  heavyGraph,
  kabschRmsd,
  pruneEnsemble,
  pruneEnsembleAsync,
  R_KCAL,
  rmsdContext,
  spread,
  type Vec3,
} from '../../src/engines/qm/ensemble.js';

/** A V2000 molblock of `atoms` [symbol, x, y, z] and `bonds` [a, b] (0-based). */
function molblock(atoms: [string, number, number, number][], bonds: [number, number][]): string {
  const a = atoms.map(([s, x, y, z]) => `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${z.toFixed(4).padStart(10)} ${s.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  const b = bonds.map(([i, j]) => `${String(i + 1).padStart(3)}${String(j + 1).padStart(3)}  1  0  0  0  0`);
  return ['', '  test', '', `${String(atoms.length).padStart(3)}${String(bonds.length).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`, ...a, ...b, 'M  END', ''].join('\n');
}

/** Rotation about an axis (unit vector) by `deg`, then a shift. */
function moved(points: readonly Vec3[], axis: Vec3, deg: number, shift: Vec3): Vec3[] {
  const t = (deg * Math.PI) / 180;
  const [ux, uy, uz] = axis;
  const c = Math.cos(t);
  const s = Math.sin(t);
  const r = [
    [c + ux * ux * (1 - c), ux * uy * (1 - c) - uz * s, ux * uz * (1 - c) + uy * s],
    [uy * ux * (1 - c) + uz * s, c + uy * uy * (1 - c), uy * uz * (1 - c) - ux * s],
    [uz * ux * (1 - c) - uy * s, uz * uy * (1 - c) + ux * s, c + uz * uz * (1 - c)],
  ];
  return points.map((p) => [0, 1, 2].map((k) => r[k]![0]! * p[0] + r[k]![1]! * p[1] + r[k]![2]! * p[2] + shift[k]!) as unknown as Vec3);
}

const TETRA: Vec3[] = [
  [0, 0, 0],
  [1.5, 0, 0],
  [0, 1.2, 0],
  [0.3, 0.4, 1.1],
];

describe('Kabsch RMSD', () => {
  it('is 0 for a rotated and shifted copy, whatever the rotation', () => {
    for (const [axis, deg] of [
      [[0, 0, 1], 90],
      [[0.6, 0.8, 0], 137],
      [[1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)], 179.9],
      [[1, 0, 0], 180],
    ] as [Vec3, number][])
      assert.ok(kabschRmsd(TETRA, moved(TETRA, axis, deg, [3, -2, 7])) < 1e-7, `${deg}°`);
  });

  it('measures a known deformation: a square against one twice its size is 1 Å apart', () => {
    const square: Vec3[] = [
      [1, 0, 0],
      [0, 1, 0],
      [-1, 0, 0],
      [0, -1, 0],
    ];
    const big = square.map((p) => [2 * p[0], 2 * p[1], 2 * p[2]] as Vec3);
    assert.ok(Math.abs(kabschRmsd(square, moved(big, [0, 0, 1], 33, [1, 1, 1])) - 1) < 1e-9);
  });

  it('is no larger than the RMSD under any other rotation (the optimum)', () => {
    const b = TETRA.map((p, i) => [p[0] + 0.1 * i, p[1] - 0.05 * i, p[2] + 0.07 * (i % 2)] as Vec3);
    const best = kabschRmsd(TETRA, b);
    const plain = (x: readonly Vec3[], y: readonly Vec3[]) => {
      const cx = [0, 1, 2].map((k) => x.reduce((s, p) => s + p[k]!, 0) / x.length);
      const cy = [0, 1, 2].map((k) => y.reduce((s, p) => s + p[k]!, 0) / y.length);
      return Math.sqrt(x.reduce((s, p, i) => s + [0, 1, 2].reduce((t, k) => t + (p[k]! - cx[k]! - (y[i]![k]! - cy[k]!)) ** 2, 0), 0) / x.length);
    };
    for (let deg = 0; deg < 360; deg += 7)
      for (const axis of [
        [0, 0, 1],
        [0, 1, 0],
        [0.6, 0, 0.8],
      ] as Vec3[])
        assert.ok(best <= plain(TETRA, moved(b, axis, deg, [0, 0, 0])) + 1e-12);
    assert.ok(best > 0.01);
  });

  it('keeps mirror images apart (proper rotations only)', () => {
    const mirror = TETRA.map((p) => [p[0], p[1], -p[2]] as Vec3);
    assert.ok(kabschRmsd(TETRA, mirror) > 0.2);
  });
});

describe('heavy-atom symmetries', () => {
  it('counts the automorphisms of small graphs (hydrogens and bond orders left out)', () => {
    // butane C-C-C-C (2), isobutane (6), cyclohexane ring (12), ethanol C-C-O (1)
    const chain = (n: number) => Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as [number, number]);
    const c = (n: number) => Array.from({ length: n }, (_, i) => ['C', i, 0, 0] as [string, number, number, number]);
    assert.equal(automorphisms(heavyGraph(molblock(c(4), chain(4)))).length, 2);
    assert.equal(
      automorphisms(
        heavyGraph(
          molblock(c(4), [
            [0, 1],
            [0, 2],
            [0, 3],
          ]),
        ),
      ).length,
      6,
    );
    assert.equal(automorphisms(heavyGraph(molblock(c(6), [...chain(6), [5, 0]]))).length, 12);
    assert.equal(automorphisms(heavyGraph(molblock([...c(2), ['O', 2, 0, 0]], chain(3)))).length, 1);
  });

  it('tells an OH from a carbonyl O by its hydrogen, and puts the identity first', () => {
    // acetic acid C(0) C(1) O(2)= O(3)H: no symmetry; its carboxylate's two O are alike
    const acid = molblock(
      [
        ['C', 0, 0, 0],
        ['C', 1.5, 0, 0],
        ['O', 2.2, 1, 0],
        ['O', 2.2, -1, 0],
        ['H', 3, -1, 0],
      ],
      [
        [0, 1],
        [1, 2],
        [1, 3],
        [3, 4],
      ],
    );
    assert.deepEqual(automorphisms(heavyGraph(acid)), [[0, 1, 2, 3]]);
    const acetate = molblock(
      [
        ['C', 0, 0, 0],
        ['C', 1.5, 0, 0],
        ['O', 2.2, 1, 0],
        ['O', 2.2, -1, 0],
      ],
      [
        [0, 1],
        [1, 2],
        [1, 3],
      ],
    );
    assert.deepEqual(automorphisms(heavyGraph(acetate)), [
      [0, 1, 2, 3],
      [0, 1, 3, 2],
    ]);
  });

  it('matches symmetry-equivalent atoms: isobutane with two methyls swapped is the same conformer', () => {
    const atoms: [string, number, number, number][] = [
      ['C', 0, 0, 0],
      ['C', 1.5, 0, 0],
      ['C', -0.5, 1.4, 0],
      ['C', -0.5, -0.7, 1.2],
    ];
    const mb = molblock(atoms, [
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    const a = atoms.map(([, x, y, z]) => [x, y, z] as Vec3);
    const swapped = [a[0]!, a[2]!, a[1]!, a[3]!];
    assert.ok(kabschRmsd(a, swapped) > 0.3, 'without the symmetry the swap looks different');
    assert.ok(conformerRmsd(rmsdContext(mb), a, swapped) < 1e-7);
  });

  it('stops at the cap', () => {
    const star = molblock(
      Array.from({ length: 7 }, (_, i) => ['C', i, 0, 0] as [string, number, number, number]),
      Array.from({ length: 6 }, (_, i) => [0, i + 1] as [number, number]),
    );
    assert.equal(automorphisms(heavyGraph(star)).length, 256); // 6! = 720 maps, 256 kept
    assert.equal(automorphisms(heavyGraph(star), 10).length, 10);
  });
});

describe('Boltzmann weights and pruning', () => {
  it('weighs by exp(-ΔE/RT) and sums to 1', () => {
    const h = 1 / 627.5094740631; // 1 kcal/mol in Hartree
    const w = boltzmannWeights([-10, -10 + h, -10], 298.15);
    assert.ok(Math.abs(w.reduce((s, x) => s + x, 0) - 1) < 1e-12);
    assert.ok(Math.abs(w[1]! / w[0]! - Math.exp(-1 / (R_KCAL * 298.15))) < 1e-12);
    assert.equal(w[0], w[2]);
    assert.ok(Math.abs(w[1]! / w[0]! - 0.1849) < 1e-4);
    // Hot: flatter; many conformers: still 1.
    const hot = boltzmannWeights([-10, -10 + h], 3000);
    assert.ok(hot[1]! / hot[0]! > 0.8);
    const many = boltzmannWeights(
      Array.from({ length: 500 }, (_, i) => -50 + i * 1e-5),
      298.15,
    );
    assert.ok(Math.abs(many.reduce((s, x) => s + x, 0) - 1) < 1e-9);
  });

  it('keeps the lowest, drops what lies above the window and what is within the threshold of a lower one, at most max', () => {
    const h = 1 / 627.5094740631;
    // A chain (its one symmetry, the reversal, cannot turn a conformer into its mirror image).
    const mb = molblock(
      TETRA.map((p) => ['C', ...p] as [string, number, number, number]),
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    );
    const ctx = rmsdContext(mb);
    const far = TETRA.map((p) => [p[0], p[1], -p[2]] as Vec3);
    const near = TETRA.map((p, i) => [p[0] + (i === 3 ? 0.1 : 0), p[1], p[2]] as Vec3);
    const cands = [
      { name: 'high', energyHartree: 7 * h, coords: far },
      { name: 'dup', energyHartree: 0.5 * h, coords: moved(near, [0, 0, 1], 40, [1, 2, 3]) },
      { name: 'low', energyHartree: 0, coords: TETRA },
      { name: 'mirror', energyHartree: 2 * h, coords: far },
    ];
    assert.equal(conformerRmsd(ctx, TETRA, far) > 0.5, true);
    assert.deepEqual(
      pruneEnsemble(ctx, cands, { windowKcal: 6, rmsdThreshold: 0.5, max: 10 }).map((c) => c.name),
      ['low', 'mirror'],
    );
    assert.deepEqual(
      pruneEnsemble(ctx, cands, { windowKcal: 6, rmsdThreshold: 0.01, max: 10 }).map((c) => c.name),
      ['low', 'dup', 'mirror'],
    );
    assert.deepEqual(
      pruneEnsemble(ctx, cands, { windowKcal: 6, rmsdThreshold: 0.01, max: 1 }).map((c) => c.name),
      ['low'],
    );
  });

  it('prunes the same asynchronously, and every candidate dropped lies within the threshold of a lower one kept', async () => {
    const mb = molblock(
      TETRA.map((p) => ['C', ...p] as [string, number, number, number]),
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    );
    const ctx = rmsdContext(mb);
    // 400 chains turned about their middle bond by 0.9° steps, energies rising: a 0.5 Å threshold keeps a handful.
    const cands = Array.from({ length: 400 }, (_, i) => ({
      energyHartree: i * 1e-6,
      coords: [TETRA[0]!, TETRA[1]!, ...moved([TETRA[2]!, TETRA[3]!], [0, 0, 1], i * 0.9, [0, 0, 0])] as Vec3[],
    }));
    const kept = await pruneEnsembleAsync(ctx, cands, { windowKcal: 100, rmsdThreshold: 0.5, max: 500 });
    assert.deepEqual(kept, pruneEnsemble(ctx, cands, { windowKcal: 100, rmsdThreshold: 0.5, max: 500 }));
    assert.ok(kept.length > 2 && kept.length < 50, `${kept.length} kept`);
    for (let i = 0; i < kept.length; i++) for (let j = 0; j < i; j++) assert.ok(conformerRmsd(ctx, kept[i]!.coords, kept[j]!.coords) > 0.5);
    // Every candidate dropped is within 0.5 Å of one kept below it.
    for (const c of cands) if (!kept.includes(c)) assert.ok(kept.some((k) => k.energyHartree <= c.energyHartree && conformerRmsd(ctx, k.coords, c.coords) <= 0.5));
  });

  it('notices a broken bond, and spreads a selection evenly', () => {
    const a: Vec3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
    ];
    assert.equal(
      bondsKept(
        [
          [0, 1],
          [1, 2],
        ],
        a,
        a,
      ),
      true,
    );
    assert.equal(bondsKept([[1, 2]], a, [a[0]!, a[1]!, [2.6, 0, 0]]), false);
    assert.deepEqual(spread([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5), [0, 2, 4, 6, 8]);
    assert.deepEqual(spread([1, 2], 5), [1, 2]);
  });
});
