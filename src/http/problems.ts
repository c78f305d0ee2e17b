// RFC 7807 problems: the HTTP face of errors. Domain code throws AppError (src/errors.ts:
// a code, a message, issues with locations relative to its input); fromAppError gives each
// code the status, title and retry hint of its type in the catalogue (problem-types.ts) and
// roots the locations in the request. HTTP-only failures (auth hook, idempotency, edge errors)
// build ApiErrors here directly.
import { AppError, clipMessage, type ErrorCode, type Issue, type Loc, type RetryHint, type SpecificCode } from '../errors.js';
import { GENERIC_STATUS, GENERIC_TITLES, genericRetry, PROBLEM_BASE, SPECIFIC_TYPES, UNLISTED_TITLE } from './problem-types.js';
import { redactIssueInput } from './redact.js';

export type { RetryHint };
export type ValidationIssue = Issue;

export type Slug = SpecificCode;

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
  const s = SPECIFIC_TYPES[slug];
  return new ApiError(s.status, slug, s.title, { retry: s.retry, ...init, detail });
}

/** A generic problem: type `/api/v1/problems/http-<status>`. */
export function httpProblem(status: number, detail: string, init: Omit<ProblemInit, 'detail'> = {}): ApiError {
  return new ApiError(status, `http-${status}`, GENERIC_TITLES[status] ?? UNLISTED_TITLE, { ...init, detail });
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
  return code in SPECIFIC_TYPES;
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
