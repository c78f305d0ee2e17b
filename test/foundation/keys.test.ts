import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const KEY_FIELDS = [
  'allow_structure_search',
  'created_at',
  'expires_at',
  'id',
  'key_prefix',
  'last_used_at',
  'name',
  'revoked_at',
  'rotated_at',
  'scopes',
  'spend_accrued_usd',
  'spend_ceiling_usd',
];

for (const backend of BACKENDS) {
  describe(`API keys [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_TIER_FREE_API_KEYS: '2' });
    });
    after(async () => h?.close());

    it('walks the whole lifecycle: create, list, get, use, rename, rotate, revoke', async () => {
      const u = await h.user();
      const created = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: 'lab robot', spend_ceiling_usd: 12.5 } });
      assert.equal(created.status, 200);
      assert.deepEqual(Object.keys(created.body).sort(), [...KEY_FIELDS, 'api_key'].sort());
      const secret: string = created.body.api_key;
      assert.match(secret, /^crk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
      assert.equal(created.body.key_prefix, secret.slice(0, 12));
      assert.deepEqual(created.body.scopes, ['read', 'write']);
      assert.equal(created.body.spend_ceiling_usd, 12.5);
      assert.equal(created.body.spend_accrued_usd, 0);
      assert.equal(created.body.allow_structure_search, false);
      assert.equal(created.body.expires_at, null);
      assert.equal(created.body.revoked_at, null);
      const id = created.body.id;

      // The secret is never shown again, and is stored only as a hash.
      const list = await h.req('GET', '/api/v1/auth/api-keys', { token: u.token });
      assert.equal(list.status, 200);
      assert.equal(list.body.count, 1);
      assert.equal(list.body.limit, 10);
      assert.deepEqual(Object.keys(list.body.keys[0]).sort(), KEY_FIELDS);
      assert.ok(!list.text.includes(secret.slice(13)));
      const { rows } = await h.services.db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_keys WHERE id = $1', [id]);
      assert.ok(rows[0], 'the key is stored');
      assert.match(rows[0].secret_hash, /^[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(rows).includes(secret));

      const check = await h.req('GET', '/api/v1/auth/check', { key: secret });
      assert.equal(check.status, 200);
      assert.match(check.body.message, /API key/);
      const got = await h.req('GET', `/api/v1/auth/api-keys/${id}`, { token: u.token });
      assert.equal(got.status, 200);
      assert.ok(got.body.last_used_at, 'last_used_at is set after a use');
      assert.ok(!('api_key' in got.body));

      const renamed = await h.req('PATCH', `/api/v1/auth/api-keys/${id}`, { token: u.token, body: { name: 'robot 2', allow_structure_search: true } });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.name, 'robot 2');
      assert.equal(renamed.body.allow_structure_search, true);

      const rotated = await h.req('POST', `/api/v1/auth/api-keys/${id}/rotate`, { token: u.token });
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.api_key, secret);
      assert.ok(rotated.body.rotated_at);
      assert.equal(rotated.body.id, id);
      const old = await h.req('GET', '/api/v1/auth/check', { key: secret });
      assert.equal(old.status, 401, 'the old secret stops at once');
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: rotated.body.api_key })).status, 200);

      const revoked = await h.req('DELETE', `/api/v1/auth/api-keys/${id}`, { token: u.token });
      assert.equal(revoked.status, 200);
      assert.match(revoked.body.message, /revoked/);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: rotated.body.api_key })).status, 401);
      assert.equal((await h.req('GET', `/api/v1/auth/api-keys/${id}`, { token: u.token })).status, 404);
      assert.equal((await h.req('GET', '/api/v1/auth/api-keys', { token: u.token })).body.count, 0);
    });

    it('lists newest first', async () => {
      const u = await h.user();
      await h.key(u.token, { name: 'first' });
      await h.key(u.token, { name: 'second' });
      const list = await h.req('GET', '/api/v1/auth/api-keys', { token: u.token });
      assert.deepEqual(
        list.body.keys.map((k: { name: string }) => k.name),
        ['second', 'first'],
      );
    });

    it('refuses API keys on key management with 403 api-key-management-forbidden', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      for (const [method, path] of [
        ['GET', '/api/v1/auth/api-keys'],
        ['POST', '/api/v1/auth/api-keys'],
        ['GET', `/api/v1/auth/api-keys/${k.id}`],
        ['PATCH', `/api/v1/auth/api-keys/${k.id}`],
        ['DELETE', `/api/v1/auth/api-keys/${k.id}`],
        ['POST', `/api/v1/auth/api-keys/${k.id}/rotate`],
      ] satisfies [string, string][]) {
        const r = await h.req(method, path, { key: k.secret, body: method === 'POST' || method === 'PATCH' ? { name: 'x', allow_structure_search: true } : undefined });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.type, '/api/v1/problems/api-key-management-forbidden');
      }
      const still = await h.req('GET', `/api/v1/auth/api-keys/${k.id}`, { token: u.token });
      assert.equal(still.body.allow_structure_search, false, 'an API key cannot change allow_structure_search');
    });

    it('enforces scopes: a read-only key gets 403 insufficient-scope on writes', async () => {
      const u = await h.user();
      const ro = await h.key(u.token, { scopes: ['read'] });
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: ro.secret })).status, 200, 'reads work');
      const submit = { job_type: 'wait', payload: { seconds: 1 } };
      for (const [method, path, opts] of [
        ['POST', '/api/v1/jobs/submit', { body: submit, headers: { 'idempotency-key': 'ro-1' } }],
        ['POST', '/api/v1/jobs/submit', { body: submit }],
        ['DELETE', '/api/v1/artifacts/00000000-0000-4000-8000-000000000000', {}],
        ['DELETE', '/api/v1/jobs/cancel?process_id=00000000-0000-4000-8000-000000000000', {}],
      ] as const) {
        const r = await h.req(method, path, { key: ro.secret, ...opts });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.type, '/api/v1/problems/insufficient-scope');
        assert.equal(r.body.retry, 'auth');
        assert.match(r.body.detail, /"write" scope/);
      }
      const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [u.userId]);
      assert.equal(rows[0]?.n, 0, 'nothing submitted');
    });

    it('enforces scopes: a write-only key gets 403 insufficient-scope on reads', async () => {
      const u = await h.user();
      const wo = await h.key(u.token, { scopes: ['write'] });
      const r = await h.req('GET', '/api/v1/auth/check', { key: wo.secret });
      assert.equal(r.status, 403);
      assert.equal(r.body.type, '/api/v1/problems/insufficient-scope');
      assert.equal(r.body.retry, 'auth');
      assert.match(r.body.detail, /"read" scope/);
    });

    it('enforces the tier key limit with 403 api-key-limit-exceeded', async () => {
      const u = await h.user({ tier: 'free' });
      await h.key(u.token);
      await h.key(u.token);
      const third = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: 'third' } });
      assert.equal(third.status, 403);
      assert.equal(third.body.type, '/api/v1/problems/api-key-limit-exceeded');
      const list = await h.req('GET', '/api/v1/auth/api-keys', { token: u.token });
      assert.equal(list.body.count, 2);
      assert.equal(list.body.limit, 2);
    });

    it('holds the key limit under concurrent creates', async () => {
      const u = await h.user({ tier: 'free' });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: `c${i}` } })));
      assert.equal(results.filter((r) => r.status === 200).length, 2);
      assert.equal(results.filter((r) => r.status === 403).length, 4);
    });

    it('answers 409 for a duplicate name, on create and on rename', async () => {
      const u = await h.user();
      await h.key(u.token, { name: 'dup' });
      const other = await h.key(u.token, { name: 'other' });
      const dup = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body: { name: 'dup' } });
      assert.equal(dup.status, 409);
      assert.match(dup.body.detail, /dup/);
      const ren = await h.req('PATCH', `/api/v1/auth/api-keys/${other.id}`, { token: u.token, body: { name: 'dup' } });
      assert.equal(ren.status, 409);
      // Another user may use the same name.
      const v = await h.user();
      assert.equal((await h.req('POST', '/api/v1/auth/api-keys', { token: v.token, body: { name: 'dup' } })).status, 200);
    });

    it('validates name, scopes, expires_at and spend_ceiling_usd with 422 and precise loc', async () => {
      const u = await h.user();
      const cases: [Record<string, unknown>, (string | number)[], string][] = [
        [{}, ['body', 'name'], 'missing'],
        [{ name: '' }, ['body', 'name'], 'string_too_short'],
        [{ name: 'x'.repeat(65) }, ['body', 'name'], 'string_too_long'],
        [{ name: 'bad\u0007bell' }, ['body', 'name'], 'string_pattern_mismatch'],
        [{ name: '   ' }, ['body', 'name'], 'string_pattern_mismatch'],
        [{ name: 'ok', scopes: ['admin'] }, ['body', 'scopes', 0], 'enum'],
        [{ name: 'ok', spend_ceiling_usd: -1 }, ['body', 'spend_ceiling_usd'], 'greater_than_equal'],
        [{ name: 'ok', expires_at: 'tomorrow' }, ['body', 'expires_at'], 'datetime_parsing'],
        [{ name: 'ok', expires_at: new Date(Date.now() + 30_000).toISOString() }, ['body', 'expires_at'], 'greater_than_equal'],
        [{ name: 'ok', surprise: 1 }, ['body', 'surprise'], 'extra_forbidden'],
      ];
      for (const [body, loc, type] of cases) {
        const r = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, body });
        assert.equal(r.status, 422, JSON.stringify(body));
        const issue = r.body.errors.find((e: { loc: unknown[] }) => JSON.stringify(e.loc) === JSON.stringify(loc));
        assert.ok(issue, `${JSON.stringify(body)}: no issue at ${JSON.stringify(loc)} in ${JSON.stringify(r.body.errors)}`);
        assert.equal(issue.type, type, JSON.stringify(body));
      }
      assert.equal((await h.req('GET', '/api/v1/auth/api-keys', { token: u.token })).body.count, 0, 'nothing was written');
    });

    it('rejects a key after its expires_at', async () => {
      const u = await h.user();
      const k = await h.key(u.token, { expires_at: new Date(Date.now() + 120_000).toISOString() });
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k.secret })).status, 200);
      // Move the expiry into the past (as time would) and drop cached credentials.
      await h.services.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [k.id]);
      h.services.authenticator.invalidate();
      const r = await h.req('GET', '/api/v1/auth/check', { key: k.secret });
      assert.equal(r.status, 401);
      assert.equal(r.body.type, '/api/v1/problems/token-expired');
    });

    it("answers 404 for another user's key, never 403 or its data", async () => {
      const a = await h.user();
      const b = await h.user();
      const k = await h.key(a.token, { name: 'secret project' });
      for (const [method, path] of [
        ['GET', `/api/v1/auth/api-keys/${k.id}`],
        ['PATCH', `/api/v1/auth/api-keys/${k.id}`],
        ['DELETE', `/api/v1/auth/api-keys/${k.id}`],
        ['POST', `/api/v1/auth/api-keys/${k.id}/rotate`],
      ] satisfies [string, string][]) {
        const r = await h.req(method, path, { token: b.token, body: method === 'PATCH' ? { name: 'mine' } : undefined });
        assert.equal(r.status, 404, `${method} ${path}`);
        assert.ok(!r.text.includes('secret project'));
      }
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k.secret })).status, 200, 'the key still works');
    });

    it('rejects malformed, unknown and doubled credentials', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: 'crk_nope' })).status, 401);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k.secret.slice(0, -1) + (k.secret.endsWith('a') ? 'b' : 'a') })).status, 401);
      assert.equal((await h.req('GET', '/api/v1/auth/check', { headers: { authorization: 'Basic abc' } })).status, 401);
      const both = await h.req('GET', '/api/v1/auth/check', { key: k.secret, token: u.token });
      assert.equal(both.status, 400);
    });

    it('checks key_id is a UUID', async () => {
      const u = await h.user();
      const r = await h.req('GET', '/api/v1/auth/api-keys/not-a-uuid', { token: u.token });
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.errors[0].loc, ['path', 'key_id']);
    });
  });
}
