// JSON bodies the database or the stack could not take are 422s before any work: nesting over
// 64 levels (a 10,000-deep body with an Idempotency-Key used to overflow the stack), and NUL
// characters or lone surrogates in strings or keys (PostgreSQL refuses them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('JSON body limits', () => {
  let h: Harness;
  let token: string;
  let userId: string;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
    const u = await h.user();
    token = u.token;
    userId = u.userId;
    await h.credit(userId, 5);
  });
  after(async () => h?.close());

  const jobs = async () => Number((await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [userId])).rows[0]?.n);

  it('a body nested 10,000 deep is a 422 at the body, with or without an Idempotency-Key', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    for (const headers of [{}, { 'idempotency-key': 'deep-1' }] as Record<string, string>[]) {
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token,
        headers,
        raw: { body: `{"job_name":"x","job_type":"wait","payload":{"seconds":${deep}}}`, type: 'application/json' },
      });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual([r.body.errors[0].type, r.body.errors[0].loc], ['too_deep', ['body']]);
    }
    const ok = '['.repeat(30) + ']'.repeat(30);
    const shallow = await h.req('POST', '/api/v1/jobs/estimate', { token, raw: { body: `{"job_type":"wait","payload":{"seconds":1,"x":${ok}}}`, type: 'application/json' } });
    assert.equal(shallow.status, 422, 'a shallow body reaches the payload schema');
    assert.deepEqual(shallow.body.errors[0].loc, ['body', 'payload', 'x']);
  });

  it('NUL and lone surrogates in strings and keys are 422s at their location; nothing is written', async () => {
    const cases: [string, (string | number)[]][] = [
      ['{"job_name":"a\\u0000b","job_type":"wait","payload":{"seconds":1}}', ['body', 'job_name']],
      ['{"job_name":"ok","job_type":"wait","payload":{"seconds":1,"note":"\\ud800"}}', ['body', 'payload', 'note']],
      ['{"job_name":"ok","job_type":"wait","payload":{"seconds":1,"tags":["a","\\udc00x"]}}', ['body', 'payload', 'tags', 1]],
    ];
    for (const [body, loc] of cases) {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, raw: { body, type: 'application/json' } });
      assert.equal(r.status, 422, body);
      assert.deepEqual([r.body.errors[0].type, r.body.errors[0].loc], ['string_unicode', loc], body);
    }
    const multi = await h.req('POST', '/api/v1/jobs/submit-multiple', {
      token,
      raw: { body: '{"jobs":[{"job_name":"k\\u0000","job_type":"wait","payload":{"seconds":1}}]}', type: 'application/json' },
    });
    assert.deepEqual([multi.status, multi.body.errors[0].loc], [422, ['body', 'jobs', 0, 'job_name']]);
    const key = await h.req('POST', '/api/v1/jobs/estimate', { token, raw: { body: '{"job_type":"wait","payload":{"seconds":1,"a\\u0000":1}}', type: 'application/json' } });
    assert.equal(key.status, 422);
    assert.equal(key.body.errors[0].type, 'string_unicode');
    assert.equal(await jobs(), 0, 'no job was written');
    const pair = await h.req('POST', '/api/v1/jobs/estimate', { token, raw: { body: '{"job_type":"wait","payload":{"seconds":1}}', type: 'application/json' } });
    assert.equal(pair.status, 200, 'well-formed bodies pass');
    const emoji = await h.req('POST', '/api/v1/jobs/submit', {
      token,
      raw: { body: '{"job_name":"pair \\ud83d\\ude00","job_type":"wait","payload":{"seconds":1}}', type: 'application/json' },
    });
    assert.equal(emoji.status, 200, `a surrogate pair is a character: ${emoji.text}`);
  });
});

describe('molecule files with text the database cannot store', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
  });
  after(async () => h?.close());

  it('a NUL byte in a .smi, .csv or .sdf line is a warning for that line; the rest is stored', async () => {
    const u = await h.user();
    const sdfRecord = (name: string) => `${name}\n  RDKit\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n$$$$\n`;
    const files = [
      { name: 'nul.smi', content: 'CCO ethanol\nCC\u0000O bad\nc1ccccc1 benzene\n' },
      { name: 'nul.csv', content: 'smiles,name\nCCO,ethanol\nCCN,ami\u0000ne\nc1ccccc1,benzene\n' },
      { name: 'nul.sdf', content: sdfRecord('methane') + sdfRecord('meth\u0000ane') + sdfRecord('carbon') },
    ];
    for (const file of files) {
      const form = new FormData();
      form.append('mode', 'molecules');
      form.append('file', new Blob([file.content]), file.name);
      const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } });
      const body = (await r.json()) as { manifest: { warnings: { type: string; msg: string; input: string }[]; ports: { record_count?: number }[] } };
      assert.equal(r.status, 201, `${file.name}: ${JSON.stringify(body)}`);
      const warnings = body.manifest.warnings;
      assert.equal(warnings.length, 1, file.name);
      assert.deepEqual([warnings[0]?.type, warnings[0]?.msg], ['unparseable', 'the line holds a NUL character (U+0000)'], file.name);
      assert.ok(!warnings[0]?.input.includes('\u0000'), 'the warning does not carry the NUL');
    }
  });
});
