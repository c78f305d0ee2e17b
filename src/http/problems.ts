// RFC 7807 problems: errors are values with a slug; the error handler turns them into
// application/problem+json. Every slug the API answers with is declared here.
import { redactIssueInput } from './redact.js';

export type RetryHint = 'validation' | 'auth' | 'quota' | 'conflict' | 'upstream' | 'timeout' | 'terminal';

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

export const PROBLEM_BASE = '/api/v1/problems/';

interface SlugInfo {
  status: number;
  title: string;
  retry: RetryHint;
}

/** Specific slugs (CONTRACT.md section 2) with their status, title and retry hint. */
export const SLUGS = {
  'insufficient-scope': { status: 403, title: 'Insufficient scope', retry: 'auth' },
  'api-key-management-forbidden': { status: 403, title: 'API keys cannot manage API keys', retry: 'auth' },
  'api-key-limit-exceeded': { status: 403, title: 'API key limit reached', retry: 'quota' },
  'missing-idempotency-key': { status: 400, title: 'Idempotency-Key header required', retry: 'validation' },
  'idempotency-key-reused': { status: 409, title: 'Idempotency key reused with a different request', retry: 'conflict' },
  'idempotency-key-in-progress': { status: 409, title: 'A request with this idempotency key is in progress', retry: 'conflict' },
  'invalid-credentials': { status: 401, title: 'Invalid credentials', retry: 'auth' },
  'token-expired': { status: 401, title: 'Token expired', retry: 'auth' },
  'token-revoked': { status: 401, title: 'Token revoked', retry: 'auth' },
  'insufficient-funds': { status: 402, title: 'Insufficient funds', retry: 'quota' },
  'spend-ceiling-exceeded': { status: 403, title: 'Spend ceiling exceeded', retry: 'quota' },
  'storage-quota-exceeded': { status: 403, title: 'Storage quota exceeded', retry: 'quota' },
  'monthly-allowance-exceeded': { status: 403, title: 'Monthly allowance exceeded', retry: 'quota' },
  'rate-limited': { status: 429, title: 'Too many requests', retry: 'quota' },
  'job-not-finished': { status: 409, title: 'Job not finished', retry: 'conflict' },
  'job-already-finished': { status: 409, title: 'Job already finished', retry: 'terminal' },
  'job-active': { status: 409, title: 'Job still active', retry: 'conflict' },
  'source-disabled': { status: 503, title: 'Source disabled', retry: 'terminal' },
  'cursor-expired': { status: 410, title: 'Cursor expired', retry: 'terminal' },
  'payload-too-large': { status: 413, title: 'Payload too large', retry: 'validation' },
} as const satisfies Record<string, SlugInfo>;

export type Slug = keyof typeof SLUGS;

const GENERIC_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  422: 'Validation failed',
  431: 'Request header fields too large',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

export function genericRetry(status: number): RetryHint {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402 || status === 429) return 'quota';
  if (status === 409) return 'conflict';
  if (status === 504 || status === 408) return 'timeout';
  if (status >= 500) return 'upstream'; // a server fault or dependency outage: retry with backoff
  if (status === 404 || status === 405 || status === 410) return 'terminal';
  return 'validation';
}

export interface ProblemInit {
  detail: string;
  retry?: RetryHint;
  errors?: ValidationIssue[];
  headers?: Record<string, string>;
  /** Extra members added to the problem body (e.g. allowed values). */
  extra?: Record<string, unknown>;
}

/** An error that becomes a problem+json response. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly retry: RetryHint;
  readonly errors?: ValidationIssue[];
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(status: number, slug: string, title: string, init: ProblemInit) {
    super(init.detail);
    this.status = status;
    this.type = PROBLEM_BASE + slug;
    this.title = title;
    this.retry = init.retry ?? genericRetry(status);
    this.errors = init.errors;
    this.headers = init.headers;
    this.extra = init.extra;
  }
}

/** A problem with one of the declared slugs. */
export function problem(slug: Slug, detail: string, init: Omit<ProblemInit, 'detail'> = {}): ApiError {
  const s = SLUGS[slug];
  return new ApiError(s.status, slug, s.title, { retry: s.retry, ...init, detail });
}

/** A generic problem: type `/api/v1/problems/http-<status>`. */
export function httpProblem(status: number, detail: string, init: Omit<ProblemInit, 'detail'> = {}): ApiError {
  return new ApiError(status, `http-${status}`, GENERIC_TITLES[status] ?? 'Error', { ...init, detail });
}

export const notFound = (what: string) => httpProblem(404, `${what} not found`);
export const unauthorized = (detail: string) => httpProblem(401, detail);

/** A 422 with one issue, for rules that a JSON schema cannot express. */
export function invalid(loc: (string | number)[], msg: string, input: unknown, type = 'value_error'): ApiError {
  return httpProblem(422, `${loc.join('.')}: ${msg}`, { errors: [{ type, loc, msg, input }] });
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  request_id: string;
  retry: RetryHint;
  errors?: ValidationIssue[];
  [k: string]: unknown;
}

export function problemBody(err: ApiError, instance: string, requestId: string): ProblemBody {
  return {
    ...(err.extra ?? {}),
    type: err.type,
    title: err.title,
    status: err.status,
    detail: err.message,
    instance,
    request_id: requestId,
    retry: err.retry,
    // Inputs are redacted here, where every problem is rendered: no secret goes back out.
    ...(err.errors ? { errors: err.errors.map((e) => ({ ...e, input: redactIssueInput(e.type, e.loc, e.input) })) } : {}),
  };
}
