// JSON bodies, checked before any route sees them: nested at most MAX_JSON_DEPTH levels
// (deeper is a 422 at the body, before any work: walks over user JSON, such as the
// idempotency fingerprint, then stay shallow), and no string or key holding a NUL character
// or a lone UTF-16 surrogate (PostgreSQL cannot store them: a 422 at the string's location
// instead of a 500 from the database). The walk is iterative. docs/api-decisions.md, "Limits".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Loc } from '../errors.js';
import { jsonValueIssue, MAX_JSON_DEPTH, unstorableFields } from '../validation.js';
import { problemFromIssues, type ApiError } from './problems.js';

/** The first problem of a parsed body, or null. */
export function checkJsonBody(body: unknown): ApiError | null {
  const issue = jsonValueIssue(body, ['body']);
  return issue ? problemFromIssues([issue]) : null;
}

/**
 * Query strings, path parameters and form bodies: the same rule for their text, checked before
 * validation (a 422 at the field instead of a 500 from the database).
 */
export function installTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issues = [...unstorableFields(request.query, ['query']), ...unstorableFields(request.params, ['path'])];
    if (String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) issues.push(...unstorableFields(request.body, ['body']));
    if (issues.length) throw problemFromIssues(issues);
  });
}

/**
 * Why a body the parser refused is refused, when it is valid JSON: a key named `__proto__`, or a
 * `constructor` holding a `prototype` (prototype poisoning; docs/api-decisions.md, "Limits").
 * A 422 at the first such key instead of "the body is not valid JSON"; null for a body that is
 * not JSON (JSON.parse makes such keys own properties, so walking the copy is safe).
 */
export function prototypeKeyProblem(text: string): ApiError | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const refused = (loc: Loc) =>
    problemFromIssues([{ type: 'forbidden_key', loc, msg: 'Keys named __proto__, and a constructor key holding a prototype key, are not accepted', input: null }]);
  const stack: { value: unknown; loc: Loc }[] = [{ value, loc: ['body'] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const v = item.value;
    if (v === null || typeof v !== 'object') continue;
    // Deeper than a body may be (checkJsonBody): the key is not located (locations stay short).
    if (item.loc.length > MAX_JSON_DEPTH) return refused(['body']);
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v as Record<string, unknown>);
    for (const [key, child] of entries) {
      const loc = [...item.loc, key];
      const poisoned = key === '__proto__' || (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child as object, 'prototype'));
      if (poisoned) return refused(key === '__proto__' ? loc : [...loc, 'prototype']);
      stack.push({ value: child, loc });
    }
  }
  return null;
}

/** Replaces Fastify's JSON parser with the same parser (prototype-poisoning protection included) followed by checkJsonBody. */
export function installJsonBodyCheck(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    void parse(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(prototypeKeyProblem(text) ?? err, undefined);
      const problem = checkJsonBody(value);
      if (problem) return done(problem, undefined);
      done(null, value);
    });
  });
}
