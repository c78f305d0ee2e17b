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
    h = await startHarness(BACKENDS[0], {}, { workers: 1 });
  });
  after(async () => h?.close());

  it('/ and /api/v1 point to the console, /docs and /openapi.json (JSON, or HTML for a browser)', async () => {
    for (const path of ['/', '/api/v1', '/api/v1/']) {
      const json = await h.req('GET', path);
      assert.equal(json.status, 200, path);
      assert.deepEqual([json.body.console, json.body.docs, json.body.openapi, json.body.api], ['/app/', '/docs', '/openapi.json', '/api/v1'], path);
      const html = await h.req('GET', path, { headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.equal(html.status, 200);
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(html.text, /href="\/app\/">web console/);
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

  it('job `message`: the reference types it a string (default "") in the list and info, string or null in status; both say the same', async () => {
    const u = await h.user();
    await h.credit(u.userId, 10);
    const submit = async (job_type: string, payload: object) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const pid = r.body.process_id as string;
      return { process_id: pid, ...(await h.waitForJob(u.token, pid)) };
    };
    const ok = await submit('properties', { smiles: ['CCO'] });
    const failed = await submit('substructure_search', { query: '[Q]C', smiles: ['CCO'] });
    assert.deepEqual([ok.status, failed.status], ['completed', 'error']);
    const list = await h.req('GET', '/api/v1/jobs/list', { token: u.token });
    for (const [job, expected] of [
      [ok, ''],
      [failed, /^query: the query is not a valid SMARTS or SMILES/],
    ] as const) {
      const status = await h.req('GET', `/api/v1/jobs/status?process_id=${job.process_id}`, { token: u.token });
      const item = (list.body.items as { process_id: string; message: unknown }[]).find((i) => i.process_id === job.process_id);
      const info = await h.req('GET', `/api/v1/jobs/info?process_id=${job.process_id}`, { token: u.token });
      assert.equal(typeof item?.message, 'string', 'a string in the list');
      assert.equal(info.body.info.message, item?.message, 'the same in the info');
      if (expected === '') {
        assert.equal(item?.message, '');
        assert.equal(status.body.message, null, 'no message: null in the status, "" in the list');
      } else {
        assert.match(item?.message as string, expected);
        assert.equal(status.body.message, item?.message, 'the same text in the status');
      }
    }
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
