// The pocket search's limit (docs/structure.md, "Pockets"): a receptor whose 1 A grid would pass
// MAX_GRID_POINTS (a huge assembly) is refused with the limit named, not searched on a coarser grid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPockets, MAX_GRID_POINTS, PocketProblem } from '../../src/engines/pockets/ligsite.js';
import { proteinAtoms } from '../../src/engines/pockets/protein-atoms.js';

const atom = (serial: number, x: number, y: number, z: number) =>
  `ATOM  ${String(serial).padStart(5)}  CA  ALA A${String(serial).padStart(4)}    ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${z.toFixed(3).padStart(8)}  1.00  0.00           C`;

describe('pocket search limits', () => {
  it('refuses an assembly of 300 A a side, naming the grid limit', () => {
    const pdb = [atom(1, 0, 0, 0), atom(2, 300, 300, 300), 'END'].join('\n');
    assert.throws(
      () => findPockets(proteinAtoms(pdb), 5),
      (e: unknown) => e instanceof PocketProblem && e.message.includes(MAX_GRID_POINTS.toLocaleString('en-US')) && /302 x 302 x 302 A/.test(e.message),
    );
  });
  it('searches a receptor within the limit on its 1 A grid', () => {
    const pdb = [atom(1, 0, 0, 0), atom(2, 20, 20, 20), 'END'].join('\n');
    const s = findPockets(proteinAtoms(pdb), 5);
    assert.equal(s.spacing, 1);
  });
});
