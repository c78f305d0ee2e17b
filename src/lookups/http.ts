// One HTTP client per upstream host: the host part of the URL comes from configuration, the
// path is always the service's real one. Every call waits for the source's rate limiter,
// has its own timeout, and is retried with exponential backoff and full jitter on 429 and
// 5xx answers and on network errors (Retry-After is honoured). A timeout is not retried:
// the item reports `timeout` instead of making the caller wait several timeouts.
import type { SlidingWindowLimiter } from './rate-limit.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

interface UpstreamClientOptions {
  /** Scheme, host and port; any path on it is ignored. */
  baseUrl: string;
  /** Used in error messages and logs. */
  source: string;
  limiter: SlidingWindowLimiter;
  /** Per-call timeout (default 10 s). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx and network errors (default 3). */
  retries?: number;
  /** First backoff step (default 250 ms); step n waits a random time in [0, base * 2^n]. */
  backoffBaseMs?: number;
  /** Upper bound of one backoff step (default 5 s). */
  backoffMaxMs?: number;
  /** A Retry-After longer than this gives up at once (default 30 s). */
  retryAfterMaxMs?: number;
  /** Largest accepted body (default 16 MiB). */
  maxBodyBytes?: number;
  userAgent?: string;
  fetch?: FetchLike;
}

/** Why an upstream call failed after its retries: the item becomes `upstream_error` or `timeout`. */
export class UpstreamFailure extends Error {
  readonly kind: 'timeout' | 'upstream';
  readonly status: number | null;
  constructor(kind: 'timeout' | 'upstream', message: string, status: number | null = null) {
    super(message);
    this.name = 'UpstreamFailure';
    this.kind = kind;
    this.status = status;
  }
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; throws UpstreamFailure('upstream') if it is not JSON. */
  json<T = unknown>(): T;
}

interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Query parameters appended to the path. */
  query?: Record<string, string | number | undefined>;
  /** A JSON body (POST). */
  json?: unknown;
  /** A form body (POST, application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/** Retry-After as milliseconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, t - now);
}

export class UpstreamClient {
  readonly origin: string;
  readonly source: string;
  private readonly limiter: SlidingWindowLimiter;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly retryAfterMaxMs: number;
  private readonly maxBodyBytes: number;
  private readonly userAgent: string;
  private readonly fetchImpl: FetchLike;

  constructor(o: UpstreamClientOptions) {
    this.origin = new URL(o.baseUrl).origin;
    this.source = o.source;
    this.limiter = o.limiter;
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.retries = o.retries ?? 3;
    this.backoffBaseMs = o.backoffBaseMs ?? 250;
    this.backoffMaxMs = o.backoffMaxMs ?? 5_000;
    this.retryAfterMaxMs = o.retryAfterMaxMs ?? 30_000;
    this.maxBodyBytes = o.maxBodyBytes ?? 16 * 1024 * 1024;
    this.userAgent = o.userAgent ?? 'Crucible/0.1 (science lookups)';
    this.fetchImpl = o.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The absolute URL of a real service path on the configured host. */
  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(path, this.origin);
    if (query) for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.append(k, String(v));
    return u.toString();
  }

  /**
   * Calls the service. Answers every final response with a status below 500 except 429
   * (the source decides what 404 or 400 means); throws UpstreamFailure when the call timed
   * out, or when 429/5xx/network errors persisted through the retries.
   */
  async request(path: string, o: RequestOptions = {}): Promise<UpstreamResponse> {
    const url = this.url(path, o.query);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent, ...(o.headers ?? {}) };
    let body: string | undefined;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const method = o.method ?? (body === undefined ? 'GET' : 'POST');

    let lastError = 'no attempt made';
    let lastStatus: number | null = null;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      await this.limiter.acquire();
      let res: Response;
      let text: string;
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), this.timeoutMs);
      try {
        res = await this.fetchImpl(url, { method, headers, body, signal: ac.signal, redirect: 'follow' });
        text = await this.readBody(res);
      } catch (err) {
        clearTimeout(timer);
        if (ac.signal.aborted) {
          throw new UpstreamFailure('timeout', `${this.source}: no answer within ${formatSeconds(this.timeoutMs)}`);
        }
        if (err instanceof UpstreamFailure) throw err;
        lastError = `${this.source}: ${networkError(err, url)}`;
        lastStatus = null;
        if (attempt < this.retries) await sleep(this.backoff(attempt));
        continue;
      }
      clearTimeout(timer);
      if (!RETRYABLE(res.status)) return makeResponse(this.source, res, text);
      lastStatus = res.status;
      lastError = `${this.source}: HTTP ${res.status}${attempt > 0 ? ` (after ${attempt + 1} attempts)` : ''}`;
      if (attempt >= this.retries) break;
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (retryAfter !== null && retryAfter > this.retryAfterMaxMs) break; // longer than we are willing to hold the request
      await sleep(Math.max(retryAfter ?? 0, this.backoff(attempt)));
    }
    throw new UpstreamFailure('upstream', lastError, lastStatus);
  }

  private backoff(attempt: number): number {
    const cap = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** attempt);
    return Math.random() * cap; // full jitter
  }

  private async readBody(res: Response): Promise<string> {
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      await res.body?.cancel().catch(() => {});
      throw new UpstreamFailure('upstream', `${this.source}: response of ${declared} bytes is over the limit`, res.status);
    }
    if (!res.body) return '';
    // A fetch body is a byte stream (undici types it ReadableStream<any>).
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > this.maxBodyBytes) {
        await reader.cancel().catch(() => {});
        throw new UpstreamFailure('upstream', `${this.source}: response over ${this.maxBodyBytes} bytes`, res.status);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** A failed fetch in words: DNS failure, connection refused or reset, TLS, with the host (never the query). */
export function networkError(err: unknown, url: string): string {
  const host = new URL(url).host;
  const cause = err instanceof Error && err.cause instanceof Error ? (err.cause as NodeJS.ErrnoException) : null;
  switch (cause?.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS lookup failed for ${host} (${cause.code})`;
    case 'ECONNREFUSED':
      return `connection refused by ${host}`;
    case 'ECONNRESET':
      return `connection reset by ${host}`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect to ${host} in time`;
    default:
      if (cause?.code && /CERT|TLS|SSL/.test(cause.code)) return `TLS failure with ${host} (${cause.code})`;
      return `request to ${host} failed: ${cause?.message ?? (err instanceof Error ? err.message : String(err))}`;
  }
}

function makeResponse(source: string, res: Response, text: string): UpstreamResponse {
  let parsed: unknown;
  let done = false;
  return {
    status: res.status,
    headers: res.headers,
    text,
    json<T>(): T {
      if (!done) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new UpstreamFailure('upstream', `${source}: answer is not JSON (HTTP ${res.status})`, res.status);
        }
        done = true;
      }
      return parsed as T;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
