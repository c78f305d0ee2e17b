// The `filter` job type and its expression language (docs/jobs.md, "filter"): expressions are
// parsed by jsep and evaluated from the syntax tree (never by JavaScript), unknown names and
// anything outside the language are refused at submit (422 at payload.expression), and the
// job keeps exactly the molecules whose /describe properties satisfy the expression.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileExpression, ExpressionError } from '../../src/compute/expression.js';
import { FILTER_NAMES } from '../../src/compute/types/filter.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('filter expressions', () => {
  const env = { mw: 180.16, clogp: 1.31, pains: false, lipinski: true, qed: null };
  const t = (e: string, v: Record<string, number | boolean | null> = env) => compileExpression(e, FILTER_NAMES)(v);

  it('evaluates comparisons, arithmetic, and/or/not with "and" binding tighter than "or"', () => {
    assert.equal(t('mw <= 500 and clogp < 5 and not pains'), true);
    assert.equal(t('mw > 500 or clogp < 2'), true);
    assert.equal(t('mw > 500 or clogp > 2 and not pains'), false);
    assert.equal(t('(mw > 500 or clogp < 2) and lipinski == true'), true);
    assert.equal(t('mw / 2 - 10 >= 80'), true);
    assert.equal(t('-clogp < 0'), true);
  });

  it('a missing value (qed of a molecule without one) never satisfies', () => {
    assert.equal(t('qed > 0.5'), false);
    assert.equal(t('not (qed > 0.5)'), false);
  });

  it('refuses unknown names, JavaScript, and non-boolean expressions', () => {
    const refused = (e: string, why: RegExp) =>
      assert.throws(
        () => compileExpression(e, FILTER_NAMES),
        (err: unknown) => err instanceof ExpressionError && why.test(err.message),
        e,
      );
    refused('weight < 500', /unknown name "weight"/);
    refused('process.exit(1)', /function calls|member access/);
    refused('mw.constructor', /member access/);
    refused('mw < 500 && clogp < 5', /./);
    refused('mw = 5', /./);
    refused('"a" == "a"', /numbers and true\/false/);
    refused('mw + 5', /true or false/);
    refused('pains < 3', /compares/);
    refused('mw and pains', /joins true\/false/);
    refused('mw <= (500', /./);
    refused('mw < 1, clogp < 2', /one expression/);
  });
});

for (const backend of BACKENDS) {
  describe(`the filter job [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    it('keeps exactly the molecules whose /describe properties satisfy the expression', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const smiles = ['CC(=O)Oc1ccccc1C(=O)O', 'O=C(C=Cc1ccccc1)c1ccccc1', 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC(=O)O', 'c1ccccc1O', 'C1CC'];
      const expression = 'mw <= 300 and clogp < 3 and not pains';
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'f', job_type: 'filter', payload: { smiles, expression } } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(u.token, r.body.process_id);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      const described = (await h.req('POST', '/api/v1/describe', { token: u.token, body: { smiles } })).body.items as {
        properties: { mw: number; clogp: number; alerts: { pains: string[] } } | null;
      }[];
      const expected = described.flatMap((d, i) => (d.properties && d.properties.mw <= 300 && d.properties.clogp < 3 && d.properties.alerts.pains.length === 0 ? [i] : []));
      assert.deepEqual(
        result.kept.map((k: { index: number }) => k.index),
        expected,
      );
      assert.ok(expected.length >= 2 && expected.length < 4, `the set tests both sides: ${expected.join(', ')}`);
      assert.deepEqual(result.summary, { molecules: 5, kept: expected.length, dropped: 5 - expected.length - 1, errors: 1 });
      const art = await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}`, { token: u.token });
      assert.equal(art.body.manifest.ports.molecules.records.length, expected.length);
    });

    it('an expression that does not parse, or names an unknown property, is a 422 at payload.expression', async () => {
      const u = await h.user();
      for (const expression of ['mw <= (500', 'weight < 500', 'require("fs")']) {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'f', job_type: 'filter', payload: { smiles: ['CCO'], expression } } });
        assert.equal(r.status, 422, expression);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', 'expression']);
      }
    });
  });
}
