// The monthly allowance of utility and inference calls, and GET /usage (docs/usage.md). Calls
// are counted per account and calendar month (UTC) in the transaction that records them
// (`consume`), never beyond the tier's allowance; an enterprise account is unlimited. The usage
// summary puts the calls beside storage, keys and the month's jobs, workflow runs and Assistant
// turns, from the same figures as /artifacts/usage, the key list and the ledger.
import type { JobRequests } from '../../compute/ports.js';
import type { JobOrigin } from '../../compute/store.js';
import { tierNameOf, type Config } from '../../config.js';
import type { Database, Queryable } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { ArtifactService } from '../artifacts/service.js';
import type { KeyService } from '../keys/service.js';
import { CallCounter, type CounterStats } from './counter.js';
import { usageStore, type CallKind, type MonthCounts, type SubjectActivity } from './store.js';

export interface Period {
  start: Date;
  /** The first instant of the next month: the allowance resets then. */
  end: Date;
  /** YYYY-MM-01, the month's key. */
  key: string;
}

export function periodOf(now: Date = new Date()): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, key: start.toISOString().slice(0, 10) };
}

/** The kind of calls an asynchronous request of each origin counts. */
const KIND_OF: Partial<Record<JobOrigin, CallKind>> = { utility: 'utilities', inference: 'inference' };

/**
 * The job engine's port for failed requests (JobRequests, src/compute/ports.ts; wired by
 * src/modules/jobs/index.ts): an asynchronous utility or inference request that ends `error`
 * gives the units it counted at submit (its `info.units`) back to the month it was counted in
 * (the month of its created_at, UTC), in the transaction that ends it. A cancelled request
 * keeps its count (docs/usage.md, "Counting").
 */
export const failedRequestRefunds: JobRequests = {
  async failed(tx, job) {
    const kind = KIND_OF[job.origin];
    const units = (job.info as { units?: unknown }).units;
    if (!kind || typeof units !== 'number' || !Number.isSafeInteger(units) || units < 1) return;
    await usageStore.refund(tx, job.user_id, periodOf(new Date(job.created_at)).key, kind, units);
  },
};

const usd = (micros: number) => Math.round(micros) / 1_000_000;
const paid = (a: SubjectActivity) => ({ count: a.count, charged_usd: usd(a.charged_micros) });

export class UsageService {
  private readonly counter: CallCounter;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly deps: { keys: KeyService; artifacts: ArtifactService },
  ) {
    this.counter = new CallCounter(db);
  }

  /** Calls a month for the tier; null is unlimited. */
  allowanceFor(tier: number): number | null {
    return this.config.tiers[tierNameOf(tier)].monthlyCalls;
  }

  /**
   * Counts `units` calls of `kind` in `tx` (the transaction that records the call), or throws
   * 403 `monthly-allowance-exceeded` with Retry-After at the month's end, counting nothing.
   */
  async consume(tx: Queryable, userId: string, tier: number, kind: CallKind, units: number, now: Date = new Date()): Promise<MonthCounts> {
    if (!Number.isSafeInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, not ${units}`);
    const allowance = this.allowanceFor(tier);
    const period = periodOf(now);
    const counts = await usageStore.add(tx, userId, period.key, kind, units, allowance);
    if (counts) return counts;
    throw this.exceeded(await usageStore.month(tx, userId, period.key), allowance, units, period, now);
  }

  /**
   * As consume, for a call that writes nothing else with its count (no transaction of its own):
   * one statement, shared with the account's calls of the same kind that arrive while its
   * previous count is being written (counter.ts). Counted before it returns, exactly as consume.
   */
  async count(userId: string, tier: number, kind: CallKind, units: number, now: Date = new Date()): Promise<MonthCounts> {
    if (!Number.isSafeInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, not ${units}`);
    const allowance = this.allowanceFor(tier);
    const period = periodOf(now);
    const counts = await this.counter.add(userId, period.key, kind, units, allowance);
    if (counts) return counts;
    throw this.exceeded(await usageStore.month(this.db, userId, period.key), allowance, units, period, now);
  }

  /** Statements count() has written and the calls they counted. */
  counterStats(): CounterStats {
    return this.counter.stats();
  }

  /**
   * Refuses early (the same 403 as consume) a call that could not be counted now, so that work
   * is not done for nothing; consume, at the end, is what counts and what is exact.
   */
  async assertAvailable(userId: string, tier: number, units: number, now: Date = new Date()): Promise<void> {
    const allowance = this.allowanceFor(tier);
    if (allowance === null) return;
    const period = periodOf(now);
    const used = await usageStore.month(this.db, userId, period.key);
    if (used.utilities + used.inference + units > allowance) throw this.exceeded(used, allowance, units, period, now);
  }

  private exceeded(used: MonthCounts, allowance: number | null, units: number, period: Period, now: Date): AppError {
    const total = used.utilities + used.inference;
    const left = Math.max(0, (allowance ?? 0) - total);
    return new AppError(
      'monthly-allowance-exceeded',
      `this call counts ${units} against the monthly allowance of ${allowance} utility and inference calls (${left} left this month); it resets at ${period.end.toISOString()}`,
      {
        retryAfterSec: Math.max(1, Math.ceil((period.end.getTime() - now.getTime()) / 1000)),
        extra: { allowance, used: total, resets_at: period.end.toISOString() },
      },
    );
  }

  async summary(userId: string, tier: number, now: Date = new Date()) {
    const period = periodOf(now);
    const [month, allTime, storage, keys, work] = await Promise.all([
      usageStore.month(this.db, userId, period.key),
      usageStore.allTime(this.db, userId),
      this.deps.artifacts.usage(userId),
      this.deps.keys.list(userId, tier),
      usageStore.activitySince(this.db, userId, period.start),
    ]);
    const allowance = this.allowanceFor(tier);
    const used = month.utilities + month.inference;
    return {
      period: { start: period.start.toISOString(), end: period.end.toISOString(), resets_at: period.end.toISOString() },
      tier,
      tier_name: tierNameOf(tier),
      calls: {
        utilities: month.utilities,
        inference: month.inference,
        total: used,
        allowance,
        remaining: allowance === null ? null : Math.max(0, allowance - used),
      },
      all_time: { utilities: allTime.utilities, inference: allTime.inference, total: allTime.utilities + allTime.inference },
      storage: { used_bytes: storage.used_bytes, quota_bytes: storage.quota_bytes, artifact_count: storage.artifact_count },
      keys: { used: keys.count, limit: keys.limit },
      jobs: paid(work.jobs),
      workflow_runs: paid(work.workflow_runs),
      assistant_turns: paid(work.assistant_turns),
    };
  }
}
