// Workflow runs (docs/workflows.md) on both databases: a run starts each step's job as soon as
// its inputs are ready (independent branches together), passes outputs as artifacts, fails fast
// or continues per step, reuses unchanged completed steps on rerun, and emits one
// workflow_run event; step jobs are ordinary jobs whose events carry workflow_run_id.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { chargedToRun, ledger, LIBRARY, startRun, uploadSmiles, waitForRun, waitForStep } from './helpers.js';

const FAN = {
  name: 'fan',
  inputs: { library: { type: 'molecules' } },
  steps: [
    { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw <= 150' } },
    { id: 'slow', job_type: 'wait', params: { seconds: 1 } },
    { id: 'describe', job_type: 'properties', inputs: { molecules: '$steps.keep.outputs.molecules' } },
    { id: 'draw', job_type: 'depict', inputs: { molecules: '$steps.keep.outputs.molecules' } },
  ],
  outputs: { table: '$steps.describe.outputs.table', kept: '$steps.keep.outputs.molecules' },
};

for (const backend of BACKENDS) {
  describe(`workflow runs [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      u = await h.user();
      await h.credit(u.userId, 10);
    });
    after(() => h?.close());

    it('runs a DAG: ready steps start together, outputs pass as artifacts, one workflow_run event, step job events carry the run id', async () => {
      const idem = crypto.randomUUID();
      const started = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec: FAN, inputs: { library: LIBRARY } }, headers: { 'idempotency-key': idem } });
      assert.equal(started.status, 201, started.text);
      const run = started.body;
      // Idempotent: the same key and body answer the same run, and start no second one.
      const replay = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec: FAN, inputs: { library: LIBRARY } }, headers: { 'idempotency-key': idem } });
      assert.deepEqual([replay.status, replay.body.run_id, replay.headers.get('idempotent-replayed')], [201, run.run_id, 'true']);
      const count = await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE user_id = $1`, [u.userId]);
      assert.equal(count.rows[0]!.n, 1);
      assert.match(run.run_id, /^[0-9a-f-]{36}$/);
      assert.ok(['queued', 'running'].includes(run.status), run.status);
      // keep and slow need nothing else: both started at once; describe and draw wait for keep.
      const first = Object.fromEntries(run.steps.map((s: any) => [s.step_id, s.state]));
      assert.ok(['queued', 'running', 'completed'].includes(first.keep) && ['queued', 'running', 'completed'].includes(first.slow), JSON.stringify(first));
      assert.deepEqual([first.describe, first.draw], ['pending', 'pending']);
      assert.ok(run.reserved_usd > 0);

      const done = await waitForRun(h, u.token, run.run_id);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual(
        done.steps.map((s: any) => s.state),
        ['completed', 'completed', 'completed', 'completed'],
      );
      assert.equal(done.steps_done, 4);
      assert.equal(done.progress, 1);
      // describe read keep's output artifact (port molecules): every kept molecule is described.
      const keep = done.steps.find((s: any) => s.step_id === 'keep');
      const keptResult = await h.req('GET', `/api/v1/jobs/result?process_id=${keep.job_id}`, { token: u.token });
      const describeResult = await h.req('GET', `/api/v1/jobs/result?process_id=${done.steps.find((s: any) => s.step_id === 'describe').job_id}`, { token: u.token });
      const keptCount = keptResult.body.summary.kept;
      assert.ok(keptCount > 0 && keptCount < LIBRARY.length, `kept ${keptCount}`);
      assert.deepEqual(
        describeResult.body.input,
        { source: 'artifact', artifact_id: keep.result_artifact_id, port: 'molecules', molecules: keptCount },
        JSON.stringify(describeResult.body.input),
      );
      assert.equal(describeResult.body.summary.described, keptCount);
      assert.deepEqual(
        describeResult.body.items.map((i: any) => i.smiles),
        keptResult.body.kept.map((k: any) => k.smiles),
      );

      // Outputs: artifacts of the steps that made them.
      const outs = await h.req('GET', `/api/v1/workflows/runs/${run.run_id}/outputs`, { token: u.token });
      assert.equal(outs.status, 200);
      assert.deepEqual(outs.body.outputs.kept, { step_id: 'keep', port: 'molecules', artifact_id: keep.result_artifact_id, ready: true });
      const table = await fetch(`${h.base}/api/v1/artifacts/${outs.body.outputs.table.artifact_id}/download?port=table&record=properties.csv`, {
        headers: { authorization: `Bearer ${u.token}` },
      });
      assert.equal(table.status, 200);
      assert.equal((await table.text()).trim().split('\n').length, keptCount + 1);

      // Events: four job events with the run id, then exactly one workflow_run event.
      const ev = await h.req('GET', `/api/v1/events?limit=100`, { token: u.token });
      const mine = ev.body.events.filter((e: any) => e.workflow_run_id === run.run_id || e.subject_id === run.run_id);
      assert.deepEqual(mine.filter((e: any) => e.kind === 'job').length, 4);
      const runEvents = mine.filter((e: any) => e.kind === 'workflow_run');
      assert.deepEqual(
        runEvents.map((e: any) => [e.subject_id, e.status, e.workflow_run_id]),
        [[run.run_id, 'completed', null]],
      );
      assert.ok(mine.indexOf(runEvents[0]) === mine.length - 1, 'the run event comes after its steps');

      const listed = await h.req('GET', '/api/v1/workflows/runs?status=completed&q=fan&sort=-created_at', { token: u.token });
      assert.equal(listed.status, 200, listed.text);
      const item = listed.body.runs.find((r: any) => r.run_id === run.run_id);
      assert.deepEqual([item.status, item.steps_done, item.steps_total, item.progress, item.steps], ['completed', 4, 4, 1, undefined]);
      assert.equal((await h.req('GET', '/api/v1/workflows/runs?status=running,queued', { token: u.token })).body.runs.length, 0);
      assert.equal((await h.req('GET', '/api/v1/workflows/runs?status=done', { token: u.token })).status, 422);
      const status = await h.req('GET', `/api/v1/workflows/runs/${run.run_id}/status`, { token: u.token });
      assert.deepEqual([status.body.status, status.body.steps_done, status.body.steps.length], ['completed', 4, 4]);
      const one = await h.req('GET', `/api/v1/workflows/runs/${run.run_id}/steps/keep`, { token: u.token });
      assert.deepEqual(one.body.outputs.molecules, { artifact_id: keep.result_artifact_id, port: 'molecules' });
      assert.equal(one.body.error, null);
      assert.equal((await h.req('GET', `/api/v1/workflows/runs/${run.run_id}/steps/nope`, { token: u.token })).status, 404);

      // Step jobs are ordinary jobs.
      const jobs = await h.req('GET', '/api/v1/jobs/list?limit=100', { token: u.token });
      for (const s of done.steps) assert.ok(jobs.body.job_pids.includes(s.job_id), `job of ${s.step_id} listed`);

      // Money: the run was charged exactly what its step jobs were, never more than it reserved; nothing stays reserved.
      const charged = await chargedToRun(h, run.run_id);
      assert.equal(Math.round(done.charged_usd * 1e6), charged);
      assert.ok(charged <= Math.round(done.reserved_usd * 1e6));
      const l = await ledger(h, u.userId);
      assert.deepEqual([l.reserved, l.walletReserved, l.walletBalance], [0, 0, l.balance]);
    });

    it('a failing step fails the run and cancels its running siblings; with continue_on_error the rest goes on and dependents are skipped', async () => {
      // "bad" filters a molecule set that is deleted while its job waits in the queue (no worker
      // runs until then): its job fails when it reads its input, as a step really fails.
      const failing = (continueOnError: boolean) => ({
        name: 'fails',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'first', job_type: 'wait', params: { seconds: 1 } },
          { id: 'long', job_type: 'wait', params: { seconds: continueOnError ? 2 : 30 } },
          { id: 'bad', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw < 300' }, continue_on_error: continueOnError },
          { id: 'after_bad', job_type: 'depict', inputs: { molecules: '$steps.bad.outputs.molecules' } },
        ],
      });
      const outcome = async (continueOnError: boolean) => {
        const q = await startHarness(backend);
        try {
          const v = await q.user();
          await q.credit(v.userId, 1);
          const library = await uploadSmiles(q, v.token, LIBRARY);
          const run = await startRun(q, v.token, { spec: failing(continueOnError), inputs: { library } });
          assert.equal((await q.req('DELETE', `/api/v1/artifacts/${library}`, { token: v.token })).status, 200);
          const runtime = q.services.runtime(3);
          await runtime.start();
          try {
            const done = await waitForRun(q, v.token, run.run_id);
            assert.equal(Math.round(done.charged_usd * 1e6), await chargedToRun(q, done.run_id));
            assert.equal((await ledger(q, v.userId)).reserved, 0);
            return done;
          } finally {
            await runtime.stop();
          }
        } finally {
          await q.close();
        }
      };
      const f = await outcome(false);
      assert.equal(f.status, 'failed', JSON.stringify(f));
      assert.match(f.message, /step bad failed/);
      assert.deepEqual(
        f.steps.map((s: any) => [s.step_id, s.state]),
        [
          ['first', 'cancelled'],
          ['long', 'cancelled'],
          ['bad', 'failed'],
          ['after_bad', 'skipped'],
        ],
      );
      const cont = await outcome(true);
      assert.equal(cont.status, 'completed');
      assert.deepEqual(
        cont.steps.map((s: any) => [s.step_id, s.state]),
        [
          ['first', 'completed'],
          ['long', 'completed'],
          ['bad', 'failed'],
          ['after_bad', 'skipped'],
        ],
      );
      assert.match(cont.message, /did not complete \(continue_on_error\): bad \(failed\), after_bad \(skipped\)/);
    });

    it('cancel ends running steps (their runtime charged), marks the rest, releases the hold; rerun reuses the completed steps only', async () => {
      const spec = {
        name: 'cancel me',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'quick', job_type: 'properties', inputs: { molecules: '$inputs.library' } },
          { id: 'long', job_type: 'wait', params: { seconds: 2 } },
          { id: 'then', job_type: 'depict', inputs: { molecules: '$steps.quick.outputs.properties' } },
        ],
      };
      spec.steps[2]!.inputs = { molecules: '$inputs.library' };
      (spec.steps[2] as any).params = {};
      const run = await startRun(h, u.token, { spec: { ...spec, steps: [spec.steps[0], spec.steps[1]] }, inputs: { library: LIBRARY } });
      await waitForStep(h, run.run_id, 'quick', ['completed']);
      await waitForStep(h, run.run_id, 'long', ['running']);
      const c = await h.req('POST', `/api/v1/workflows/runs/${run.run_id}/cancel`, { token: u.token });
      assert.equal(c.status, 200, c.text);
      assert.equal(c.body.status, 'cancelled');
      assert.deepEqual(
        c.body.steps.map((s: any) => s.state),
        ['completed', 'cancelled'],
      );
      const again = await h.req('POST', `/api/v1/workflows/runs/${run.run_id}/cancel`, { token: u.token });
      assert.equal(again.status, 409);
      assert.equal(Math.round(c.body.charged_usd * 1e6), await chargedToRun(h, run.run_id));
      assert.ok(c.body.charged_usd > 0);
      assert.equal((await ledger(h, u.userId)).reserved, 0);

      const rerun = await h.req('POST', `/api/v1/workflows/runs/${run.run_id}/rerun`, { token: u.token, body: { reuse_completed: true } });
      assert.equal(rerun.status, 201, rerun.text);
      assert.equal(rerun.body.rerun_of, run.run_id);
      const quick = rerun.body.steps.find((s: any) => s.step_id === 'quick');
      assert.equal(quick.state, 'reused');
      assert.equal(quick.result_artifact_id, c.body.steps[0].result_artifact_id);
      assert.equal(quick.planned_usd, 0);
      const r2 = await waitForRun(h, u.token, rerun.body.run_id);
      assert.equal(r2.status, 'completed');
      assert.deepEqual(
        r2.steps.map((s: any) => s.state),
        ['reused', 'completed'],
      );
      // The reused step's job is the first run's: no second job ran for it.
      assert.equal(r2.steps[0].job_id, c.body.steps[0].job_id);
      const fresh = await h.req('POST', `/api/v1/workflows/runs/${run.run_id}/rerun`, { token: u.token, body: {} });
      assert.equal(fresh.status, 201);
      assert.equal(fresh.body.steps[0].state === 'reused', false);
      await waitForRun(h, u.token, fresh.body.run_id);
    });

    it('a start that cannot be paid or reads what is not yours creates nothing: 402, 403 spend ceiling, 404 artifact', async () => {
      const poor = await h.user();
      await h.credit(poor.userId, 0.001);
      const big = { name: 'big', steps: [{ id: 'w', job_type: 'wait', params: { seconds: 600 } }] };
      const before = await ledger(h, poor.userId);
      const r402 = await h.req('POST', '/api/v1/workflows/runs', { token: poor.token, body: { spec: big } });
      assert.equal(r402.status, 402, r402.text);
      assert.equal(r402.body.type, '/api/v1/problems/insufficient-funds');
      const key = await h.key(u.token, { name: 'ceiling', spend_ceiling_usd: 0.01 });
      const r403 = await h.req('POST', '/api/v1/workflows/runs', { key: key.secret, headers: { 'idempotency-key': crypto.randomUUID() }, body: { spec: big } });
      assert.equal(r403.status, 403, r403.text);
      assert.equal(r403.body.type, '/api/v1/problems/spend-ceiling-exceeded');
      const noKey = await h.req('POST', '/api/v1/workflows/runs', { key: key.secret, body: { spec: big } });
      assert.equal(noKey.status, 400, 'API keys must send Idempotency-Key');
      const theirs = await uploadSmiles(h, poor.token, LIBRARY);
      const r404 = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec: FAN, inputs: { library: theirs } } });
      assert.equal(r404.status, 404, r404.text);
      for (const who of [poor.userId, u.userId]) {
        const { rows } = await h.services.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM workflow_runs WHERE user_id = $1 AND name IN ('big', 'fan') AND created_at > now() - interval '5 seconds'`,
          [who],
        );
        assert.equal(rows[0]!.n, 0, 'no run row');
        const jobs = await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE user_id = $1 AND job_type = 'wait' AND payload->>'seconds' = '600'`, [
          who,
        ]);
        assert.equal(jobs.rows[0]!.n, 0, 'no job');
      }
      assert.deepEqual(await ledger(h, poor.userId), before, 'no hold, nothing moved');
      const holds = await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE user_id = $1 AND note = 'workflow run start' AND key_id = $2`, [
        u.userId,
        key.id,
      ]);
      assert.equal(holds.rows[0]!.n, 0);
    });
  });
}
