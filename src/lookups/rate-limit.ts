// Per-source rate limits shared by every request of the process: a sliding one-second window
// (at most N calls start in any second), handed out by reservation so concurrent callers queue
// in order without a timer per waiter. One registry per process by default; tests pass their own.

export class SlidingWindowLimiter {
  private readonly grants: number[] = [];
  readonly perSecond: number;
  private readonly windowMs: number;

  constructor(perSecond: number, windowMs = 1000) {
    if (!(perSecond > 0)) throw new Error('rate must be positive');
    this.perSecond = Math.max(1, Math.floor(perSecond));
    this.windowMs = windowMs;
  }

  /** Milliseconds the caller must wait before its call may start (the slot is reserved). */
  reserve(now = Date.now()): number {
    const n = this.perSecond;
    const g = this.grants;
    let at = now;
    // The n-th latest grant (present once n calls were granted) bounds the next start.
    const nthLatest = g.at(-n);
    if (nthLatest !== undefined) at = Math.max(now, nthLatest + this.windowMs);
    g.push(at);
    // Keep only what a later reservation can still look at.
    if (g.length > n * 4) g.splice(0, g.length - n);
    return at - now;
  }

  async acquire(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

export class RateLimiterRegistry {
  private readonly limiters = new Map<string, SlidingWindowLimiter>();

  /** The limiter for `key`; the first caller's rate wins for the life of the registry. */
  get(key: string, perSecond: number): SlidingWindowLimiter {
    let l = this.limiters.get(key);
    if (!l) {
      l = new SlidingWindowLimiter(perSecond);
      this.limiters.set(key, l);
    }
    return l;
  }
}

/** The process-wide registry every LookupService uses unless told otherwise. */
export const sharedRateLimiters = new RateLimiterRegistry();
