import pg from 'pg';
import { DEFAULT_PREPARED_STATEMENTS, isStalePlan, StatementNames } from './prepared.js';
import { isRetryableConflict, TRANSACTION_ATTEMPTS, retryDelayMs, type Database, type Queryable, type QueryResult } from './database.js';

// int8 as a JavaScript number (our integers — micro-dollars, counts, ids — stay far below 2^53),
// matching what PGlite returns.
pg.types.setTypeParser(20, (v: string) => Number(v));

/**
 * A Queryable over the pool (each statement on any connection) or one connection (a
 * transaction). `names` picks the statements that run prepared (prepared.ts); a stale plan
 * outside a transaction runs again unnamed at once; inside one it has aborted the transaction:
 * `onStaleInTransaction` tells `transaction`, which runs it again (even if fn caught the error).
 */
function wrap(client: pg.Pool | pg.PoolClient, names: StatementNames, onStaleInTransaction?: () => void): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const values = params as unknown[] | undefined;
      const name = values && values.length > 0 ? names.nameOf(sql) : undefined;
      let r: pg.QueryResult;
      try {
        r = name === undefined ? await client.query(sql, values) : await client.query({ name, text: sql, values });
      } catch (err) {
        if (name === undefined || !isStalePlan(err)) throw err;
        names.forget(sql);
        if (onStaleInTransaction) {
          onStaleInTransaction();
          throw err;
        }
        r = await client.query(sql, values);
      }
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

class StalePlanRetry extends Error {
  constructor() {
    super('a prepared statement went stale in this transaction; it runs again');
  }
}

export async function openPostgres(url: string, opts: { max?: number; prepared?: number } = {}): Promise<Database> {
  const names = new StatementNames(opts.prepared ?? DEFAULT_PREPARED_STATEMENTS);
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {
    /* an idle client died (server restart); the pool replaces it on next use */
  });
  // Fail fast, with the server's own reason, when it cannot be reached.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    const e = err as NodeJS.ErrnoException;
    throw Object.assign(new Error(`cannot reach the database at ${redactUrl(url)}: ${e.message}`), { code: e.code ?? 'ECONNREFUSED' });
  }

  let listener: pg.Client | null = null;
  const handlers = new Map<string, Set<(p: string) => void>>();

  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    c.on('notification', (n) => {
      for (const h of handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    c.on('error', () => {
      listener = null;
    });
    listener = c;
    return c;
  }

  return {
    kind: 'postgres',
    ...wrap(pool, names),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // A deadlock or serialization failure rolls the whole transaction back: it runs again,
      // a bounded number of times (docs/reliability.md "One lock order").
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        // A prepared statement's stale plan aborted this attempt (prepared.ts): it runs again.
        let stale = false;
        try {
          await client.query('BEGIN');
          const out = await fn(wrap(client, names, () => (stale = true)));
          if (stale) throw new StalePlanRetry();
          await client.query('COMMIT');
          return out;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          if (attempt >= TRANSACTION_ATTEMPTS || !(isRetryableConflict(err) || stale)) throw err;
        } finally {
          client.release();
        }
        await new Promise((r) => setTimeout(r, retryDelayMs(attempt)));
      }
    },
    async listen(channel, onPayload) {
      const c = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async close() {
      if (listener) await listener.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
