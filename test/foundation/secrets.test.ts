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
});
