import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const backend = BACKENDS[0];

describe('no secret in any log line or in a later response', () => {
  let h: Harness;
  const lines: string[] = [];
  before(async () => {
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    h = await startHarness(backend, { LOG_LEVEL: 'trace' }, { logger: undefined, logStream: stream });
  });
  after(async () => h?.close());

  it('keeps passwords, refresh tokens and API keys out of logs and out of every later response', async () => {
    const password = 'P4ssw0rd-that-must-not-leak';
    const u = await h.user({ password });
    const created = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: 'leaky?' } });
    const secret: string = created.body.api_key;
    const responses: string[] = [];
    const record = async (p: Promise<{ text: string; headers: Headers }>) => {
      const r = await p;
      responses.push(r.text, JSON.stringify([...r.headers]));
      return r;
    };
    await record(h.req('GET', '/api/v1/auth/check', { key: secret }));
    await record(h.req('GET', '/api/v1/auth/api-keys', { token: u.token }));
    await record(h.req('GET', `/api/v1/auth/api-keys/${created.body.id}`, { token: u.token }));
    await record(h.req('PATCH', `/api/v1/auth/api-keys/${created.body.id}`, { token: u.token, body: { name: 'renamed' } }));
    await record(h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: 'wrong-password-also-secret' } }));
    const refreshed = await record(h.req('GET', `/api/v1/auth/refresh?refresh_token=${encodeURIComponent(u.refresh)}`));
    const next = JSON.parse(refreshed.text).refresh_token as string;
    const earlier = responses.splice(0); // `next` was created by the last of these; none after it may show it
    await record(h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: next } }));
    await record(h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: next } })); // reuse: problem response
    await record(h.req('GET', '/api/v1/auth/check', { key: secret.slice(0, -2) + 'zz' }));

    const log = lines.join('');
    assert.ok(log.includes('"route":"/api/v1/auth/check"'), 'requests were logged');
    // Each request line is bound to its request id (the per-request child logger).
    const checkLine = lines.find((l) => l.includes('"route":"/api/v1/auth/check"'))!;
    assert.match(checkLine, /"reqId":"[0-9a-f-]{36}"/);
    for (const s of [password, 'wrong-password-also-secret', u.refresh, next, secret, secret.slice(13), u.token]) {
      assert.ok(!log.includes(s), `log contains a secret (${s.slice(0, 6)}…)`);
    }
    for (const s of [password, 'wrong-password-also-secret', u.refresh, secret, secret.slice(13)]) {
      assert.ok(![...earlier, ...responses].some((r) => r.includes(s)), `a later response contains a secret (${s.slice(0, 6)}…)`);
    }
    assert.ok(!responses.some((r) => r.includes(next)), 'a response after the refresh shows its token');
  });

  it('never echoes a secret in a 422 input or a 400 detail', async () => {
    const secret = 'MyRealPassw0rd';
    const u = await h.user();
    const key = (await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: 'echo' } })).body.api_key as string;
    const LOGIN = '/api/v1/auth/login-email';
    const cases: [string, Promise<{ status: number; text: string; body: any }>][] = [
      ['login without username', h.req('POST', LOGIN, { form: { password: secret } })],
      ['login with a too-long password', h.req('POST', LOGIN, { form: { username: u.email, password: secret + 'x'.repeat(1100) } })],
      ['login with a too-long client_secret', h.req('POST', LOGIN, { form: { username: u.email, password: 'p', client_secret: secret + 'y'.repeat(300) } })],
      ['login with an unknown field beside the password', h.req('POST', LOGIN, { form: { password: secret, nonsense: '1' } })],
      ['refresh with an extra field', h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: secret, other: 1 } })],
      ['refresh with a too-long token', h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: secret + 'z'.repeat(600) } })],
      ['refresh in the query with an extra parameter', h.req('GET', `/api/v1/auth/refresh?refresh_token=${secret}&x=1`)],
      ['a key name holding an API key', h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: `${key} ${'n'.repeat(80)}` } })],
    ];
    for (const [what, p] of cases) {
      const r = await p;
      assert.equal(r.status, 422, what);
      assert.ok(!r.text.includes(secret), `${what}: the response shows the secret: ${r.text}`);
      assert.ok(!r.text.includes(key.slice(13)), `${what}: the response shows the API key`);
    }
    const missing = await h.req('POST', LOGIN, { form: { password: secret } });
    assert.deepEqual(missing.body.errors[0].loc, ['body', 'username']);
    assert.deepEqual(missing.body.errors[0].input, { password: '[redacted]' }, 'the other fields stay visible, the secret is redacted');
    const long = await h.req('POST', LOGIN, { form: { username: u.email, password: secret + 'x'.repeat(1100) } });
    assert.equal(long.body.errors[0].type, 'string_too_long');
    assert.equal(long.body.errors[0].input, '[redacted]');
    // V8 quotes a piece of the text in some JSON parse errors.
    const bad = await h.req('POST', '/api/v1/auth/refresh', { raw: { body: `{"refresh_token": ${secret}}`, type: 'application/json' } });
    assert.equal(bad.status, 400);
    assert.ok(!bad.text.includes(secret.slice(0, 6)), `a parse error shows part of the body: ${bad.text}`);
  });
});
