// When a failed request is sent again (README, "Retries"), driven by the problem's `retry` hint
// (docs/api-decisions.md, "Errors"): `upstream` and `timeout` with exponential backoff and
// jitter, or after Retry-After when the answer has one; `quota` only when the answer says how
// long to wait (Retry-After, e.g. 429) and that is short enough; `conflict` only for
// `idempotency-key-in-progress` (the first request is still being handled: its answer is
// replayed once it is done); `auth` once, for an expired access token the SDK can refresh.
// `validation`, `terminal` and hints this SDK does not know are never retried. A request that
// got no answer at all is sent again only when that cannot do a thing twice: a GET or HEAD, or
// a write that carries an Idempotency-Key.
import { ProblemError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). 1 turns retries off. */
  attempts: number;
  /** First backoff in ms (default 500); doubled each time, with jitter. */
  baseDelayMs: number;
  /** Longest backoff in ms (default 8,000). */
  maxDelayMs: number;
  /** The longest Retry-After worth waiting for, in seconds (default 60); a longer one is thrown at once. */
  maxRetryAfterSec: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterSec: 60 };

export type Decision = { retry: false } | { retry: true; delayMs: number; refresh?: boolean };

/** Backoff before attempt `attempt + 1` (attempt counts from 1): between half and all of base * 2^(attempt-1), capped. */
export function backoff(options: RetryOptions, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * What to do after attempt `attempt` failed with `error`: a ProblemError (the server answered)
 * or anything else fetch threw (no answer). `safe`: sending it again cannot do a thing twice.
 * `canRefresh`: an access token the SDK holds with a refresh token, not yet refreshed for this call.
 */
export function decide(error: unknown, attempt: number, options: RetryOptions, safe: boolean, canRefresh: boolean): Decision {
  if (attempt >= options.attempts) return { retry: false };
  if (!(error instanceof ProblemError)) {
    // fetch throws a TypeError when no answer came (connection refused or dropped): sent again
    // when that is safe. Anything else (the caller's abort, an answer that is not the JSON it
    // claims) would fail the same way again.
    if (!(error instanceof TypeError) || !safe) return { retry: false };
    return { retry: true, delayMs: backoff(options, attempt) };
  }
  const wait = (fallbackMs: number): Decision => {
    if (error.retryAfterSec === null) return { retry: true, delayMs: fallbackMs };
    if (error.retryAfterSec > options.maxRetryAfterSec) return { retry: false };
    return { retry: true, delayMs: error.retryAfterSec * 1000 };
  };
  switch (error.retry) {
    case 'upstream':
    case 'timeout':
      return wait(backoff(options, attempt));
    case 'quota':
      return error.retryAfterSec === null ? { retry: false } : wait(0);
    case 'conflict':
      return error.slug === 'idempotency-key-in-progress' ? wait(backoff(options, attempt)) : { retry: false };
    case 'auth':
      return error.slug === 'token-expired' && canRefresh ? { retry: true, delayMs: 0, refresh: true } : { retry: false };
    default:
      return { retry: false };
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
