// Engine jobs through the Assistant (docs/assistant.md, "Engine jobs"), builtin provider, real
// engines, on both databases: "optimise caffeine with GFN2 in water" estimates the job and
// proposes it as a plan card (a one-step workflow run) whose cost is the estimate's; approving
// it (Idempotency-Key) runs the optimisation, which ends with a GFN2 energy in ALPB water. An
// estimate-only request makes no card; a charge the structure cannot carry is the tool's error
// and no card; "optimise my library" proposes the job on the user's upload.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { compoundByName } from '../../src/assistant/compounds.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadSmiles, waitForRun } from '../workflows/helpers.js';
import { ask, newSession } from './helpers.js';

const CAFFEINE = compoundByName('caffeine')!.smiles;

for (const backend of onlyOn('pglite')) {
  describe(`assistant engine jobs, builtin provider [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 5);
    });
    after(() => h?.close());

    it('"optimise caffeine with GFN2 in water": an estimate, a plan card at its cost, and once approved a GFN2 energy in water', async () => {
      const s = await newSession(h, u.token);
      const { events, text } = await ask(h, u.token, s, 'optimise caffeine with GFN2 in water');
      const calls = events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments]);
      const job = { job_type: 'optimize', molecules: [CAFFEINE], method: 'gfn2', solvent: 'water' };
      assert.deepEqual(calls, [
        ['estimate_engine_job', job],
        ['propose_engine_job', { title: 'Optimise caffeine (GFN2-xTB, water)', ...job }],
      ]);
      const results = events.filter((e) => e.event === 'tool_result');
      assert.deepEqual(
        results.map((e) => e.data.ok),
        [true, true],
        JSON.stringify(results),
      );
      const estimate = results[0]!.data.result;
      assert.deepEqual([estimate.job_type, estimate.method, estimate.solvent, estimate.structures], ['optimize', 'gfn2', 'water', 1]);
      assert.ok(estimate.cost_usd > 0 && estimate.expected_runtime_sec > 0, JSON.stringify(estimate));
      const plan = events.find((e) => e.event === 'plan')!.data;
      assert.equal(plan.cost_usd, estimate.cost_usd, 'the card costs what the estimate said');
      assert.deepEqual(
        plan.steps.map((x: any) => [x.step_id, x.job_type]),
        [['optimize', 'optimize']],
      );
      assert.match(text, /Estimate for a geometry optimisation of caffeine \(1 structure\) with GFN2-xTB in water \(ALPB\): \$/);
      assert.match(text, new RegExp(`I proposed a plan: "Optimise caffeine \\(GFN2-xTB, water\\)" \\(plan ${plan.plan_id}\\), one optimize job`));
      assert.match(text, /approve the plan card to run it/);

      // The card is an ordinary one: a one-step workflow run with the structures as its input.
      const card = await h.req('GET', `/api/v1/assistant/plans/${plan.plan_id}`, { token: u.token });
      assert.equal(card.status, 200, card.text);
      assert.deepEqual(card.body.workflow.inputs, { structures: [CAFFEINE] });
      assert.deepEqual(card.body.workflow.spec.steps, [
        { id: 'optimize', job_type: 'optimize', inputs: { molecules: '$inputs.structures' }, params: { method: 'gfn2', solvent: 'water' } },
      ]);
      assert.equal(card.body.estimate.cost_usd, estimate.cost_usd);

      const bare = await h.req('POST', `/api/v1/assistant/plans/${plan.plan_id}/approve`, { token: u.token });
      assert.equal(bare.status, 400, bare.text);
      const key = crypto.randomUUID();
      const ok = await h.req('POST', `/api/v1/assistant/plans/${plan.plan_id}/approve`, { token: u.token, headers: { 'idempotency-key': key } });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.run.reserved_usd, estimate.cost_usd, 'approval reserves the estimate');
      const replay = await h.req('POST', `/api/v1/assistant/plans/${plan.plan_id}/approve`, { token: u.token, headers: { 'idempotency-key': key } });
      assert.deepEqual([replay.status, replay.body.run_id], [201, ok.body.run_id]);
      const done = await waitForRun(h, u.token, ok.body.run_id, 120_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      assert.ok(done.charged_usd <= estimate.cost_usd, `${done.charged_usd} <= ${estimate.cost_usd}`);
      const r = await h.req('GET', `/api/v1/jobs/result?process_id=${done.steps[0].job_id}`, { token: u.token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.job_type, r.body.method, r.body.solvent], ['optimize', 'gfn2', 'water']);
      const [item] = r.body.items;
      assert.deepEqual([item.error, item.converged, item.charge, item.multiplicity], [null, true, 0, 1]);
      // Caffeine (C8H10N4O2, 24 atoms) with GFN2-xTB: about -42.1 Eh; its gap a few eV.
      assert.ok(item.energy_hartree < -41 && item.energy_hartree > -43, String(item.energy_hartree));
      assert.ok(item.homo_lumo_gap_ev > 1 && item.homo_lumo_gap_ev < 10, String(item.homo_lumo_gap_ev));
      assert.deepEqual(Object.keys(done.outputs).sort(), ['result', 'structures', 'table']);
    });

    it('"find the conformers of butane": the card costs what the standalone job estimate says (n-butane read with RDKit, not an assumed set)', async () => {
      const s = await newSession(h, u.token);
      const { events } = await ask(h, u.token, s, 'find the conformers of butane');
      const calls = events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments.job_type, e.data.arguments.molecules]);
      assert.deepEqual(calls, [
        ['estimate_engine_job', 'conformers', ['CCCC']],
        ['propose_engine_job', 'conformers', ['CCCC']],
      ]);
      const plan = events.find((e) => e.event === 'plan')!.data;
      const job = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'conformers', payload: { molecules: ['CCCC'], method: 'gfn2' } } });
      assert.equal(job.status, 200, job.text);
      // One rotatable bond: 3 candidates, not the 150 of an assumed 40-atom, 6-rotor structure (about 20x).
      const ratio = Math.max(plan.cost_usd, job.body.cost) / Math.min(plan.cost_usd, job.body.cost);
      assert.ok(ratio <= 2, `card $${plan.cost_usd} against the job's estimate $${job.body.cost}`);
      assert.ok(plan.cost_usd < 0.01, `card $${plan.cost_usd}`);
    });

    it('an estimate alone makes no card; a charge the structure cannot carry is the tool’s error; "my library" is run from its artifact', async () => {
      const s = await newSession(h, u.token);
      const e = await ask(h, u.token, s, 'how much would a single point of ethanol and CC(=O)C with PM7 in acetone cost?');
      assert.deepEqual(
        e.events.filter((x) => x.event === 'tool_call').map((x) => [x.data.name, x.data.arguments]),
        [['estimate_engine_job', { job_type: 'singlepoint', molecules: ['CCO', 'CC(=O)C'], method: 'pm7', solvent: 'acetone' }]],
      );
      assert.ok(!e.events.some((x) => x.event === 'plan'));
      assert.match(e.text, /Estimate for a single point of ethanol and CC\(=O\)C \(2 structures\) with PM7 in acetone \(COSMO\): \$[\d.]+, about \d+ s\.\nNothing has run/);

      const odd = await ask(h, u.token, s, 'optimise the singlet of water with charge 1');
      const result = odd.events.find((x) => x.event === 'tool_result')!.data;
      assert.deepEqual([result.name, result.ok, result.result.error?.code], ['estimate_engine_job', false, 'invalid'], JSON.stringify(result));
      assert.match(result.result.error.message, /payload\.multiplicity: structure 0 has 9 electrons with charge 1/);
      assert.ok(!odd.events.some((x) => x.event === 'plan' || (x.event === 'tool_call' && x.data.name === 'propose_engine_job')));

      // "my library": the user's upload, by its artifact id; the run reads the set.
      const library = await uploadSmiles(h, u.token, ['O', 'CO'], 'tiny.smi');
      const lib = await ask(h, u.token, s, 'optimise my library with GFN-FF');
      assert.deepEqual(
        lib.events.filter((x) => x.event === 'tool_call').map((x) => [x.data.name, x.data.arguments]),
        [
          ['list_artifacts', { kind: 'molecules', limit: 50 }],
          ['estimate_engine_job', { job_type: 'optimize', input_artifact_id: library, method: 'gfnff' }],
          ['propose_engine_job', { title: 'Optimise tiny.smi (GFN-FF)', job_type: 'optimize', input_artifact_id: library, method: 'gfnff' }],
        ],
      );
      const card = lib.events.find((x) => x.event === 'plan')!.data;
      assert.equal(card.structures, 2);
      const approved = await h.req('POST', `/api/v1/assistant/plans/${card.plan_id}/approve`, { token: u.token, headers: { 'idempotency-key': crypto.randomUUID() } });
      assert.equal(approved.status, 201, approved.text);
      assert.deepEqual(approved.body.workflow.inputs, { structures: library });
      const done = await waitForRun(h, u.token, approved.body.run_id, 60_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const r = await h.req('GET', `/api/v1/jobs/result?process_id=${done.steps[0].job_id}`, { token: u.token });
      assert.deepEqual(
        r.body.items.map((i: any) => [i.name, i.error]),
        [
          ['m0', null],
          ['m1', null],
        ],
      );
      assert.equal(r.body.method, 'gfnff');
    });
  });
}
