// Problems for failures that happen before a request reaches a route: URLs the router cannot
// decode (Fastify's `frameworkErrors`) and requests Node's HTTP parser rejects, such as
// oversized headers (`clientErrorHandler`, which has only the socket to write to).
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_TYPE, sendProblem } from './errors.js';
import { httpProblem, problemBody, type ApiError } from './problems.js';
import { requestIdFrom } from './request-id.js';

function frameworkProblem(err: FastifyError): ApiError {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return httpProblem(400, 'the URL path is not valid: a percent-escape (%XX) is incomplete or does not decode to UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return httpProblem(414, 'a path segment of the URL is too long');
    default: {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      return httpProblem(status, status === 500 ? 'an unexpected error occurred; quote the request_id to support' : err.message);
    }
  }
}

/** Fastify's `frameworkErrors` option: the same problem+json as every other error. */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problem = frameworkProblem(err);
  if (problem.status >= 500) request.log.error({ err }, 'framework error');
  sendProblem(request, reply, problem);
}

/** Node's parser error (Fastify's ConnectionError types rawPacket loosely; it is a Buffer). */
interface ParserError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/** What the parser saw of the request: its path (no query string) and a usable X-Request-Id. */
function fromRawPacket(raw: unknown): { path: string; requestId: string } {
  const head = Buffer.isBuffer(raw) ? raw.subarray(0, 32 * 1024).toString('latin1') : '';
  const path = /^[A-Z]{1,16} (\/[^ ?\r\n]{0,1023})/.exec(head)?.[1] ?? '/';
  const id = /\r\nx-request-id:[ \t]*([^\r\n]*)\r\n/i.exec(head)?.[1]?.trim();
  return { path, requestId: requestIdFrom(id) };
}

function clientProblem(err: ParserError): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return httpProblem(431, 'the request headers are too large (at most 16 KiB in all)');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return httpProblem(408, 'the request was not received in time');
  if (err.code === 'HPE_URI_TOO_LONG') return httpProblem(414, 'the URL is too long');
  return httpProblem(400, 'the request is not valid HTTP/1.1');
}

/** Fastify's `clientErrorHandler`: answers what Node's parser rejected with problem+json on the raw socket. */
export function clientErrorHandler(this: FastifyInstance, err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: err.code }, 'client error');
  // A response already under way on this socket (keep-alive) cannot be followed by raw bytes.
  const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inProgress?.headersSent) {
    const problem = clientProblem(err);
    const { path, requestId } = fromRawPacket(err.rawPacket);
    const body = JSON.stringify(problemBody(problem, path, requestId));
    socket.write(
      `HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
        `Content-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
