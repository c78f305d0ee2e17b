// What keeps Assistant turns fast under load (docs/performance.md, "Assistant"), on both
// databases: a turn's start is one transaction of three statements and reads no conversation
// in a fresh session; every event write is one statement that also sends the NOTIFY; a stream of
// a turn running in this process reads the table once and is handed the rest by the writer; a
// running turn's later work waits while other turns are being started (first events first).
// Without a database: the event writer puts the events that come during a write into the next
// statement, and a stream writes handed-over events only when they continue it exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable, QueryResult } from '../../src/db/database.js';
import { EventWriter } from '../../src/modules/assistant/event-writer.js';
import type { EventRow } from '../../src/modules/assistant/store.js';
import { TurnWaiters } from '../../src/modules/assistant/stream.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { newSession, readStream, startTurn, waitForTurn } from './helpers.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Records every statement sent through `db` (and its transactions), tagged with the transaction it ran in (0: none). */
function recordStatements(db: Database): { log: { tx: number; sql: string }[]; restore(): void } {
  const log: { tx: number; sql: string }[] = [];
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  let txs = 0;
  const tag = (tx: number, q: Queryable): Queryable => ({
    query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      log.push({ tx, sql: sql.replace(/\s+/g, ' ').trim() });
      return q.query<T>(sql, params);
    },
    exec: (sql: string) => q.exec(sql),
  });
  const untagged = tag(0, { query, exec: (sql) => db.exec(sql) });
  db.query = <T>(sql: string, params?: unknown[]) => untagged.query<T>(sql, params);
  db.transaction = <T>(fn: (tx: Queryable) => Promise<T>) => {
    const n = ++txs;
    return transaction((tx) => fn(tag(n, tx)));
  };
  return {
    log,
    restore() {
      db.query = query;
      db.transaction = transaction;
    },
  };
}

