// The questions' estimate (src/compute/types/kit/questions.ts; docs/questions.md, "Estimates"):
// the terms it records in its assumptions are the ones its runtime was priced from, so that
// scripts/questions/fit-costs.ts refits the same model that prices the jobs; and the optimisation
// time grows with the cube of the atoms (the fit on ten drugs' idle runtimes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OVERHEAD_SEC, SAFETY } from '../../src/compute/types/kit/calibration.js';
import { optimisationSec, QUESTION_COSTS, questionEstimate } from '../../src/compute/types/kit/questions.js';

describe('question estimates', () => {
  it('price a job from the terms recorded in its assumptions', () => {
    const e = questionEstimate('pka', [{ atoms: 21 }, { atoms: 60 }], (i) => ({ rdkitRuns: 3 + i, optimisations: 4 * (i + 1), hessians: i }));
    const a = e.assumptions as { rdkit_runs: number; gfn2_optimisations: number; gfn2_hessians: number; atoms_total: number; hessian_sec: number };
    assert.equal(a.rdkit_runs, 7);
    assert.equal(a.gfn2_optimisations, 12);
    assert.equal(a.gfn2_hessians, 1);
    assert.equal(a.atoms_total, 81);
    assert.ok(a.hessian_sec > 0);
    const model = 7 * QUESTION_COSTS.rdkitRun + 4 * optimisationSec(21) + 8 * optimisationSec(60) + QUESTION_COSTS.hessianScale * a.hessian_sec;
    assert.ok(Math.abs(e.expectedRuntimeSec - (OVERHEAD_SEC + SAFETY * model)) < 2e-3, `${e.expectedRuntimeSec} against ${OVERHEAD_SEC + SAFETY * model}`);
  });

  it('time an optimisation by the cube of the atoms: ibuprofen (33 atoms) about a second, imatinib (68) about 6 s', () => {
    assert.equal(QUESTION_COSTS.atomsPower, 3);
    assert.ok(optimisationSec(33) > 0.8 && optimisationSec(33) < 1.2, String(optimisationSec(33)));
    assert.ok(optimisationSec(68) > 5 && optimisationSec(68) < 7, String(optimisationSec(68)));
  });
});
