// Shutdown: once the app starts closing, a request that still arrives (on a connection that was
// busy, so not closed as idle) gets a 503 problem+json with Connection: close, instead of
// Fastify's plain-JSON return503OnClosing answer. In-flight requests are not affected.
//
// Fastify's serverFactory builds the same HTTP server Fastify would (same timeouts); its request
// listener checks one flag, exactly where Fastify's own closing check would have been.
import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { pathOf, PROBLEM_TYPE } from './errors.js';
import { httpProblem, problemBody } from './problems.js';
import { requestIdFrom } from './request-id.js';

const RETRY_AFTER_SEC = 2;

function refuse(req: http.IncomingMessage, res: http.ServerResponse): void {
  const requestId = requestIdFrom(req.headers['x-request-id']);
  const problem = httpProblem(503, 'the server is shutting down; retry the request (it was not processed)', { retry: 'upstream' });
  const body = JSON.stringify(problemBody(problem, pathOf(req.url ?? '/'), requestId));
  res.shouldKeepAlive = false;
  res.writeHead(503, {
    'content-type': PROBLEM_TYPE,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'retry-after': String(RETRY_AFTER_SEC),
    connection: 'close',
  });
  res.end(body);
  req.resume(); // discard any body
}

export interface Draining {
  serverFactory: FastifyServerFactory<http.Server>;
  /** From now on, new requests are refused with 503 (call from a preClose hook). */
  start(): void;
}

export function drainingServer(): Draining {
  let draining = false;
  const serverFactory: FastifyServerFactory<http.Server> = (handler, opts) => {
    const o = opts as { http?: http.ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket?: number | null };
    const server = http.createServer(o.http ?? {}, (req, res) => (draining ? refuse(req, res) : handler(req, res)));
    // What Fastify sets on the server it creates itself (lib/server.js).
    server.keepAliveTimeout = o.keepAliveTimeout;
    server.requestTimeout = o.requestTimeout;
    server.setTimeout(o.connectionTimeout);
    if (o.maxRequestsPerSocket && o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
    return server;
  };
  return {
    serverFactory,
    start() {
      draining = true;
    },
  };
}
