// Retention of the foundation's bookkeeping rows: a periodic, bounded sweep that deletes
//   login attempts older than 1 day (the longest login window is 15 minutes),
//   idempotency keys older than 30 days (their replay window),
//   sessions ended (revoked) more than 30 days ago, and sessions never ended whose refresh
//     tokens all expired more than 30 days ago (their refresh tokens go with them),
//   refresh tokens, used or not, that expired more than 30 days ago.
// Several instances may run it: each batch is a transaction that first tries a shared advisory
// lock, and an instance that does not get it leaves the sweep to the one that did.
import { firstRow, type Database, type Queryable } from '../../db/database.js';
import { LOCKS } from '../../db/locks.js';
import type { PeriodicTask } from '../../scheduler.js';
import { IDEMPOTENCY_RETENTION_DAYS, idempotencyStore } from '../idempotency/store.js';
import { purgeLoginAttempts } from './login-attempts.js';
import { purgeEndedSessions, purgeExpiredRefreshTokens } from './sessions.js';

const RETENTION = { loginAttemptsDays: 1, idempotencyKeysDays: IDEMPOTENCY_RETENTION_DAYS, endedSessionsDays: 30, expiredRefreshTokensDays: 30 } as const;

export const SWEEP_LOCK_KEY = LOCKS.retention;
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

// One statement per kind of row, each owned by its table's module and deleting at most
// `batch` rows, oldest first where an index allows.
const PURGES: Record<keyof SweepCounts, (q: Queryable, batch: number) => Promise<number>> = {
  login_attempts: (q, batch) => purgeLoginAttempts(q, RETENTION.loginAttemptsDays, batch),
  idempotency_keys: (q, batch) => idempotencyStore.purgeBatch(q, batch),
  sessions: (q, batch) => purgeEndedSessions(q, RETENTION.endedSessionsDays, RETENTION.expiredRefreshTokensDays, batch),
  refresh_tokens: (q, batch) => purgeExpiredRefreshTokens(q, RETENTION.expiredRefreshTokensDays, batch),
};

export class RetentionSweep {
  constructor(
    private readonly db: Database,
    private readonly log: Logger = stderrOnly,
  ) {}

  /** One batch of one kind in its own short transaction; null when another instance holds the sweep lock. */
  private async batch(kind: keyof SweepCounts): Promise<number | null> {
    return this.db.transaction(async (tx: Queryable) => {
      const { rows } = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [SWEEP_LOCK_KEY]);
      if (!firstRow(rows, 'the sweep lock query').got) return null;
      return PURGES[kind](tx, BATCH);
    });
  }

  /**
   * Runs one sweep now: what it deleted, and whether it stopped early because another
   * instance was sweeping at the same moment (that one carries on; the rows go once either way).
   */
  async runOnce(): Promise<SweepResult> {
    const deleted: SweepCounts = { login_attempts: 0, idempotency_keys: 0, sessions: 0, refresh_tokens: 0 };
    for (const kind of Object.keys(PURGES) as (keyof SweepCounts)[]) {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await this.batch(kind);
        if (n === null) return { deleted, yielded: true };
        deleted[kind] += n;
        if (n < BATCH) break;
      }
    }
    return { deleted, yielded: false };
  }

  /** The periodic task (docs/architecture.md, "Scheduler and locks"): every 10 minutes, the first after 1 minute. */
  task(intervalMs = 10 * 60_000, firstDelayMs = 60_000): PeriodicTask {
    return {
      name: 'retention',
      everyMs: intervalMs,
      firstDelayMs,
      run: async () => {
        const { deleted } = await this.runOnce();
        if (Object.values(deleted).some((n) => n > 0)) this.log.info({ deleted }, 'retention sweep');
      },
    };
  }
}
