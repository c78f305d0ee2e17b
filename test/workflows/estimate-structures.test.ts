// A workflow step's estimate over structures known before the run (docs/workflows.md,
// "Estimate"): a molecules input given as a SMILES list (or its SMILES default, or the step's own
// inline molecules) is read with RDKit as POST /jobs/estimate reads it, so a one-step conformer
// search over n-butane costs what the standalone job's estimate says (it assumed 6 rotatable
// bonds per structure before, about 20 times too much); a step that reads an earlier step's
// output still prices the stand-in set (its structures are known only when the run gets there).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const oneStep = (structures?: string[]) => ({
  name: 'conformers',
  inputs: { structures: { type: 'molecules', ...(structures ? { default: structures } : {}) } },
  steps: [{ id: 'conformers', job_type: 'conformers', inputs: { molecules: '$inputs.structures' }, params: { method: 'gfn2' } }],
  outputs: { lowest: '$steps.conformers.outputs.lowest' },
});

for (const backend of onlyOn('pglite')) {
  describe(`workflow estimates over inline structures [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      token = (await h.user()).token;
    });
    after(() => h?.close());

    const ratio = (a: number, b: number) => Math.max(a, b) / Math.min(a, b);

    it('a one-step conformer search over CCCC costs what the standalone job estimate says; a step over an earlier output keeps the stand-in', async () => {
      const job = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'conformers', payload: { molecules: ['CCCC'], method: 'gfn2' } } });
      assert.equal(job.status, 200, job.text);
      const standalone = job.body.cost as number;
      assert.ok(standalone > 0, job.text);

      // The SMILES as the run's input, as a default of the input, and inline in the step's params.
      const given = await h.req('POST', '/api/v1/workflows/estimate', { token, body: { spec: oneStep(), inputs: { structures: ['CCCC'] } } });
      const byDefault = await h.req('POST', '/api/v1/workflows/estimate', { token, body: { spec: oneStep(['CCCC']) } });
      const inParams = await h.req('POST', '/api/v1/workflows/estimate', {
        token,
        body: { spec: { name: 'c', steps: [{ id: 'conformers', job_type: 'conformers', params: { method: 'gfn2', molecules: ['CCCC'] } }] } },
      });
      for (const r of [given, byDefault, inParams]) {
        assert.equal(r.status, 200, r.text);
        const cost = r.body.cost as number;
        assert.ok(ratio(cost, standalone) <= 1.5, `workflow $${cost} against the job's $${standalone}`);
        // n-butane's one rotatable bond, read with RDKit (not the 6 assumed of an unknown set).
        assert.deepEqual(r.body.steps[0].assumptions.rotatable_bonds, [1], JSON.stringify(r.body.steps[0].assumptions));
      }

      // After an optimisation the structures are the optimisation's output: the stand-in set's
      // assumption stays (6 rotatable bonds per structure), whatever the first step was given.
      const chain = {
        name: 'opt then conformers',
        inputs: { structures: { type: 'molecules' } },
        steps: [
          { id: 'opt', job_type: 'optimize', inputs: { molecules: '$inputs.structures' }, params: { method: 'gfnff' } },
          { id: 'conformers', job_type: 'conformers', inputs: { molecules: '$steps.opt.outputs.structures' }, params: { method: 'gfn2' } },
        ],
      };
      const r = await h.req('POST', '/api/v1/workflows/estimate', { token, body: { spec: chain, inputs: { structures: ['CCCC'] } } });
      assert.equal(r.status, 200, r.text);
      const later = r.body.steps.find((x: { step_id: string }) => x.step_id === 'conformers');
      assert.match(String(later.assumptions.rotatable_bonds), /^6 per structure/);
      assert.ok(later.cost > 5 * standalone, `the stand-in step $${later.cost} against the job's $${standalone}`);
      const first = r.body.steps.find((x: { step_id: string }) => x.step_id === 'opt');
      const optJob = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'optimize', payload: { molecules: ['CCCC'], method: 'gfnff' } } });
      assert.equal(optJob.status, 200, optJob.text);
      assert.ok(ratio(first.cost, optJob.body.cost) <= 1.5, `optimisation step $${first.cost} against the job's $${optJob.body.cost}`);
    });
  });
}
