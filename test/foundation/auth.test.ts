import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

for (const backend of BACKENDS) {
  describe(`auth: login, check, refresh, logout [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('logs in with a form body and returns the TokenResponse shape', async () => {
      const email = `Mixed.Case-${Date.now()}@Example.com`;
      await h.services.users.create(email, 'a long password', 'free');
      const r = await h.req('POST', '/api/v1/auth/login-email', { form: { username: email.toLowerCase(), password: 'a long password', grant_type: 'password', scope: '' } });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type']);
      assert.equal(r.body.expires_in, 900);
      assert.equal(r.body.token_type, 'bearer');
      const now = Math.floor(Date.now() / 1000);
      assert.ok(Math.abs(r.body.expires_at - (now + 900)) <= 5, 'expires_at is now + 900 s');
      const check = await h.req('GET', '/api/v1/auth/check', { token: r.body.access_token });
      assert.equal(check.status, 200);
      assert.match(check.body.message, /access token/);
    });

    it('refuses a JSON login body with 415 and a missing password with 422 at ["body","password"]', async () => {
      const json = await h.req('POST', '/api/v1/auth/login-email', { body: { username: 'a@b.c', password: 'x' } });
      assert.equal(json.status, 415);
      assert.equal(json.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      const missing = await h.req('POST', '/api/v1/auth/login-email', { form: { username: 'a@b.c' } });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.errors[0].loc, ['body', 'password']);
      assert.equal(missing.body.errors[0].type, 'missing');
    });

    it('gives the same 401 invalid-credentials for a wrong password and an unknown email', async () => {
      const u = await h.user();
      const wrong = await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: 'not it at all' } });
      const unknown = await h.req('POST', '/api/v1/auth/login-email', { form: { username: 'nobody-here@example.com', password: 'not it at all' } });
      for (const r of [wrong, unknown]) {
        assert.equal(r.status, 401);
        assert.equal(r.body.type, '/api/v1/problems/invalid-credentials');
        assert.equal(r.body.retry, 'auth');
        assert.equal(r.body.detail, 'wrong email or password');
      }
    });

    it('rotates refresh tokens: each is single use and returns a new working pair', async () => {
      const u = await h.user();
      const r1 = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } });
      assert.equal(r1.status, 200);
      assert.notEqual(r1.body.refresh_token, u.refresh);
      assert.notEqual(r1.body.access_token, u.token);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { token: r1.body.access_token })).status, 200);
      const r2 = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: r1.body.refresh_token } });
      assert.equal(r2.status, 200);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { token: r2.body.access_token })).status, 200);
    });

    it('detects refresh-token reuse and revokes the whole session', async () => {
      const u = await h.user();
      const first = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } });
      assert.equal(first.status, 200);
      // The old refresh token again: theft suspected.
      const reuse = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } });
      assert.equal(reuse.status, 401);
      assert.equal(reuse.body.type, '/api/v1/problems/token-revoked');
      // Every token of the session is dead now, including the legitimately rotated pair.
      for (const token of [u.token, first.body.access_token]) {
        const c = await h.req('GET', '/api/v1/auth/check', { token });
        assert.equal(c.status, 401);
        assert.equal(c.body.type, '/api/v1/problems/token-revoked');
      }
      const next = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: first.body.refresh_token } });
      assert.equal(next.status, 401);
      assert.equal(next.body.type, '/api/v1/problems/token-revoked');
    });

    it('rejects an unknown refresh token and a missing one', async () => {
      const bad = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: 'crr_not-a-real-token' } });
      assert.equal(bad.status, 401);
      const missing = await h.req('POST', '/api/v1/auth/refresh', { body: {} });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.errors[0].loc, ['body', 'refresh_token']);
    });

    it('logout revokes the access token and the refresh token at once', async () => {
      const u = await h.user();
      const out = await h.req('GET', '/api/v1/auth/logout', { token: u.token });
      assert.equal(out.status, 200);
      assert.match(out.body.message, /logged out/);
      const check = await h.req('GET', '/api/v1/auth/check', { token: u.token });
      assert.equal(check.status, 401);
      assert.equal(check.body.type, '/api/v1/problems/token-revoked');
      const refresh = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } });
      assert.equal(refresh.status, 401);
      assert.equal(refresh.body.type, '/api/v1/problems/token-revoked');
    });

    it('serves the deprecated GET refresh with Deprecation, Sunset and Link headers', async () => {
      const u = await h.user();
      const r = await h.req('GET', `/api/v1/auth/refresh?refresh_token=${encodeURIComponent(u.refresh)}`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('deprecation'), 'true');
      assert.equal(r.headers.get('sunset'), 'Fri, 01 Jan 2027 00:00:00 GMT');
      assert.equal(r.headers.get('link'), '</api/v1/auth/refresh>; rel="successor-version"');
      assert.ok(r.body.access_token);
    });

    it('rejects a tampered or expired access token with 401', async () => {
      const u = await h.user();
      const tampered = u.token.slice(0, -3) + (u.token.endsWith('AAA') ? 'BBB' : 'AAA');
      const r = await h.req('GET', '/api/v1/auth/check', { token: tampered });
      assert.equal(r.status, 401);
      const { TokenSigner } = await import('../../src/modules/auth/tokens.js');
      const { rows } = await h.services.db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'jwt_secret'`);
      assert.ok(rows[0], 'a jwt_secret setting');
      const signer = new TokenSigner(rows[0].value, -10);
      const { token } = await signer.sign(u.userId, '00000000-0000-0000-0000-000000000000');
      const expired = await h.req('GET', '/api/v1/auth/check', { token });
      assert.equal(expired.status, 401);
      assert.equal(expired.body.type, '/api/v1/problems/token-expired');
    });
  });

  describe(`auth: deprecated GET refresh after its sunset [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_REFRESH_GET_SUNSET: '2020-01-01T00:00:00Z' });
    });
    after(async () => h?.close());

    it('refuses with 410 and does not consume the token', async () => {
      const u = await h.user();
      const r = await h.req('GET', `/api/v1/auth/refresh?refresh_token=${encodeURIComponent(u.refresh)}`);
      assert.equal(r.status, 410);
      assert.equal(r.headers.get('deprecation'), 'true');
      const post = await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } });
      assert.equal(post.status, 200);
    });
  });

  describe(`auth: login limits [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('blocks an account after 5 failed logins in 15 minutes, even with the right password', async () => {
      const u = await h.user();
      for (let i = 0; i < 5; i++) {
        const r = await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: `wrong-${i}` } });
        assert.equal(r.status, 401);
      }
      const blocked = await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: u.password } });
      assert.equal(blocked.status, 429);
      assert.equal(blocked.body.type, '/api/v1/problems/rate-limited');
      const ra = Number(blocked.headers.get('retry-after'));
      assert.ok(ra > 800 && ra <= 900, `Retry-After ${ra} is about 15 minutes`);
      assert.equal(blocked.headers.get('ratelimit-limit'), '5');
      assert.equal(blocked.headers.get('ratelimit-remaining'), '0');
    });

    it('applies the same limit to an email that has no account (no enumeration)', async () => {
      const ghost = `ghost-${Date.now()}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await h.req('POST', '/api/v1/auth/login-email', { form: { username: ghost, password: 'whatever1' } })).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    });
  });

  describe(`auth: per-IP login limit [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('allows 30 attempts per client IP per minute', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        // Different emails: only the IP limit can trip.
        statuses.push((await h.req('POST', '/api/v1/auth/login-email', { form: { username: `ip${i}@example.com`, password: 'whatever1' } })).status);
      }
      assert.deepEqual(statuses.slice(0, 30), Array(30).fill(401));
      assert.equal(statuses[30], 429);
    });
  });
}
