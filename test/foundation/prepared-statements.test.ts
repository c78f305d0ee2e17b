// Prepared statements on PostgreSQL (src/db/prepared.ts; docs/architecture.md, "Prepared
// statements"): a parameterised statement run a second time is prepared on its connection and
// then only bound and executed; the names are bounded; a plan made stale by a migration (a
// column added under `SELECT *`) runs again unnamed, in a transaction by running the
// transaction again; CRUCIBLE_DB_PREPARED=0 prepares nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Queryable } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { StatementNames } from '../../src/db/prepared.js';
import { loadConfig } from '../../src/config.js';
import { BACKENDS } from '../helpers/backends.js';

describe('StatementNames', () => {
  it('names a text on its second sight, keeps that name, and stops at the cap', () => {
    const n = new StatementNames(2);
    assert.equal(n.nameOf('SELECT $1::int'), undefined, 'seen once: unnamed');
    const name = n.nameOf('SELECT $1::int');
    assert.match(name ?? '', /^crucible_[0-9a-f]{40}$/);
    assert.equal(n.nameOf('SELECT $1::int'), name);
    n.nameOf('SELECT $1::text');
    assert.ok(n.nameOf('SELECT $1::text'));
    n.nameOf('SELECT $1::bigint');
    assert.equal(n.nameOf('SELECT $1::bigint'), undefined, 'over the cap of 2: unnamed');
    assert.equal(n.size, 2);
  });

  it('never names a text again once its plan went stale, and names nothing when off', () => {
    const n = new StatementNames(8);
    n.nameOf('SELECT * FROM t WHERE id = $1');
    assert.ok(n.nameOf('SELECT * FROM t WHERE id = $1'));
    n.forget('SELECT * FROM t WHERE id = $1');
    assert.equal(n.nameOf('SELECT * FROM t WHERE id = $1'), undefined);
    assert.equal(n.nameOf('SELECT * FROM t WHERE id = $1'), undefined);
    const off = new StatementNames(0);
    off.nameOf('SELECT $1::int');
    assert.equal(off.nameOf('SELECT $1::int'), undefined);
  });

  it('is configured by CRUCIBLE_DB_PREPARED (default 256)', () => {
    assert.equal(loadConfig({}).databasePrepared, 256);
    assert.equal(loadConfig({ CRUCIBLE_DB_PREPARED: '0' }).databasePrepared, 0);
    assert.throws(() => loadConfig({ CRUCIBLE_DB_PREPARED: '-1' }), /CRUCIBLE_DB_PREPARED/);
  });
});

const postgres = BACKENDS.find((b) => b.name === 'postgres');

/** The statements this connection has prepared (the transaction's own connection). */
async function preparedHere(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE NOT from_sql ORDER BY prepare_time');
  return rows.map((r) => r.statement);
}

describe('prepared statements on PostgreSQL', { skip: postgres ? false : 'PostgreSQL not configured' }, () => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  before(async () => {
    const created = await postgres!.create();
    ({ db, drop } = created);
    url = created.url!;
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL); INSERT INTO t VALUES (1, 10), (2, 20);');
  });
  after(async () => drop?.());

  it('prepares a statement on its second run and answers the same through it', async () => {
    const text = 'SELECT v FROM t WHERE id = $1';
    const seen = await db.transaction(async (tx) => {
      const first = await tx.query<{ v: number }>(text, [1]);
      const before = await preparedHere(tx);
      const second = await tx.query<{ v: number }>(text, [2]);
      const third = await tx.query<{ v: number }>(text, [1]);
      return { first: first.rows, second: second.rows, third: third.rows, before, after: await preparedHere(tx) };
    });
    assert.deepEqual(seen.first, [{ v: 10 }]);
    assert.deepEqual(seen.second, [{ v: 20 }]);
    assert.deepEqual(seen.third, [{ v: 10 }]);
    assert.ok(!seen.before.includes(text), 'not prepared after its first run');
    assert.ok(seen.after.includes(text), `prepared after its second: ${JSON.stringify(seen.after)}`);
  });

  it('a plan made stale by an added column runs again unnamed, alone and in a transaction', async () => {
    const text = 'SELECT * FROM t WHERE id = $1';
    for (let i = 0; i < 3; i++) await db.transaction((tx) => tx.query(text, [1])); // prepared on the transaction's connection
    await db.exec('ALTER TABLE t ADD COLUMN note text');
    let runs = 0;
    const inTx = await db.transaction(async (tx) => {
      runs++;
      return (await tx.query<Record<string, unknown>>(text, [1])).rows;
    });
    assert.deepEqual(inTx, [{ id: 1, v: 10, note: null }]);
    assert.ok(runs <= 2, `ran ${runs} times`);
    // Every connection of the pool, outside a transaction (some still hold the old statement).
    const alone = await Promise.all(Array.from({ length: 12 }, () => db.query<Record<string, unknown>>(text, [2])));
    for (const r of alone) assert.deepEqual(r.rows, [{ id: 2, v: 20, note: null }]);
    await db.exec('ALTER TABLE t DROP COLUMN note');
  });

  it('a stale plan whose error the transaction caught still runs the transaction again (nothing half-written)', async () => {
    const text = 'SELECT * FROM t WHERE id = $1';
    const update = 'UPDATE t SET v = v + $2 WHERE id = $1';
    for (let i = 0; i < 3; i++)
      await db.transaction(async (tx) => {
        await tx.query(text, [1]);
        await tx.query(update, [1, 0]);
      });
    await db.exec('ALTER TABLE t ADD COLUMN extra int');
    let runs = 0;
    await db.transaction(async (tx) => {
      runs++;
      await tx.query(update, [1, 1]);
      await tx.query(text, [1]).catch(() => undefined); // a caller that swallows the error
    });
    const { rows } = await db.query<{ v: number }>('SELECT v FROM t WHERE id = 1');
    assert.equal(rows[0]!.v, 11, 'the update landed exactly once');
    assert.ok(runs >= 1 && runs <= 2, `ran ${runs} times`);
    await db.exec('ALTER TABLE t DROP COLUMN extra; UPDATE t SET v = 10 WHERE id = 1');
  });

  it('prepares nothing with CRUCIBLE_DB_PREPARED=0', async () => {
    const off = await openPostgres(url, { prepared: 0 });
    try {
      const after = await off.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) await tx.query('SELECT v FROM t WHERE id = $1 AND v > $2', [1, 0]);
        return preparedHere(tx);
      });
      assert.deepEqual(after, []);
    } finally {
      await off.close();
    }
  });
});
