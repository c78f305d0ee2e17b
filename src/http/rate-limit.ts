// Request rate limits per credential (docs/api-decisions.md, "Rate limits"): fixed one-minute
// windows, each credential's shifted by a hash of its id so that all windows do not reset at once.
//
// The figure holds across API instances on one PostgreSQL database (docs/architecture.md,
// "Decisions": rate limits across instances). The decision is taken in process memory: a
// request is refused when the best-known total (the last total read from the database plus this
// instance's requests not yet added to it) reaches the figure. A background sync (every 200 ms,
// only while there is something to add) adds each instance's new requests to the credential's row in rate_windows
// (rate-sync.ts, one statement for all credentials) and reads back the totals. Two rules bound
// what the instances admit between syncs without seeing each other's requests:
// - a credential whose best-known total reached 80 % of its figure is counted in the database on
//   every request (the request waits for one upsert; the requests of one credential that arrive
//   meanwhile share the next statement), so near the limit the total is exact;
// - so is a credential of which this instance holds 1 % of the figure (at least 1) not yet added,
//   so N instances admit at most about N % of the figure beyond it in a burst.
// When the database fails or does not answer within 2 s, each instance counts its own requests
// (as if alone), logs one warning per failure streak and adds its counts once the database
// answers; requests never fail for it. (A statement that timed out may still have been applied:
// its requests are then counted twice, which errs on the strict side.) On PGlite (one process)
// nothing needs sharing: the same windows and headers, counted in memory.
import { problem } from './problems.js';
import type { RateWindowStore } from './rate-sync.js';

/** The headers of a 429: the limit, nothing remaining, and when to retry. */
export function rateHeaders(limit: number, resetSec: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(resetSec),
    'retry-after': String(resetSec),
  };
}

/** Where the headers go (a Fastify reply). */
interface HeaderSink {
  header(name: string, value: number | string): unknown;
}

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** A request waiting for its credential's count in the database. */
interface Waiter {
  reply: HeaderSink;
  limit: number;
  resetSec: number;
  resolve(): void;
  reject(err: unknown): void;
}

interface Window {
  id: string;
  start: number;
  /** The highest total read from the shared row (0 when nothing is shared). */
  known: number;
  /** Requests admitted here and not yet added to the shared row. */
  unsynced: number;
  /** Requests being added now (by the sync, or by waiting requests, counted tentatively). */
  inFlight: number;
  waiting: Waiter[];
  flushing: boolean;
}

export interface RateLimiterOptions {
  /** The shared counts (PostgreSQL); without it, each instance counts alone. */
  store?: RateWindowStore | null;
  log?: Logger;
  windowMs?: number;
  /** Interval of the background sync. */
  syncMs?: number;
  /** Interval of the sync while the database fails. */
  retryMs?: number;
  /** Longest a request waits for its count in the database before it is decided here. */
  waitMs?: number;
}

