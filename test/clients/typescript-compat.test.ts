// The TypeScript SDK against a newer v1 server (docs/api-decisions.md, "Compatibility of
// clients"): a small HTTP server on this machine answers as a later release of v1 may, with
// fields and enum values the SDK's types do not know (a job status, an event status, a job type,
// an Assistant event kind, a retry hint). The SDK passes them through and never throws for them;
// its waits end on the subject's event whatever its status. The same server checks the retry
// rules that need an answer the real server cannot be made to give on demand: 503 upstream with
// Retry-After, a lost answer to a GET, a short 429, idempotency-key-in-progress, and a 401
// token-expired cured by one refresh.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Crucible, ProblemError } from '../../clients/typescript/src/index.js';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

const problem = (status: number, slug: string, retry: string, extra: Record<string, unknown> = {}) => ({
  type: `/api/v1/problems/${slug}`,
  title: slug,
  status,
  detail: `${slug} (from the newer server)`,
  instance: '/api/v1/x',
  request_id: 'req-1',
  retry,
  ...extra,
});

describe('the TypeScript SDK against a newer v1 server', () => {
  let server: http.Server;
  let base = '';
  const seen: Seen[] = [];
  let statusReads = 0;
  let flaky = 0;
  let expired = true;
  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers });
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const route = `${req.method} ${url.pathname}`;
      req.resume();
      if (route === 'POST /api/v1/auth/login-email' || route === 'POST /api/v1/auth/refresh') {
        const n = seen.filter((s) => s.path === url.pathname).length;
        return json(200, {
          access_token: `access-${url.pathname.endsWith('refresh') ? 'r' : 'l'}${n}`,
          refresh_token: `refresh-${n}`,
          expires_in: 900,
          expires_at: 0,
          token_type: 'bearer',
          scope: 'read write',
        });
      }
      if (route === 'GET /api/v1/jobs/status') {
        statusReads++;
        // A status v1 did not have when the SDK was made: first a running one, then a final one.
        const status = statusReads === 1 ? 'paused_for_maintenance' : 'expired';
        return json(200, { process_id: url.searchParams.get('process_id'), status, message: null, progress: null, result_artifact_id: null, queue_position: 4 });
      }
      if (route === 'GET /api/v1/events') {
        if (!url.searchParams.get('after')) return json(200, { events: [], next_cursor: 'head', served_by: 'eu-1' });
        const event = {
          cursor: 'c1',
          event_id: 1,
          kind: 'job',
          occurred_at: new Date().toISOString(),
          status: 'expired',
          subject_id: url.searchParams.get('subject_id'),
          workflow_run_id: null,
          region: 'eu',
        };
        return json(200, { events: [event], next_cursor: 'c1', served_by: 'eu-1' });
      }
      if (route === 'GET /api/v1/workflows/runs/r1/graph') {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        return res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      }
      if (route === 'GET /api/v1/jobs/result') return json(200, { job_type: 'retrosynthesis', routes: [{ steps: 3 }] });
      if (route === 'POST /api/v1/describe') return json(503, problem(503, 'maintenance-window', 'maintenance', { doc_url: 'https://example.invalid/m' }));
      if (route === 'GET /api/v1/wallet') {
        if (flaky++ === 0) return json(503, problem(503, 'http-503', 'upstream'), { 'retry-after': '1' });
        if (flaky === 2) return req.socket.destroy();
        return json(200, { balance_usd: 1, reserved_usd: 0, available_usd: 1, currency: 'USD', credit_line_usd: 0 });
      }
      if (route === 'POST /api/v1/jobs/submit') {
        // A 429 with a short Retry-After, then the same key still in progress, then the answer.
        const n = seen.filter((s) => s.path === url.pathname).length;
        if (n === 1) return json(429, problem(429, 'rate-limited', 'quota'), { 'retry-after': '1' });
        if (n === 2) return json(409, problem(409, 'idempotency-key-in-progress', 'conflict'));
        return json(200, { process_id: `job-for-${String(req.headers['idempotency-key'])}` });
      }
      if (route === 'GET /api/v1/auth/check') {
        if (expired && req.headers.authorization?.startsWith('Bearer access-l')) {
          expired = false;
          return json(401, problem(401, 'token-expired', 'auth'));
        }
        return json(200, { message: `ok ${req.headers.authorization}` });
      }
      if (url.pathname.endsWith('/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 1\nevent: delta\ndata: {"text":"Hello"}\n\n');
        res.write('id: 2\nevent: thinking\ndata: {"summary":"a kind of event v1 did not have"}\n\n');
        res.write('id: 3\nevent: delta\ndata: {"text":", world","lang":"en"}\n\n');
        res.end('id: 4\nevent: done\ndata: {"turn_id":"t","status":"completed"}\n\n');
        return undefined;
      }
      return json(404, problem(404, 'http-404', 'terminal'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('keeps fields it does not know and passes unknown enum values through', async () => {
    const client = await Crucible.login({ baseUrl: base, email: 'a@example.com', password: 'p' });
    const status = await client.get('/api/v1/jobs/status', { params: { query: { process_id: 'j1' } } });
    assert.equal(status.status, 'paused_for_maintenance');
    assert.equal((status as Record<string, unknown>).queue_position, 4, 'the extra field is kept');
    const result = await client.get('/api/v1/jobs/result', { params: { query: { process_id: 'j1' } } });
    assert.deepEqual(result, { job_type: 'retrosynthesis', routes: [{ steps: 3 }] });
  });

  it('waitForJob ends on the job event whatever its status, with a running status it does not know in between', async () => {
    statusReads = 0;
    const client = new Crucible({ baseUrl: base, apiKey: 'crk_test' });
    const done = await client.waitForJob('j2', { timeoutMs: 10_000 });
    assert.deepEqual([done.status, statusReads], ['expired', 2]);
    const polls = seen.filter((s) => s.path === '/api/v1/events' && s.query.get('subject_id') === 'j2');
    assert.deepEqual(
      polls.map((p) => [p.query.get('after'), p.query.get('wait')]),
      [
        [null, '0'],
        ['head', '10'],
      ],
    );
  });

  it('skips Assistant events of a kind it does not know, and extra fields in known ones', async () => {
    const client = new Crucible({ baseUrl: base, accessToken: 'token' });
    const events: string[] = [];
    let text = '';
    for await (const e of client.streamTurn('s', 't')) {
      events.push(`${e.id}:${e.event}`);
      if (e.event === 'delta') text += e.data.text;
    }
    assert.deepEqual(events, ['1:delta', '3:delta', '4:done']);
    assert.equal(text, 'Hello, world');
  });

  it('throws a problem with a retry hint it does not know at once, with every field of the problem', async () => {
    const client = new Crucible({ baseUrl: base, apiKey: 'crk_test' });
    const before = seen.length;
    const err = await client.post('/api/v1/describe', { body: { smiles: ['CCO'] } }).catch((e: unknown) => e);
    assert.ok(err instanceof ProblemError);
    assert.deepEqual([err.status, err.slug, err.retry], [503, 'maintenance-window', 'maintenance']);
    assert.equal(err.problem.doc_url, 'https://example.invalid/m');
    assert.equal(seen.length - before, 1, 'not retried: a hint it does not know is terminal');
  });

  it('retries 503 upstream after its Retry-After and a GET whose answer was lost', async () => {
    const client = new Crucible({ baseUrl: base, apiKey: 'crk_test', retry: { baseDelayMs: 20 } });
    const t0 = performance.now();
    const wallet = await client.get('/api/v1/wallet');
    const took = performance.now() - t0;
    assert.equal(wallet.currency, 'USD');
    assert.equal(seen.filter((s) => s.path === '/api/v1/wallet').length, 3, 'the 503, the lost answer, the answer');
    assert.ok(took >= 1000, `waited Retry-After (1 s): ${Math.round(took)} ms`);
  });

  it('reads a non-JSON answer with parseAs, and does not resend a GET whose answer it could not parse', async () => {
    const client = new Crucible({ baseUrl: base, apiKey: 'crk_test', retry: { baseDelayMs: 20 } });
    const path = { run_id: 'r1' };
    assert.match(await client.get('/api/v1/workflows/runs/{run_id}/graph', { params: { path }, parseAs: 'text' }), /^<svg/);
    const before = seen.length;
    await assert.rejects(client.get('/api/v1/workflows/runs/{run_id}/graph', { params: { path } }), SyntaxError);
    assert.equal(seen.length - before, 1);
  });

  it('waits out a 429 with a short Retry-After and an idempotency-key-in-progress, sending the same key each time', async () => {
    const client = new Crucible({ baseUrl: base, apiKey: 'crk_test', retry: { baseDelayMs: 20 } });
    const { process_id } = await client.post('/api/v1/jobs/submit', { body: { job_name: 'n', job_type: 'wait', payload: { seconds: 1 } } });
    const sent = seen.filter((s) => s.path === '/api/v1/jobs/submit');
    const keys = sent.map((s) => s.headers['idempotency-key']);
    assert.equal(sent.length, 3);
    assert.equal(new Set(keys).size, 1, 'one key for the three attempts');
    assert.equal(process_id, `job-for-${String(keys[0])}`);
  });

  it('refreshes once after a 401 token-expired and sends the request again with the new token', async () => {
    const client = await Crucible.login({ baseUrl: base, email: 'b@example.com', password: 'p' });
    const check = await client.get('/api/v1/auth/check');
    assert.match(check.message, /^ok Bearer access-r\d+$/);
    const refreshes = seen.filter((s) => s.path === '/api/v1/auth/refresh');
    assert.equal(refreshes.length, 1);
    assert.equal(refreshes[0]!.headers.authorization, undefined, 'a refresh carries no access token');
  });
});
