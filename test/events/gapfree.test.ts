// The gap-free proof: many concurrent writer transactions, each holding its event a random
// few milliseconds before commit (on PostgreSQL through a real pool of its own, so commits
// truly interleave), some rolled back, while readers follow cursors with small pages and
// long polls. Every reader must see every committed event exactly once, in increasing
// event_id order, and a single-snapshot check must never see a hole below a visible event.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { appendEvent } from '../../src/modules/events/service.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WRITERS = 20;
const PER_WRITER = 25;

interface Seen {
  ids: number[];
  subjects: string[];
}

for (const backend of BACKENDS) {
  describe(`events feed is gap-free under concurrent writers [${backend.name}]`, () => {
    let h: Harness;
    let writerDb: Database;
    before(async () => {
      // The readers poll in a tight loop: lift the per-credential request rate limit.
      h = await startHarness(backend, { CRUCIBLE_TIER_PRO_REQUESTS_PER_MINUTE: '10000000' });
      // PostgreSQL: the writers get a pool of their own, one connection each.
      writerDb = h.dbUrl ? await openPostgres(h.dbUrl, { max: WRITERS + 2 }) : h.services.db;
    });
    after(async () => {
      if (writerDb && writerDb !== h?.services.db) await writerDb.close();
      await h?.close();
    });

    it(`${WRITERS} writers x ${PER_WRITER} events; readers see each committed event once, in order`, async (t) => {
      const a = await h.user();
      const b = await h.user();
      const users = [a, b];
      // Most writers share account a (their commits contend); a few write for b in parallel.
      const userOf = (w: number) => (w < 14 ? a : b);
      const committed = new Map<string, Set<string>>(users.map((u) => [u.userId, new Set<string>()]));
      let rolledBack = 0;
      let writersDone = false;
      let writersDoneAt = 0;
      let maxConcurrent = 0;
      let open = 0;

      const writer = async (w: number) => {
        const u = userOf(w);
        for (let i = 0; i < PER_WRITER; i++) {
          const subject = `w${w}-e${i}`;
          const rollback = (w * PER_WRITER + i) % 10 === 7; // every tenth transaction fails after appending
          const two = i % 8 === 3; // some transactions end two subjects
          try {
            await writerDb.transaction(async (tx) => {
              open++;
              maxConcurrent = Math.max(maxConcurrent, open);
              try {
                // Work before the event, as a job transition does (its own row, the wallet).
                await tx.query('SELECT 1');
                await appendEvent(tx, { userId: u.userId, kind: 'job', subjectId: subject, status: 'completed' });
                if (two) await appendEvent(tx, { userId: u.userId, kind: 'workflow_run', subjectId: `${subject}-run`, status: 'completed' });
                await sleep(1 + Math.random() * 4);
                if (rollback) throw new Error('rollback');
              } finally {
                open--;
              }
            });
            committed.get(u.userId)!.add(subject);
            if (two) committed.get(u.userId)!.add(`${subject}-run`);
          } catch (err) {
            if ((err as Error).message !== 'rollback') throw err;
            rolledBack++;
          }
          if (Math.random() < 0.3) await sleep(Math.random() * 3);
        }
      };

      const total = (userId: string) => committed.get(userId)!.size;

      // Reader 1: short pages, no waiting. Reader 2: long polls with tiny pages.
      const reader = async (token: string, userId: string, limit: number, wait: number): Promise<Seen> => {
        const seen: Seen = { ids: [], subjects: [] };
        let cursor = '';
        for (;;) {
          const done = writersDone;
          const r = await h.req('GET', `/api/v1/events?limit=${limit}&wait=${wait}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`, { token });
          assert.equal(r.status, 200, r.text);
          for (const e of r.body.events) {
            seen.ids.push(e.event_id);
            seen.subjects.push(e.subject_id);
          }
          assert.equal(typeof r.body.next_cursor, 'string');
          cursor = r.body.next_cursor;
          if (done && r.body.events.length === 0 && seen.ids.length >= total(userId)) return seen;
          // A reader that missed an event would poll forever: give up (and fail below) 10 s after the writers.
          if (done && Date.now() - writersDoneAt > 10_000) return seen;
          if (wait === 0 && r.body.events.length === 0) await sleep(1);
        }
      };

      // Direct check of the invariant: in one snapshot the visible ids of an account are 1..max.
      let snapshots = 0;
      const checker = async () => {
        while (!writersDone) {
          for (const u of users) {
            const { rows } = await h.services.db.query<{ n: number; mx: number | null }>('SELECT count(*)::int AS n, max(event_id) AS mx FROM events WHERE user_id = $1', [
              u.userId,
            ]);
            const [row] = rows;
            assert.ok(row, 'an aggregate returns a row');
            const mx = row.mx === null ? 0 : Number(row.mx);
            assert.equal(row.n, mx, `a snapshot saw ${row.n} events but max id ${mx}: a hole below a visible event`);
            snapshots++;
          }
          await sleep(1);
        }
      };

      const readers = users.flatMap((u) => [reader(u.token, u.userId, 7, 0), reader(u.token, u.userId, 3, 2)]);
      const check = checker();
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await Promise.all(writers);
      writersDoneAt = Date.now();
      writersDone = true;
      const results = await Promise.all(readers);
      await check;

      for (const [i, seen] of results.entries()) {
        const u = users[Math.floor(i / 2)];
        assert.ok(u);
        const expected = committed.get(u.userId);
        assert.ok(expected, `user ${u.userId} committed events`);
        const n = expected.size;
        assert.ok(n > 0);
        assert.deepEqual(
          seen.ids,
          Array.from({ length: n }, (_, k) => k + 1),
          `reader ${i}: every id 1..${n} exactly once, in order`,
        );
        assert.equal(new Set(seen.subjects).size, seen.subjects.length, `reader ${i}: no repeats`);
        assert.deepEqual(new Set(seen.subjects), expected, `reader ${i}: exactly the committed events`);
      }
      const sum = total(a.userId) + total(b.userId);
      assert.ok(rolledBack >= 40, `rolled back ${rolledBack}`);
      if (h.dbUrl) assert.ok(maxConcurrent >= 10, `writer transactions open at once: ${maxConcurrent}`);
      assert.ok(snapshots > 10, `snapshot checks: ${snapshots}`);
      t.diagnostic(`${sum} events committed, ${rolledBack} transactions rolled back, up to ${maxConcurrent} writer transactions open at once, ${snapshots} snapshot checks`);
    });
  });
}
