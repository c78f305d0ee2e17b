// Errors as values, without HTTP: a code (one of the API's problem slugs or a generic kind),
// a message, and for input problems the issues with locations relative to the caller's own
// input. src/http alone turns them into problem+json and roots the locations in the request
// (["body", ...], ["query", ...]); a workflow roots them in its spec
// (["spec", "steps", 2, "params", ...]) with `at` (docs/architecture.md, "Errors").

export type Loc = (string | number)[];

/** One input problem (a 422 `errors[]` entry once rendered). */
export interface Issue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
}

export type RetryHint = 'validation' | 'auth' | 'quota' | 'conflict' | 'upstream' | 'timeout' | 'terminal';

/** The API's specific problem slugs (docs/api-decisions.md, "Errors"); their status, title and hint: src/http/problem-types.ts. */
export const SPECIFIC_CODES = [
  'insufficient-scope',
  'api-key-management-forbidden',
  'api-key-limit-exceeded',
  'missing-idempotency-key',
  'idempotency-key-reused',
  'idempotency-key-in-progress',
  'invalid-credentials',
  'token-expired',
  'token-revoked',
  'insufficient-funds',
  'spend-ceiling-exceeded',
  'storage-quota-exceeded',
  'monthly-allowance-exceeded',
  'rate-limited',
  'job-not-finished',
  'job-already-finished',
  'job-active',
  'model-exists',
  'version-conflict',
  'source-disabled',
  'engine-unavailable',
  'cursor-expired',
  'payload-too-large',
] as const;

/** Generic kinds, rendered as `http-<status>` problems. */
export const GENERIC_CODES = [
  'bad-request',
  'unauthenticated',
  'not-found',
  'conflict',
  'gone',
  'unsupported-media-type',
  'range-not-satisfiable',
  'invalid',
  'unavailable',
] as const;

export type SpecificCode = (typeof SPECIFIC_CODES)[number];
export type GenericCode = (typeof GENERIC_CODES)[number];
export type ErrorCode = SpecificCode | GenericCode;

export interface AppErrorInit {
  issues?: Issue[];
  /** Overrides the code's default retry hint. */
  retry?: RetryHint;
  /** Extra members of the rendered problem (e.g. the quota figures). */
  extra?: Record<string, unknown>;
  /** Seconds until a retry can succeed (rate limits, allowances). */
  retryAfterSec?: number;
  /** The limit behind a rate-limited answer. */
  rateLimit?: number;
  /** The credential scheme a 401 expects. */
  challenge?: 'Bearer';
  /** Total size behind a range-not-satisfiable answer. */
  rangeSize?: number;
  /** The message only names the first issue: a renderer that roots the locations words it anew. */
  derivedMessage?: boolean;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly init: AppErrorInit = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get issues(): Issue[] | undefined {
    return this.init.issues;
  }

  /** The same error with every issue location prefixed (the caller embeds this input at `prefix`). */
  at(...prefix: Loc): AppError {
    if (!this.init.issues || prefix.length === 0) return this;
    return new AppError(this.code, this.message, { ...this.init, issues: this.init.issues.map((i) => ({ ...i, loc: [...prefix, ...i.loc] })) });
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

export const notFound = (what: string): AppError => new AppError('not-found', `${what} not found`);

/** Input problems, all reported at once; the message names the first. */
export function invalidInput(issues: Issue[]): AppError {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  const where = first && first.loc.length ? `${first.loc.join('.')}: ` : '';
  return new AppError('invalid', `${where}${first?.msg ?? 'invalid input'}${more}`, { issues, derivedMessage: true });
}

/** One input problem, for rules that a JSON schema cannot express. */
export function invalid(loc: Loc, msg: string, input: unknown, type = 'value_error'): AppError {
  return invalidInput([{ type, loc, msg, input }]);
}

/** Runs `fn`; an AppError it throws has its locations prefixed with `prefix`. */
export async function within<T>(prefix: Loc, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw err instanceof AppError ? err.at(...prefix) : err;
  }
}

/** Items of a list an error message names at most (docs/api-decisions.md, "Errors"). */
export const LISTED_IN_MESSAGES = 5;

/**
 * The first few items of a list for an error message, and how many more there are:
 * "STI, GOL, SO4, NAG, EDO and 19,995 more". Every message that lists what the caller sent
 * (hetero groups, columns, ports, names) goes through it, so a detail stays short however
 * long the input.
 */
export function listFew(items: Iterable<string>, max = LISTED_IN_MESSAGES, sep = ', '): string {
  const all = [...items];
  if (all.length <= max) return all.join(sep);
  return `${all.slice(0, max).join(sep)} and ${(all.length - max).toLocaleString('en-US')} more`;
}

/** The longest problem detail or issue message rendered (longer ones are cut, saying so). */
export const MAX_MESSAGE_CHARS = 2_000;

/** A message cut to MAX_MESSAGE_CHARS, saying how much was cut (never half of a surrogate pair). */
export function clipMessage(msg: string): string {
  if (msg.length <= MAX_MESSAGE_CHARS) return msg;
  const head = msg.slice(0, MAX_MESSAGE_CHARS).replace(/[\ud800-\udbff]$/, '');
  return `${head}... (${(msg.length - head.length).toLocaleString('en-US')} more characters cut)`;
}
