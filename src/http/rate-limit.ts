// Request rate limits per credential (fixed one-minute windows, in process memory).
// Each API instance counts its own requests: behind N instances a credential can reach
// N times its tier figure. Login limits, which guard passwords, are kept in the database.
import { problem } from './problems.js';

export function rateHeaders(limit: number, remaining: number, resetSec: number, withRetryAfter = true): Record<string, string> {
  const h: Record<string, string> = {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetSec),
  };
  if (withRetryAfter) h['retry-after'] = String(resetSec);
  return h;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = Date.now();

  constructor(private readonly windowMs = 60_000) {}

  /** Counts one request; returns the headers to send, or throws 429 `rate-limited`. */
  hit(id: string, limit: number, now = Date.now()): Record<string, string> {
    if (now - this.lastSweep > this.windowMs) this.sweep(now);
    let w = this.windows.get(id);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    const resetSec = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= limit) {
      throw problem('rate-limited', `rate limit of ${limit} requests per minute reached for this credential; retry in ${resetSec} s`, {
        headers: rateHeaders(limit, 0, resetSec),
      });
    }
    w.count++;
    return rateHeaders(limit, limit - w.count, resetSec, false);
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    this.lastSweep = now;
  }
}
