// Docking through the Assistant (docs/assistant.md, "Docking"), builtin provider, real engines,
// on both databases, with RCSB PDB's file host and PubChem from the local stand-in (1IEP: chain
// A, its imatinib STI, two waters and a sulfate): "dock my library into 1IEP around its ligand
// with exhaustiveness 1" picks the user's upload, estimates the docking around its ligand (STI)
// and proposes a card that docks around STI by name, at the estimate's cost; approved, the run
// docks both ligands into 1IEP around STI. "how much would docking my library into 1IEP cost"
// only estimates; "dock sertraline into 1IEP around STI" looks the name up first; a receptor
// with two ligands makes "its ligand" a question, and no card.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { standInEnv, StandIn } from '../lookups-api/setup.js';
import { twoLigandReceptor, uploadFile } from '../engines/docking-helpers.js';
import { uploadSmiles, waitForRun } from '../workflows/helpers.js';
import { ask, newSession } from './helpers.js';

const SERTRALINE = 'CN[C@H]1CC[C@H](C2=CC=CC=C12)C3=CC(=C(C=C3)Cl)Cl';
/** The box around 1IEP's STI with the default padding (4 A): docs/engines.md, "Docking". */
const STI_BOX = { center: [15.19, 53.903, 16.917], size: [16.664, 24.739, 21.526], box_site: 'STI' };

