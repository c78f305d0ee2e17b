// The gap-free proof through real jobs: 200 `wait` jobs run at once on four worker runtimes
// and end together (most complete, some are cancelled while they run), each end being the
// job's own transaction (result artifact row, settlement, event). Two readers follow
// next_cursor while it happens (one long-polling with small pages, one polling). Each must see
// every job's terminal event exactly once, with the job's final status, event ids strictly
// increasing (1..200: the account has no other events).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JobRuntime } from '../../src/compute/runtime.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const JOBS = 200;
const RUNTIMES = 4;
const CANCELLED = 20;

interface Seen {
  ids: number[];
  subjects: string[];
  statuses: Map<string, string>;
}

for (const backend of BACKENDS) {
  describe(`events feed over concurrent job completions [${backend.name}]`, () => {
    let h: Harness;
    const runtimes: JobRuntime[] = [];
    before(async () => {
      // The readers poll in a tight loop: lift the per-credential request rate limit.
      h = await startHarness(backend, { CRUCIBLE_TIER_PRO_REQUESTS_PER_MINUTE: '10000000' }, { workers: 0 });
    });
    after(async () => {
      for (const r of runtimes) await r.stop().catch(() => undefined);
      await h?.close();
    });

    it(`${JOBS} jobs end at once on ${RUNTIMES} runtimes; readers following cursors see each terminal event once, in order`, async (t) => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const ids: string[] = [];
      for (let batch = 0; batch < JOBS / 100; batch++) {
        // The jobs to cancel sleep longer, so that a loaded machine still cancels them while they run.
        const jobs = Array.from({ length: 100 }, (_, i) => ({
          job_name: `g${batch * 100 + i}`,
          job_type: 'wait',
          payload: { seconds: (batch * 100 + i) % (JOBS / CANCELLED) === 3 ? 6 : 1 },
        }));
        const r = await h.req('POST', '/api/v1/jobs/submit-multiple', { token: u.token, body: { jobs } });
        assert.equal(r.status, 200, r.text);
        ids.push(...r.body.process_ids);
      }
      let stop = false;
      const reader = async (limit: number, wait: number): Promise<Seen> => {
        const seen: Seen = { ids: [], subjects: [], statuses: new Map() };
        let cursor = '';
        while (!stop && seen.ids.length < JOBS) {
          const r = await h.req('GET', `/api/v1/events?kind=job&limit=${limit}&wait=${wait}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`, { token: u.token });
          assert.equal(r.status, 200, r.text);
          for (const e of r.body.events) {
            seen.ids.push(e.event_id);
            seen.subjects.push(e.subject_id);
            seen.statuses.set(e.subject_id, e.status);
          }
          assert.equal(typeof r.body.next_cursor, 'string');
          cursor = r.body.next_cursor;
          if (wait === 0 && r.body.events.length === 0) await sleep(2);
        }
        return seen;
      };
      const readers = [reader(7, 1), reader(50, 0)];

      /** Polls the table once per 50 ms (not once per job: 200 pollers would be the load). */
      const statuses = async (of: string[]) =>
        new Map((await h.services.db.query<{ id: string; status: string }>('SELECT id, status FROM jobs WHERE id = ANY($1::uuid[])', [of])).rows.map((r) => [r.id, r.status]));
      const untilAll = async (of: string[], ok: (s: string) => boolean, what: string) => {
        const end = Date.now() + 60_000;
        for (;;) {
          const m = await statuses(of);
          if ([...m.values()].every(ok)) return m;
          if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
          await sleep(50);
        }
      };

      for (let i = 0; i < RUNTIMES; i++) {
        const r = h.services.runtime(JOBS / RUNTIMES, {});
        runtimes.push(r);
        await r.start();
      }
      // Cancel some while they run, so cancels commit among the completions.
      const toCancel = ids.filter((_, i) => i % (JOBS / CANCELLED) === 3);
      await untilAll(toCancel, (s) => s !== 'queued' && s !== 'dispatched', 'the jobs to cancel to run');
      const outcomes = await Promise.all(
        toCancel.map(async (id) => {
          await sleep(Math.random() * 300);
          return (await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${id}`, { token: u.token })).status;
        }),
      );
      for (const s of outcomes) assert.ok(s === 200 || s === 409, `cancel answered ${s}`);
      const finals = await untilAll(ids, (s) => ['completed', 'error', 'cancelled'].includes(s), 'every job to end');
      const timer = setTimeout(() => (stop = true), 15_000); // a reader that missed an event would poll forever
      const results = await Promise.all(readers);
      clearTimeout(timer);

      const expected = finals;
      const byStatus = (s: string) => [...expected.values()].filter((x) => x === s).length;
      assert.ok(byStatus('completed') >= JOBS - CANCELLED, `completed: ${byStatus('completed')}`);
      assert.ok(byStatus('cancelled') >= 1, `cancelled: ${byStatus('cancelled')}`);
      for (const [i, seen] of results.entries()) {
        assert.deepEqual(
          seen.ids,
          Array.from({ length: JOBS }, (_, k) => k + 1),
          `reader ${i}: every event id 1..${JOBS} exactly once, strictly increasing`,
        );
        assert.equal(new Set(seen.subjects).size, JOBS, `reader ${i}: each job's event once`);
        assert.deepEqual(new Map([...seen.statuses].sort()), new Map([...expected].sort()), `reader ${i}: every job's terminal event, with its final status`);
      }
      // One event per job in the table too.
      const { rows } = await h.services.db.query<{ n: number; d: number }>('SELECT count(*)::int AS n, count(DISTINCT subject_id)::int AS d FROM events WHERE user_id = $1', [
        u.userId,
      ]);
      assert.deepEqual(rows[0], { n: JOBS, d: JOBS });
      t.diagnostic(`${byStatus('completed')} completed, ${byStatus('cancelled')} cancelled, ${byStatus('error')} error`);
    });
  });
}
