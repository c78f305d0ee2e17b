// The one database interface every store talks to. Two drivers implement it:
// embedded PGlite (default) and a real PostgreSQL server (DATABASE_URL).
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn inside BEGIN/COMMIT; ROLLBACK when it throws. Never call `db.query` inside fn: use
   * `tx`. On a deadlock or serialization failure (40P01, 40001) the transaction is rolled back
   * and fn runs again, up to TRANSACTION_ATTEMPTS times in all: fn must have no effect outside
   * the database before it returns (docs/reliability.md "One lock order").
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The rest of another store's statement, written into it to spare a round trip: common table
 * expressions that must run after that statement's own work (they read `gate`, a subquery that
 * completes only once that work is done: a lock taken after its locks), numbered from
 * `firstParam`, and the SELECT that ends the statement.
 */
export type StatementTail = (firstParam: number, gate: string) => { ctes: string; params: unknown[]; select: string };

/**
 * The row of a statement that always returns one (an INSERT ... RETURNING, an aggregate
 * without GROUP BY, an upsert): a missing row is a broken invariant, reported as such.
 */
export function firstRow<T>(rows: readonly T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new Error(`${what} returned no row`);
  return row;
}

/** How many times a transaction runs at most when PostgreSQL aborts it as a deadlock victim or a serialization failure. */
export const TRANSACTION_ATTEMPTS = 5;

/** A deadlock (40P01) or serialization failure (40001): the whole transaction may simply run again. */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** The pause before attempt `attempt + 1`: jittered and growing, so the transactions that met do not meet again at once. */
export function retryDelayMs(attempt: number): number {
  return Math.round(Math.random() * 10 * 2 ** attempt);
}

/** A unique-violation (23505) from either driver. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  if (!e || e.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint;
}
