// Long polls on GET /api/v1/events: woken by the commit of a matching event (LISTEN/NOTIFY,
// also across instances on one PostgreSQL), filters honoured by wake-ups, timeouts, client
// disconnects, shutdown, and the safety net when a notification never comes.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { openPostgres } from '../../src/db/postgres.js';
import { closeServices, createServices } from '../../src/instance.js';
import { appendEvent, type NewEvent } from '../../src/modules/events/service.js';
import type { Services } from '../../src/services.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const uuid = () => crypto.randomUUID();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The contract's 100 ms is the benchmark's target (npm run bench:events, figures in
// docs/performance.md); here the bound is loose for loaded 2-core CI machines (docs/events.md).
// The safety-net poll is slowed to 10 minutes in these tests, so every wake-up measured
// below comes from LISTEN/NOTIFY (without it the polls would sleep their full `wait`).
const WAKE_BOUND_MS = 1500;
const NO_SAFETY_NET_MS = 600_000;

interface Polled {
  status: number;
  body: any;
  /** When the response arrived (performance.now()). */
  at: number;
}

function poll(base: string, token: string, query: Record<string, string | number>, signal?: AbortSignal): Promise<Polled> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return fetch(`${base}/api/v1/events?${qs.toString()}`, { headers: { authorization: `Bearer ${token}` }, signal }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
    at: performance.now(),
  }));
}

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** Resolves to 'pending' if p has not settled after ms. */
async function pendingAfter<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([p, sleep(ms).then(() => 'pending' as const)]);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

