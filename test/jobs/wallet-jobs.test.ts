import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { walletStore } from '../../src/modules/wallet/store.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const RATE = 0.0002; // default resource, USD per second

for (const backend of BACKENDS) {
  describe(`jobs, wallet and charging [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 4, runtime: { heartbeatMs: 200 } });
    });
    after(async () => h?.close());

    /** balance = sum of the ledger and reserved = sum of holds, after every scenario. */
    async function assertLedger(userId: string) {
      const w = await walletStore.read(h.services.db, userId);
      const sums = await walletStore.ledgerTotals(h.services.db, userId);
      assert.equal(w.balance_micros, sums.balance, 'balance equals the sum of the ledger');
      assert.equal(w.reserved_micros, sums.reserved, 'reserved equals the sum of the holds');
      assert.ok(w.balance_micros - w.reserved_micros >= 0, 'available never below zero');
      return w;
    }

    it('estimates per type and resource, charging nothing', async () => {
      const u = await h.user();
      const r = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'wait', payload: { seconds: 10 } } });
      assert.equal(r.status, 200);
      assert.equal(r.body.cost, 10 * RATE);
      assert.equal(r.body.expected_runtime_sec, 10);
      assert.equal(r.body.rate_per_sec, RATE);
      assert.equal(r.body.resource, 'default');
      assert.equal(r.body.job_type, 'wait');
      assert.equal(r.body.tier, 1);
      assert.equal(r.body.assumptions.runtime_limit_sec, 90);
      const big = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'wait', payload: { seconds: 10 }, resource: 'cpu-4' } });
      assert.equal(big.body.cost, 10 * 0.0008);
      assert.equal((await h.req('GET', '/api/v1/wallet', { token: u.token })).body.balance_usd, 0);
    });

    it('refuses unknown types, resources and bad payloads with 422 at the field', async () => {
      const u = await h.user();
      const cases: [Record<string, unknown>, (string | number)[]][] = [
        [{ job_type: 'teleport', payload: {} }, ['body', 'job_type']],
        [{ job_type: 'wait', payload: { seconds: 5 }, resource: 'gpu-9000' }, ['body', 'resource']],
        [{ job_type: 'wait', payload: { seconds: 0 } }, ['body', 'payload', 'seconds']],
        [{ job_type: 'wait', payload: {} }, ['body', 'payload', 'seconds']],
        [{ job_type: 'wait', payload: { seconds: 5, extra: 1 } }, ['body', 'payload', 'extra']],
      ];
      for (const [body, loc] of cases) {
        const r = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body });
        assert.equal(r.status, 422, JSON.stringify(body));
        assert.deepEqual(r.body.errors[0].loc, loc);
      }
      const unknownType = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'x', job_type: 'teleport', payload: {} } });
      assert.match(unknownType.body.errors[0].msg, /wait/, 'the allowed types are named');
      const unknownRes = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'wait', payload: { seconds: 5 }, resource: 'gpu' } });
      assert.match(unknownRes.body.errors[0].msg, /default, cpu-4/);
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0, 'nothing written');
    });

    it('runs a job: queued -> completed, reserved then charged the runtime, one result', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const sub = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'nap', job_type: 'wait', payload: { seconds: 1 } } });
      assert.equal(sub.status, 200);
      const pid = sub.body.process_id;
      const early = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
      assert.equal(early.status, 409);
      assert.equal(early.body.type, '/api/v1/problems/job-not-finished');
      const w1 = await h.req('GET', '/api/v1/wallet', { token: u.token });
      assert.equal(w1.body.reserved_usd, RATE);
      assert.equal(w1.body.available_usd, 1 - RATE);
      const done = await h.waitForJob(u.token, pid);
      assert.equal(done.status, 'completed');
      const result = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, { job_type: 'wait', slept_seconds: 1 });
      const info = await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token });
      assert.equal(info.body.info.status, 'completed');
      assert.ok(info.body.info.runtime_seconds >= 1 && info.body.info.runtime_seconds < 3, `runtime ${info.body.info.runtime_seconds}`);
      assert.equal(info.body.info.attempts, 1);
      const charged = info.body.info.charged_amount;
      assert.ok(charged > 0 && charged <= RATE, `charged ${charged} at most the reservation ${RATE}`);
      const w2 = await h.req('GET', '/api/v1/wallet', { token: u.token });
      assert.deepEqual(w2.body, { balance_usd: 1 - charged, reserved_usd: 0, available_usd: 1 - charged, currency: 'USD' });
      await assertLedger(u.userId);
    });

    it('answers 402 insufficient-funds and writes nothing', async () => {
      const u = await h.user();
      await h.credit(u.userId, 0.001); // covers 5 s of wait
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'long', job_type: 'wait', payload: { seconds: 6 } } });
      assert.equal(r.status, 402);
      assert.equal(r.body.type, '/api/v1/problems/insufficient-funds');
      assert.equal(r.body.retry, 'quota');
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0);
      const w = await assertLedger(u.userId);
      assert.equal(w.reserved_micros, 0);
    });

    it('enforces a key spend ceiling per calendar month with 403 spend-ceiling-exceeded', async () => {
      const u = await h.user();
      await h.credit(u.userId, 10);
      const k = await h.key(u.token, { spend_ceiling_usd: 0.003 }); // 15 s of wait
      const submit = (seconds: number, key: string) =>
        h.req('POST', '/api/v1/jobs/submit', { key: k.secret, headers: { 'idempotency-key': key }, body: { job_name: 'c', job_type: 'wait', payload: { seconds } } });
      assert.equal((await submit(10, 'a')).status, 200);
      const over = await submit(6, 'b');
      assert.equal(over.status, 403);
      assert.equal(over.body.type, '/api/v1/problems/spend-ceiling-exceeded');
      assert.equal((await submit(5, 'c')).status, 200, 'exactly up to the ceiling is allowed');
      const key = await h.req('GET', `/api/v1/auth/api-keys/${k.id}`, { token: u.token });
      assert.equal(key.body.spend_accrued_usd, 0.003);
      // Access tokens are limited by the wallet only.
      assert.equal((await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 't', job_type: 'wait', payload: { seconds: 6 } } })).status, 200);
      for (const j of (await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.items) {
        await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${j.process_id}`, { token: u.token });
      }
      await assertLedger(u.userId);
    });

    it('50 concurrent submits against a wallet that covers exactly 10 leave exactly 10 jobs', async () => {
      const u = await h.user();
      await h.credit(u.userId, 10 * 100 * RATE); // ten 100-second waits
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: `c${i}`, job_type: 'wait', payload: { seconds: 100 } } })),
      );
      assert.equal(results.filter((r) => r.status === 200).length, 10);
      assert.equal(results.filter((r) => r.status === 402).length, 40);
      const list = await h.req('GET', '/api/v1/jobs/list?limit=100', { token: u.token });
      assert.equal(list.body.total, 10);
      const w = await assertLedger(u.userId);
      assert.equal(w.balance_micros - w.reserved_micros, 0, 'available is exactly zero');
      for (const j of list.body.items) await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${j.process_id}`, { token: u.token });
      await assertLedger(u.userId);
    });

    it('cancels a running job within 2 s, charges the runtime used, and refuses a second cancel', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'long', job_type: 'wait', payload: { seconds: 60 } } })).body.process_id;
      await h.waitForJob(u.token, pid, ['running']);
      await new Promise((r) => setTimeout(r, 1000));
      const t0 = Date.now();
      const c = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: u.token });
      assert.equal(c.status, 200);
      assert.ok(Date.now() - t0 < 2000);
      const st = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
      assert.equal(st.body.status, 'cancelled');
      const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${pid}`, { token: u.token })).body.info;
      assert.ok(info.runtime_seconds >= 1 && info.runtime_seconds < 3, `runtime ${info.runtime_seconds}`);
      assert.equal(info.charged_amount, Math.round(info.runtime_seconds * 200) / 1e6);
      // The worker notices at its next heartbeat and frees the slot.
      const until = Date.now() + 2000;
      while (h.runtime!.busy > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      assert.equal(h.runtime!.busy, 0, 'the worker stopped within 2 s');
      const again = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: u.token });
      assert.equal(again.status, 409);
      assert.equal(again.body.type, '/api/v1/problems/job-already-finished');
      const st2 = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
      assert.equal(st2.body.status, 'cancelled', 'terminal states never change');
      await assertLedger(u.userId);
    });

    it('deletes only finished jobs (409 job-active before), and answers 404 after', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'd', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
      const active = await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token });
      assert.equal(active.status, 409);
      assert.equal(active.body.type, '/api/v1/problems/job-active');
      await h.waitForJob(u.token, pid);
      assert.equal((await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token })).status, 200);
      assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token })).status, 404);
      await assertLedger(u.userId);
    });

    it("answers 404 for another user's job on every route", async () => {
      const a = await h.user();
      const b = await h.user();
      await h.credit(a.userId, 1);
      const pid = (await h.req('POST', '/api/v1/jobs/submit', { token: a.token, body: { job_name: 'private', job_type: 'wait', payload: { seconds: 1 } } })).body.process_id;
      const routes: [string, string][] = [
        ['GET', 'info'],
        ['GET', 'status'],
        ['GET', 'result'],
        ['DELETE', 'cancel'],
        ['DELETE', 'delete'],
      ];
      for (const [m, p] of routes) {
        const r = await h.req(m, `/api/v1/jobs/${p}?process_id=${pid}`, { token: b.token });
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.ok(!r.text.includes('private'));
      }
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: b.token })).body.total, 0);
      const multi = await h.req('GET', `/api/v1/jobs/result-multiple?process_ids=${pid}`, { token: b.token });
      assert.equal(multi.body[pid].status, 404);
    });

    it('submit-multiple is all or nothing', async () => {
      const u = await h.user();
      await h.credit(u.userId, 0.01);
      const bad = await h.req('POST', '/api/v1/jobs/submit-multiple', {
        token: u.token,
        body: {
          jobs: [
            { job_name: 'a', job_type: 'wait', payload: { seconds: 1 } },
            { job_name: 'b', job_type: 'wait', payload: { seconds: -1 } },
          ],
        },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.errors[0].loc, ['body', 'jobs', 1, 'payload', 'seconds']);
      const poor = await h.req('POST', '/api/v1/jobs/submit-multiple', {
        token: u.token,
        body: {
          jobs: [
            { job_name: 'a', job_type: 'wait', payload: { seconds: 30 } },
            { job_name: 'b', job_type: 'wait', payload: { seconds: 30 } },
          ],
        },
      });
      assert.equal(poor.status, 402, 'the total (0.012) is more than the wallet (0.01)');
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0);
      const ok = await h.req('POST', '/api/v1/jobs/submit-multiple', {
        token: u.token,
        body: {
          jobs: [
            { job_name: 'a', job_type: 'wait', payload: { seconds: 1 } },
            { job_name: 'b', job_type: 'wait', payload: { seconds: 1 } },
          ],
        },
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.process_ids.length, 2);
      for (const pid of ok.body.process_ids) assert.equal((await h.waitForJob(u.token, pid)).status, 'completed');
      const multi = await h.req('GET', `/api/v1/jobs/result-multiple?process_ids=${ok.body.process_ids.join(',')},00000000-0000-4000-8000-000000000000`, { token: u.token });
      assert.equal(multi.status, 200);
      assert.deepEqual(multi.body[ok.body.process_ids[0]], { job_type: 'wait', slept_seconds: 1 });
      assert.equal(multi.body['00000000-0000-4000-8000-000000000000'].type, '/api/v1/problems/http-404');
      const tooMany = await h.req('GET', `/api/v1/jobs/result-multiple?process_ids=${Array.from({ length: 51 }, (_, i) => `p${i}`).join(',')}`, { token: u.token });
      assert.equal(tooMany.status, 422);
      assert.deepEqual(tooMany.body.errors[0].loc, ['query', 'process_ids']);
      await assertLedger(u.userId);
    });

    it('a retried submit (same Idempotency-Key) makes no second job or reservation', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      await h.credit(u.userId, 1);
      const body = { job_name: 'once', job_type: 'wait', payload: { seconds: 50 } };
      const headers = { 'idempotency-key': 'submit-1' };
      const first = await h.req('POST', '/api/v1/jobs/submit', { key: k.secret, headers, body });
      const retries = await Promise.all([1, 2, 3].map(() => h.req('POST', '/api/v1/jobs/submit', { key: k.secret, headers, body })));
      for (const r of retries) {
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('idempotent-replayed'), 'true');
        assert.equal(r.body.process_id, first.body.process_id);
      }
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 1);
      const w = await assertLedger(u.userId);
      assert.equal(w.reserved_micros, 50 * 200);
      const missing = await h.req('POST', '/api/v1/jobs/submit', { key: k.secret, body });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.type, '/api/v1/problems/missing-idempotency-key');
      await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${first.body.process_id}`, { token: u.token });
    });

    it('lists with filters, sort, paging, job_names and job_pids', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const ids: string[] = [];
      for (const name of ['Alpha run', 'beta run', 'gamma', 'alpha again']) {
        ids.push((await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: name, job_type: 'wait', payload: { seconds: 100 } } })).body.process_id);
      }
      await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${ids[2]}`, { token: u.token });
      const all = await h.req('GET', '/api/v1/jobs/list', { token: u.token });
      assert.equal(all.body.total, 4);
      assert.deepEqual(
        all.body.items.map((j: any) => j.job_name),
        ['alpha again', 'gamma', 'beta run', 'Alpha run'],
        'newest first by default',
      );
      assert.deepEqual(all.body.job_names, ['Alpha run', 'alpha again', 'beta run', 'gamma']);
      assert.deepEqual([...all.body.job_pids].sort(), [...ids].sort());
      const q = await h.req('GET', '/api/v1/jobs/list?q=ALPHA', { token: u.token });
      assert.deepEqual(q.body.items.map((j: any) => j.job_name).sort(), ['Alpha run', 'alpha again']);
      const [, beta] = ids;
      assert.ok(beta);
      const byPid = await h.req('GET', `/api/v1/jobs/list?q=${beta.slice(0, 13)}`, { token: u.token });
      assert.deepEqual(byPid.body.job_pids, [beta]);
      const cancelled = await h.req('GET', '/api/v1/jobs/list?status=cancelled', { token: u.token });
      assert.deepEqual(cancelled.body.job_pids, [ids[2]]);
      const two = await h.req('GET', '/api/v1/jobs/list?status=queued,dispatched,running,cancelled&sort=job_name&limit=2&offset=1', { token: u.token });
      assert.deepEqual(
        two.body.items.map((j: any) => j.job_name),
        ['alpha again', 'beta run'],
      );
      assert.equal(two.body.total, 4);
      assert.equal(two.body.limit, 2);
      assert.equal(two.body.offset, 1);
      const badSort = await h.req('GET', '/api/v1/jobs/list?sort=payload', { token: u.token });
      assert.equal(badSort.status, 422);
      assert.deepEqual(badSort.body.errors[0].loc, ['query', 'sort']);
      const badStatus = await h.req('GET', '/api/v1/jobs/list?status=done', { token: u.token });
      assert.deepEqual(badStatus.body.errors[0].loc, ['query', 'status']);
      const badLimit = await h.req('GET', '/api/v1/jobs/list?limit=101', { token: u.token });
      assert.deepEqual(badLimit.body.errors[0].loc, ['query', 'limit']);
      for (const id of ids) await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${id}`, { token: u.token });
    });
  });
}
