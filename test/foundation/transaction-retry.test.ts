// Database.transaction on PostgreSQL runs a transaction again when the server aborts it as a
// deadlock victim (40P01) or a serialization failure (40001), a bounded number of times, and
// never retries anything else (docs/reliability.md "One lock order").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TRANSACTION_ATTEMPTS, type Database } from '../../src/db/database.js';
import { BACKENDS } from '../helpers/backends.js';

const postgres = BACKENDS.find((b) => b.name === 'postgres');

describe('transaction retry on PostgreSQL', { skip: postgres ? false : 'PostgreSQL not configured' }, () => {
  let db: Database;
  let drop: () => Promise<void>;
  before(async () => {
    ({ db, drop } = await postgres!.create());
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL); INSERT INTO t VALUES (1, 0), (2, 0);');
  });
  after(async () => drop?.());

  it('two transactions locking two rows in opposite orders both commit, the deadlock victim on its second run', async () => {
    let runs = 0;
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((r) => (release = r));
    const crossing = (first: number, second: number) =>
      db.transaction(async (tx) => {
        runs++;
        await tx.query('UPDATE t SET v = v + 1 WHERE id = $1', [first]);
        if (++arrived === 2) release();
        await bothHoldOne; // each now holds one row and asks for the other's
        await tx.query('UPDATE t SET v = v + 1 WHERE id = $1', [second]);
        return first;
      });
    assert.deepEqual(await Promise.all([crossing(1, 2), crossing(2, 1)]), [1, 2]);
    assert.equal(runs, 3, 'one of the two ran again after PostgreSQL chose it as the deadlock victim');
    const { rows } = await db.query<{ id: number; v: number }>('SELECT id, v FROM t ORDER BY id');
    assert.deepEqual(rows, [
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} runs, and never retries another error`, async () => {
    let runs = 0;
    await assert.rejects(
      db.transaction(async (tx) => {
        runs++;
        await tx.query('UPDATE t SET v = v + 10 WHERE id = 1');
        throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      }),
      /could not serialize access/,
    );
    assert.equal(runs, TRANSACTION_ATTEMPTS);
    runs = 0;
    await assert.rejects(
      db.transaction(async (tx) => {
        runs++;
        await tx.query('INSERT INTO t VALUES (1, 0)');
      }),
      (err: { code?: string }) => err.code === '23505',
    );
    assert.equal(runs, 1);
    const { rows } = await db.query<{ v: number }>('SELECT v FROM t WHERE id = 1');
    assert.equal(rows[0]!.v, 2, 'nothing of the failed runs committed');
  });
});
