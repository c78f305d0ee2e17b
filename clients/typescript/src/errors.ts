// The errors the SDK throws (README, "Errors"). Every failed request is a ProblemError carrying
// the fields of the API's problem (application/problem+json): status, type, title, detail,
// instance, request_id, the retry hint and, on 422, errors[]. An answer that is not a problem
// (a proxy's HTML page) becomes one too, with the hint the API gives that status.
import type { components } from './generated/openapi.js';

export type Problem = components['schemas']['Problem'];
export type ValidationIssue = components['schemas']['ValidationIssue'];

/** The retry hints of v1. A later version may add one: compare with ===, and treat others as `terminal`. */
export type RetryHint = Problem['retry'];

const PROBLEM_BASE = '/api/v1/problems/';

/** The hint the API gives a generic problem of each status (docs/api-decisions.md, "Errors"). */
export function hintForStatus(status: number): RetryHint {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402 || status === 429) return 'quota';
  if (status === 409) return 'conflict';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 502 || status === 503) return 'upstream';
  if (status >= 400 && status < 500 && status !== 404 && status !== 405 && status !== 410) return 'validation';
  return 'terminal';
}

/** A failed request: the problem the API answered, its fields at hand. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly status: number;
  /** `/api/v1/problems/<slug>` */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string;
  /** Quote it to support (also the X-Request-Id header). */
  readonly request_id: string;
  /** What to do: `validation` fix the request, `auth` credentials, `quota` wait or top up, `conflict`, `upstream` and `timeout` retry with backoff, `terminal` don't. */
  readonly retry: RetryHint | (string & {});
  /** 422: every issue with its location (`loc`, e.g. ["body", "smiles", 0]). Empty otherwise. */
  readonly errors: ValidationIssue[];
  /** Retry-After in seconds, when the answer had one (429, 503, the monthly allowance). */
  readonly retryAfterSec: number | null;
  /** The whole problem as sent, fields this SDK does not know included. */
  readonly problem: Problem;

  constructor(problem: Problem, retryAfterSec: number | null = null) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.problem = problem;
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.request_id = problem.request_id;
    this.retry = problem.retry;
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.retryAfterSec = retryAfterSec;
  }

  /** The problem's slug: `rate-limited`, `job-not-finished`, `http-404`, ... */
  get slug(): string {
    return this.type.startsWith(PROBLEM_BASE) ? this.type.slice(PROBLEM_BASE.length) : this.type;
  }

  /** The problem of a failed answer; `body` is its parsed JSON when it was JSON, else its text. */
  static fromResponse(response: Response, body: unknown): ProblemError {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const requestId = response.headers.get('x-request-id') ?? '';
    if (isProblem(body)) return new ProblemError({ ...body, request_id: body.request_id || requestId }, retryAfter);
    const status = response.status;
    const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
    return new ProblemError(
      {
        type: `${PROBLEM_BASE}http-${status}`,
        title: response.statusText || `HTTP ${status}`,
        status,
        detail: text || `the server answered ${status} without a problem document`,
        instance: new URL(response.url || 'http://unknown/').pathname,
        request_id: requestId,
        retry: hintForStatus(status),
      },
      retryAfter,
    );
  }
}

/** A problem document as the API sends it: the fields every problem has. */
function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const p = body as Record<string, unknown>;
  return typeof p.type === 'string' && typeof p.status === 'number' && typeof p.title === 'string' && typeof p.retry === 'string';
}

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** `waitForJob` and `waitForRun` gave up: the subject had not ended within `timeoutMs`. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly kind: 'job' | 'workflow_run',
    readonly subjectId: string,
    readonly timeoutMs: number,
  ) {
    super(`${kind === 'job' ? 'job' : 'workflow run'} ${subjectId} had not ended after ${timeoutMs} ms`);
  }
}

/** True when `err` is a ProblemError, of the given slug when one is given. */
export function isProblemError(err: unknown, slug?: string): err is ProblemError {
  return err instanceof ProblemError && (slug === undefined || err.slug === slug);
}
