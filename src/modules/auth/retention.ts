// Retention of the foundation's bookkeeping rows: a periodic, bounded sweep that deletes
//   login attempts older than 1 day (the longest login window is 15 minutes),
//   idempotency keys older than 30 days (their replay window),
//   sessions ended (revoked) more than 30 days ago, and sessions never ended whose refresh
//     tokens all expired more than 30 days ago (their refresh tokens go with them),
//   refresh tokens, used or not, that expired more than 30 days ago.
// Several instances may run it: each batch is a transaction that first tries a shared advisory
// lock, and an instance that does not get it leaves the sweep to the one that did.
import type { Database, Queryable } from '../../db/database.js';
import { IDEMPOTENCY_RETENTION_DAYS } from '../../http/idempotency.js';

const RETENTION = { loginAttemptsDays: 1, idempotencyKeysDays: IDEMPOTENCY_RETENTION_DAYS, endedSessionsDays: 30, expiredRefreshTokensDays: 30 } as const;

/** Any constant shared by every Crucible process (the migrator uses 774_201_031). */
export const SWEEP_LOCK_KEY = 774_201_032;
const BATCH = 5_000;
const MAX_BATCHES = 20;

export interface SweepCounts {
  login_attempts: number;
  idempotency_keys: number;
  sessions: number;
  refresh_tokens: number;
}

export interface SweepResult {
  deleted: SweepCounts;
  yielded: boolean;
}

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
/** Without a logger: quiet on success, one line on stderr when a sweep fails (the next one retries). */
const stderrOnly: Logger = {
  info: () => undefined,
  error: (obj, msg) => console.error(`crucible: ${msg}: ${String((obj as { err?: Error }).err?.message ?? '')}`),
};

// One statement per kind of row; each deletes at most $1 rows, oldest first where an index allows.
const DELETES: Record<keyof SweepCounts, string> = {
  login_attempts: `DELETE FROM login_attempts WHERE id IN (
      SELECT id FROM login_attempts WHERE created_at < now() - make_interval(days => ${RETENTION.loginAttemptsDays}) ORDER BY id LIMIT $1)`,
  idempotency_keys: `DELETE FROM idempotency_keys WHERE (user_id, key) IN (
      SELECT user_id, key FROM idempotency_keys WHERE created_at < now() - make_interval(days => ${RETENTION.idempotencyKeysDays}) LIMIT $1)`,
  sessions: `DELETE FROM sessions WHERE id IN (
      SELECT s.id FROM sessions s
       WHERE s.created_at < now() - make_interval(days => ${RETENTION.endedSessionsDays})
         AND (s.revoked_at < now() - make_interval(days => ${RETENTION.endedSessionsDays})
              OR s.revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM refresh_tokens rt
                              WHERE rt.session_id = s.id AND rt.expires_at >= now() - make_interval(days => ${RETENTION.expiredRefreshTokensDays})))
       LIMIT $1)`,
  refresh_tokens: `DELETE FROM refresh_tokens WHERE token_hash IN (
      SELECT token_hash FROM refresh_tokens WHERE expires_at < now() - make_interval(days => ${RETENTION.expiredRefreshTokensDays}) LIMIT $1)`,
};

export class RetentionSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly db: Database,
    private readonly log: Logger = stderrOnly,
  ) {}

  /** One batch of one kind in its own short transaction; null when another instance holds the sweep lock. */
  private async batch(kind: keyof SweepCounts): Promise<number | null> {
    return this.db.transaction(async (tx: Queryable) => {
      const { rows } = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [SWEEP_LOCK_KEY]);
      if (!rows[0].got) return null;
      return (await tx.query(DELETES[kind], [BATCH])).rowCount;
    });
  }

  /**
   * Runs one sweep now: what it deleted, and whether it stopped early because another
   * instance was sweeping at the same moment (that one carries on; the rows go once either way).
   */
  async runOnce(): Promise<SweepResult> {
    const deleted: SweepCounts = { login_attempts: 0, idempotency_keys: 0, sessions: 0, refresh_tokens: 0 };
    for (const kind of Object.keys(DELETES) as (keyof SweepCounts)[]) {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await this.batch(kind);
        if (n === null) return { deleted, yielded: true };
        deleted[kind] += n;
        if (n < BATCH) break;
      }
    }
    return { deleted, yielded: false };
  }

  /** Sweeps every `intervalMs` (first after `firstDelayMs`) on an unref'd timer. */
  start(intervalMs = 10 * 60 * 1000, firstDelayMs = 60 * 1000): void {
    if (this.timer) return;
    const run = () => {
      if (this.running) return;
      this.running = this.runOnce()
        .then(({ deleted }) => {
          if (Object.values(deleted).some((n) => n > 0)) this.log.info({ deleted }, 'retention sweep');
        })
        .catch((err) => this.log.error({ err }, 'retention sweep failed'))
        .finally(() => {
          this.running = null;
        });
    };
    this.timer = setTimeout(() => {
      run();
      this.timer = setInterval(run, intervalMs).unref();
    }, firstDelayMs).unref();
  }

  /** Stops the timer and waits for a sweep under way. */
  async stop(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      clearInterval(this.timer);
      this.timer = null;
    }
    await this.running;
  }
}
