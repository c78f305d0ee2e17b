// JSON bodies, checked before any route sees them: nested at most MAX_JSON_DEPTH levels
// (deeper is a 422 at the body, before any work: walks over user JSON, such as the
// idempotency fingerprint, then stay shallow), and no string or key holding a NUL character
// or a lone UTF-16 surrogate (PostgreSQL cannot store them: a 422 at the string's location
// instead of a 500 from the database). The walk is iterative. docs/api-decisions.md, "Limits".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonValueIssue, unstorableFields } from '../validation.js';
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

/** Replaces Fastify's JSON parser with the same parser (prototype-poisoning protection included) followed by checkJsonBody. */
export function installJsonBodyCheck(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    void parse(request, typeof body === 'string' ? body : body.toString('utf8'), (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const problem = checkJsonBody(value);
      if (problem) return done(problem, undefined);
      done(null, value);
    });
  });
}
