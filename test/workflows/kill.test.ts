// Workflow runs survive SIGKILL (docs/workflows.md): the API process that started a run and the
// worker running its steps are killed mid-run; the run still completes, no step job runs twice
// to completion, nothing is charged twice. Then the ledger is summed over runs that completed,
// failed, were cancelled and were killed mid-way: each run was charged exactly what its step
// jobs were, never more than it reserved, and nothing stays reserved. PostgreSQL only: the
// API and the workers are `crucible` processes sharing the harness's database.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { spawnCrucible } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { chargedToRun, ledger, LIBRARY, uploadFile, waitForRun, waitForStep } from './helpers.js';

const postgres = BACKENDS.find((b) => b.name === 'postgres');

describe('workflow runs through SIGKILL of the API and a worker', { skip: postgres ? false : 'CRUCIBLE_TEST_PG_URL is empty: no PostgreSQL server for several processes' }, () => {
  let h: Harness;
  const children: ChildProcess[] = [];
  before(async () => {
    h = await startHarness(postgres!, { CRUCIBLE_STORAGE: 'postgres', CRUCIBLE_STORAGE_SHARED: '1' });
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
  });

  function crucible(args: string[], env: Record<string, string> = {}) {
    return spawnCrucible(
      args,
      {
        DATABASE_URL: h.dbUrl!,
        CRUCIBLE_STORAGE: 'postgres',
        CRUCIBLE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-wf-')),
        CRUCIBLE_WORKERS: '1',
        CRUCIBLE_JOB_STALE_SEC: '3',
        ...env,
      },
      children,
    );
  }

  it('a run whose API and worker are killed completes once; the ledger balances over completed, failed, cancelled and killed runs', async () => {
    const u = await h.user();
    await h.credit(u.userId, 20);
    // The API that takes the run also runs one step (a serve process with one slot); a worker runs another.
    const api = crucible(['serve'], { PORT: '0', HOST: '127.0.0.1' });
    const w1 = crucible(['worker']);
    await Promise.all([api.ready, w1.ready]);
    const base = /listening on (http:\/\/\S+)/.exec(api.output())![1]!;
    const spec = {
      name: 'killed mid-way',
      inputs: { library: { type: 'molecules' } },
      steps: [
        // Long enough that both are running at once even when one process takes its first job
        // seconds before the other (4 s waits ran one after the other at load 7).
        { id: 'a', job_type: 'wait', params: { seconds: 15 } },
        { id: 'b', job_type: 'wait', params: { seconds: 15 } },
        { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw < 150' } },
        { id: 'describe', job_type: 'properties', inputs: { molecules: '$steps.keep.outputs.molecules' } },
      ],
    };
    const started = await fetch(`${base}/api/v1/workflows/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ spec, inputs: { library: LIBRARY } }),
    });
    const run = (await started.json()) as { run_id: string };
    assert.equal(started.status, 201, JSON.stringify(run));
    // Both waits running (one in the API process, one in the worker): kill both processes.
    await waitForStep(h, run.run_id, 'a', ['running'], 60_000);
    await waitForStep(h, run.run_id, 'b', ['running'], 60_000);
    api.child.kill('SIGKILL');
    w1.child.kill('SIGKILL');
    const w2 = crucible(['worker'], { CRUCIBLE_WORKERS: '2' });
    await w2.ready;
    const killed = await waitForRun(h, u.token, run.run_id, 120_000);
    assert.equal(killed.status, 'completed', JSON.stringify(killed.steps));
    assert.deepEqual(
      killed.steps.map((s: any) => s.state),
      ['completed', 'completed', 'completed', 'completed'],
    );
    const attempts = await h.services.db.query<{ id: string; attempts: number }>('SELECT id, attempts FROM jobs WHERE workflow_run_id = $1', [run.run_id]);
    assert.equal(attempts.rows.length, 4, 'one job per step: no step was started twice');
    assert.ok(attempts.rows.filter((r) => r.attempts >= 2).length >= 2, `the killed steps ran again: ${JSON.stringify(attempts.rows)}`);

    // Three more runs on the surviving worker: one completes, one fails, one is cancelled mid-way.
    const start = async (body: unknown) => {
      const r = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body });
      assert.equal(r.status, 201, r.text);
      return r.body.run_id as string;
    };
    const ok = await waitForRun(h, u.token, await start({ template_id: 'library-triage', inputs: { library: LIBRARY } }), 120_000);
    assert.equal(ok.status, 'completed');
    // Its columns and rows pass the checks at submit; its targets fail the run.
    const table = await uploadFile(h, u.token, 'train.csv', ['smiles,logS', ...Array.from({ length: 60 }, (_, i) => `${'C'.repeat(i + 1)},high`)].join('\n'));
    const failing = await start({
      spec: {
        name: 'fails',
        steps: [
          { id: 'long', job_type: 'wait', params: { seconds: 20 } },
          { id: 'bad', job_type: 'mpnn_train', params: { input_artifact_id: table, target_column: 'logS', model_name: 'never', task: 'regression' } },
        ],
      },
    });
    const failed = await waitForRun(h, u.token, failing, 120_000);
    assert.equal(failed.status, 'failed');
    const cancelling = await start({ spec: { name: 'cancelled', steps: [{ id: 'long', job_type: 'wait', params: { seconds: 30 } }] } });
    await waitForStep(h, cancelling, 'long', ['running'], 60_000);
    await new Promise((res) => setTimeout(res, 1000));
    const c = await h.req('POST', `/api/v1/workflows/runs/${cancelling}/cancel`, { token: u.token });
    assert.equal(c.status, 200, c.text);
    const cancelled = await waitForRun(h, u.token, cancelling);
    assert.equal(cancelled.status, 'cancelled');

    // The ledger over all four runs.
    const runs = [killed, ok, failed, cancelled];
    let total = 0;
    for (const r of runs) {
      const charged = await chargedToRun(h, r.run_id);
      assert.equal(Math.round(r.charged_usd * 1e6), charged, `${r.name}: the run's charge is its steps' charges`);
      assert.ok(charged <= Math.round(r.reserved_usd * 1e6), `${r.name}: charged ${charged} within its reservation ${r.reserved_usd}`);
      total += charged;
    }
    assert.ok(cancelled.charged_usd > 0 && failed.charged_usd > 0, 'cancel and failure charge the runtime used');
    const twice = await h.services.db.query<{ job_id: string; n: number }>(
      `SELECT job_id, count(*)::int AS n FROM ledger WHERE user_id = $1 AND kind = 'charge' GROUP BY job_id HAVING count(*) > 1`,
      [u.userId],
    );
    assert.deepEqual(twice.rows, [], 'no job was charged twice');
    const l = await ledger(h, u.userId);
    assert.deepEqual([l.reserved, l.walletReserved], [0, 0], 'nothing stays reserved');
    assert.deepEqual([l.charges, l.balance, l.walletBalance], [total, 20_000_000 - total, 20_000_000 - total]);
    const events = await h.services.db.query<{ subject_id: string; status: string }>(
      `SELECT subject_id, status FROM events WHERE user_id = $1 AND kind = 'workflow_run' ORDER BY event_id`,
      [u.userId],
    );
    assert.deepEqual(
      events.rows.map((e) => [e.subject_id, e.status]),
      runs.map((r) => [r.run_id, r.status]),
      'one workflow_run event per run',
    );
  });
});
