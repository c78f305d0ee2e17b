import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.js';
import { DataDirLock } from './data-dir-lock.js';

type PGliteLike = Pick<PGlite, 'query' | 'exec'>;

/**
 * PGlite runs each statement synchronously on this thread and resolves it as a microtask, so a
 * chain of awaited statements (a transaction, a sweep) would otherwise run as one long task
 * during which no request is answered. Each statement first lets the event loop turn
 * (setImmediate runs after pending I/O): requests interleave with database work
 * (docs/reliability.md, "No request stalls the server").
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function wrap(db: PGliteLike): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      await turn();
      const r = await db.query<T>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await turn();
      await db.exec(sql);
    },
  };
}

/**
 * Embedded PostgreSQL (PGlite). `dir` null = in memory (tests). PGlite serialises every
 * query and transaction itself, so a transaction sees no interleaved statement.
 * A data dir can be open in one process only: the lock file says which.
 */
/** True when `dir` holds an embedded database (made by a server start or `crucible migrate`). */
export function embeddedDatabaseExists(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'pgdata', 'PG_VERSION'));
}

/** An embedded database in `dir` (its `pgdata` folder), or in memory when `dir` is null. */
export async function openPglite(dir: string | null): Promise<Database> {
  let lock: DataDirLock | null = null;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    lock = DataDirLock.acquire(path.join(dir, 'pglite.lock'));
  }
  let db: PGlite;
  try {
    db = dir ? await PGlite.create(path.join(dir, 'pgdata')) : await PGlite.create();
  } catch (err) {
    lock?.release();
    throw err;
  }
  return {
    kind: 'pglite',
    ...wrap(db),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => fn(wrap(tx)));
    },
    async listen(channel, onPayload) {
      const unsub = await db.listen(channel, onPayload);
      return async () => unsub();
    },
    async close() {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}