/** From this share of the figure on, every request is counted in the database. */
const NEAR_SHARE = 0.8;
/** The share of the figure one instance may admit without adding it to the database. */
const LOCAL_SHARE = 0.01;
/** Old rows are deleted by the sync at most this often. */
const PURGE_EVERY_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = Date.now();
  private lastPurge = 0;
  private readonly store: RateWindowStore | null;
  private readonly log: Logger | null;
  private readonly windowMs: number;
  private readonly syncMs: number;
  private readonly retryMs: number;
  private readonly waitMs: number;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  private failing = false;
  private closed = false;

  constructor(opts: RateLimiterOptions = {}) {
    this.store = opts.store ?? null;
    this.log = opts.log ?? null;
    this.windowMs = opts.windowMs ?? 60_000;
    this.syncMs = opts.syncMs ?? 200;
    this.retryMs = opts.retryMs ?? 1_000;
    this.waitMs = opts.waitMs ?? 2_000;
  }

  /** True while the database fails and each instance counts alone. */
  get degraded(): boolean {
    return this.failing;
  }

  /**
   * Counts one request and sets the RateLimit-* headers on the reply; throws 429
   * `rate-limited` (with Retry-After) when the window is used up. Returns a promise only when the
   * request is counted in the database (near the figure, or in a burst): then that promise
   * settles the same way.
   */
  hit(reply: HeaderSink, id: string, limit: number, now = Date.now()): void | Promise<void> {
    if (now - this.lastSweep > this.windowMs) this.sweep(now);
    const w = this.window(id, now);
    const resetSec = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    const used = w.known + w.unsynced + w.inFlight;
    if (used >= limit) throw limited(limit, resetSec);
    if (this.store && !this.failing && (used >= limit * NEAR_SHARE || w.unsynced + w.inFlight >= Math.max(1, Math.floor(limit * LOCAL_SHARE)))) {
      return this.countShared(w, { reply, limit, resetSec });
    }
    w.unsynced++;
    setHeaders(reply, limit, limit - used - 1, resetSec);
    if (this.store) this.arm();
  }

  /** Stops the sync and adds what this instance still holds (the database must still be open). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.syncing;
    if (this.store && !this.failing && this.pending()) await this.sync();
  }

  /** The credential's current window (windows start at a per-credential offset in the minute). */
  private window(id: string, now: number): Window {
    let w = this.windows.get(id);
    if (!w || now >= w.start + this.windowMs || now < w.start) {
      w = { id, start: windowStart(id, now, this.windowMs), known: 0, unsynced: 0, inFlight: 0, waiting: [], flushing: false };
      this.windows.set(id, w);
    }
    return w;
  }

  private countShared(w: Window, req: Omit<Waiter, 'resolve' | 'reject'>): Promise<void> {
    const admitted = new Promise<void>((resolve, reject) => w.waiting.push({ ...req, resolve, reject }));
    w.inFlight++;
    if (!w.flushing) void this.flush(w);
    return admitted;
  }

  /**
   * Counts the waiting requests of one window in the database, one statement at a time: each
   * adds the requests admitted here since the last sync plus the waiting ones, and a waiting
   * request is admitted when its place in the new total is within the figure.
   */
  private async flush(w: Window): Promise<void> {
    w.flushing = true;
    try {
      while (w.waiting.length) {
        const batch = w.waiting.splice(0);
        if (this.failing) {
          w.inFlight -= batch.length;
          for (const x of batch) this.decideHere(w, x);
          continue;
        }
        const taken = w.unsynced;
        w.unsynced = 0;
        w.inFlight += taken;
        const delta = taken + batch.length;
        let total: number | null = null;
        try {
          const [t] = await this.bounded(this.store!.add([{ credential: w.id, windowStart: w.start, delta }]));
          total = t ?? null;
          this.recovered();
        } catch (err) {
          this.failed(err);
        }
        w.inFlight -= delta;
        if (total === null) {
          // Not counted (as far as this instance knows: after a timeout it may have been, which
          // only makes the count higher): decided here, as if alone.
          w.unsynced += taken;
          for (const x of batch) this.decideHere(w, x);
          continue;
        }
        w.known = Math.max(w.known, total);
        const before = total - batch.length;
        batch.forEach((x, i) => {
          const place = before + i + 1;
          if (place > x.limit) return x.reject(limited(x.limit, x.resetSec));
          setHeaders(x.reply, x.limit, x.limit - place, x.resetSec);
          x.resolve();
        });
      }
    } finally {
      w.flushing = false;
    }
  }

  private decideHere(w: Window, x: Waiter): void {
    const used = w.known + w.unsynced + w.inFlight;
    if (used >= x.limit) return x.reject(limited(x.limit, x.resetSec));
    w.unsynced++;
    setHeaders(x.reply, x.limit, x.limit - used - 1, x.resetSec);
    x.resolve();
    this.arm();
  }

  /** Schedules the next sync, unless one is due or running (the timer never holds the process). */
  private arm(): void {
    if (this.timer || this.syncing || this.closed || !this.store) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.syncing = this.sync().finally(() => {
          this.syncing = null;
          if (this.pending()) this.arm();
        });
      },
      this.failing ? this.retryMs : this.syncMs,
    ).unref();
  }

  private pending(): boolean {
    for (const w of this.windows.values()) if (w.unsynced > 0) return true;
    return false;
  }

  /** Adds every window's unsynced requests in one statement and learns the totals; never throws. */
  private async sync(now = Date.now()): Promise<void> {
    const store = this.store;
    if (!store) return;
    const batch: { w: Window; delta: number }[] = [];
    for (const w of this.windows.values()) {
      if (w.unsynced <= 0) continue;
      if (now >= w.start + this.windowMs) {
        w.unsynced = 0; // the window is over: its count no longer decides anything
        continue;
      }
      batch.push({ w, delta: w.unsynced });
      w.inFlight += w.unsynced;
      w.unsynced = 0;
    }
    if (batch.length) {
      try {
        const totals = await this.bounded(store.add(batch.map(({ w, delta }) => ({ credential: w.id, windowStart: w.start, delta }))));
        batch.forEach(({ w, delta }, i) => {
          w.inFlight -= delta;
          w.known = Math.max(w.known, totals[i] ?? 0);
        });
        this.recovered();
      } catch (err) {
        for (const { w, delta } of batch) {
          w.inFlight -= delta;
          w.unsynced += delta;
        }
        this.failed(err);
      }
    }
    if (!this.failing && now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await this.bounded(store.purge()).catch((err: unknown) => this.failed(err));
    }
  }

  /** The promise, or a rejection when the database has not answered within waitMs. */
  private bounded<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${this.waitMs} ms`)), this.waitMs).unref();
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  private failed(err: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.log?.warn({ err }, 'rate limits: the shared counts in the database failed; this instance counts its own requests until the database answers');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log?.info({}, 'rate limits: shared counts in the database resumed');
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs && !w.flushing) this.windows.delete(k);
    this.lastSweep = now;
  }
}

function limited(limit: number, resetSec: number): Error {
  return problem('rate-limited', `rate limit of ${limit} requests per minute reached for this credential; retry in ${resetSec} s`, {
    headers: rateHeaders(limit, resetSec),
  });
}

function setHeaders(reply: HeaderSink, limit: number, remaining: number, resetSec: number): void {
  reply.header('ratelimit-limit', limit);
  reply.header('ratelimit-remaining', Math.max(0, remaining));
  reply.header('ratelimit-reset', resetSec);
}

/** Where the window containing `now` starts: every `windowMs`, shifted by a hash of the id (FNV-1a), the same in every instance. */
export function windowStart(id: string, now: number, windowMs: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  const offset = (h >>> 0) % windowMs;
  return now - ((((now - offset) % windowMs) + windowMs) % windowMs);
}
