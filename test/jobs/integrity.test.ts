// Result integrity and job bookkeeping: a worker that lost its job never touches the winner's
// result; the result row commits with the job's end; delete is one transaction; the 3-attempt
// limit; idempotent submit-multiple; the 100,000-molecule input limit.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { JobRuntime } from '../../src/compute/runtime.js';
import { walletStore } from '../../src/modules/wallet/store.js';
import type { ArtifactStorage } from '../../src/storage/storage.js';
import { makeZip, storedObjects as listObjects, upload } from '../artifacts/helpers.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Keys of every object and temp file in the store, sorted. */
async function storedObjects(h: Harness): Promise<string[]> {
  return (await listObjects(h)).map((o) => `${o.temporary ? 'temp:' : ''}${o.key}`).sort();
}

async function jobRow(h: Harness, id: string) {
  return (await h.services.db.query<any>('SELECT status, attempts, worker_id, message, charged_micros, result_artifact_id FROM jobs WHERE id = $1', [id])).rows[0];
}

async function ledgerKinds(h: Harness, jobId: string): Promise<string[]> {
  return (await h.services.db.query<{ kind: string }>('SELECT kind FROM ledger WHERE job_id = $1 ORDER BY id', [jobId])).rows.map((r) => r.kind);
}

async function eventStatuses(h: Harness, jobId: string): Promise<string[]> {
  return (await h.services.db.query<{ status: string }>('SELECT status FROM events WHERE subject_id = $1', [jobId])).rows.map((r) => r.status);
}

async function assertLedger(h: Harness, userId: string) {
  const w = await walletStore.read(h.services.db, userId);
  const sums = await walletStore.ledgerTotals(h.services.db, userId);
  assert.equal(w.balance_micros, sums.balance, 'balance equals the sum of the ledger');
  assert.equal(w.reserved_micros, sums.reserved, 'reserved equals the sum of the holds');
  return w;
}

