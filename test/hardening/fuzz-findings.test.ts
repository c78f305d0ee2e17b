// What the fuzz test found (docs/reliability.md, "Fuzzing"), pinned one by one: each of these
// answered 500 before its fix.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeZip } from '../artifacts/helpers.js';

describe('fuzz findings', () => {
  let h: Harness;
  let u: Awaited<ReturnType<Harness['user']>>;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
    u = await h.user();
    await h.credit(u.userId, 5);
  });
  after(async () => h?.close());

  const upload = (fields: Record<string, string>, file: { name: string; content: string }) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([file.content]), file.name);
    return fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } });
  };

  it('a NUL in a query parameter is a 422 at ["query", name], on every route that takes text', async () => {
    const cases: [string, string][] = [
      ['/api/v1/artifacts?data_kind=a%00b', 'data_kind'],
      ['/api/v1/artifacts?run_id=%00', 'run_id'],
      ['/api/v1/jobs/list?q=x%00', 'q'],
      ['/api/v1/jobs/list?job_type=%00wait', 'job_type'],
      ['/api/v1/events?subject_id=%00', 'subject_id'],
      ['/api/v1/artifacts/00000000-0000-4000-8000-000000000000/download?record=a%00', 'record'],
    ];
    for (const [url, name] of cases) {
      const r = await h.req('GET', url, { token: u.token });
      assert.equal(r.status, 422, `${url}: ${r.text}`);
      assert.deepEqual([r.body.errors[0].type, r.body.errors[0].loc], ['string_unicode', ['query', name]], url);
    }
    const ok = await h.req('GET', '/api/v1/jobs/list?q=x', { token: u.token });
    assert.equal(ok.status, 200);
  });

  it('a NUL in the login form is a 422 at ["body", "username"]', async () => {
    const r = await h.req('POST', '/api/v1/auth/login-email', { form: { username: 'a\u0000@example.com', password: 'whatever-password' } });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.errors[0].loc, ['body', 'username']);
  });

  it('a NUL in an upload field is a 422 at ["body", field]; nothing is stored', async () => {
    const r = await upload({ mode: 'file', data_kind: 'te\u0000xt', data_format: 'txt' }, { name: 'a.txt', content: 'hello' });
    const body = (await r.json()) as { errors: { loc: unknown[] }[] };
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.deepEqual(body.errors[0]?.loc, ['body', 'data_kind']);
    const list = await h.req('GET', '/api/v1/artifacts', { token: u.token });
    assert.equal(list.body.items.length, 0);
  });

  it('an upload with no usable molecules says so at ["body", "file"]', async () => {
    const r = await upload({ mode: 'molecules' }, { name: 'bad.smi', content: 'not-a-smiles\nC1CC\n' });
    const body = (await r.json()) as { errors: { loc: unknown[]; msg: string }[] };
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.deepEqual(body.errors[0]?.loc, ['body', 'file']);
    assert.match(body.errors[0]?.msg ?? '', /no usable molecules/);
  });

  it('a JavaScript prototype name as resource or sort is a 422, not a lookup on Object.prototype', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const [path, extra] of [
        ['/api/v1/jobs/estimate', {}],
        ['/api/v1/jobs/submit', { job_name: 'p' }],
      ] as const) {
        const r = await h.req('POST', path, { token: u.token, body: { ...extra, job_type: 'wait', resource: name, payload: { seconds: 1 } } });
        assert.equal(r.status, 422, `${path} ${name}: ${r.text}`);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'resource']);
      }
      const multi = await h.req('POST', '/api/v1/jobs/submit-multiple', {
        token: u.token,
        body: { jobs: [{ job_name: 'p', job_type: 'wait', resource: name, payload: { seconds: 1 } }] },
      });
      assert.equal(multi.status, 422, multi.text);
      assert.deepEqual(multi.body.errors[0].loc, ['body', 'jobs', 0, 'resource']);
      const sort = await h.req('GET', `/api/v1/jobs/list?sort=-${name}`, { token: u.token });
      assert.equal(sort.status, 422, sort.text);
      assert.deepEqual(sort.body.errors[0].loc, ['query', 'sort']);
    }
    const jobs = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [u.userId]);
    assert.equal(jobs.rows[0]?.n, 0, 'no job was written');
  });
  it("an archive's manifest.json nested too deep, or with a NUL or lone surrogate in any string or key, is a 422 at the manifest; nothing is stored", async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const record = (extra: string) => `{"id":"r","files":{"primary":"r.json"}${extra}}`;
    const manifest = (top: string, rec = record('')) => `{"manifest_version":1${top},"ports":{"r":{"format":"json","kind":"report","records":[${rec}]}}}`;
    const cases: [string, string, unknown[]][] = [
      [manifest(`,"extra":${deep}`), 'too_deep', ['body', 'file', 'manifest.json']],
      [manifest(',"job_type":"a\\u0000"'), 'string_unicode', ['body', 'file', 'manifest.json', 'job_type']],
      [manifest('', record(',"note":"\\ud800"')), 'string_unicode', ['body', 'file', 'manifest.json', 'ports', 'r', 'records', 0, 'note']],
      [manifest(',"x\\u0000y":1'), 'string_unicode', ['body', 'file', 'manifest.json', 'x\uFFFDy']],
    ];
    for (const [text, type, loc] of cases) {
      const zip = await makeZip({ 'manifest.json': text, 'r.json': '{}' });
      const form = new FormData();
      form.append('mode', 'archive');
      form.append('file', new Blob([zip]), 'a.zip');
      const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } });
      const body = (await r.json()) as { errors: { type: string; loc: unknown[] }[] };
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.deepEqual([body.errors[0]?.type, body.errors[0]?.loc], [type, loc]);
    }
    const list = await h.req('GET', '/api/v1/artifacts', { token: u.token });
    assert.equal(list.body.items.length, 0);
  });
});
