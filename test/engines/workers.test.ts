// Engine jobs across `crucible worker` processes on PostgreSQL (docs/engines.md): a worker
// claims only the job types it can run (one worker has no engine on its PATH: every engine
// job goes to the other); a worker SIGKILLed mid-calculation leaves no engine process behind,
// and its job is retried by another worker and charged once.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { spawnCrucible, type CrucibleProcess } from '../helpers/processes.js';
import { engineProcesses, LONG_SMILES, within } from './helpers.js';

const pgBackend = BACKENDS.find((b) => b.name === 'postgres');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('engine jobs across worker processes [postgres]', { skip: pgBackend ? false : 'needs PostgreSQL (several processes share one database)' }, () => {
  let h: Harness;
  let env: Record<string, string>;
  const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-no-engines-'));
  before(async () => {
    h = await startHarness(pgBackend!, {}, { workers: 0 });
    env = { DATABASE_URL: h.dbUrl!, CRUCIBLE_STORAGE_SHARED: '1', CRUCIBLE_DATA_DIR: h.config.dataDir, CRUCIBLE_JOB_STALE_SEC: '3' };
  });
  after(async () => {
    await h?.close();
    fs.rmSync(emptyPath, { recursive: true, force: true });
  });

  const pidOf = (w: CrucibleProcess) => w.child.pid!;
  const workerOf = async (jobId: string) => (await h.services.db.query<{ worker_id: string | null }>('SELECT worker_id FROM jobs WHERE id = $1', [jobId])).rows[0]!.worker_id ?? '';

  it('a worker with no engines on its PATH claims no engine job; the other runs them all', async () => {
    // Node is started by its full path, so a PATH of an empty directory hides the engines only.
    const bare = spawnCrucible(['worker'], { ...env, CRUCIBLE_WORKERS: '2', PATH: emptyPath }, children);
    const full = spawnCrucible(['worker'], { ...env, CRUCIBLE_WORKERS: '1' }, children);
    await Promise.all([bare.ready, full.ready]);
    try {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const engines = (await h.req('GET', '/api/v1/engines', { token: u.token })).body;
      assert.equal(engines.workers, 2);
      assert.deepEqual(
        engines.engines.map((e: { name: string; workers: number }) => [e.name, e.workers]),
        [
          ['xtb', 1],
          ['mopac', 1],
          ['obabel', 1],
          ['vina', 1],
          ['psi4', 1],
          ['nwchem', 1],
          ['rdkit', 1],
          ['pdbfixer', 1],
          ['pdb2pqr', 1],
          ['plip', 1],
        ],
      );
      const submit = async (job_type: string, payload: unknown) => {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: job_type, job_type, payload } });
        assert.equal(r.status, 200, r.text);
        return String(r.body.process_id);
      };
      const engineJobs = [];
      const rdkitJobs = [];
      for (let i = 0; i < 4; i++) {
        engineJobs.push(await submit('singlepoint', { molecules: ['CCO', 'O'], method: i % 2 ? 'pm7' : 'gfnff' }));
        rdkitJobs.push(await submit('properties', { smiles: ['CCO', 'c1ccccc1'] }));
      }
      for (const id of [...engineJobs, ...rdkitJobs]) assert.equal((await h.waitForJob(u.token, id, undefined, 120_000)).status, 'completed', id);
      for (const id of engineJobs) assert.match(await workerOf(id), new RegExp(`:${pidOf(full)}:`), `engine job ${id} ran on the worker with engines`);
      const bareRan = (await Promise.all(rdkitJobs.map(workerOf))).filter((w) => w.includes(`:${pidOf(bare)}:`)).length;
      assert.ok(bareRan >= 1, 'the worker without engines took RDKit jobs');
    } finally {
      for (const w of [bare, full]) {
        w.child.kill('SIGTERM');
        await new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)));
      }
    }
  });

  it('a worker SIGKILLed mid-calculation leaves no engine behind; another worker runs the job, charged once', { timeout: 240_000 }, async () => {
    const u = await h.user();
    await h.credit(u.userId, 5);
    const first = spawnCrucible(['worker'], { ...env, CRUCIBLE_WORKERS: '1' }, children);
    await first.ready;
    // A long optimisation cut at a few cycles: it runs long enough to be killed, and not for long on the retry.
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: u.token,
      body: { job_name: 'killed', job_type: 'optimize', payload: { molecules: [LONG_SMILES], method: 'gfn2', max_iterations: 3 } },
    });
    assert.equal(r.status, 200, r.text);
    const id = String(r.body.process_id);
    await within('xtb runs on the first worker', 90_000, () => engineProcesses(pidOf(first)).some((p) => /\bxtb\b/.test(p.cmd)), 50);
    const engine = engineProcesses(pidOf(first)).filter((p) => /\bxtb\b/.test(p.cmd));
    first.child.kill('SIGKILL');
    const ms = await within('the engine dies with its worker', 5_000, () => engine.every((p) => !engineProcesses(pidOf(first)).some((q) => q.pid === p.pid)), 10);
    assert.ok(ms < 1_000, `the engine outlived its worker by ${ms} ms`);

    const second = spawnCrucible(['worker'], { ...env, CRUCIBLE_WORKERS: '1' }, children);
    await second.ready;
    const done = await h.waitForJob(u.token, id, undefined, 180_000);
    assert.equal(done.status, 'completed', done.message ?? '');
    const job = (await h.services.db.query<{ attempts: number; worker_id: string }>('SELECT attempts, worker_id FROM jobs WHERE id = $1', [id])).rows[0]!;
    assert.equal(job.attempts, 2);
    assert.match(job.worker_id, new RegExp(`:${pidOf(second)}:`));
    const charges = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE job_id = $1 AND kind = 'charge'`, [id])).rows[0]!.n;
    assert.equal(charges, 1, 'charged once');
    const item = (await h.req('GET', `/api/v1/jobs/result?process_id=${id}`, { token: u.token })).body.items[0];
    assert.equal(item.error, 'not_converged', JSON.stringify(item).slice(0, 300));
    assert.match(item.detail, /failed to converge the geometry optimisation in 3 iterations/);
    assert.match(item.molblock, /V2000/, 'the last structure is kept');
    second.child.kill('SIGTERM');
  });
});
