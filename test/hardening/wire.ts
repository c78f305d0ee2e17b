// The fuzz test's HTTP client: node:http, so that a request goes out exactly as built (raw path
// with `..` segments and percent escapes the WHATWG URL parser would normalize, any header, any
// body bytes, a Content-Length that promises more than is sent).
import http from 'node:http';

export interface Wire {
  /** The operation it was built from, e.g. "POST /api/v1/jobs/submit". */
  op: string;
  /** valid, or the name of the mutation applied. */
  kind: string;
  /** What was sent, in words (for the report). */
  note: string;
  method: string;
  /** Path and query string, already percent-encoded as they should appear on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /**
   * Send the body with a Content-Length larger than it (a body that never finishes) and give up
   * after `abortAfterMs`: only an answer that arrives before then is judged.
   */
  truncated?: { abortAfterMs: number };
}

export interface Outcome {
  /** HTTP status; 0 when no answer came (see `error`). */
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
  /** no answer: 'aborted' (truncated body given up on), 'timeout', or the socket error code. */
  error?: string;
}

const MAX_BODY = 4 * 1024 * 1024;

/**
 * Sends one request. A reset on a reused keep-alive socket (the server closed it as the request
 * went out: the race Node's documentation describes for `request.reusedSocket`) is retried once
 * on a new connection; a reset on a fresh connection is an answer like any other.
 */
export async function send(base: URL, agent: http.Agent, w: Wire, timeoutMs: number): Promise<Outcome> {
  const first = await sendOnce(base, agent, w, timeoutMs);
  return first.error === 'ECONNRESET' && first.reusedSocket ? sendOnce(base, false, w, timeoutMs) : first;
}

function sendOnce(base: URL, agent: http.Agent | false, w: Wire, timeoutMs: number): Promise<Outcome & { reusedSocket?: boolean }> {
  const started = Date.now();
  return new Promise<Outcome & { reusedSocket?: boolean }>((resolve) => {
    let settled = false;
    const finish = (o: Omit<Outcome, 'ms'> & { reusedSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...o, ms: Date.now() - started });
    };
    const headers: Record<string, string> = { ...w.headers };
    if (w.body !== undefined) headers['content-length'] = String(w.body.length + (w.truncated ? 1024 : 0));
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: base.hostname,
        port: base.port,
        method: w.method,
        path: w.path,
        headers,
        // A truncated body leaves its connection unusable: it gets its own.
        agent: w.truncated ? false : agent,
      });
    } catch (err) {
      // Node refuses to send it (e.g. a character it does not allow in a path or header).
      resolve({ status: 0, headers: {}, body: Buffer.alloc(0), ms: 0, error: `client-refused: ${(err as Error).message}` });
      return;
    }
    const limit = w.truncated?.abortAfterMs ?? timeoutMs;
    const timer = setTimeout(() => {
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: w.truncated ? 'aborted' : 'timeout' });
      req.destroy();
    }, limit);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      res.on('end', () => {
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        if (w.truncated) req.destroy();
      });
      res.on('error', (err: NodeJS.ErrnoException) => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: err.code ?? err.message, reusedSocket: req.reusedSocket }));
    if (w.body === undefined) req.end();
    else if (w.truncated) req.write(w.body);
    else req.end(w.body);
  });
}