for (const backend of BACKENDS) {
  describe(`job result integrity [${backend.name}]`, () => {
    let h: Harness;
    const runtimes: JobRuntime[] = [];
    const runtime = (slots: number, opts: { heartbeatMs?: number } = {}) => {
      // No timer sweeps: the tests call sweep() themselves.
      const r = h.services.runtime(slots, { sweepMs: 3_600_000, ...opts });
      runtimes.push(r);
      return r;
    };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 0 });
    });
    after(async () => {
      for (const r of runtimes) await r.stop().catch(() => undefined);
      await h?.close();
    });

    it("a worker that lost its job to a sweep (and finishes late) leaves the winner's result intact", async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const real = h.services.artifacts.storage;
      const filesBefore = (await storedObjects(h)).length;
      // The first result write (the first worker's) waits until the second worker has completed the job.
      let puts = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      h.services.artifacts.storage = Object.assign(Object.create(real) as ArtifactStorage, {
        async put(source: Readable) {
          if (++puts === 1) await gate;
          return real.put(source);
        },
      });
      try {
        const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'contested', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
        // Worker A never heart-beats during the test, so it does not notice that it lost the job.
        const a = runtime(1, { heartbeatMs: 60_000 });
        await a.start();
        await until('worker A to run the job', async () => (await jobRow(h, pid)).status === 'running');
        await sleep(300); // past A's first (and, with a 60 s interval, only) heartbeat
        await h.services.db.query(`UPDATE jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [pid]);
        const b = runtime(1, { heartbeatMs: 200 });
        assert.deepEqual(await b.sweep(), { requeued: 1, failed: 0 }, 'A is presumed dead: the job goes back to the queue');
        await b.start();
        await until('worker B to complete the job', async () => (await jobRow(h, pid)).status === 'completed');
        const won = await jobRow(h, pid);
        assert.equal(won.attempts, 2);
        assert.equal(puts, 2, 'A is still holding its write');
        release();
        await until('worker A to give up', async () => a.busy === 0);

        const result = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
        assert.equal(result.status, 200, result.text);
        assert.deepEqual(result.body, { job_type: 'wait', slept_seconds: 1 });
        assert.equal((await h.req('GET', `/api/v1/artifacts/${won.result_artifact_id}`, { token: u.token })).status, 200, "the winner's artifact is still there");
        const rows = await h.services.db.query<{ id: string }>('SELECT id FROM artifacts WHERE job_id = $1', [pid]);
        assert.deepEqual(
          rows.rows.map((r) => r.id),
          [won.result_artifact_id],
          "one artifact: the winner's; the loser's row never committed",
        );
        assert.equal((await storedObjects(h)).length, filesBefore + 1, "the loser's file was removed, the winner's kept");
        assert.deepEqual(await eventStatuses(h, pid), ['completed']);
        const kinds = await ledgerKinds(h, pid);
        assert.deepEqual(kinds.filter((k) => k === 'charge').length, 1, 'charged once');
        assert.equal((await jobRow(h, pid)).status, 'completed', 'terminal states never change');
        await assertLedger(h, u.userId);
      } finally {
        release();
        h.services.artifacts.storage = real;
        for (const r of runtimes.splice(0)) await r.stop();
      }
    });

    it('the result row commits with the job end: a failure in between leaves no artifact row and no file', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const wallet = h.services.wallet;
      const settle = wallet.settle.bind(wallet);
      let failed = 0;
      // The settlement of the completion fails once (a crash between the result row and the job's end).
      wallet.settle = async (...args: Parameters<typeof settle>) => {
        if (args[1].chargeMicros > 0 && failed++ === 0) throw new Error('connection lost');
        return settle(...args);
      };
      const before = (await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body;
      const filesBefore = await storedObjects(h);
      const r = runtime(1);
      await r.start();
      try {
        const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'torn', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
        const done = await h.waitForJob(u.token, pid);
        assert.equal(failed, 1, 'the fault was injected');
        assert.equal(done.status, 'error');
        assert.match(done.message ?? '', /platform fault/);
        assert.equal(done.result_artifact_id, null);
        assert.deepEqual((await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM artifacts WHERE job_id = $1', [pid])).rows, [{ n: 0 }], 'no artifact row');
        assert.equal((await h.req('GET', '/api/v1/artifacts', { token: u.token })).body.items.length, 0, 'nothing listed');
        assert.deepEqual((await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body, before, 'nothing counted');
        assert.deepEqual(await storedObjects(h), filesBefore, 'no file, no temp file');
        assert.deepEqual(await eventStatuses(h, pid), ['error']);
        assert.equal((await jobRow(h, pid)).charged_micros, 0);
        const w = await assertLedger(h, u.userId);
        assert.equal(w.reserved_micros, 0);
        assert.equal(w.balance_micros, 1_000_000);
      } finally {
        wallet.settle = settle;
        for (const x of runtimes.splice(0)) await x.stop();
      }
    });

    it('delete removes the job and its result artifact in one transaction (a failed delete removes nothing)', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const r = runtime(1);
      await r.start();
      try {
        const empty = (await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body;
        const filesBefore = await storedObjects(h);
        const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'undeletable', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
        const done = await h.waitForJob(u.token, pid);
        assert.equal(done.status, 'completed');
        const artifactId = done.result_artifact_id!;
        const usage = (await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body;
        assert.equal(usage.artifact_count, empty.artifact_count + 1);
        assert.ok(usage.used_bytes > empty.used_bytes);
        const files = await storedObjects(h);
        assert.equal(files.length, filesBefore.length + 1);

        // The job row cannot be deleted (a fault in the middle of the delete): nothing may go.
        await h.services.db.exec(`
          CREATE FUNCTION test_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
          CREATE TRIGGER test_refuse_delete BEFORE DELETE ON jobs FOR EACH ROW WHEN (OLD.job_name = 'undeletable') EXECUTE FUNCTION test_refuse_delete();`);
        try {
          const failed = await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token });
          assert.equal(failed.status, 500);
          assert.equal((await h.req('GET', `/api/v1/artifacts/${artifactId}`, { token: u.token })).status, 200, 'the artifact row is still there');
          assert.equal((await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token })).status, 200, 'and its file');
          assert.deepEqual(await storedObjects(h), files);
        } finally {
          await h.services.db.exec('DROP TRIGGER test_refuse_delete ON jobs; DROP FUNCTION test_refuse_delete();');
        }

        const del = await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token });
        assert.equal(del.status, 200);
        assert.equal((await h.req('GET', `/api/v1/artifacts/${artifactId}`, { token: u.token })).status, 404, 'the result artifact is gone');
        assert.equal((await h.req('GET', `/api/v1/artifacts/${artifactId}/download`, { token: u.token })).status, 404);
        assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token })).status, 404);
        assert.deepEqual((await h.req('GET', '/api/v1/artifacts/usage', { token: u.token })).body, empty, 'usage drops back');
        assert.deepEqual(await storedObjects(h), filesBefore, 'the file is removed');
        assert.equal((await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token })).status, 404);
        await assertLedger(h, u.userId);
      } finally {
        for (const x of runtimes.splice(0)) await x.stop();
      }
    });

    it('a job whose worker dies 3 times ends error, not charged, reservation released, one event', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      // Three slots that never heart-beat: each attempt stays "running" on a dead-looking claim.
      const w = runtime(3, { heartbeatMs: 60_000 });
      const sweeper = runtime(0);
      const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'cursed', job_type: 'wait', payload: { seconds: 30 } } })).body.process_id;
      await w.start();
      try {
        for (let attempt = 1; attempt <= 3; attempt++) {
          await until(`attempt ${attempt}`, async () => {
            const j = await jobRow(h, pid);
            return j.status === 'running' && j.attempts === attempt;
          });
          await sleep(300); // past this attempt's first (and only) heartbeat
          assert.equal((await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token })).body.info.attempts, attempt);
          await h.services.db.query(`UPDATE jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [pid]);
          const swept = await sweeper.sweep();
          assert.deepEqual(swept, attempt < 3 ? { requeued: 1, failed: 0 } : { requeued: 0, failed: 1 }, `sweep after attempt ${attempt}`);
        }
        const j = await jobRow(h, pid);
        assert.equal(j.status, 'error');
        assert.equal(j.attempts, 3);
        assert.match(j.message, /worker was lost 3 times \(platform fault; not charged\)/);
        const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token })).body.info;
        assert.equal(info.status, 'error');
        assert.equal(info.charged_amount, 0);
        assert.deepEqual(await ledgerKinds(h, pid), ['reserve', 'release'], 'reserved once, released once, no charge');
        assert.deepEqual(await eventStatuses(h, pid), ['error'], 'exactly one event');
        const wallet = await h.req('GET', '/api/v1/wallet', { token: u.token });
        assert.deepEqual(wallet.body, { balance_usd: 1, reserved_usd: 0, available_usd: 1, currency: 'USD' });
        // Each attempt is tracked by itself (keyed by job id, the later hid the earlier, which ran on
        // past stop for the payload's 30 s and kept this file's process alive).
        assert.equal(w.busy, 3, 'the three attempts of the job on this worker');
        await w.stop(); // the stale attempts stop; none may requeue or end the job again
        assert.equal(w.busy, 0, 'stop ended every attempt');
        assert.equal((await jobRow(h, pid)).status, 'error');
        assert.deepEqual(await eventStatuses(h, pid), ['error']);
        await assertLedger(h, u.userId);
      } finally {
        for (const x of runtimes.splice(0)) await x.stop();
      }
    });

    it('a retried submit-multiple (same Idempotency-Key, same body) makes no second set; another body is 409', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      await h.credit(u.userId, 1);
      const body = {
        jobs: [
          { job_name: 'm1', job_type: 'wait', payload: { seconds: 20 } },
          { job_name: 'm2', job_type: 'wait', payload: { seconds: 30 } },
        ],
      };
      const headers = { 'idempotency-key': 'multi-1' };
      const first = await h.req('POST', '/api/v1/jobs/submit-multiple', { key: k.secret, headers, body });
      assert.equal(first.status, 200);
      assert.equal(first.body.process_ids.length, 2);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const retries = await Promise.all([1, 2].map(() => h.req('POST', '/api/v1/jobs/submit-multiple', { key: k.secret, headers, body })));
      for (const r of retries) {
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('idempotent-replayed'), 'true');
        assert.deepEqual(r.body.process_ids, first.body.process_ids);
      }
      const list = await h.req('GET', '/api/v1/jobs/list', { token: u.token });
      assert.equal(list.body.total, 2);
      assert.deepEqual([...list.body.job_pids].sort(), [...first.body.process_ids].sort());
      const w = await assertLedger(h, u.userId);
      assert.equal(w.reserved_micros, (20 + 30) * 200, 'one reservation per job, once');
      const reserves = (await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE user_id = $1 AND kind = 'reserve'`, [u.userId])).rows;
      assert.deepEqual(reserves, [{ n: 2 }]);
      const other = await h.req('POST', '/api/v1/jobs/submit-multiple', { key: k.secret, headers, body: { jobs: [body.jobs[0]] } });
      assert.equal(other.status, 409);
      assert.equal(other.body.type, '/api/v1/problems/idempotency-key-reused');
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 2, 'nothing more written');
      for (const pid of first.body.process_ids) await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: u.token });
      assert.equal((await assertLedger(h, u.userId)).reserved_micros, 0);
    });

    it('an input molecule set over 100,000 molecules is refused with 422 at payload.input_artifact_id naming the count and the limit; nothing is written', async () => {
      const u = await h.user();
      await h.credit(u.userId, 100);
      // An archive upload whose molecule port lists 100,001 records (all naming one small .smi
      // member) is the cheap way to a set that large: the job reads the count from the port
      // table, as it does for a `molecules` upload (which would write 100,001 zip members).
      const records = Array.from({ length: 100_001 }, (_, i) => ({ id: `m${i}`, files: { primary: 'molecules/all.smi' } }));
      const manifest = {
        job_type: 'upload',
        manifest_version: 1,
        ports: { molecules: { format: 'smiles', kind: 'molecules', record_count: records.length, records } },
        warnings: [],
      };
      const zip = await makeZip({ 'manifest.json': JSON.stringify(manifest), 'molecules/all.smi': 'CCO ethanol\n' });
      const up = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'big.zip', content: zip } });
      assert.equal(up.status, 201, JSON.stringify(up.body).slice(0, 300));
      assert.equal(up.body.manifest.ports.molecules.record_count, 100_001);
      const id = up.body.id;
      for (const route of ['estimate', 'submit']) {
        const body = { job_type: 'properties', payload: { input_artifact_id: id }, ...(route === 'submit' ? { job_name: 'too big' } : {}) };
        const r = await h.req('POST', `/api/v1/jobs/${route}`, { token: u.token, body });
        assert.equal(r.status, 422, route);
        assert.equal(r.body.detail, `body.payload.input_artifact_id: artifact ${id} holds 100001 molecules; a job takes at most 100000`);
        assert.deepEqual(r.body.errors, [
          { type: 'too_long', loc: ['body', 'payload', 'input_artifact_id'], msg: `artifact ${id} holds 100001 molecules; a job takes at most 100000`, input: id },
        ]);
      }
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0);
      assert.equal((await assertLedger(h, u.userId)).reserved_micros, 0);
    });
  });
}
