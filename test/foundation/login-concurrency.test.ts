// The login limits under concurrent guesses: the database serialises attempts per account and
// per client IP, so a burst cannot get more wrong passwords checked than the limit allows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const LOGIN = '/api/v1/auth/login-email';

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

for (const backend of BACKENDS) {
  describe(`auth: concurrent failed logins [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('20 concurrent wrong passwords for one account: 5 x 401, then 429; the right password is refused too', async () => {
      const u = await h.user();
      const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => h.req('POST', LOGIN, { form: { username: u.email.toUpperCase(), password: `wrong-${i}` } })));
      assert.deepEqual(tally(rs.map((r) => r.status)), { 401: 5, 429: 15 });
      for (const r of rs.filter((x) => x.status === 429)) {
        assert.equal(r.body.type, '/api/v1/problems/rate-limited');
        assert.ok(Number(r.headers.get('retry-after')) > 800);
      }
      assert.equal((await h.req('POST', LOGIN, { form: { username: u.email, password: u.password } })).status, 429);
    });

    it('the same for an email that has no account', async () => {
      const ghost = `ghost-burst-${Date.now()}@example.com`;
      const rs = await Promise.all(Array.from({ length: 12 }, () => h.req('POST', LOGIN, { form: { username: ghost, password: 'whatever1' } })));
      assert.deepEqual(tally(rs.map((r) => r.status)), { 401: 5, 429: 7 });
    });

    it('a correct login in a burst does not count as a failure', async () => {
      const u = await h.user();
      const rs = await Promise.all(Array.from({ length: 3 }, () => h.req('POST', LOGIN, { form: { username: u.email, password: u.password } })));
      assert.deepEqual(tally(rs.map((r) => r.status)), { 200: 3 });
      const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_attempts WHERE email_lower = $1 AND NOT succeeded', [u.email.toLowerCase()]);
      assert.equal(rows[0]?.n, 0);
    });
  });

  describe(`auth: concurrent logins from one IP [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('40 concurrent attempts for different emails: exactly 30 are checked', async () => {
      const rs = await Promise.all(Array.from({ length: 40 }, (_, i) => h.req('POST', LOGIN, { form: { username: `burst${i}@example.com`, password: 'whatever1' } })));
      assert.deepEqual(tally(rs.map((r) => r.status)), { 401: 30, 429: 10 });
      const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_attempts');
      assert.equal(rows[0]?.n, 30, 'a refused attempt writes nothing');
    });
  });
}
