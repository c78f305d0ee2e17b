// Small consistencies a new user meets first: `/` and `/api/v1` point to the docs, the tier is
// shown as number and name, and a credential in the wrong header is a 401 that says which
// header it belongs in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('the first hour', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
  });
  after(async () => h?.close());

  it('/ and /api/v1 point to /docs and /openapi.json (JSON, or HTML for a browser)', async () => {
    for (const path of ['/', '/api/v1', '/api/v1/']) {
      const json = await h.req('GET', path);
      assert.equal(json.status, 200, path);
      assert.deepEqual([json.body.docs, json.body.openapi, json.body.api], ['/docs', '/openapi.json', '/api/v1'], path);
      const html = await h.req('GET', path, { headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.equal(html.status, 200);
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(html.text, /href="\/docs"/);
      assert.match(html.text, /href="\/openapi.json"/);
    }
  });

  it('tier is shown as number and name (job estimate, artifact usage)', async () => {
    const u = await h.user({ tier: 'team' });
    const est = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'wait', payload: { seconds: 1 } } });
    assert.equal(est.status, 200);
    assert.deepEqual([est.body.tier, est.body.tier_name], [2, 'team']);
    const use = await h.req('GET', '/api/v1/artifacts/usage', { token: u.token });
    assert.deepEqual([use.body.tier, use.body.tier_name], [2, 'team']);
  });

  it('an access token in X-Api-Key, or an API key as Bearer, is a 401 naming the right header', async () => {
    const u = await h.user();
    const key = await h.key(u.token);
    const swappedToken = await h.req('GET', '/api/v1/auth/check', { headers: { 'x-api-key': u.token } });
    assert.equal(swappedToken.status, 401);
    assert.match(swappedToken.body.detail, /access token.*Authorization: Bearer/);
    const swappedKey = await h.req('GET', '/api/v1/auth/check', { headers: { authorization: `Bearer ${key.secret}` } });
    assert.equal(swappedKey.status, 401);
    assert.match(swappedKey.body.detail, /API key.*X-Api-Key/);
    assert.ok(!swappedKey.text.includes(key.secret), 'the key is not echoed');
    assert.equal((await h.req('GET', '/api/v1/auth/check', { key: key.secret })).status, 200, 'in the right header it works');
  });

  it("a new password ends the account's sessions at once; the new password logs in", async () => {
    const u = await h.user();
    assert.equal((await h.req('GET', '/api/v1/auth/check', { token: u.token })).status, 200);
    await h.services.users.setPassword(u.email, 'a brand new password');
    const old = await h.req('GET', '/api/v1/auth/check', { token: u.token });
    assert.equal(old.status, 401);
    assert.equal(old.body.type, '/api/v1/problems/token-revoked');
    assert.equal((await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: u.password } })).status, 401, 'the old password no longer works');
    assert.equal((await h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: 'a brand new password' } })).status, 200);
  });
});
