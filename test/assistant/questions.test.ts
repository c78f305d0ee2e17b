// Chemistry questions through the Assistant (docs/assistant.md, "Chemistry questions"), builtin
// provider, real engines: "what is the pKa of lidocaine" and "where is ibuprofen metabolised" are
// estimated by the job service (a pka and a bde job on the built-in compounds' SMILES) and
// proposed as plan cards whose one step is that job (molecules, pH) at the estimate's cost; a
// pKa at another pH, approved, runs and gives the charge state at that pH. A pKa in DMSO and
// reactivity on a server without its job type are answered plainly, with no tool call and no card.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { compoundByName } from '../../src/assistant/compounds.js';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { waitForRun } from '../workflows/helpers.js';
import { ask, newSession } from './helpers.js';

const LIDOCAINE = compoundByName('lidocaine')!.smiles;
const IBUPROFEN = compoundByName('ibuprofen')!.smiles;

for (const backend of onlyOn('postgres')) {
  describe(`assistant chemistry questions, builtin provider [${backend.name}]`, { timeout: 300_000 }, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 5);
    });
    after(() => h?.close());

    /** Asks, and answers the calls made, the estimate's answer and the card. */
    const question = async (message: string) => {
      const s = await newSession(h, u.token);
      const turn = await ask(h, u.token, s, message);
      const calls = turn.events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments]);
      const results = turn.events.filter((e) => e.event === 'tool_result');
      const plan = turn.events.find((e) => e.event === 'plan')?.data;
      return { ...turn, calls, results, plan };
    };
    /** The card as GET /assistant/plans/{id} answers it. */
    const cardOf = async (planId: string) => {
      const r = await h.req('GET', `/api/v1/assistant/plans/${planId}`, { token: u.token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('"what is the pKa of lidocaine": the estimate of a pka job at pH 7.4, then a plan card of that job', async () => {
      const q = await question('what is the pKa of lidocaine');
      const job = { job_type: 'pka', molecules: [LIDOCAINE], ph: 7.4, method: 'gfn2' };
      assert.deepEqual(q.calls, [
        ['estimate_engine_job', job],
        ['propose_engine_job', { title: 'pKa of lidocaine (pH 7.4)', ...job }],
      ]);
      assert.deepEqual(
        q.results.map((e) => e.data.ok),
        [true, true],
        JSON.stringify(q.results),
      );
      const estimate = q.results[0]!.data.result;
      assert.deepEqual([estimate.job_type, estimate.structures], ['pka', 1]);
      // The job service's own estimate of the same job (lidocaine's sites read with RDKit).
      const direct = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'pka', payload: { molecules: [LIDOCAINE], ph: 7.4, method: 'gfn2' } } });
      assert.equal(direct.status, 200, direct.text);
      assert.ok(estimate.cost_usd > 0 && estimate.expected_runtime_sec > 0, JSON.stringify(estimate));
      assert.ok(Math.max(estimate.cost_usd, direct.body.cost) / Math.min(estimate.cost_usd, direct.body.cost) <= 1.5, `card $${estimate.cost_usd}, job $${direct.body.cost}`);
      assert.equal(q.plan.cost_usd, estimate.cost_usd, 'the card costs what the estimate said');
      assert.match(
        q.text,
        /^Estimate for the pKa values and charge state of lidocaine \(1 structure\) at pH 7\.4 with GFN2-xTB in water \(ALPB\), calibrated per site class: \$[\d.]+, about \d+ (?:s|min)\.\n/,
      );
      assert.match(q.text, new RegExp(`I proposed a plan: "pKa of lidocaine \\(pH 7\\.4\\)" \\(plan ${q.plan.plan_id}\\), one pka job\\.`));

      const card = await cardOf(q.plan.plan_id);
      assert.equal(card.status, 'proposed');
      assert.deepEqual(card.workflow.inputs, { structures: [LIDOCAINE] });
      assert.deepEqual(card.workflow.spec.steps, [{ id: 'pka', job_type: 'pka', inputs: { molecules: '$inputs.structures' }, params: { ph: 7.4, method: 'gfn2' } }]);
      assert.equal(card.estimate.cost_usd, estimate.cost_usd);
      assert.ok(card.estimate.expected_runtime_sec > 0);
    });

    it('"where is ibuprofen metabolised": a bde job (B3LYP energies, the default) on ibuprofen, as a plan card', async () => {
      const q = await question('where is ibuprofen metabolised');
      const job = { job_type: 'bde', molecules: [IBUPROFEN], method: 'gfn2', energies: 'b3lyp' };
      assert.deepEqual(q.calls, [
        ['estimate_engine_job', job],
        ['propose_engine_job', { title: 'X-H bond dissociation enthalpies of ibuprofen (B3LYP/def2-SVP, metabolic soft spots)', ...job }],
      ]);
      const estimate = q.results[0]!.data.result;
      assert.deepEqual([estimate.job_type, estimate.method, estimate.structures], ['bde', 'gfn2', 1]);
      assert.ok(estimate.cost_usd > 0, JSON.stringify(estimate));
      assert.match(q.text, /^Crucible does not predict metabolism itself\./);
      assert.match(
        q.text,
        /Estimate for the X-H bond dissociation enthalpies of ibuprofen \(1 structure\) with B3LYP\/def2-SVP energies on GFN2-xTB geometries in the gas phase, calibrated: \$[\d.]+, about \d+ (?:s|min)\./,
      );
      const card = await cardOf(q.plan.plan_id);
      assert.deepEqual(card.workflow.inputs, { structures: [IBUPROFEN] });
      assert.deepEqual(card.workflow.spec.steps, [{ id: 'bde', job_type: 'bde', inputs: { molecules: '$inputs.structures' }, params: { method: 'gfn2', energies: 'b3lyp' } }]);
      assert.equal(card.estimate.cost_usd, estimate.cost_usd);
    });

    it('a pKa at pH 3, approved, runs the pka job at that pH: acetic acid mostly neutral', async () => {
      const q = await question('what is the pKa of acetic acid at pH 3');
      assert.deepEqual(q.calls[1], ['propose_engine_job', { title: 'pKa of acetic acid (pH 3)', job_type: 'pka', molecules: ['CC(=O)O'], ph: 3, method: 'gfn2' }]);
      const ok = await h.req('POST', `/api/v1/assistant/plans/${q.plan.plan_id}/approve`, { token: u.token, headers: { 'idempotency-key': crypto.randomUUID() } });
      assert.equal(ok.status, 201, ok.text);
      const done = await waitForRun(h, u.token, ok.body.run_id, 200_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const r = await h.req('GET', `/api/v1/jobs/result?process_id=${done.steps[0].job_id}`, { token: u.token });
      assert.deepEqual([r.body.job_type, r.body.ph, r.body.solvent], ['pka', 3, 'water']);
      const [item] = r.body.items;
      // pKa about 4.5 (4.76 measured): at pH 3 the acid is about 97 % neutral.
      assert.equal(item.dominant_smiles, 'CC(=O)O');
      assert.equal(item.dominant_charge, 0);
      assert.ok(item.microstates[0].fraction > 0.9 && item.microstates[0].fraction < 1, JSON.stringify(item.microstates));
      assert.ok(done.charged_usd <= q.plan.cost_usd, `${done.charged_usd} <= ${q.plan.cost_usd}`);
    });

    it('refuses plainly, with no tool call and no card: a pKa in DMSO, reactivity without its job type', async () => {
      const dmso = await question('what is the pKa of lidocaine in DMSO?');
      assert.deepEqual(dmso.calls, []);
      assert.equal(dmso.plan, undefined);
      assert.equal(
        dmso.text,
        'Crucible computes pKa in water only: the pka job uses GFN2-xTB with ALPB water and a calibration against aqueous pKa values, so it cannot give a pKa in DMSO. Ask for the aqueous pKa instead, e.g. "what is the pKa of lidocaine". I did not run or plan anything.',
      );
      const fukui = await question('where will a nucleophile attack O=Cc1ccccc1?');
      if (JOB_TYPES.has('reactivity')) {
        assert.deepEqual(
          fukui.calls.map((c) => [c[0], (c[1] as { job_type: string }).job_type]),
          [
            ['estimate_engine_job', 'reactivity'],
            ['propose_engine_job', 'reactivity'],
          ],
        );
        return;
      }
      assert.deepEqual(fukui.calls, [], 'nothing else is run in its place');
      assert.equal(fukui.plan, undefined);
      assert.match(fukui.text, /^Crucible cannot compute Fukui indices or reactivity descriptors .* its reactivity job type is not available here\./);
    });
  });
}
