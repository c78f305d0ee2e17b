// Turns every failure into application/problem+json: domain AppErrors (their issue locations
// rooted where the route took its input), ApiErrors, validation errors, Fastify's own errors
// (body parsing, content type, size) and unknown faults (logged, never shown).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError, type Loc } from '../errors.js';
import { ApiError, fromAppError, httpProblem, problem, problemBody, type ProblemBody } from './problems.js';
import { validationProblem } from './validation.js';

export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** A request URL without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  // Set here too for answers that no route hook saw (404, 405).
  reply.header('x-request-id', request.id);
  if (err.headers) reply.headers(err.headers);
  const instance = pathOf(request.url);
  return reply
    .code(err.status)
    .type(PROBLEM_TYPE)
    .serializer(JSON.stringify)
    .send(problemBody(err, instance, String(request.id)));
}

/**
 * Where a route's service input came from: the route's `config.input`, else the body for
 * methods that carry one and the query string for the others.
 */
export function inputRoot(request: FastifyRequest): Loc {
  const configured = request.routeOptions.config?.input;
  if (configured) return configured;
  return request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE' ? ['query'] : ['body'];
}

/** Any thrown value as the problem the client sees. */
export function toApiError(err: unknown, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof AppError) return fromAppError(err, inputRoot(request));
  return fromFastifyError(err as FastifyError, request);
}

/** The problem body for an error answered inside another response (e.g. one entry of result-multiple). */
export function renderProblem(request: FastifyRequest, err: unknown): ProblemBody {
  return problemBody(toApiError(err, request), pathOf(request.url), String(request.id));
}

function fromFastifyError(err: FastifyError, request: FastifyRequest): ApiError {
  if (err.validation) return validationProblem(err.validation as never, err.validationContext ?? 'body', partData(request, err.validationContext));
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem('payload-too-large', `the request body is larger than the limit of ${request.routeOptions.bodyLimit ?? 1048576} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return httpProblem(415, `content type "${request.headers['content-type'] ?? ''}" is not accepted here; send application/json`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return httpProblem(400, 'the Content-Length header does not match the body');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return httpProblem(400, 'the body is empty but Content-Type says application/json; send a JSON document');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return httpProblem(400, `the body is not valid JSON: ${jsonErrorDetail(err.message)}`);
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON') return httpProblem(400, `the body is not valid JSON: ${jsonErrorDetail(err.message)}`);
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return httpProblem(status, err.message);
  if (isTransient(err)) return httpProblem(503, 'the database is briefly unavailable or the request lost a race with another; retry with backoff', { retry: 'upstream' });
  return httpProblem(500, 'an unexpected error occurred; quote the request_id to support', { retry: 'terminal' });
}

/**
 * Faults known to pass: a lost database connection, a serialization failure or deadlock
 * (another transaction won), too many connections, a database shutting down. Anything else
 * that reaches the error handler is a bug, and retrying the same request will not help.
 */
function isTransient(err: { code?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : '';
  return /^(08|53|57P0)/.test(code) || code === '40001' || code === '40P01' || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code);
}

/** V8 quotes a piece of the body in some parse errors (`Unexpected token 'M', ..."word": MyPa"... is not valid JSON`): never echo it. */
function jsonErrorDetail(message: string): string {
  if (!/is not valid JSON$/.test(message)) return message;
  return message.startsWith('Unexpected token') ? 'unexpected token' : 'unexpected input';
}

function partData(request: FastifyRequest, context: string | undefined): unknown {
  switch (context) {
    case 'querystring':
      return request.query;
    case 'params':
      return request.params;
    case 'headers':
      return request.headers;
    default:
      return request.body;
  }
}

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Installs the error handler and a not-found handler that answers 405 (with Allow) for a known path. */
export function installErrorHandling(app: FastifyInstance): void {
  const router = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) if (METHODS.includes(m as HTTPMethod)) router.on(m as HTTPMethod, route.url, () => {});
  });

  app.setErrorHandler((err: FastifyError | ApiError | AppError, request, reply) => {
    const apiErr = toApiError(err, request);
    if (apiErr.status >= 500) request.log.error({ err }, 'request failed');
    return sendProblem(request, reply, apiErr);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = METHODS.filter((m) => router.find(m, path) !== null);
    if (allowed.length && !allowed.includes(request.method as HTTPMethod)) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(request, reply, httpProblem(405, `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`));
    }
    return sendProblem(request, reply, httpProblem(404, `no route ${request.method} ${path}`));
  });
}
