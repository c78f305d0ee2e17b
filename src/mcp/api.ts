// The API as the MCP caller: every tool call is a request injected into the same Fastify app
// with the caller's own credential header (docs/mcp.md, "One set of checks"). The request goes
// through everything an HTTP request does (authentication, scope, rate limit, validation,
// idempotency, spend ceiling, allowance, structure-egress rule, ownership), so a tool can do no
// more than its key can over HTTP.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const API_PREFIX = '/api/v1';

/** A problem+json answer of the API, carried to the tool's caller as a tool error. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Record<string, unknown>,
  ) {
    super(typeof problem.detail === 'string' ? problem.detail : `HTTP ${status}`);
  }
}

export interface ApiRequest {
  /** Path under /api/v1 with its parameters filled in, e.g. `/jobs/status`. */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Send a fresh Idempotency-Key (writes that start or save something require one from API keys). */
  idempotent?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  headers: Record<string, unknown>;
  body: Buffer;
}

/** The caller's credential headers, exactly as they reached /mcp. */
export type Credentials = Record<string, string>;

export class CallerApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly credentials: Credentials,
    private readonly remoteAddress: string | undefined,
  ) {}

  /** The raw answer, whatever its status. */
  async raw(method: 'GET' | 'POST' | 'DELETE', req: ApiRequest): Promise<RawAnswer> {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined && v !== null) query[k] = text(v);
    const headers: Record<string, string> = { ...this.credentials, ...(req.headers ?? {}) };
    if (req.idempotent) headers['idempotency-key'] = crypto.randomUUID();
    const hasBody = req.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    const res = await this.app.inject({
      method,
      url: API_PREFIX + req.path,
      query,
      headers,
      ...(hasBody ? { payload: JSON.stringify(req.body) } : {}),
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), headers: res.headers, body: res.rawPayload };
  }

  /** The JSON body of a 2xx answer; any other answer throws its problem as an ApiProblem. */
  async json<T = unknown>(method: 'GET' | 'POST' | 'DELETE', req: ApiRequest): Promise<T> {
    const r = await this.raw(method, req);
    const text = r.body.toString('utf8');
    if (r.status >= 200 && r.status < 300) return (text ? JSON.parse(text) : null) as T;
    throw problemOf(r.status, text);
  }

  get<T = unknown>(path: string, query?: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    return this.json<T>('GET', { path, query, signal });
  }
}

export function problemOf(status: number, text: string): ApiProblem {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const problem = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { status, detail: text.slice(0, 500) };
  return new ApiProblem(status, problem);
}

/** A value as text: strings, numbers and booleans as they are, anything else as JSON. */
export function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

/** A path with its `:name` segments filled from `args` (URL-encoded). */
export function fillPath(url: string, args: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(text(args[name])));
}
