// Request rate limits per credential (fixed one-minute windows, in process memory).
// Each API instance counts its own requests: behind N instances a credential can reach
// N times its tier figure. Login limits, which guard passwords, are kept in the database.
import { problem } from './problems.js';

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

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = Date.now();

  constructor(private readonly windowMs = 60_000) {}

  /**
   * Counts one request and sets the RateLimit-* headers on the reply; throws 429
   * `rate-limited` (with Retry-After) when the window is used up.
   */
  hit(reply: HeaderSink, id: string, limit: number, now = Date.now()): void {
    if (now - this.lastSweep > this.windowMs) this.sweep(now);
    let w = this.windows.get(id);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    const resetSec = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= limit) {
      throw problem('rate-limited', `rate limit of ${limit} requests per minute reached for this credential; retry in ${resetSec} s`, {
        headers: rateHeaders(limit, resetSec),
      });
    }
    w.count++;
    reply.header('ratelimit-limit', limit);
    reply.header('ratelimit-remaining', limit - w.count);
    reply.header('ratelimit-reset', resetSec);
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    this.lastSweep = now;
  }
}
