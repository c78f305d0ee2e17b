// The durable LookupCache: the table lookup_cache (migration 005). Every instance on the same
// database shares it, and it survives restarts, so a repeat within the TTL costs no upstream
// call anywhere. Expired rows are never read; they are deleted in batches by purgeExpired(),
// which set() starts in the background at most once per purge interval per process.
import type { Queryable } from '../../db/database.js';
import type { LookupCache } from '../../lookups/index.js';

export interface DbLookupCacheOptions {
  /** Least time between two background purges started by set(). Default 10 min; 0 = never from set(). */
  purgeIntervalMs?: number;
  /** Rows deleted per statement of a purge. Default 5,000. */
  purgeBatch?: number;
  onError?: (err: Error, what: string) => void;
}

export class DbLookupCache implements LookupCache {
  private readonly purgeIntervalMs: number;
  private readonly purgeBatch: number;
  private readonly onError: (err: Error, what: string) => void;
  private lastPurgeAt = Date.now();
  private purging: Promise<number> | null = null;

  constructor(
    private readonly db: Queryable,
    opts: DbLookupCacheOptions = {},
  ) {
    this.purgeIntervalMs = opts.purgeIntervalMs ?? 10 * 60_000;
    this.purgeBatch = opts.purgeBatch ?? 5_000;
    this.onError = opts.onError ?? (() => undefined);
  }

  async get(key: string): Promise<unknown> {
    const { rows } = await this.db.query<{ value: unknown }>('SELECT value FROM lookup_cache WHERE key = $1 AND expires_at > now()', [key]);
    return rows[0]?.value;
  }

  /** The live entries among `keys`, in one statement (the engine reads all keys of a request at once). */
  async getMany(keys: readonly string[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    if (keys.length === 0) return out;
    const { rows } = await this.db.query<{ key: string; value: unknown }>('SELECT key, value FROM lookup_cache WHERE key = ANY($1::text[]) AND expires_at > now()', [[...keys]]);
    for (const r of rows) out.set(r.key, r.value);
    return out;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO lookup_cache (key, value, expires_at) VALUES ($1, $2::jsonb, now() + $3::double precision * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, created_at = now()`,
      [key, JSON.stringify(value), Math.max(1, Math.round(ttlMs))],
    );
    if (this.purgeIntervalMs > 0 && Date.now() - this.lastPurgeAt >= this.purgeIntervalMs && !this.purging) {
      this.lastPurgeAt = Date.now();
      void this.purgeExpired().catch((err) => this.onError(err as Error, 'purge'));
    }
  }

  /** Deletes every expired row (in batches, so no statement holds many locks); returns how many. */
  purgeExpired(): Promise<number> {
    this.purging ??= (async () => {
      let total = 0;
      try {
        for (;;) {
          const { rowCount } = await this.db.query('DELETE FROM lookup_cache WHERE key IN (SELECT key FROM lookup_cache WHERE expires_at <= now() LIMIT $1)', [this.purgeBatch]);
          total += rowCount;
          if (rowCount < this.purgeBatch) return total;
        }
      } finally {
        this.purging = null;
      }
    })();
    return this.purging;
  }
}
