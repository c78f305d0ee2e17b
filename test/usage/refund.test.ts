// A failed asynchronous request gives its allowance back (issue 22: "Nothing that fails counts
// against the allowance"; docs/usage.md, "Counting"), on both databases. Utility and inference
// requests whose uploaded set is deleted before they run end `error` and leave the month's count
// where it was before their submit (and show `counted: 0`); completed requests keep their count,
// and so does a cancelled one. The units go back to the month the request was counted in (its
// created_at month, UTC), never below zero.
// Run: node --import tsx --test test/usage/refund.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { periodOf } from '../../src/modules/usage/service.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

/** `n` small molecules as a .smi file (names by position). */
const smi = (n: number) => Array.from({ length: n }, (_, i) => `C${'C'.repeat(i % 8)}O m${i}`).join('\n') + '\n';

for (const backend of BACKENDS) {
  describe(`a failed request gives its allowance back [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      // No worker: requests stay queued until a test starts one, after deleting their inputs.
      h = await startHarness(backend, {}, { workers: 0 });
    });
    after(() => h?.close());

    async function submit(token: string, path: '/utilities/submit' | '/inference/submit', body: unknown, counted: number): Promise<string> {
      const r = await h.req('POST', `/api/v1${path}`, { token, body });
      assert.equal(r.status, 200, r.text);
      const kind = path === '/utilities/submit' ? 'utilities' : 'inference';
      const st = await h.req('GET', `/api/v1/${kind}/requests/${r.body.request_id}`, { token });
      assert.equal(st.body.counted, counted, st.text);
      return r.body.request_id as string;
    }

    const usage = async (token: string) => {
      const b = (await h.req('GET', '/api/v1/usage', { token })).body;
      return { utilities: b.calls.utilities, inference: b.calls.inference, all_time: b.all_time.total };
    };

    /** Runs the queued requests with a worker of one slot until each has ended. */
    async function runAll(token: string, ids: string[]): Promise<Map<string, { status: string; message: string | null }>> {
      const runtime = h.services.runtime(1);
      await runtime.start();
      try {
        const out = new Map<string, { status: string; message: string | null }>();
        for (const id of ids) out.set(id, await h.waitForJob(token, id, undefined, 180_000));
        return out;
      } finally {
        await runtime.stop();
      }
    }

    it('a request that ends `error` leaves the count where it was before its submit; completed and cancelled ones keep theirs', async () => {
      const u = await h.user();
      const setU = await uploadArtifact(h, u.token, 'molecules', 'set.smi', smi(150)); // 2 units
      const setI = await uploadArtifact(h, u.token, 'molecules', 'set.smi', smi(250)); // 3 units
      assert.deepEqual(await usage(u.token), { utilities: 0, inference: 0, all_time: 0 });

      const failU = await submit(u.token, '/utilities/submit', { tool: 'convert', input: { input_artifact_id: setU } }, 2);
      const failI = await submit(u.token, '/inference/submit', { model: 'public/esol-logs', input_artifact_id: setI }, 3);
      const okU = await submit(u.token, '/utilities/submit', { tool: 'convert', input: { molecules: ['CCO', 'CCN', 'c1ccccc1O'] } }, 1);
      const okI = await submit(u.token, '/inference/submit', { model: 'public/esol-logs', smiles: ['CCO', 'CCN'] }, 1);
      const cancelled = await submit(u.token, '/utilities/submit', { tool: 'convert', input: { molecules: ['CCO'] } }, 1);
      const c = await h.req('DELETE', `/api/v1/utilities/requests/${cancelled}`, { token: u.token });
      assert.deepEqual([c.status, c.body.status], [200, 'cancelled'], c.text);
      assert.deepEqual(await usage(u.token), { utilities: 4, inference: 4, all_time: 8 });

      // The sets go before the requests run: those two requests fail.
      for (const id of [setU, setI]) assert.equal((await h.req('DELETE', `/api/v1/artifacts/${id}`, { token: u.token })).status, 200);
      const ended = await runAll(u.token, [failU, failI, okU, okI]);
      assert.equal(ended.get(failU)?.status, 'error');
      assert.match(ended.get(failU)?.message ?? '', new RegExp(`artifact ${setU} not found`));
      assert.equal(ended.get(failI)?.status, 'error');
      assert.match(ended.get(failI)?.message ?? '', new RegExp(`artifact ${setI} not found`));
      assert.deepEqual([ended.get(okU)?.status, ended.get(okI)?.status], ['completed', 'completed'], JSON.stringify([...ended]));

      // utilities: the completed request (1) and the cancelled one (1); inference: the completed one (1).
      assert.deepEqual(await usage(u.token), { utilities: 2, inference: 1, all_time: 3 });
      const counted = async (kind: string, id: string) => (await h.req('GET', `/api/v1/${kind}/requests/${id}`, { token: u.token })).body.counted as number;
      assert.deepEqual(
        [
          await counted('utilities', failU),
          await counted('inference', failI),
          await counted('utilities', okU),
          await counted('inference', okI),
          await counted('utilities', cancelled),
        ],
        [0, 0, 1, 1, 1],
      );
    });

    it('the units go back to the month of the request, never below zero', async () => {
      const u = await h.user();
      const setA = await uploadArtifact(h, u.token, 'molecules', 'set.smi', smi(150)); // 2 units
      const setB = await uploadArtifact(h, u.token, 'molecules', 'set.smi', smi(150)); // 2 units
      const a = await submit(u.token, '/utilities/submit', { tool: 'convert', input: { input_artifact_id: setA } }, 2);
      const b = await submit(u.token, '/utilities/submit', { tool: 'convert', input: { input_artifact_id: setB } }, 2);
      const now = periodOf().key;
      // As if `a` had been submitted in January 2020 (5 calls counted that month) and `b` in
      // February 2020 (1 call left counted that month).
      const db = h.services.db;
      await db.query(`UPDATE jobs SET created_at = '2020-01-31T23:59:59Z' WHERE id = $1`, [a]);
      await db.query(`UPDATE jobs SET created_at = '2020-02-01T00:00:00Z' WHERE id = $1`, [b]);
      await db.query(`INSERT INTO usage_months (user_id, month, utilities) VALUES ($1, '2020-01-01', 5), ($1, '2020-02-01', 1)`, [u.userId]);

      for (const id of [setA, setB]) assert.equal((await h.req('DELETE', `/api/v1/artifacts/${id}`, { token: u.token })).status, 200);
      const ended = await runAll(u.token, [a, b]);
      assert.deepEqual([ended.get(a)?.status, ended.get(b)?.status], ['error', 'error']);

      const { rows } = await db.query<{ month: string; utilities: number }>(
        `SELECT to_char(month, 'YYYY-MM-DD') AS month, utilities FROM usage_months WHERE user_id = $1 ORDER BY month`,
        [u.userId],
      );
      assert.deepEqual(
        rows.map((r) => [r.month, r.utilities]),
        [
          ['2020-01-01', 3],
          ['2020-02-01', 0],
          [now, 4],
        ],
      );
    });
  });
}
