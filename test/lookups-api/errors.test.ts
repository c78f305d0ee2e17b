// Failure answers of the lookup routes over HTTP: 401 without a credential, 403 for a key
// without the read scope, 422 problems with `loc` for bad input (and nothing sent upstream),
// 503 `source-disabled` for a source disabled by CRUCIBLE_LOOKUPS_DISABLED, and an upstream
// 500 that fails its item only (200 overall, item `upstream_error`, not cached).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import type { Harness, Res } from '../helpers/harness.js';
import { callers, lookup, StandIn, withHarness, type Callers } from './setup.js';

const BIO_OPS = ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure'];

function assertProblem(r: Res, status: number, type: string, retry: string) {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(r.body.type, type);
  assert.equal(r.body.status, status);
  assert.equal(r.body.retry, retry);
  assert.equal(typeof r.body.detail, 'string');
  assert.equal(r.body.request_id, r.headers.get('x-request-id'));
}

for (const backend of onlyOn('pglite')) {
  describe(`lookup errors over HTTP (${backend.name})`, () => {
    let standIn: StandIn;
    let h: Harness;
    let who: Callers;
    before(async () => {
      standIn = await new StandIn().start();
      h = await withHarness(backend, standIn);
      who = await callers(h);
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });
    beforeEach(() => standIn.reset());

    it('401 without a credential or with a wrong one; nothing is sent upstream', async () => {
      for (const e of ['compounds', 'bioactivity', 'targets', 'proteins', 'structures', 'properties']) {
        const r = await h.req('POST', `/api/v1/lookup/${e}`, { body: { names: ['aspirin'], operation: 'entry', queries: ['P00533'] } });
        assertProblem(r, 401, '/api/v1/problems/http-401', 'auth');
        assert.equal(r.body.instance, `/api/v1/lookup/${e}`);
      }
      const wrong = await lookup(h, 'compounds', { names: ['aspirin'] }, { key: 'crk_abcdefgh_' + 'x'.repeat(40) });
      assert.equal(wrong.status, 401);
      assert.equal(standIn.requests.length, 0);
    });

    it('403 insufficient-scope for a key without read; a read-only key is enough', async () => {
      const u = await h.user();
      const writeOnly = await h.key(u.token, { scopes: ['write'] });
      const r = await lookup(h, 'compounds', { names: ['aspirin'] }, { key: writeOnly.secret });
      assertProblem(r, 403, '/api/v1/problems/insufficient-scope', 'auth');
      assert.equal(standIn.requests.length, 0);
      assert.equal((await lookup(h, 'compounds', { names: ['aspirin'] }, { key: who.key })).status, 200);
    });

    describe('422 with loc; nothing sent upstream', () => {
      type Issue = { type: string; loc: (string | number)[]; msg: string; input: unknown };
      async function issues(endpoint: string, body: unknown): Promise<[Issue, ...Issue[]]> {
        const r = await lookup(h, endpoint, body, { key: who.structureKey });
        assertProblem(r, 422, '/api/v1/problems/http-422', 'validation');
        assert.ok(Array.isArray(r.body.errors) && r.body.errors.length > 0);
        for (const e of r.body.errors) assert.deepEqual(Object.keys(e).sort(), ['input', 'loc', 'msg', 'type']);
        assert.equal(standIn.requests.length, 0, `nothing sent for ${JSON.stringify(body).slice(0, 80)}`);
        const [first, ...rest]: Issue[] = r.body.errors;
        assert.ok(first);
        return [first, ...rest];
      }

      it('unknown operation: enum at body.operation, listing the allowed operations', async () => {
        const [e] = await issues('bioactivity', { operation: 'docking', queries: ['CHEMBL25'] });
        assert.deepEqual([e.type, e.loc, e.input], ['enum', ['body', 'operation'], 'docking']);
        for (const op of BIO_OPS) assert.ok(e.msg.includes(op), `${op} listed in "${e.msg}"`);
        const checks: [string, string[]][] = [
          ['targets', ['target_associations', 'disease_associations', 'target_drugs', 'disease_drugs']],
          ['proteins', ['entry', 'search']],
          ['structures', ['entry', 'by_uniprot', 'search']],
          ['properties', ['experimental']],
        ];
        for (const [endpoint, allowed] of checks) {
          const [x] = await issues(endpoint, { operation: 'computed', queries: ['x'] });
          assert.deepEqual(x.loc, ['body', 'operation']);
          for (const op of allowed) assert.ok(x.msg.includes(op), `${endpoint}: ${op} listed in "${x.msg}"`);
        }
        const [missing] = await issues('structures', { queries: ['4HHB'] });
        assert.deepEqual([missing.type, missing.loc], ['missing', ['body', 'operation']]);
      });

      it('too many queries (21), too long (101 characters), empty or blank, empty list, missing', async () => {
        const many = await issues('compounds', { names: Array.from({ length: 21 }, (_, i) => `name ${i}`) });
        assert.deepEqual([many[0].type, many[0].loc], ['too_long', ['body', 'names']]);
        for (const e of ['targets', 'proteins', 'structures']) {
          const q = await issues(e, { operation: e === 'targets' ? 'target_drugs' : 'entry', queries: Array.from({ length: 21 }, () => 'x') });
          assert.deepEqual([q[0].type, q[0].loc], ['too_long', ['body', 'queries']]);
        }
        const long = await issues('targets', { operation: 'target_drugs', queries: ['EGFR', 'x'.repeat(101)] });
        assert.deepEqual([long[0].type, long[0].loc, long[0].input], ['string_too_long', ['body', 'queries', 1], 'x'.repeat(101)]);
        const longName = await issues('compounds', { names: ['y'.repeat(101)] });
        assert.deepEqual([longName[0].type, longName[0].loc], ['string_too_long', ['body', 'names', 0]]);
        const empty = await issues('proteins', { operation: 'entry', queries: ['P00533', ''] });
        assert.deepEqual([empty[0].type, empty[0].loc], ['string_too_short', ['body', 'queries', 1]]);
        const blank = await issues('compounds', { names: ['aspirin', '   '] });
        assert.deepEqual([blank[0].type, blank[0].loc], ['string_too_short', ['body', 'names', 1]]);
        const none = await issues('structures', { operation: 'entry', queries: [] });
        assert.deepEqual([none[0].type, none[0].loc], ['too_short', ['body', 'queries']]);
        const missing = await issues('compounds', {});
        assert.deepEqual([missing[0].type, missing[0].loc], ['missing', ['body', 'names']]);
        // 20 queries of 100 characters are fine.
        const ok = await lookup(h, 'structures', { operation: 'search', queries: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, 'z')) }, { key: who.key });
        assert.equal(ok.status, 200);
        assert.equal(ok.body.results.length, 20);
        standIn.reset();
      });

      it('bioactivity: IDs and names at most 100 characters, SMILES at most 500', async () => {
        const name = await issues('bioactivity', { operation: 'molecule', queries: ['a'.repeat(101)] });
        assert.deepEqual([name[0].type, name[0].loc], ['string_too_long', ['body', 'queries', 0]]);
        const smiles = await issues('bioactivity', { operation: 'similarity', queries: ['C'.repeat(501)] });
        assert.deepEqual([smiles[0].type, smiles[0].loc], ['string_too_long', ['body', 'queries', 0]]);
        const ok = await lookup(h, 'bioactivity', { operation: 'substructure', queries: ['C'.repeat(300)] }, { key: who.structureKey });
        assert.equal(ok.status, 200);
        standIn.reset();
      });

      it('bioactivity limit outside 1..1000 and threshold outside 40..100', async () => {
        const cases: [Record<string, unknown>, string, string][] = [
          [{ limit: 0 }, 'greater_than_equal', 'limit'],
          [{ limit: 1001 }, 'less_than_equal', 'limit'],
          [{ limit: 2.5 }, 'int_type', 'limit'],
          [{ limit: '10' }, 'int_type', 'limit'],
          [{ threshold: 39 }, 'greater_than_equal', 'threshold'],
          [{ threshold: 101 }, 'less_than_equal', 'threshold'],
        ];
        for (const [extra, type, field] of cases) {
          const errs = await issues('bioactivity', { operation: 'similarity', queries: ['CCO'], ...extra });
          assert.deepEqual(
            errs.map((e) => [e.type, e.loc]),
            [[type, ['body', field]]],
            JSON.stringify(extra),
          );
        }
        // The bounds themselves are accepted.
        for (const extra of [
          { limit: 1, threshold: 40 },
          { limit: 1000, threshold: 100 },
          { limit: null, threshold: null },
        ]) {
          const r = await lookup(h, 'bioactivity', { operation: 'similarity', queries: ['CC(=O)Oc1ccccc1C(=O)O'], ...extra }, { key: who.structureKey });
          assert.equal(r.status, 200, JSON.stringify(extra));
        }
        standIn.reset();
      });

      it('unknown fields, unknown property names, a bad organism; every problem reported at once', async () => {
        const extra = await issues('targets', { operation: 'target_drugs', queries: ['EGFR'], organism: 'human' });
        assert.deepEqual([extra[0].type, extra[0].loc], ['extra_forbidden', ['body', 'organism']]);
        const prop = await issues('properties', { operation: 'experimental', queries: ['aspirin'], properties: ['boiling_point', 'colour'] });
        assert.deepEqual([prop[0].type, prop[0].loc, prop[0].input], ['enum', ['body', 'properties', 1], 'colour']);
        const org = await issues('proteins', { operation: 'search', queries: ['EGFR'], organism: '' });
        assert.deepEqual([org[0].type, org[0].loc], ['string_too_short', ['body', 'organism']]);
        const all = await issues('bioactivity', { operation: 'nope', queries: [''], limit: 0, threshold: 1 });
        assert.deepEqual(all.map((e) => e.loc.join('.')).sort(), ['body.limit', 'body.operation', 'body.queries.0', 'body.threshold']);
      });

      it('a body that is not a JSON object', async () => {
        const arr = await issues('compounds', ['aspirin']);
        assert.deepEqual(arr[0].loc, ['body']);
        const r = await h.req('POST', '/api/v1/lookup/compounds', { key: who.key, raw: { body: '{"names": [', type: 'application/json' } });
        assertProblem(r, 400, '/api/v1/problems/http-400', 'validation');
        assert.equal(standIn.requests.length, 0);
      });
    });

    it('upstream 500: the item is upstream_error (after retries), the request 200, other items unaffected; the failure is not cached', async () => {
      standIn.mode = 'error500';
      const r = await lookup(h, 'compounds', { names: ['glucose', 'CC(=O)Oc1ccccc1C(=O)O'] }, { key: who.key });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.compounds.map((c: any) => [c.status, c.cid, c.url]),
        [
          ['upstream_error', null, null],
          ['structure_egress_not_allowed', null, null],
        ],
      );
      assert.equal(r.body.compounds[0].license, 'NCBI public domain; depositor terms apply');
      assert.equal(standIn.requests.length, 4, 'one call and three retries');
      const p = await lookup(h, 'proteins', { operation: 'entry', queries: ['P00533'] }, { key: who.key });
      assert.equal(p.status, 200);
      assert.deepEqual([p.body.results[0].status, p.body.results[0].data], ['upstream_error', null]);
      standIn.reset();
      const again = await lookup(h, 'compounds', { names: ['glucose'] }, { key: who.key });
      assert.equal(again.body.compounds[0].status, 'found');
      assert.equal(standIn.requests.length, 1, 'the error was not cached: the repeat went upstream');
    });
  });

  describe(`source-disabled (${backend.name})`, () => {
    let standIn: StandIn;
    let h: Harness;
    let who: Callers;
    before(async () => {
      standIn = await new StandIn().start();
      h = await withHarness(backend, standIn, { CRUCIBLE_LOOKUPS_DISABLED: 'chembl,rcsb' });
      who = await callers(h);
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });
    beforeEach(() => standIn.reset());

    it('503 source-disabled for a disabled source (key and token), nothing sent; other sources answer', async () => {
      for (const cred of [{ key: who.structureKey }, { token: who.token }]) {
        const r = await lookup(h, 'bioactivity', { operation: 'molecule', queries: ['CHEMBL25'] }, cred);
        assertProblem(r, 503, '/api/v1/problems/source-disabled', 'terminal');
        assert.match(r.body.detail, /chembl/);
        assert.equal(r.body.source, 'chembl');
        const s = await lookup(h, 'structures', { operation: 'entry', queries: ['4HHB'] }, cred);
        assertProblem(s, 503, '/api/v1/problems/source-disabled', 'terminal');
        assert.equal(s.body.source, 'rcsb');
      }
      assert.equal(standIn.requests.length, 0);
      const ok = await lookup(h, 'proteins', { operation: 'entry', queries: ['P00533'] }, { key: who.key });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.results[0].status, 'found');
    });

    it('validation still comes first: a bad body to a disabled source is a 422', async () => {
      const r = await lookup(h, 'bioactivity', { operation: 'docking', queries: ['CHEMBL25'] }, { key: who.key });
      assert.equal(r.status, 422);
    });

    it('pubchem disables both compounds and properties', async () => {
      const h2 = await withHarness(backend, standIn, { CRUCIBLE_LOOKUPS_DISABLED: 'pubchem' });
      try {
        const u = await h2.user();
        for (const [e, body] of [
          ['compounds', { names: ['aspirin'] }],
          ['properties', { operation: 'experimental', queries: ['aspirin'] }],
        ] as const) {
          const r = await lookup(h2, e, body, { token: u.token });
          assertProblem(r, 503, '/api/v1/problems/source-disabled', 'terminal');
        }
        assert.equal((await lookup(h2, 'bioactivity', { operation: 'molecule', queries: ['CHEMBL25'] }, { token: u.token })).status, 200);
      } finally {
        await h2.close();
      }
    });
  });
}