for (const backend of BACKENDS) {
  describe(`assistant turns under load: statements and scheduling [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_ASSISTANT_PROVIDER: 'builtin' });
      u = await h.user();
      await h.credit(u.userId, 10);
    });
    after(async () => {
      await h?.close();
    });

    it('a fresh session: the start is 3 statements in one transaction, no conversation read; each event write is one statement with its NOTIFY; the live stream reads the table once', async () => {
      const s = await newSession(h, u.token);
      const rec = recordStatements(h.services.db);
      let turnId: string;
      let events: { id: number; event: string }[];
      try {
        turnId = (await startTurn(h, u.token, s, 'hello there')).turn_id;
        const live = await readStream(h, u.token, s, turnId);
        events = live.events;
        assert.equal(await waitForTurn(h, turnId), 'completed');
      } finally {
        rec.restore();
      }
      const startTx = rec.log.find((l) => l.sql.includes('INSERT INTO assistant_turns'))!.tx;
      const start = rec.log.filter((l) => l.tx === startTx).map((l) => l.sql.slice(0, 40));
      assert.deepEqual(start, ['WITH s AS (UPDATE assistant_sessions SET', 'WITH w AS ( UPDATE wallets SET reserved_', 'INSERT INTO assistant_messages (session_']);
      assert.equal(rec.log.filter((l) => l.sql.startsWith('SELECT seq, turn_id, role')).length, 0, 'a first message reads no conversation');
      const writes = rec.log.filter((l) => l.sql.includes('INSERT INTO assistant_turn_events'));
      assert.ok(writes.length >= 2, `${writes.length} event writes`);
      assert.ok(
        writes.every((l) => l.sql.includes('pg_notify')),
        'each event write sends its NOTIFY',
      );
      assert.equal(rec.log.filter((l) => /^SELECT pg_notify/.test(l.sql)).length, 0, 'no NOTIFY statement of its own');
      assert.equal(rec.log.filter((l) => l.sql.startsWith('SELECT seq, type, data FROM assistant_turn_events')).length, 1, 'the live stream read the table once');
      assert.deepEqual(
        events.map((e) => e.id),
        events.map((_, i) => i + 1),
      );
      assert.equal(events.at(-1)?.event, 'done');
      const reread = await readStream(h, u.token, s, turnId, { lastEventId: 0 });
      assert.deepEqual(reread.events, events, 'the live stream equals the re-read');
    });

    it("while a turn is being started, a running turn's tool waits (first events first); then it finishes", async () => {
      const runner = h.services.assistant.runner;
      const s = await newSession(h, u.token);
      runner.firstEventsFirstMs = 60_000;
      const starting = runner.admit();
      try {
        assert.equal(runner.startingTurns, 1);
        const t = await startTurn(h, u.token, s, 'describe aspirin');
        const stored = async () =>
          (await h.services.db.query<{ type: string }>('SELECT type FROM assistant_turn_events WHERE turn_id = $1 ORDER BY seq', [t.turn_id])).rows.map((r) => r.type);
        for (let i = 0; i < 500 && (await stored()).length === 0; i++) await sleep(20);
        await sleep(300);
        assert.deepEqual(await stored(), ['tool_call'], 'the first event is stored; the tool waits');
        assert.equal(runner.startingTurns, 1, "the held start is counted, the turn's own start is over");
        starting();
        starting(); // a second call changes nothing
        assert.equal(runner.startingTurns, 0);
        assert.equal(await waitForTurn(h, t.turn_id), 'completed');
        const types = await stored();
        assert.deepEqual(types.slice(0, 2), ['tool_call', 'tool_result']);
        assert.deepEqual(types.slice(-2), ['usage', 'done']);
      } finally {
        starting();
        runner.firstEventsFirstMs = 300;
      }
    });
  });
}

describe('assistant event writer and stream feed (no database)', () => {
  it('events that come while a write is in flight go together in the next statement, numbered on', async () => {
    const calls: { first: number; types: string[] }[] = [];
    let release!: () => void;
    const db = {
      async query(_sql: string, params: unknown[]) {
        calls.push({ first: params[1] as number, types: (JSON.parse(params[2] as string) as { type: string }[]).map((e) => e.type) });
        if (calls.length === 1) await new Promise<void>((r) => (release = r));
        return { rows: [], rowCount: 1 };
      },
    } as unknown as Database;
    const woken: number[][] = [];
    let stored = 0;
    const w = new EventWriter(
      db,
      't',
      (_id, events) => woken.push(events.map((e) => e.seq)),
      () => stored++,
    );
    w.push('tool_call', { n: 1 });
    w.push('tool_result', { n: 2 });
    w.push('plan', { n: 3 });
    await sleep(10);
    assert.deepEqual(calls, [{ first: 1, types: ['tool_call'] }], 'one write in flight');
    release();
    await w.drain();
    assert.deepEqual(calls, [
      { first: 1, types: ['tool_call'] },
      { first: 2, types: ['tool_result', 'plan'] },
    ]);
    assert.deepEqual(woken, [[1], [2, 3]]);
    assert.equal(stored, 2);
  });

  it('a stream takes handed-over events only when they continue it exactly; otherwise it reads the table', () => {
    const waiters = new TurnWaiters();
    const feed = waiters.subscribe('t');
    const ev = (seq: number): EventRow => ({ seq, type: 'delta', data: { text: String(seq) } });
    assert.equal(feed.take(0), null, 'a new feed reads the table first');
    waiters.wake('t', [ev(1), ev(2)]);
    assert.deepEqual(
      feed.take(0)!.map((e) => e.seq),
      [1, 2],
    );
    waiters.wake('t', [ev(2), ev(3)]);
    assert.deepEqual(
      feed.take(2)!.map((e) => e.seq),
      [3],
      'what the stream has already written is dropped',
    );
    waiters.wake('t', [ev(5)]);
    assert.equal(feed.take(3), null, 'a gap: read the table');
    assert.deepEqual(feed.take(5), [], 'nothing new');
    waiters.wake('t');
    assert.equal(feed.take(5), null, 'a NOTIFY from another instance: read the table');
    feed.close();
    waiters.wake('t', [ev(6)]);
    assert.deepEqual(feed.take(5), [], 'a closed feed is handed nothing');
  });
});
