// GET /api/v1/events: listing, cursor following, filters, limits, validation, retention,
// account isolation. Events are appended the way the job engine does: appendEvent inside
// the transaction that ends the subject.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { appendEvent, MIN_RETENTION_DAYS, type NewEvent } from '../../src/modules/events/service.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const uuid = () => crypto.randomUUID();

for (const backend of BACKENDS) {
  describe(`events feed [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    const append = (e: NewEvent) => h.services.db.transaction((tx) => appendEvent(tx, e));
    const get = (token: string, query: Record<string, string | number> = {}) =>
      h.req('GET', `/api/v1/events?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`, { token });

    it('lists events oldest first with every field, and follows next_cursor without loss or repeat', async () => {
      const u = await h.user();
      const jobs = [uuid(), uuid(), uuid(), uuid(), uuid()];
      const statuses = ['completed', 'error', 'cancelled', 'completed', 'completed'];
      const t0 = Date.now();
      const ids: number[] = [];
      for (const [i, subjectId] of jobs.entries()) {
        const status = statuses[i];
        assert.ok(status);
        ids.push(await append({ userId: u.userId, kind: 'job', subjectId, status }));
      }
      const run = uuid();
      ids.push(await append({ userId: u.userId, kind: 'workflow_run', subjectId: run, status: 'failed' }));
      assert.deepEqual(ids, [1, 2, 3, 4, 5, 6], 'per-account ids are dense and start at 1');

      const all = await get(u.token);
      assert.equal(all.status, 200);
      assert.equal(all.body.events.length, 6);
      const first = all.body.events[0];
      assert.deepEqual(Object.keys(first).sort(), ['cursor', 'event_id', 'kind', 'occurred_at', 'status', 'subject_id', 'workflow_run_id']);
      assert.equal(first.kind, 'job');
      assert.equal(first.subject_id, jobs[0]);
      assert.equal(first.status, 'completed');
      assert.equal(first.workflow_run_id, null);
      assert.ok(Math.abs(Date.parse(first.occurred_at) - t0) < 60_000, 'occurred_at is now');
      assert.match(first.occurred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(
        all.body.events.map((e: any) => [e.event_id, e.subject_id, e.status, e.kind]),
        [...jobs.map((j, i) => [i + 1, j, statuses[i], 'job']), [6, run, 'failed', 'workflow_run']],
      );
      for (const e of all.body.events) {
        assert.equal(typeof e.cursor, 'string');
        assert.ok(e.cursor.length <= 41, 'cursor at most 41 characters');
      }
      assert.equal(new Set(all.body.events.map((e: any) => e.cursor)).size, 6, 'one cursor per event');
      assert.equal(all.body.next_cursor, all.body.events[5].cursor, 'next_cursor is the last event cursor');

      // Following in pages of 2 gives the same sequence.
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 4; i++) {
        const r = await get(u.token, cursor ? { after: cursor, limit: 2 } : { limit: 2 });
        assert.equal(r.status, 200);
        seen.push(...r.body.events.map((e: any) => e.event_id));
        assert.equal(typeof r.body.next_cursor, 'string');
        cursor = r.body.next_cursor;
      }
      assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);

      // At the end: empty, and the same cursor back, so the client keeps polling with it.
      const end = await get(u.token, { after: cursor! });
      assert.deepEqual(end.body, { events: [], next_cursor: cursor });

      // A new event appears after that cursor and only it.
      const later = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: later, status: 'completed', workflowRunId: run });
      const next = await get(u.token, { after: cursor! });
      assert.equal(next.body.events.length, 1);
      assert.equal(next.body.events[0].event_id, 7);
      assert.equal(next.body.events[0].subject_id, later);
      assert.equal(next.body.events[0].workflow_run_id, run, 'a job event carries its workflow run');

      // An event's own cursor resumes right after it.
      const fromThird = await get(u.token, { after: all.body.events[2].cursor });
      assert.deepEqual(
        fromThird.body.events.map((e: any) => e.event_id),
        [4, 5, 6, 7],
      );
    });

    it('answers an empty feed with a usable cursor, and API keys read the same feed', async () => {
      const u = await h.user();
      const r = await get(u.token);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.events, []);
      assert.equal(typeof r.body.next_cursor, 'string', 'next_cursor even when empty');
      assert.ok(r.body.next_cursor.length <= 41);
      const job = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' });
      const key = await h.key(u.token, { scopes: ['read'] });
      const viaKey = await h.req('GET', `/api/v1/events?after=${encodeURIComponent(r.body.next_cursor)}`, { key: key.secret });
      assert.equal(viaKey.status, 200);
      assert.deepEqual(
        viaKey.body.events.map((e: any) => e.subject_id),
        [job],
      );
      // A write-only key lacks the read scope.
      const writeOnly = await h.key(u.token, { scopes: ['write'] });
      const denied = await h.req('GET', '/api/v1/events', { key: writeOnly.secret });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.type, '/api/v1/problems/insufficient-scope');
      const anon = await h.req('GET', '/api/v1/events');
      assert.equal(anon.status, 401);
    });

    it('filters by kind and subject_id, and the filtered feed still advances by cursor', async () => {
      const u = await h.user();
      const [a, b, run] = [uuid(), uuid(), uuid()];
      await append({ userId: u.userId, kind: 'job', subjectId: a, status: 'completed', workflowRunId: run });
      await append({ userId: u.userId, kind: 'workflow_run', subjectId: run, status: 'completed' });
      await append({ userId: u.userId, kind: 'job', subjectId: b, status: 'cancelled' });
      await append({ userId: u.userId, kind: 'workflow_run', subjectId: uuid(), status: 'cancelled' });

      const jobsOnly = await get(u.token, { kind: 'job' });
      assert.deepEqual(
        jobsOnly.body.events.map((e: any) => [e.event_id, e.subject_id]),
        [
          [1, a],
          [3, b],
        ],
      );
      const runsOnly = await get(u.token, { kind: 'workflow_run' });
      assert.deepEqual(
        runsOnly.body.events.map((e: any) => e.event_id),
        [2, 4],
      );
      const bySubject = await get(u.token, { subject_id: run });
      assert.deepEqual(
        bySubject.body.events.map((e: any) => [e.event_id, e.kind, e.status]),
        [[2, 'workflow_run', 'completed']],
      );
      const both = await get(u.token, { subject_id: b, kind: 'job' });
      assert.deepEqual(
        both.body.events.map((e: any) => e.event_id),
        [3],
      );
      const none = await get(u.token, { subject_id: b, kind: 'workflow_run' });
      assert.deepEqual(none.body.events, []);

      // Paging a filtered feed one at a time.
      const p1 = await get(u.token, { kind: 'job', limit: 1 });
      assert.deepEqual(
        p1.body.events.map((e: any) => e.event_id),
        [1],
      );
      const p2 = await get(u.token, { kind: 'job', limit: 1, after: p1.body.next_cursor });
      assert.deepEqual(
        p2.body.events.map((e: any) => e.event_id),
        [3],
      );
      const p3 = await get(u.token, { kind: 'job', limit: 1, after: p2.body.next_cursor });
      assert.deepEqual(p3.body, { events: [], next_cursor: p2.body.next_cursor });
      // The cursor of a filtered read is a position in the whole feed: unfiltered after it.
      const rest = await get(u.token, { after: p1.body.next_cursor });
      assert.deepEqual(
        rest.body.events.map((e: any) => e.event_id),
        [2, 3, 4],
      );
    });

    it('bounds a page by limit (default 50, at most 100)', async () => {
      const u = await h.user();
      await h.services.db.transaction(async (tx) => {
        for (let i = 0; i < 120; i++) await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: `job-${i}`, status: 'completed' });
      });
      const d = await get(u.token);
      assert.equal(d.body.events.length, 50, 'default limit 50');
      assert.equal(d.body.events[49].event_id, 50);
      const max = await get(u.token, { limit: 100 });
      assert.equal(max.body.events.length, 100);
      const rest = await get(u.token, { limit: 100, after: max.body.next_cursor });
      assert.deepEqual(
        rest.body.events.map((e: any) => e.event_id),
        Array.from({ length: 20 }, (_, i) => 101 + i),
      );
      const one = await get(u.token, { limit: 1 });
      assert.deepEqual(
        one.body.events.map((e: any) => e.subject_id),
        ['job-0'],
      );
    });

    it('rejects bad parameters with 422 and loc', async () => {
      const u = await h.user();
      const cases: [Record<string, string>, string, string][] = [
        [{ limit: '0' }, 'limit', 'greater_than_equal'],
        [{ limit: '101' }, 'limit', 'less_than_equal'],
        [{ limit: 'ten' }, 'limit', 'int_type'],
        [{ limit: '2.5' }, 'limit', 'int_type'],
        [{ wait: '-1' }, 'wait', 'greater_than_equal'],
        [{ wait: '25.5' }, 'wait', 'less_than_equal'],
        [{ wait: 'soon' }, 'wait', 'float_type'],
        [{ kind: 'task' }, 'kind', 'enum'],
        [{ subject_id: '' }, 'subject_id', 'string_too_short'],
        [{ subject_id: 'x'.repeat(101) }, 'subject_id', 'string_too_long'],
        [{ after: 'x'.repeat(42) }, 'after', 'string_too_long'],
        [{ bogus: '1' }, 'bogus', 'extra_forbidden'],
      ];
      for (const [query, field, type] of cases) {
        const r = await get(u.token, query);
        assert.equal(r.status, 422, `${JSON.stringify(query)}: ${r.text}`);
        assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.equal(r.body.retry, 'validation');
        const issue = r.body.errors.find((e: any) => e.loc[1] === field);
        assert.ok(issue, `${JSON.stringify(query)} names ${field}: ${r.text}`);
        assert.deepEqual(issue.loc, ['query', field]);
        assert.equal(issue.type, type, JSON.stringify(query));
      }
      // Edge values are accepted.
      for (const q of [{ limit: '1' }, { limit: '100' }, { wait: '0' }, { kind: 'workflow_run' }, { subject_id: 'x'.repeat(100) }] as Record<string, string>[]) {
        assert.equal((await get(u.token, q)).status, 200, JSON.stringify(q));
      }
    });

    it('rejects malformed, mangled, forged and other accounts\' cursors with 422 at ["query","after"]', async () => {
      const u = await h.user();
      await append({ userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' });
      await append({ userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' });
      const good: string = (await get(u.token, { limit: 1 })).body.next_cursor;
      assert.equal((await get(u.token, { after: good })).status, 200);

      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const v = await h.user();
      const othersCursor: string = (await get(v.token)).body.next_cursor;
      const bad = [
        'garbage',
        '1',
        good.slice(0, -1),
        good + 'A',
        flip(good, 5), // position bytes
        flip(good, good.length - 2), // MAC bytes
        'e2' + good.slice(2), // unknown version
        good.slice(0, 10) + '+' + good.slice(11), // not base64url
        Buffer.from('{"id":1}').toString('base64url'),
        othersCursor, // valid, but another account's
      ];
      for (const after of bad) {
        const r = await get(u.token, { after });
        assert.equal(r.status, 422, `${after}: ${r.text}`);
        assert.equal(r.body.type, '/api/v1/problems/http-422');
        assert.deepEqual(
          r.body.errors.map((e: any) => e.loc),
          [['query', 'after']],
        );
        assert.equal(r.body.errors[0].input, after);
      }
    });

    it("never shows another account's events, whatever the filter", async () => {
      const u = await h.user();
      const v = await h.user();
      const mine = uuid();
      const theirs = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: mine, status: 'completed' });
      await append({ userId: v.userId, kind: 'job', subjectId: theirs, status: 'error' });
      await append({ userId: v.userId, kind: 'workflow_run', subjectId: uuid(), status: 'completed' });
      const ru = await get(u.token);
      assert.deepEqual(
        ru.body.events.map((e: any) => e.subject_id),
        [mine],
      );
      const rv = await get(v.token);
      assert.deepEqual(rv.body.events.map((e: any) => [e.event_id, e.subject_id]).slice(0, 1), [[1, theirs]]);
      assert.equal(rv.body.events.length, 2);
      assert.deepEqual((await get(u.token, { subject_id: theirs })).body.events, []);
      assert.deepEqual((await get(u.token, { kind: 'workflow_run' })).body.events, []);
    });

    it('keeps one terminal event per job and only terminal statuses', async () => {
      const u = await h.user();
      const job = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' });
      // A second terminal transition (cancel racing completion) fails its whole transaction.
      await assert.rejects(
        h.services.db.transaction(async (tx) => {
          await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: job, status: 'cancelled' });
        }),
        (err: any) => err.code === '23505',
      );
      await assert.rejects(append({ userId: u.userId, kind: 'job', subjectId: uuid(), status: 'running' }), /terminal status/);
      await assert.rejects(append({ userId: u.userId, kind: 'workflow_run', subjectId: uuid(), status: 'error' }), /terminal status/);
      // A rolled-back writer leaves no event and no hole in the ids.
      await assert.rejects(
        h.services.db.transaction(async (tx) => {
          await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' });
          throw new Error('the job transition failed');
        }),
        /transition failed/,
      );
      assert.equal(await append({ userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' }), 2);
      const r = await get(u.token);
      assert.deepEqual(
        r.body.events.map((e: any) => [e.event_id, e.status]),
        [
          [1, 'completed'],
          [2, 'completed'],
        ],
      );
    });

    it('purges events past retention; a cursor into the purged range is 410 cursor-expired', async () => {
      const u = await h.user();
      const v = await h.user();
      for (let i = 0; i < 5; i++) await append({ userId: u.userId, kind: 'job', subjectId: `old-${i}`, status: 'completed' });
      await append({ userId: v.userId, kind: 'job', subjectId: 'v-recent', status: 'completed' });
      const page = await get(u.token, { limit: 2 });
      const atTwo: string = page.body.next_cursor;
      const atStart: string = page.body.events[0].cursor;
      const all = await get(u.token);
      const atFive: string = all.body.next_cursor;
      // Events 1..3 are 40 days old, 4..5 recent.
      await h.services.db.query(`UPDATE events SET occurred_at = now() - interval '40 days' WHERE user_id = $1 AND event_id <= 3`, [u.userId]);
      await assert.rejects(h.services.events.purgeOlderThan(MIN_RETENTION_DAYS - 1), RangeError, 'retention is at least 30 days');
      await assert.rejects(h.services.events.purgeOlderThan(7), RangeError);
      // 35 days: the 40-day-old events go, nothing younger does.
      const removed = await h.services.events.purgeOlderThan(35);
      assert.ok(removed >= 3, `removed ${removed}`);
      const left = await h.services.db.query<{ event_id: number }>('SELECT event_id FROM events WHERE user_id = $1 ORDER BY event_id', [u.userId]);
      assert.deepEqual(
        left.rows.map((r) => Number(r.event_id)),
        [4, 5],
      );
      assert.equal((await h.services.db.query('SELECT 1 FROM events WHERE user_id = $1', [v.userId])).rows.length, 1, 'other accounts keep theirs');

      for (const c of [atStart, atTwo]) {
        const r = await get(u.token, { after: c });
        assert.equal(r.status, 410, r.text);
        assert.equal(r.body.type, '/api/v1/problems/cursor-expired');
        assert.equal(r.body.retry, 'terminal');
        assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      }
      // Also for a long poll.
      assert.equal((await get(u.token, { after: atTwo, wait: 1 })).status, 410);
      // A cursor past the purged range still works; so does starting over.
      const fine = await get(u.token, { after: atFive });
      assert.deepEqual(fine.body, { events: [], next_cursor: atFive });
      const again = await get(u.token);
      assert.deepEqual(
        again.body.events.map((e: any) => e.event_id),
        [4, 5],
      );
      // Purge everything: a fresh read starts at the head and is not expired.
      await h.services.db.query(`UPDATE events SET occurred_at = now() - interval '40 days' WHERE user_id = $1`, [u.userId]);
      await h.services.events.purgeOlderThan(35);
      const empty = await get(u.token);
      assert.deepEqual(empty.body.events, []);
      const fromEmpty = await get(u.token, { after: empty.body.next_cursor });
      assert.equal(fromEmpty.status, 200);
      assert.equal((await get(u.token, { after: atFive })).status, 200, 'it had read everything that was purged');
      assert.equal(await append({ userId: u.userId, kind: 'job', subjectId: 'new', status: 'completed' }), 6, 'ids continue after a purge');
      assert.deepEqual(
        (await get(u.token, { after: empty.body.next_cursor })).body.events.map((e: any) => e.event_id),
        [6],
      );
    });
  });
}
