// The order of a ligand's docked poses (docs/structure.md, "Docking's poses"): by Vina's score, by
// the checks passed (fewest failed first) or by strain (lowest first, unknown last), ties by score
// then Vina's own order; and the interactions records numbered in that order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagramRecords, orderPoses, type CheckedPose } from '../../src/compute/types/kit/docking-poses.js';

const pose = (name: string, score: number, failed: string[] | null, strain: number | null): CheckedPose => ({
  molblock: name,
  score_kcal_mol: score,
  rmsd_lb: 0,
  rmsd_ub: 0,
  ...(failed ? { checks: { passed: failed.length === 0, failed: failed as never, details: {} } } : {}),
  strain_kcal_mol: strain,
});

describe('docked poses', () => {
  const a = pose('a', -9.1, ['protein_clash', 'internal_clash'], 12.5);
  const b = pose('b', -8.7, [], 3.2);
  const c = pose('c', -8.7, ['bond_lengths'], null);
  const d = pose('d', -7.9, [], 1.1);
  const vina = [a, b, c, d];
  const names = (ps: CheckedPose[]) => ps.map((p) => p.molblock).join('');

  it('by score: best first, ties in Vina order', () => {
    assert.equal(names(orderPoses([d, c, b, a], 'score')), 'acbd');
    assert.equal(names(orderPoses(vina, 'score')), 'abcd');
  });
  it('by checks: the poses that pass first, then fewer failed, then by score', () => {
    assert.equal(names(orderPoses(vina, 'checks')), 'bdca');
    // A pose never checked goes last.
    assert.equal(names(orderPoses([pose('x', -12, null, null), ...vina], 'checks')), 'bdcax');
  });
  it('by strain: lowest first, a pose without strain last', () => {
    assert.equal(names(orderPoses(vina, 'strain')), 'dbac');
  });
  it('numbers the diagrams in the final order, skipping poses without one', () => {
    const svgs = new Map([
      [b, '<svg>b</svg>'],
      [d, '<svg>d</svg>'],
    ]);
    const records = diagramRecords(orderPoses(vina, 'checks'), svgs, { id: 'L7', index: 7 });
    assert.deepEqual(
      records.map((r) => [r.id, r.files.primary!.content, r.metrics]),
      [
        ['L7-1', '<svg>b</svg>', { index: 7, pose: 1 }],
        ['L7-2', '<svg>d</svg>', { index: 7, pose: 2 }],
      ],
    );
  });
});
