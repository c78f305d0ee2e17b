// RFC 7807 problems: the HTTP face of errors. Domain code throws AppError (src/errors.ts:
// a code, a message, issues with locations relative to its input); fromAppError gives each
// code its status, title and retry hint and roots the locations in the request. HTTP-only
// failures (auth hook, idempotency, edge errors) build ApiErrors here directly.
import { AppError, clipMessage, type ErrorCode, type GenericCode, type Issue, type Loc, type RetryHint, type SpecificCode } from '../errors.js';
import { redactIssueInput } from './redact.js';

export type { RetryHint };
export type ValidationIssue = Issue;

export const PROBLEM_BASE = '/api/v1/problems/';

interface SlugInfo {
  status: number;
  title: string;
  retry: RetryHint;
}

/** Specific slugs (docs/api-decisions.md, "Errors") with their status, title and retry hint. */
export const SLUGS: Record<SpecificCode, SlugInfo> = {
  'insufficient-scope': { status: 403, title: 'Insufficient scope', retry: 'auth' },
  'api-key-management-forbidden': { status: 403, title: 'Access token required', retry: 'auth' },
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
  'model-exists': { status: 409, title: 'Model name taken', retry: 'conflict' },
  'version-conflict': { status: 409, title: 'Stale base version', retry: 'conflict' },
  'source-disabled': { status: 503, title: 'Source disabled', retry: 'terminal' },
  'engine-unavailable': { status: 503, title: 'Engine unavailable', retry: 'terminal' },
  'cursor-expired': { status: 410, title: 'Cursor expired', retry: 'terminal' },
  'payload-too-large': { status: 413, title: 'Payload too large', retry: 'validation' },
};

export type Slug = SpecificCode;

/** The status of each generic code (rendered as `http-<status>`). */
const GENERIC_STATUS: Record<GenericCode, number> = {
  'bad-request': 400,
  unauthenticated: 401,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'unsupported-media-type': 415,
  'range-not-satisfiable': 416,
  invalid: 422,
  unavailable: 503,
};

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
  // A dependency that is down (502, 503) may come back: retry with backoff. An unexpected
  // fault (500) will most likely happen again with the same request: do not retry it blindly.
  if (status === 502 || status === 503) return 'upstream';
  if (status >= 500) return 'terminal';
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

/** A 422 listing every issue; the detail names the first. */
export function problemFromIssues(issues: Issue[]): ApiError {
  return httpProblem(422, issuesDetail(issues), { errors: issues });
}

function issuesDetail(issues: Issue[]): string {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return first ? `${first.loc.join('.')}: ${first.msg}${more}` : 'invalid input';
}

function rateHeaders(limit: number, resetSec: number): Record<string, string> {
  return { 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0', 'ratelimit-reset': String(resetSec), 'retry-after': String(resetSec) };
}

function isSpecific(code: ErrorCode): code is SpecificCode {
  return code in SLUGS;
}

/**
 * A domain error as a problem: its code's status, title and retry hint, its issues rooted at
 * `root` (where the service's input came from in the request, e.g. ["body"]) and its hints as
 * headers (Retry-After and RateLimit-*, WWW-Authenticate, Content-Range).
 */
export function fromAppError(err: AppError, root: Loc): ApiError {
  const { init } = err;
  const rooted = err.at(...root);
  const issues = rooted.issues;
  const headers: Record<string, string> = {};
  if (init.retryAfterSec !== undefined) {
    Object.assign(headers, init.rateLimit !== undefined ? rateHeaders(init.rateLimit, init.retryAfterSec) : { 'retry-after': String(init.retryAfterSec) });
  }
  if (init.challenge) headers['www-authenticate'] = init.challenge;
  if (init.rangeSize !== undefined) headers['content-range'] = `bytes */${init.rangeSize}`;
  const detail = init.derivedMessage && issues ? issuesDetail(issues) : err.message;
  const problemInit: ProblemInit = { detail, errors: issues, extra: init.extra, ...(Object.keys(headers).length ? { headers } : {}) };
  if (init.retry) problemInit.retry = init.retry;
  if (isSpecific(err.code)) return problem(err.code, detail, problemInit);
  return httpProblem(GENERIC_STATUS[err.code], detail, problemInit);
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
    // Every detail and message is bounded here, where every problem is rendered (lists in
    // messages are cut where they are made, errors.listFew).
    detail: clipMessage(err.message),
    instance,
    request_id: requestId,
    retry: err.retry,
    // Inputs are redacted here, where every problem is rendered: no secret goes back out.
    ...(err.errors ? { errors: err.errors.map((e) => ({ ...e, msg: clipMessage(e.msg), input: redactIssueInput(e.type, e.loc, e.input) })) } : {}),
  };
}
