// The idempotency_keys table (its only writer): a request claims its key, a replay reads the
// pinned response, a finished request pins it, a failed one deletes its claim, and retention
// purges old keys. The HTTP hooks that use it are src/http/idempotency.ts.
import type { Queryable } from '../../db/database.js';

/** How long a key replays its first response (the reference: 30 days). */
export const IDEMPOTENCY_RETENTION_DAYS = 30;

export interface IdempotencyRow {
  method: string;
  path: string;
  request_hash: string;
  state: 'in_progress' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  expired: boolean;
  stale: boolean;
}

export const idempotencyStore = {
  /** Claims the key for this request under `owner`, leased for `lockSec`; false when the key exists. */
  async claim(q: Queryable, c: { userId: string; key: string; method: string; path: string; hash: string; lockSec: number; owner: string }): Promise<boolean> {
    const r = await q.query(
      `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, locked_until, owner)
       VALUES ($1, $2, $3, $4, $5, 'in_progress', now() + make_interval(secs => $6), $7)
       ON CONFLICT (user_id, key) DO NOTHING`,
      [c.userId, c.key, c.method, c.path, c.hash, c.lockSec, c.owner],
    );
    return r.rowCount === 1;
  },

  /** Extends the owner's lease; false when the claim is no longer this owner's. */
  async renew(q: Queryable, userId: string, key: string, owner: string, lockSec: number): Promise<boolean> {
    const r = await q.query(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $4) WHERE user_id = $1 AND key = $2 AND owner = $3 AND state = 'in_progress'`,
      [userId, key, owner, lockSec],
    );
    return r.rowCount === 1;
  },

  async read(q: Queryable, userId: string, key: string): Promise<IdempotencyRow | null> {
    const { rows } = await q.query<IdempotencyRow>(
      `SELECT method, path, request_hash, state, response_status, response_body, response_type,
              created_at < now() - make_interval(days => $3) AS expired, locked_until < now() AS stale
         FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key, IDEMPOTENCY_RETENTION_DAYS],
    );
    return rows[0] ?? null;
  },

  async deleteExpired(q: Queryable, userId: string, key: string): Promise<void> {
    await q.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at < now() - make_interval(days => $3)', [userId, key, IDEMPOTENCY_RETENTION_DAYS]);
  },

  /** Takes over an in-progress claim whose lease ran out (its owner died); false when a live owner holds it. */
  async takeOver(q: Queryable, userId: string, key: string, lockSec: number, owner: string): Promise<boolean> {
    const r = await q.query(
      `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3), owner = $4
        WHERE user_id = $1 AND key = $2 AND state = 'in_progress' AND locked_until < now()`,
      [userId, key, lockSec, owner],
    );
    return r.rowCount === 1;
  },

  /** Pins the response; false (nothing written) when the claim is no longer this owner's. */
  async pin(q: Queryable, userId: string, key: string, owner: string, status: number, body: string, type: string): Promise<boolean> {
    const r = await q.query(
      `UPDATE idempotency_keys SET state = 'done', response_status = $4, response_body = $5, response_type = $6 WHERE user_id = $1 AND key = $2 AND owner = $3 AND state = 'in_progress'`,
      [userId, key, owner, status, body, type],
    );
    return r.rowCount === 1;
  },

  /** Drops this owner's claim of a request that failed, so a retry may use the key again. */
  async release(q: Queryable, userId: string, key: string, owner: string): Promise<void> {
    await q.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND owner = $3 AND state = 'in_progress'`, [userId, key, owner]);
  },

  /** Deletes at most `batch` keys past their replay window. */
  async purgeBatch(q: Queryable, batch: number): Promise<number> {
    const r = await q.query(
      `DELETE FROM idempotency_keys WHERE (user_id, key) IN (
         SELECT user_id, key FROM idempotency_keys WHERE created_at < now() - make_interval(days => ${IDEMPOTENCY_RETENTION_DAYS}) LIMIT $1)`,
      [batch],
    );
    return r.rowCount;
  },
};
