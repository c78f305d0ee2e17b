// The `filter` job type and its expression language (docs/jobs.md, "filter"): expressions are
// parsed by jsep and evaluated from the syntax tree (never by JavaScript), unknown names and
// anything outside the language are refused at submit (422 at payload.expression), and the
// job keeps exactly the molecules whose /describe properties satisfy the expression.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileExpression, ExpressionError, MAX_DEPTH, MAX_NODES } from '../../src/compute/expression.js';
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

  it("looks names up as the list's own entries: JavaScript's built-in property names are unknown, and every unknown name is named", () => {
    const refused = (e: string, why: RegExp) =>
      assert.throws(
        () => compileExpression(e, FILTER_NAMES),
        (err: unknown) => err instanceof ExpressionError && why.test(err.message),
        e,
      );
    refused('constructor == constructor', /unknown name "constructor"/);
    refused('__proto__ == __proto__', /unknown name "__proto__"/);
    refused('toString == toString', /unknown name "toString"/);
    refused('hasOwnProperty or pains', /unknown name "hasOwnProperty"/);
    refused('weight < 500 and mw < 5 and colour == 3 and weight > 1', /unknown names "weight", "colour";/);
    // The environment is read as own properties too: a molecule's inherited values count as missing.
    const inherited = Object.create({ mw: 10 }) as Record<string, number>;
    assert.equal(compileExpression('mw < 500', FILTER_NAMES)(inherited), false);
  });

  it('evaluates each part once per molecule: 20 nested "not"s or unary minuses read the value once, not 2^20 times', () => {
    let reads = 0;
    const counting = new Proxy({ mw: 180, pains: false } as Record<string, number | boolean>, {
      get(target, key) {
        reads++;
        return target[key as string];
      },
    });
    for (const [e, expected] of [
      [`${'not '.repeat(20)}pains`, false],
      [`${'not '.repeat(21)}pains`, true],
      [`${'- '.repeat(20)}mw == 180`, true],
      [`${'- '.repeat(19)}mw == -180`, true],
    ] as const) {
      reads = 0;
      assert.equal(compileExpression(e, FILTER_NAMES)(counting), expected, e);
      assert.equal(reads, 1, `${e}: ${reads} reads`);
    }
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels and trees of more than ${MAX_NODES} parts, at parse time`, () => {
    const refused = (e: string, why: RegExp) =>
      assert.throws(
        () => compileExpression(e, FILTER_NAMES),
        (err: unknown) => err instanceof ExpressionError && why.test(err.message),
        e.slice(0, 40),
      );
    refused(`${'not '.repeat(240)}pains`, /nested more than 64 levels/);
    refused(`${'- '.repeat(300)}mw < 5`, /nested more than 64 levels/);
    refused(Array.from({ length: 260 }, () => 'pains').join(' or '), /more than 500 parts|nested more than/);
    // Up to the bound it works, and parentheses alone do not count as levels.
    assert.equal(compileExpression(`${'not '.repeat(MAX_DEPTH - 1)}pains`, FILTER_NAMES)({ pains: false }), true);
    assert.equal(compileExpression(`${'('.repeat(200)}mw < 5${')'.repeat(200)}`, FILTER_NAMES)({ mw: 1 }), true);
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

    it('an expression that does not parse, names an unknown property, or nests too deep is a 422 at payload.expression, at estimate and submit', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      for (const expression of ['mw <= (500', 'weight < 500', 'require("fs")', 'constructor == constructor', `${'not '.repeat(240)}pains`, `${'- '.repeat(240)}mw < 5`]) {
        const e = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'filter', payload: { smiles: ['CCO'], expression } } });
        assert.equal(e.status, 422, expression);
        assert.deepEqual(e.body.errors[0].loc, ['body', 'payload', 'expression']);
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'f', job_type: 'filter', payload: { smiles: ['CCO'], expression } } });
        assert.equal(r.status, 422, expression);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', 'expression']);
      }
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.items.length, 0, 'nothing was submitted');
    });

    it('31 nested "not"s (more than 11 s of a frozen server before the fix) run as a job in an instant', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      const expression = `${'not '.repeat(31)}pains and ${'- '.repeat(30)}mw > 0`;
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'f', job_type: 'filter', payload: { smiles: ['CCO', 'c1ccccc1O'], expression } } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(u.token, r.body.process_id, undefined, 20_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      assert.deepEqual(result.summary, { molecules: 2, kept: 2, dropped: 0, errors: 0 });
    });
  });
}
