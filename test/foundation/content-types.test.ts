// Only POST /auth/login-email takes a form body; every other route answers a form with
// 415 problem+json and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const PROBLEM = 'application/problem+json; charset=utf-8';
const ZERO_ID = '00000000-0000-4000-8000-000000000000';

for (const backend of onlyOn('postgres')) {
  describe(`form bodies outside login [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend);
    });
    after(async () => h?.close());

    it('POST /auth/api-keys with a form body: 415, no key created', async () => {
      const u = await h.user();
      const r = await h.req('POST', '/api/v1/auth/api-keys', { token: u.token, form: { name: 'x' } });
      assert.equal(r.status, 415);
      assert.equal(r.headers.get('content-type'), PROBLEM);
      assert.equal(r.body.type, '/api/v1/problems/http-415');
      assert.equal(r.body.request_id, r.headers.get('x-request-id'));
      const list = await h.req('GET', '/api/v1/auth/api-keys', { token: u.token });
      assert.equal(list.body.keys.length, 0, 'nothing written');
    });

    it('PATCH a key and POST /auth/refresh with a form body: 415, nothing changed or consumed', async () => {
      const u = await h.user();
      const k = await h.key(u.token, { name: 'kept' });
      const patch = await h.req('PATCH', `/api/v1/auth/api-keys/${k.id}`, { token: u.token, form: { name: 'changed' } });
      assert.equal(patch.status, 415);
      assert.equal((await h.req('GET', `/api/v1/auth/api-keys/${k.id}`, { token: u.token })).body.name, 'kept');
      const refresh = await h.req('POST', '/api/v1/auth/refresh', { form: { refresh_token: u.refresh } });
      assert.equal(refresh.status, 415);
      assert.equal(refresh.headers.get('content-type'), PROBLEM);
      assert.equal((await h.req('POST', '/api/v1/auth/refresh', { body: { refresh_token: u.refresh } })).status, 200, 'the token was not used');
    });

    it('every documented POST/PUT/PATCH route except login answers a form with 415 (walks /openapi.json)', async () => {
      const u = await h.user();
      const doc = (await h.req('GET', '/openapi.json')).body;
      let walked = 0;
      for (const [path, ops] of Object.entries<any>(doc.paths)) {
        for (const method of Object.keys(ops).filter((m) => ['post', 'put', 'patch'].includes(m))) {
          const id = `${method.toUpperCase()} ${path}`;
          const url = path.replace(/\{[^}]+\}/g, ZERO_ID);
          const r = await h.req(method.toUpperCase(), url, { token: u.token, form: { name: 'x', smiles: 'C' } });
          if (id === 'POST /api/v1/auth/login-email') {
            assert.equal(r.status, 422, 'login parses its form');
            continue;
          }
          assert.equal(r.status, 415, `${id} with a form body`);
          assert.equal(r.headers.get('content-type'), PROBLEM, id);
          walked++;
        }
      }
      assert.ok(walked >= 4, `walked ${walked} routes`);
      assert.equal((await h.req('GET', '/api/v1/auth/api-keys', { token: u.token })).body.keys.length, 0);
    });

    it('login still takes its form body', async () => {
      const u = await h.user();
      assert.equal((await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: u.password } })).status, 200);
    });
  });
}
