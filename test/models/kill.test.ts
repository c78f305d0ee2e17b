// A training job whose worker is killed (SIGKILL) mid-training (docs/models.md): another worker
// retries it after the stale sweep and it completes; the model is registered exactly once, by
// the completing attempt, and the job is charged once. PostgreSQL only: the workers are
// `crucible worker` processes on the harness's database.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { BACKENDS } from '../helpers/backends.js';
import { spawnCrucible } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const postgres = BACKENDS.find((b) => b.name === 'postgres');
const ESOL = (parse(fs.readFileSync(path.join(ROOT, 'data/public/esol.csv'), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));

describe('a training job killed mid-way', { skip: postgres ? false : 'CRUCIBLE_TEST_PG_URL is empty: no PostgreSQL server for worker processes' }, () => {
  let h: Harness;
  const children: ChildProcess[] = [];
  before(async () => {
    h = await startHarness(postgres!, { CRUCIBLE_STORAGE: 'postgres', CRUCIBLE_STORAGE_SHARED: '1' });
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
  });

  function worker() {
    return spawnCrucible(
      ['worker'],
      {
        DATABASE_URL: h.dbUrl!,
        CRUCIBLE_STORAGE: 'postgres',
        CRUCIBLE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-w-')),
        CRUCIBLE_WORKERS: '1',
        CRUCIBLE_JOB_STALE_SEC: '3',
      },
      children,
    );
  }

  it('is retried by another worker and registers its model once', async () => {
    const u = await h.user();
    await h.credit(u.userId, 5);
    const first = worker();
    await first.ready;
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: u.token,
      body: {
        job_name: 'k',
        job_type: 'mpnn_train',
        // Long enough to be caught mid-way on a fast idle machine: the fused engine trains 100 rows
        // for 12 epochs at hidden size 32 in well under a second, which once ended before the kill.
        payload: { model_name: 'killed', task: 'regression', rows: ESOL.slice(0, 400), hyperparameters: { depth: 3, hidden_size: 128, ffn_layers: 1, epochs: 60, batch_size: 16 } },
      },
    });
    assert.equal(r.status, 200, r.text);
    const pid = r.body.process_id as string;
    let seen = '';
    for (let i = 0; i < 600; i++) {
      const s = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
      seen = `${s.body.status} ${JSON.stringify(s.body.progress)}`;
      if (s.body.status === 'running' && (s.body.progress as { epoch?: number } | null)?.epoch) break;
      assert.ok(!['completed', 'error', 'cancelled'].includes(s.body.status as string), `the job ended before the kill: ${seen}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.match(seen, /^running /, `caught mid-way: ${seen}`);
    first.child.kill('SIGKILL');
    assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, [], 'nothing registered mid-way');
    const second = worker();
    await second.ready;
    const done = await h.waitForJob(u.token, pid, ['completed', 'error', 'cancelled'], 120_000);
    assert.equal(done.status, 'completed', done.message ?? '');
    const models = (await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body;
    assert.deepEqual(models.model_names, ['killed']);
    assert.equal(models.model_info.killed.trained_by_process_id, pid);
    const ledger = await h.services.db.query<{ kind: string; n: number }>(
      "SELECT kind, count(*)::int AS n FROM ledger WHERE job_id = $1 AND kind IN ('reserve', 'charge') GROUP BY kind ORDER BY kind",
      [pid],
    );
    assert.deepEqual(ledger.rows, [
      { kind: 'charge', n: 1 },
      { kind: 'reserve', n: 1 },
    ]);
    const attempts = await h.services.db.query<{ attempts: number }>('SELECT attempts FROM jobs WHERE id = $1', [pid]);
    assert.ok(attempts.rows[0]!.attempts >= 2, 'the job ran again after the kill');
  });
});
