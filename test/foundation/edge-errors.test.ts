// Problems for what never reaches a route: URLs the router cannot decode, requests Node's HTTP
// parser rejects (oversized headers, garbage), and requests that arrive during shutdown.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const PROBLEM = 'application/problem+json; charset=utf-8';
const backend = BACKENDS[0];

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Splits what the server wrote on one connection into its HTTP/1.1 responses (Content-Length framed). */
function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data.toString('utf8');
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
    const len = Number(headers['content-length']);
    const text = rest.slice(end + 4, end + 4 + len);
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(text) });
    rest = rest.slice(end + 4 + len);
  }
  return out;
}

/** Opens a raw connection; `send` writes bytes, `done` resolves with everything received once the server closes it. */
function rawConnection(base: string) {
  const { port } = new URL(base);
  const sock = net.connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  sock.on('data', (c) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => {
    sock.on('close', () => resolve(Buffer.concat(chunks)));
    sock.on('error', () => undefined);
  });
  return { send: (s: string) => sock.write(s), done };
}

function assertProblem(r: RawResponse, status: number) {
  assert.equal(r.status, status);
  assert.equal(r.headers['content-type'], PROBLEM);
  assert.equal(r.body.status, status);
  assert.equal(r.body.type, `/api/v1/problems/http-${status}`);
  assert.ok(r.body.retry && r.body.detail && typeof r.body.instance === 'string');
  assert.ok(r.body.title && r.body.title !== 'Error', 'a proper title');
  assert.equal(r.body.request_id, r.headers['x-request-id']);
}

describe('problems outside the routes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(backend);
  });
  after(async () => h?.close());

  it('a URL with a broken percent-escape: 400 problem+json with X-Request-Id', async () => {
    const r = await h.req('GET', '/api/v1/auth/api-keys/%E0%A4%A', { headers: { 'x-request-id': 'bad-url-1' } });
    assert.equal(r.status, 400);
    assert.equal(r.headers.get('content-type'), PROBLEM);
    assert.equal(r.headers.get('x-request-id'), 'bad-url-1');
    assert.equal(r.body.type, '/api/v1/problems/http-400');
    assert.equal(r.body.request_id, 'bad-url-1');
    assert.equal(r.body.retry, 'validation');
    assert.ok(!r.text.includes('FST_'), 'no framework code');
  });

  it("a 20 KB header: 431 problem+json with the caller's X-Request-Id", async () => {
    const c = rawConnection(h.base);
    c.send(`GET /api/v1/health/live?secret=x HTTP/1.1\r\nHost: x\r\nX-Request-Id: big-1\r\nX-Filler: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const [r] = parseResponses(await c.done);
    assert.ok(r, 'a response');
    assertProblem(r, 431);
    assert.equal(r.body.request_id, 'big-1');
    assert.equal(r.body.instance, '/api/v1/health/live', 'no query string');
    assert.equal(r.body.retry, 'validation');
  });

  it('a request that is not HTTP: 400 problem+json with a generated request id', async () => {
    const c = rawConnection(h.base);
    c.send('HELLO\r\n\r\n');
    const [r] = parseResponses(await c.done);
    assert.ok(r, 'a response');
    assertProblem(r, 400);
    assert.match(r.body.request_id, /^[0-9a-f-]{36}$/);
  });
});

describe('a request that arrives during shutdown', () => {
  let h: Harness;
  let entered: () => void;
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  let release: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let closed: Promise<void> | null = null;

  before(async () => {
    const slow = async (api: FastifyInstance) => {
      api.get('/test/slow', { config: { auth: 'none' } }, async () => {
        entered();
        await gate;
        return { ok: true };
      });
    };
    h = await startHarness(backend, {}, { plugins: [slow] });
  });
  after(async () => {
    release();
    await (closed ?? h?.close());
  });

  it('gets 503 problem+json (retry upstream, Retry-After, Connection: close) while the in-flight one finishes 200', async () => {
    const c = rawConnection(h.base);
    c.send('GET /api/v1/test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await inHandler;
    closed = h.close(); // app.close(): the busy connection stays open
    await new Promise((r) => setTimeout(r, 100));
    c.send('GET /api/v1/health/live HTTP/1.1\r\nHost: x\r\nX-Request-Id: late-1\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    release();
    const [first, late] = parseResponses(await c.done);
    assert.ok(first && late, 'two responses');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { ok: true });
    assertProblem(late, 503);
    assert.equal(late.body.request_id, 'late-1');
    assert.equal(late.body.retry, 'upstream');
    assert.equal(late.body.instance, '/api/v1/health/live');
    assert.ok(Number(late.headers['retry-after']) >= 1);
    assert.equal(late.headers.connection, 'close');
    await closed;
  });
});
