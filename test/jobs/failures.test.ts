// Jobs that fail: a result that cannot be stored (disk full, on both backends) and a run past
// its runtime limit.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { walletStore } from '../../src/modules/wallet/store.js';
import { StorageError, type ArtifactStorage } from '../../src/storage/storage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** The real store, except that writes fail the way a full disk fails them, after reading part of the stream. */
function diskFull(real: ArtifactStorage): ArtifactStorage {
  return Object.assign(Object.create(real) as ArtifactStorage, {
    async put(source: Readable) {
      for await (const _chunk of source) break;
      source.destroy();
      throw new StorageError('write failed: no space left on device', 'ENOSPC');
    },
  });
}

for (const backend of BACKENDS) {
  describe(`a job whose result cannot be stored [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
    });
    after(async () => h?.close());

    it('ends error, is not charged, releases its reservation and leaves nothing half-written', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const real = h.services.artifacts.storage;
      h.services.artifacts.storage = diskFull(real);
      try {
        const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'full disk', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
        const done = await h.waitForJob(u.token, pid);
        assert.equal(done.status, 'error');
        assert.match(done.message ?? '', /could not be stored/);
        assert.equal(done.result_artifact_id, null);
        const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token })).body.info;
        assert.equal(info.charged_amount, 0, 'a platform fault is not charged');
        const w = await h.req('GET', '/api/v1/wallet', { token: u.token });
        assert.deepEqual(w.body, { balance_usd: 1, reserved_usd: 0, available_usd: 1, currency: 'USD' });
        const arts = await h.req('GET', '/api/v1/artifacts', { token: u.token });
        assert.equal(arts.body.items.length, 0, 'no artifact row');
        const objects: unknown[] = [];
        for await (const o of real.list()) objects.push(o);
        assert.deepEqual(objects, [], 'no object or temp file left in the store');
        const events = await h.services.db.query<{ status: string }>('SELECT status FROM events WHERE subject_id = $1', [pid]);
        assert.deepEqual(
          events.rows.map((r) => r.status),
          ['error'],
        );
        const sums = await walletStore.ledgerTotals(h.services.db, u.userId);
        assert.deepEqual(sums, { balance: 1_000_000, reserved: 0 });
      } finally {
        h.services.artifacts.storage = real;
      }
    });
  });
}

describe('a job past its runtime limit [pglite]', () => {
  let h: Harness;
  before(async () => {
    // Grace 0 and a run that outlasts its expected runtime make the limit reachable in a test.
    h = await startHarness(BACKENDS[0], { CRUCIBLE_RUNTIME_GRACE_SEC: '0' }, { workers: 0 });
  });
  after(async () => h?.close());

  it('ends error "runtime limit exceeded" and is charged at most its reservation', async () => {
    const u = await h.user();
    await h.credit(u.userId, 1);
    const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'overrun', job_type: 'wait', payload: { seconds: 5 } } })).body.process_id;
    // The estimate was optimistic: the job was expected to take 0.5 s (limit 1.5 s) but sleeps 5 s.
    await h.services.db.query('UPDATE jobs SET expected_runtime_sec = 0.5 WHERE id = $1', [pid]);
    const runtime = h.services.runtime(1, { runtimeGraceSec: 0 });
    await runtime.start();
    try {
      const done = await h.waitForJob(u.token, pid, undefined, 20_000);
      assert.equal(done.status, 'error');
      assert.match(done.message ?? '', /runtime limit exceeded/);
      const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token })).body.info;
      assert.ok(info.runtime_seconds >= 1.4 && info.runtime_seconds < 3, `stopped at the limit (${info.runtime_seconds} s)`);
      assert.equal(info.charged_amount, Math.round(info.runtime_seconds * 200) / 1e6, 'charged the runtime used');
      assert.ok(info.charged_amount <= 5 * 0.0002);
      const w = await walletStore.read(h.services.db, u.userId);
      assert.equal(w.reserved_micros, 0);
    } finally {
      await runtime.stop();
    }
  });
});
