// The catalogue of problem types: every `type` a problem+json answer of the API can carry, with
// its status, title and retry hint, in this one place (docs/architecture.md, "Errors"). The
// specific slugs are the codes of src/errors.ts (which stays free of HTTP); the generic types are
// `http-<status>`. problems.ts renders problems from it, the OpenAPI document's shared problem
// responses are built through problems.ts, and test/openapi/problem-types.test.ts checks the
// table of docs/api-decisions.md ("Errors") and the document against it.
import type { GenericCode, RetryHint, SpecificCode } from '../errors.js';

/** The prefix of every problem type. */
export const PROBLEM_BASE = '/api/v1/problems/';

export interface ProblemType {
  status: number;
  title: string;
  /** The retry hint a problem of this type carries unless its maker gives another. */
  retry: RetryHint;
}

/** The specific slugs with their status, title and retry hint. */
export const SPECIFIC_TYPES: Record<SpecificCode, ProblemType> = {
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

/** The titles of the generic types (`http-<status>`), for every status the API answers with one. */
export const GENERIC_TITLES: Record<number, string> = {
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

/** The title of a generic problem whose status has none above. */
export const UNLISTED_TITLE = 'Error';

/** The status of each generic code of AppError (rendered as `http-<status>`). */
export const GENERIC_STATUS: Record<GenericCode, number> = {
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

/** The retry hint of a generic problem (docs/api-decisions.md, "Errors"). */
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

export interface CatalogueEntry extends ProblemType {
  /** The slug: the type is PROBLEM_BASE + slug. */
  slug: string;
}

/** Every problem type: the specific slugs in their order, then the generic ones by status. */
export const PROBLEM_CATALOGUE: readonly CatalogueEntry[] = [
  ...Object.entries(SPECIFIC_TYPES).map(([slug, t]) => ({ slug, ...t })),
  ...Object.entries(GENERIC_TITLES)
    .map(([s, title]) => ({ slug: `http-${s}`, status: Number(s), title, retry: genericRetry(Number(s)) }))
    .sort((a, b) => a.status - b.status),
];
