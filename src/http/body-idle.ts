// A request body that stops arriving (a multipart upload cut inside its file part, a client
// that stalls) is answered 408 problem+json after `seconds` without a byte, and its
// connection is closed: a stalled body never waits forever, nor holds a shutdown.
// docs/api-decisions.md, "Limits".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpProblem, problemBody } from './problems.js';

export function installBodyIdleTimeout(app: FastifyInstance, seconds: number): void {
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    // An injected request (light-my-request) has no real socket and no setTimeout: nothing to wait on.
    if (raw.complete || !socket || typeof raw.setTimeout !== 'function') return done();
    const stop = () => {
      socket.setTimeout(0);
      raw.off('timeout', onIdle);
    };
    const onIdle = () => {
      // The timer can fire after the event loop was busy past the timeout while the bytes waited
      // in the kernel: look once more after this turn's I/O has been read (setImmediate runs after
      // the poll phase). Bytes read meanwhile mean the body is still coming: wait again.
      const before = socket.bytesRead;
      setImmediate(() => {
        if (raw.complete || socket.destroyed) return stop();
        if (socket.bytesRead !== before) {
          socket.setTimeout(seconds * 1000);
          return;
        }
        answer408();
      });
    };
    const answer408 = () => {
      stop();
      // Answered on the socket itself: the body parser is still waiting for bytes that will not come.
      const problem = httpProblem(408, `the request body sent nothing for ${seconds} s; the connection is closed`, { retry: 'timeout' });
      const body = JSON.stringify(problemBody(problem, request.url.split('?')[0] ?? '', String(request.id)));
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json; charset=utf-8\r\nX-Request-Id: ${String(request.id)}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    // On the request, not the socket: Node's server destroys a timed-out socket unless the
    // request (or the server) has a 'timeout' listener.
    raw.setTimeout(seconds * 1000, onIdle);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