for (const backend of BACKENDS) {
  describe(`events long poll [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
      h.services.events.setSafetyPollMs(NO_SAFETY_NET_MS);
    });
    after(async () => h?.close());

    const append = (e: NewEvent, db = h.services.db) => db.transaction((tx) => appendEvent(tx, e));
    const waiting = () => h.services.events.waiting;

    it('wakes as soon as a matching event commits', async (t) => {
      const u = await h.user();
      const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
      const latencies: number[] = [];
      let cursor = start;
      for (let i = 0; i < 10; i++) {
        const p = poll(h.base, u.token, { after: cursor, wait: 20 });
        await until(() => waiting() === 1, 'the poll to wait');
        const job = uuid();
        const t0 = performance.now();
        await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' });
        const r = await p;
        const ms = r.at - t0;
        latencies.push(ms);
        assert.equal(r.status, 200);
        assert.deepEqual(
          r.body.events.map((e: any) => e.subject_id),
          [job],
        );
        assert.equal(r.body.events[0].event_id, i + 1);
        assert.ok(ms < WAKE_BOUND_MS, `woke after ${ms.toFixed(1)} ms`);
        cursor = r.body.next_cursor;
      }
      assert.equal(waiting(), 0);
      t.diagnostic(`wake latency (append commit -> response): median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
    });

    it('returns after wait seconds with no events and the same cursor', async () => {
      const u = await h.user();
      await append({ userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' });
      const cursor = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
      const t0 = performance.now();
      const r = await poll(h.base, u.token, { after: cursor, wait: 0.6 });
      const ms = r.at - t0;
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { events: [], next_cursor: cursor });
      assert.ok(ms >= 590 && ms < 600 + WAKE_BOUND_MS, `returned after ${ms.toFixed(0)} ms`);
      // wait=0 answers at once.
      const t1 = performance.now();
      const now = await poll(h.base, u.token, { after: cursor });
      assert.deepEqual(now.body.events, []);
      assert.ok(now.at - t1 < 500);
      assert.equal(waiting(), 0);
    });

    it('returns at once when matching events are already there', async () => {
      const u = await h.user();
      const job = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'error' });
      const t0 = performance.now();
      const r = await poll(h.base, u.token, { wait: 20 });
      assert.ok(r.at - t0 < 500);
      assert.deepEqual(
        r.body.events.map((e: any) => [e.subject_id, e.status]),
        [[job, 'error']],
      );
    });

    it('applies kind and subject_id to wake-ups: other events (and other accounts) do not end the wait', async () => {
      const u = await h.user();
      const v = await h.user();
      const target = uuid();
      const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
      const bySubject = poll(h.base, u.token, { after: start, subject_id: target, wait: 20 });
      const byKind = poll(h.base, u.token, { after: start, kind: 'workflow_run', wait: 20 });
      const unfiltered = poll(h.base, u.token, { after: start, wait: 20 });
      await until(() => waiting() === 3, 'three polls to wait');

      // Another account's event for the very same subject id: wakes nobody here.
      await append({ userId: v.userId, kind: 'job', subjectId: target, status: 'completed' });
      await append({ userId: v.userId, kind: 'workflow_run', subjectId: uuid(), status: 'completed' });
      assert.equal(await pendingAfter(unfiltered, 250), 'pending', 'another account does not wake the unfiltered poll');

      // A job event of another subject: only the unfiltered poll returns.
      const other = uuid();
      await append({ userId: u.userId, kind: 'job', subjectId: other, status: 'completed' });
      const r0 = await unfiltered;
      assert.deepEqual(
        r0.body.events.map((e: any) => e.subject_id),
        [other],
      );
      assert.equal(await pendingAfter(bySubject, 250), 'pending', 'subject filter holds');
      assert.equal(await pendingAfter(byKind, 1), 'pending', 'kind filter holds');
      assert.equal(waiting(), 2);

      // The workflow run event wakes the kind poll only.
      const run = uuid();
      const t0 = performance.now();
      await append({ userId: u.userId, kind: 'workflow_run', subjectId: run, status: 'completed' });
      const r1 = await byKind;
      assert.ok(r1.at - t0 < WAKE_BOUND_MS);
      assert.deepEqual(
        r1.body.events.map((e: any) => [e.event_id, e.subject_id]),
        [[2, run]],
        'only the matching event, not the earlier job',
      );
      assert.equal(await pendingAfter(bySubject, 250), 'pending');

      // Finally the target job.
      const t1 = performance.now();
      await append({ userId: u.userId, kind: 'job', subjectId: target, status: 'cancelled' });
      const r2 = await bySubject;
      assert.ok(r2.at - t1 < WAKE_BOUND_MS, `woke after ${(r2.at - t1).toFixed(1)} ms`);
      assert.deepEqual(
        r2.body.events.map((e: any) => [e.event_id, e.subject_id, e.status]),
        [[3, target, 'cancelled']],
      );
      assert.equal(waiting(), 0);
    });

    it('wakes only on commit: an open writer transaction, then a rolled-back one, do not end the wait', async () => {
      const u = await h.user();
      const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
      const p = poll(h.base, u.token, { after: start, wait: 20 });
      await until(() => waiting() === 1, 'the poll to wait');
      // Rolled back: no event, no wake.
      await assert.rejects(
        h.services.db.transaction(async (tx) => {
          await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: uuid(), status: 'completed' });
          throw new Error('rolled back');
        }),
      );
      assert.equal(await pendingAfter(p, 200), 'pending');
      // Committed after a delay: the poll returns only after the commit.
      const job = uuid();
      let committedAt = 0;
      await h.services.db.transaction(async (tx) => {
        await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: job, status: 'completed' });
        await sleep(300);
        committedAt = performance.now();
      });
      const r = await p;
      assert.ok(r.at >= committedAt, 'not before the commit');
      assert.deepEqual(
        r.body.events.map((e: any) => [e.event_id, e.subject_id]),
        [[1, job]],
        'the rolled-back event left no trace',
      );
    });

    it('wakes every poll of the account at once', async () => {
      const u = await h.user();
      const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
      const polls = Array.from({ length: 20 }, () => poll(h.base, u.token, { after: start, wait: 20 }));
      await until(() => waiting() === 20, '20 polls to wait');
      const job = uuid();
      const t0 = performance.now();
      await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' });
      const rs = await Promise.all(polls);
      for (const r of rs)
        assert.deepEqual(
          r.body.events.map((e: any) => e.subject_id),
          [job],
        );
      const slowest = Math.max(...rs.map((r) => r.at - t0));
      assert.ok(slowest < 2 * WAKE_BOUND_MS, `slowest of 20 woke after ${slowest.toFixed(1)} ms`);
    });

    it('ends the wait when the client disconnects', async () => {
      const u = await h.user();
      const ac = new AbortController();
      const p = poll(h.base, u.token, { wait: 25 }, ac.signal).catch((err) => err);
      await until(() => waiting() === 1, 'the poll to wait');
      ac.abort();
      assert.equal((await p).name, 'AbortError');
      await until(() => waiting() === 0, 'the server to drop the wait', 1000);
    });

    it('still wakes (safety-net poll) when a notification never comes', async () => {
      const u = await h.user();
      h.services.events.setSafetyPollMs(300);
      try {
        const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;
        const p = poll(h.base, u.token, { after: start, wait: 20 });
        await until(() => waiting() === 1, 'the poll to wait');
        // An event written without its NOTIFY (as if the notification were lost).
        const t0 = performance.now();
        await h.services.db.transaction(async (tx) => {
          await tx.query(`INSERT INTO event_counters (user_id, last_id) VALUES ($1, 1)`, [u.userId]);
          await tx.query(`INSERT INTO events (user_id, event_id, kind, subject_id, status) VALUES ($1, 1, 'job', 'silent', 'completed')`, [u.userId]);
        });
        const r = await p;
        const ms = r.at - t0;
        assert.deepEqual(
          r.body.events.map((e: any) => e.subject_id),
          ['silent'],
        );
        assert.ok(ms < 300 + WAKE_BOUND_MS, `woke after ${ms.toFixed(0)} ms`);
      } finally {
        h.services.events.setSafetyPollMs(NO_SAFETY_NET_MS);
      }
    });

    it('a second instance on the same database: cursors carry over and polls wake across instances', async (t) => {
      if (!h.dbUrl) {
        t.skip('PGlite is one process; the cross-instance case is PostgreSQL');
        return;
      }
      const db2 = await openPostgres(h.dbUrl);
      const s2: Services = await createServices(h.config, db2);
      s2.events.setSafetyPollMs(NO_SAFETY_NET_MS);
      const app2: FastifyInstance = await buildApp(s2, { logger: false });
      try {
        await app2.listen({ host: '127.0.0.1', port: 0 });
        const base2 = `http://127.0.0.1:${(app2.server.address() as { port: number }).port}`;
        const u = await h.user();
        const start = (await h.req('GET', '/api/v1/events', { token: u.token })).body.next_cursor;

        // Poll on instance 2, the event committed through instance 1.
        const lat: number[] = [];
        let cursor = start;
        for (let i = 0; i < 5; i++) {
          const p = poll(base2, u.token, { after: cursor, wait: 20 });
          await until(() => s2.events.waiting === 1, 'the poll on instance 2 to wait');
          const job = uuid();
          const t0 = performance.now();
          await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' }, h.services.db);
          const r = await p;
          assert.equal(r.status, 200);
          assert.deepEqual(
            r.body.events.map((e: any) => e.subject_id),
            [job],
          );
          lat.push(r.at - t0);
          cursor = r.body.next_cursor;
        }
        // Poll on instance 1, the event committed through instance 2.
        for (let i = 0; i < 5; i++) {
          const p = poll(h.base, u.token, { after: cursor, wait: 20 });
          await until(() => waiting() === 1, 'the poll on instance 1 to wait');
          const job = uuid();
          const t0 = performance.now();
          await append({ userId: u.userId, kind: 'job', subjectId: job, status: 'completed' }, db2);
          const r = await p;
          assert.deepEqual(
            r.body.events.map((e: any) => e.subject_id),
            [job],
          );
          lat.push(r.at - t0);
          cursor = r.body.next_cursor;
        }
        for (const ms of lat) assert.ok(ms < WAKE_BOUND_MS, `cross-instance wake after ${ms.toFixed(1)} ms`);
        t.diagnostic(`cross-instance wake latency: median ${median(lat).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms`);
        // Both instances read the same feed with the same cursors.
        const one = await h.req('GET', `/api/v1/events?after=${encodeURIComponent(start)}`, { token: u.token });
        const two = await fetch(`${base2}/api/v1/events?after=${encodeURIComponent(start)}`, { headers: { authorization: `Bearer ${u.token}` } }).then((r) => r.json());
        assert.equal(one.body.events.length, 10);
        assert.deepEqual(two, one.body);
      } finally {
        await app2.close();
        await closeServices(s2);
      }
    });

    it('closing the server ends waiting polls at once', async () => {
      const h2 = await startHarness(backend);
      let closed = false;
      try {
        const u = await h2.user();
        const p = poll(h2.base, u.token, { wait: 25 }).catch((err) => err);
        await until(() => h2.services.events.waiting === 1, 'the poll to wait');
        const t0 = performance.now();
        await h2.close();
        closed = true;
        const ms = performance.now() - t0;
        const r = await p;
        assert.ok(ms < 5000, `close took ${ms.toFixed(0)} ms`);
        if (!(r instanceof Error)) assert.deepEqual(r.body.events, []);
        assert.equal(h2.services.events.waiting, 0);
      } finally {
        if (!closed) await h2.close();
      }
    });
  });
}
