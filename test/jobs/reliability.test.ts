// Worker death, restarts and races, with real `crucible` processes where a process must die.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { walletStore } from '../../src/modules/wallet/store.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

function crucible(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn(process.execPath, crucibleArgv(args), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Crucible (worker .* running|listening on)/.test(out)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`crucible ${args[0]} exited ${code}: ${out}`)));
  });
  ready.catch(() => undefined);
  return { child, output: () => out, ready };
}

after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

async function ledgerConsistent(h: Harness, userId: string) {
  const w = await walletStore.read(h.services.db, userId);
  const sums = await walletStore.ledgerTotals(h.services.db, userId);
  assert.equal(w.balance_micros, sums.balance);
  assert.equal(w.reserved_micros, sums.reserved);
}

const pgBackend = BACKENDS.find((b) => b.name === 'postgres');

describe('a worker process killed in the middle of a job', { skip: pgBackend ? false : 'needs PostgreSQL (several processes share one database)' }, () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(pgBackend!, {}, { workers: 0 });
  });
  after(async () => h?.close());

  it('the job completes on another worker, charged once, with one event', async () => {
    const env = { DATABASE_URL: h.dbUrl!, CRUCIBLE_STORAGE_SHARED: '1', CRUCIBLE_WORKERS: '1', CRUCIBLE_JOB_STALE_SEC: '3', CRUCIBLE_DATA_DIR: h.config.dataDir };
    const w1 = crucible(['worker'], env);
    const w2 = crucible(['worker'], env);
    await Promise.all([w1.ready, w2.ready]);
    const u = await h.user();
    await h.credit(u.userId, 1);
    const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'survivor', job_type: 'wait', payload: { seconds: 4 } } })).body.process_id;
    await h.waitForJob(u.token, pid, ['running']);
    const { rows } = await h.services.db.query<{ worker_id: string }>('SELECT worker_id FROM jobs WHERE id = $1', [pid]);
    const [running] = rows;
    assert.ok(running, 'the job has a row');
    const victim = [w1, w2].find((w) => running.worker_id.includes(`:${w.child.pid}:`));
    assert.ok(victim, `the running worker (${running.worker_id}) is one of ours`);
    victim.child.kill('SIGKILL');
    const done = await h.waitForJob(u.token, pid, ['completed', 'error', 'cancelled'], 60_000);
    assert.equal(done.status, 'completed');
    const job = (await h.services.db.query<any>('SELECT attempts, worker_id, charged_micros, runtime_seconds FROM jobs WHERE id = $1', [pid])).rows[0];
    assert.equal(job.attempts, 2, 'one retry after the death');
    assert.ok(!job.worker_id.includes(`:${victim.child.pid}:`), 'finished by the surviving worker');
    const charges = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE job_id = $1 AND kind = 'charge'`, [pid])).rows;
    assert.deepEqual(charges, [{ n: 1 }], 'charged once');
    const releases = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE job_id = $1 AND kind = 'release'`, [pid])).rows;
    assert.deepEqual(releases, [{ n: 1 }], 'released once');
    const events = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE subject_id = $1`, [pid])).rows;
    assert.deepEqual(events, [{ n: 1 }], 'one event');
    await ledgerConsistent(h, u.userId);
  });
});

describe('a server restarted with jobs queued', () => {
  it('loses none of them (embedded database)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-restart-'));
    try {
      const env = { CRUCIBLE_DATA_DIR: dir, PORT: '0', CRUCIBLE_ADMIN_PASSWORD: 'admin-password-1', CRUCIBLE_WORKERS: '0', HOST: '127.0.0.1' };
      const first = crucible(['serve'], env);
      await first.ready;
      const base = first.output().match(/listening on (http:\/\/\S+)/)![1];
      const login = await fetch(`${base}/api/v1/auth/login-email`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'admin@crucible.local', password: 'admin-password-1' }),
      });
      const token = ((await login.json()) as { access_token: string }).access_token;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${base}/api/v1/jobs/submit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ job_name: `q${i}`, job_type: 'wait', payload: { seconds: 1 } }),
        });
        ids.push(((await r.json()) as { process_id: string }).process_id);
      }
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
      assert.equal(first.child.exitCode, 0);

      const second = crucible(['serve'], { ...env, CRUCIBLE_WORKERS: '2' });
      await second.ready;
      const base2 = second.output().match(/listening on (http:\/\/\S+)/)![1];
      const until = Date.now() + 30_000;
      let statuses: string[] = [];
      while (Date.now() < until) {
        statuses = await Promise.all(
          ids.map(
            async (id) =>
              ((await (await fetch(`${base2}/api/v1/jobs/status?process_id=${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string }).status,
          ),
        );
        if (statuses.every((s) => s === 'completed')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.deepEqual(statuses, Array(5).fill('completed'));
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const backend of BACKENDS) {
  describe(`cancel racing completion [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 4, runtime: { heartbeatMs: 100 } });
    });
    after(async () => h?.close());

    it('ends every job in exactly one terminal state with one event and a consistent ledger; both outcomes occur', async (t) => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      // Each cancel fires at its own offset from its job's start, spread across the moment the
      // 1 s job completes: the early ones always win, the late ones always lose, the middle ones race.
      const offsets = [300, 600, 850, 950, 1000, 1025, 1050, 1075, 1100, 1150, 1250, 1500, 1800];
      const ids: string[] = [];
      for (let i = 0; i < offsets.length; i++)
        ids.push((await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: `r${i}`, job_type: 'wait', payload: { seconds: 1 } } })).body.process_id);
      const outcomes = await Promise.all(
        ids.map(async (id, i) => {
          await h.waitForJob(u.token, id, ['running', 'completed']);
          const [started] = (await h.services.db.query<{ at: number }>('SELECT extract(epoch FROM started_at)::float8 * 1000 AS at FROM jobs WHERE id = $1', [id])).rows;
          const offset = offsets[i];
          assert.ok(started && offset !== undefined);
          await new Promise((r) => setTimeout(r, Math.max(0, started.at + offset - Date.now())));
          return (await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${id}`, { token: u.token })).status;
        }),
      );
      t.diagnostic(`cancel outcomes by offset: ${offsets.map((o, i) => `${o} ms: ${outcomes[i]}`).join(', ')}`);
      assert.ok(outcomes.includes(200), 'some cancels won');
      assert.ok(outcomes.includes(409), 'some completions won');
      for (const s of outcomes) assert.ok(s === 200 || s === 409, `cancel answered ${s}`);
      const finals = await Promise.all(ids.map((id) => h.waitForJob(u.token, id)));
      assert.equal(finals.length, ids.length);
      for (const [i, id] of ids.entries()) {
        const final = finals[i];
        assert.ok(final);
        assert.equal(final.status, outcomes[i] === 200 ? 'cancelled' : 'completed', `job ${i}: cancel ${outcomes[i]} -> ${final.status}`);
        const ev = await h.services.db.query<{ status: string }>('SELECT status FROM events WHERE subject_id = $1', [id]);
        assert.deepEqual(
          ev.rows.map((r) => r.status),
          [final.status],
          'one event with the final status',
        );
        const moves = await h.services.db.query<{ kind: string }>(`SELECT kind FROM ledger WHERE job_id = $1 ORDER BY id`, [id]);
        const kinds = moves.rows.map((r) => r.kind);
        assert.equal(kinds.filter((k) => k === 'reserve').length, 1);
        assert.equal(kinds.filter((k) => k === 'release').length, 1);
        assert.ok(kinds.filter((k) => k === 'charge').length <= 1);
      }
      await new Promise((r) => setTimeout(r, 300));
      for (const [i, id] of ids.entries()) {
        // A completed job has exactly its one result artifact; a cancelled one none (a worker that lost the race kept nothing).
        const final = finals[i];
        const arts = await h.services.db.query<{ id: string }>('SELECT id FROM artifacts WHERE job_id = $1', [id]);
        const [row] = (await h.services.db.query<{ result_artifact_id: string | null }>('SELECT result_artifact_id FROM jobs WHERE id = $1', [id])).rows;
        assert.ok(final && row);
        assert.deepEqual(
          arts.rows.map((r) => r.id),
          final.status === 'completed' ? [row.result_artifact_id] : [],
          `job ${i} (${final.status}): its artifacts`,
        );
      }
      for (const [i, id] of ids.entries()) {
        assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${id}`, { token: u.token })).body.status, finals[i]?.status, 'terminal states never change');
      }
      await ledgerConsistent(h, u.userId);
      const w = await walletStore.read(h.services.db, u.userId);
      assert.equal(w.reserved_micros, 0);
    });
  });
}