for (const backend of onlyOn('postgres')) {
  describe(`assistant docking, builtin provider [${backend.name}]`, () => {
    let h: Harness;
    let standIn: StandIn;
    let u: { token: string; userId: string };
    before(async () => {
      standIn = await new StandIn().start();
      h = await startHarness(backend, standInEnv(standIn), { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 10);
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });

    const calls = (events: { event: string; data: any }[]) => events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments]);

    it('"dock my library into 1IEP around its ligand": the estimate around STI, a card that docks around STI at its cost, and once approved the run docks the library', async () => {
      const library = await uploadSmiles(h, u.token, ['c1ccccc1O', 'Cc1ccc(O)cc1'], 'phenols.smi');
      const s = await newSession(h, u.token);
      const { events, text } = await ask(h, u.token, s, 'dock my library into 1IEP around its ligand with exhaustiveness 1');
      const job = { job_type: 'docking', input_artifact_id: library, pdb_id: '1IEP', box_site: 'ligand', exhaustiveness: 1 };
      assert.deepEqual(calls(events), [
        ['list_artifacts', { kind: 'molecules', limit: 50 }],
        ['estimate_engine_job', job],
        ['propose_engine_job', { title: 'Dock phenols.smi into 1IEP around STI (exhaustiveness 1)', ...job, box_site: 'STI' }],
      ]);
      const results = events.filter((e) => e.event === 'tool_result');
      assert.deepEqual(
        results.map((e) => e.data.ok),
        [true, true, true],
        JSON.stringify(results),
      );
      const estimate = results[1]!.data.result;
      assert.deepEqual([estimate.job_type, estimate.method, estimate.structures, estimate.receptor, estimate.box], ['docking', 'vina', 2, '1IEP', STI_BOX]);
      assert.ok(estimate.cost_usd > 0 && estimate.expected_runtime_sec > 0, JSON.stringify(estimate));
      const plan = events.find((e) => e.event === 'plan')!.data;
      assert.equal(plan.cost_usd, estimate.cost_usd, 'the card costs what the estimate said');
      assert.match(
        text,
        /^Estimate for docking phenols\.smi \(2 ligands\) into 1IEP around STI \(its ligand\), a 16\.7 x 24\.7 x 21\.5 Å box at \(15\.2, 53\.9, 16\.9\), exhaustiveness 1: \$[\d.]+, about \d+ (s|min)\./,
      );
      assert.match(text, new RegExp(`I proposed a plan: "Dock phenols\\.smi into 1IEP around STI \\(exhaustiveness 1\\)" \\(plan ${plan.plan_id}\\), one docking job`));

      // The card's job: one docking step, around STI by name, the library as its input.
      const card = await h.req('GET', `/api/v1/assistant/plans/${plan.plan_id}`, { token: u.token });
      assert.equal(card.status, 200, card.text);
      assert.deepEqual(card.body.workflow.inputs, { structures: library });
      assert.deepEqual(card.body.workflow.spec.steps, [
        { id: 'docking', job_type: 'docking', inputs: { molecules: '$inputs.structures' }, params: { pdb_id: '1IEP', box_site: 'STI', exhaustiveness: 1 } },
      ]);
      assert.equal(card.body.estimate.cost_usd, estimate.cost_usd);

      const ok = await h.req('POST', `/api/v1/assistant/plans/${plan.plan_id}/approve`, { token: u.token, headers: { 'idempotency-key': crypto.randomUUID() } });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.run.reserved_usd, estimate.cost_usd, 'approval reserves the estimate');
      const done = await waitForRun(h, u.token, ok.body.run_id, 600_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      assert.ok(done.charged_usd <= estimate.cost_usd, `${done.charged_usd} <= ${estimate.cost_usd}`);
      const r = await h.req('GET', `/api/v1/jobs/result?process_id=${done.steps[0].job_id}`, { token: u.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.receptor.pdb_id, '1IEP');
      assert.deepEqual(r.body.box, { center: STI_BOX.center, size: STI_BOX.size, from: 'site', box_site: 'STI', padding: 4 });
      assert.equal(r.body.exhaustiveness, 1);
      assert.deepEqual(
        r.body.items.map((i: any) => [i.name, i.error]),
        [
          ['m0', null],
          ['m1', null],
        ],
      );
      for (const item of r.body.items) assert.ok(item.best_score_kcal_mol < -3 && item.poses.length >= 1, JSON.stringify(item.poses?.[0]?.score_kcal_mol));
      assert.ok(Object.keys(done.outputs).includes('poses'), JSON.stringify(Object.keys(done.outputs)));
    });

    it('"how much would docking my library into 1IEP cost" only estimates; a PubChem name is looked up first; "its ligand" among two is a question', async () => {
      const s = await newSession(h, u.token);
      const e = await ask(h, u.token, s, 'how much would docking my library into 1IEP cost?');
      const library = calls(e.events)[1]![1].input_artifact_id;
      assert.deepEqual(calls(e.events), [
        ['list_artifacts', { kind: 'molecules', limit: 50 }],
        ['estimate_engine_job', { job_type: 'docking', input_artifact_id: library, pdb_id: '1IEP', box_site: 'ligand' }],
      ]);
      assert.ok(!e.events.some((x) => x.event === 'plan'));
      assert.match(
        e.text,
        /^Estimate for docking phenols\.smi \(2 ligands\) into 1IEP around STI \(its ligand\), .*exhaustiveness 8: \$[\d.]+, about \d+ (s|min)\.\nNothing has run/,
      );

      // A session of its own for each: a turn's token budget (16,000) counts the earlier turns too.
      const named = await ask(h, u.token, await newSession(h, u.token), 'dock sertraline into 1IEP around STI');
      const job = { job_type: 'docking', molecules: [SERTRALINE], pdb_id: '1IEP', box_site: 'STI' };
      assert.deepEqual(calls(named.events), [
        ['lookup_compounds', { names: ['sertraline'] }],
        ['estimate_engine_job', job],
        ['propose_engine_job', { title: 'Dock sertraline into 1IEP around STI', ...job }],
      ]);
      const plan = named.events.find((x) => x.event === 'plan')!.data;
      const quoted = named.events.filter((x) => x.event === 'tool_result')[1]!.data.result;
      assert.deepEqual([plan.cost_usd, plan.structures, plan.box], [quoted.cost_usd, 1, STI_BOX]);
      assert.match(named.text, /^Looked up by name in PubChem: sertraline \(CID 68617, "Sertraline"\)\./);

      const receptor = await uploadFile(h, u.token, 'two.pdb', twoLigandReceptor());
      const two = await ask(h, u.token, await newSession(h, u.token), `dock CCO into artifact ${receptor} around its ligand`);
      assert.deepEqual(calls(two.events), [['estimate_engine_job', { job_type: 'docking', molecules: ['CCO'], receptor_artifact_id: receptor, box_site: 'ligand' }]]);
      assert.ok(!two.events.some((x) => x.event === 'plan'));
      assert.match(two.text, new RegExp(`^I could not tell which ligand of artifact ${receptor} to dock around \\(invalid: .*STI \\(37 heavy atoms\\), XYZ \\(37 heavy atoms\\)`));
      assert.match(two.text, /Ask again naming its residue name/);
    });
  });
}
