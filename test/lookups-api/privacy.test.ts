// Privacy over HTTP, proven by counting what reaches the stand-in sources: a structure (SMILES,
// InChI) leaves the service only for an API key with allow_structure_search, never for an API
// key without it and never for an access token; compound names that are structures are never
// sent at all.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import type { Harness } from '../helpers/harness.js';
import { callers, lookup, StandIn, withHarness, type Callers } from './setup.js';

const ASPIRIN_SMILES = 'CC(=O)Oc1ccccc1C(=O)O';
const ASPIRIN_INCHI = 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)';
const BENZOIC_SMILES = 'c1ccccc1C(=O)O';

for (const backend of onlyOn('postgres')) {
  describe(`lookup privacy over HTTP (${backend.name})`, () => {
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

    /** Everything the stand-in received, as one text to search for a structure. */
    const sent = () => standIn.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()} ${r.body}`).join('\n');
    const leaked = (s: string) => {
      const all = sent();
      return all.includes(s) || all.includes(encodeURIComponent(s)) || all.includes(encodeURIComponent(s).replace(/%3D/g, '='));
    };

    it('API key without allow_structure_search: similarity and substructure send nothing, every item structure_egress_not_allowed', async () => {
      for (const operation of ['similarity', 'substructure']) {
        const r = await lookup(h, 'bioactivity', { operation, queries: [ASPIRIN_SMILES, BENZOIC_SMILES] }, { key: who.key });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          r.body.results.map((i: any) => [i.query, i.status, i.data, i.record_id]),
          [
            [ASPIRIN_SMILES, 'structure_egress_not_allowed', null, null],
            [BENZOIC_SMILES, 'structure_egress_not_allowed', null, null],
          ],
        );
        assert.equal(r.body.results[0].source, 'chembl');
        assert.equal(r.body.results[0].license, 'CC BY-SA 3.0');
      }
      assert.equal(standIn.requests.length, 0, 'zero upstream requests');
    });

    it('API key with allow_structure_search: the SMILES is sent and answered', async () => {
      const r = await lookup(h, 'bioactivity', { operation: 'similarity', queries: [ASPIRIN_SMILES], threshold: 80 }, { key: who.structureKey });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.results[0].status, 'found');
      assert.equal(r.body.results[0].data.threshold, 80);
      const calls = standIn.requests.filter((q) => q.path.startsWith('/chembl/api/data/similarity/'));
      assert.equal(calls.length, 1);
      const [call] = calls;
      assert.ok(call);
      assert.match(call.path, /\/80\.json$/);
      assert.ok(leaked(ASPIRIN_SMILES), 'the structure reached the source');
      const sub = await lookup(h, 'bioactivity', { operation: 'substructure', queries: [BENZOIC_SMILES] }, { key: who.structureKey });
      assert.equal(sub.body.results[0].status, 'found');
      assert.ok(standIn.requests.some((q) => q.path.startsWith('/chembl/api/data/substructure/')));
    });

    it('access token: never sends a structure, even when every key of the account may', async () => {
      for (const operation of ['similarity', 'substructure']) {
        const r = await lookup(h, 'bioactivity', { operation, queries: [ASPIRIN_SMILES] }, { token: who.token });
        assert.equal(r.status, 200);
        assert.equal(r.body.results[0].status, 'structure_egress_not_allowed');
        assert.equal(r.body.results[0].data, null);
      }
      assert.equal(standIn.requests.length, 0, 'zero upstream requests');
    });

    it('a result cached for an allowed key is not handed to a caller who may not send the structure', async () => {
      const q = { operation: 'similarity', queries: ['OC(=O)c1ccccc1OC(C)=O'] };
      assert.equal((await lookup(h, 'bioactivity', q, { key: who.structureKey })).status, 200);
      const before = standIn.requests.length;
      assert.equal(before, 1);
      for (const cred of [{ key: who.key }, { token: who.token }]) {
        const r = await lookup(h, 'bioactivity', q, cred);
        assert.deepEqual([r.body.results[0].status, r.body.results[0].data], ['structure_egress_not_allowed', null]);
      }
      assert.equal(standIn.requests.length, before);
    });

    it('compound names that are SMILES or InChI are never sent, whoever asks; real names are', async () => {
      for (const cred of [{ key: who.key }, { key: who.structureKey }, { token: who.token }]) {
        standIn.reset();
        const r = await lookup(h, 'compounds', { names: [ASPIRIN_SMILES, 'aspirin', ASPIRIN_INCHI, 'CCO'] }, cred);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          r.body.compounds.map((c: any) => [c.name, c.status]),
          [
            [ASPIRIN_SMILES, 'structure_egress_not_allowed'],
            ['aspirin', 'found'],
            [ASPIRIN_INCHI, 'structure_egress_not_allowed'],
            ['CCO', 'structure_egress_not_allowed'],
          ],
        );
        assert.equal(r.body.compounds[0].cid, null);
        // Only the name went out (or nothing: the second and third callers hit the cache).
        assert.ok(
          standIn.requests.every((q) => q.path === '/rest/pug/compound/name/aspirin/property/Title,SMILES/JSON'),
          sent(),
        );
        for (const s of [ASPIRIN_SMILES, ASPIRIN_INCHI, 'InChI', 'CCO']) assert.ok(!leaked(s), `${s} reached the source`);
      }
    });

    it('names expected elsewhere (properties, bioactivity molecule) hold structures back too', async () => {
      const p = await lookup(h, 'properties', { operation: 'experimental', queries: [ASPIRIN_INCHI] }, { key: who.structureKey });
      const m = await lookup(h, 'bioactivity', { operation: 'molecule_activities', queries: [ASPIRIN_SMILES] }, { key: who.structureKey });
      assert.equal(p.body.results[0].status, 'structure_egress_not_allowed');
      assert.equal(m.body.results[0].status, 'structure_egress_not_allowed');
      assert.equal(standIn.requests.length, 0);
    });

    it('compound names with a trailing name, CXSMILES, reaction SMILES or a lower-case InChI are never sent', async () => {
      const names = ['CC(=O)Oc1ccccc1C(=O)O aspirin', 'Cc1ccccc1 |c:1|', 'CCO>>CC=O', 'inchi=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)'];
      for (const cred of [{ key: who.key }, { key: who.structureKey }, { token: who.token }]) {
        const r = await lookup(h, 'compounds', { names }, cred);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          r.body.compounds.map((c: any) => c.status),
          names.map(() => 'structure_egress_not_allowed'),
        );
        const p = await lookup(h, 'properties', { operation: 'experimental', queries: names }, cred);
        assert.ok(p.body.results.every((i: any) => i.status === 'structure_egress_not_allowed'));
      }
      assert.equal(standIn.requests.length, 0, sent());
    });

    // Every source's free-text operation, counted at the stand-in.
    const freeText: [endpoint: string, operation: string, gene: string][] = [
      ['bioactivity', 'target', 'CS'],
      ['targets', 'target_associations', 'CNP'],
      ['proteins', 'search', 'CS'],
      ['structures', 'search', 'CNP'],
    ];
    for (const [endpoint, operation, gene] of freeText) {
      it(`free text (${endpoint} ${operation}): no InChI, and no SMILES without allow_structure_search; gene symbols go out`, async () => {
        const structures = [ASPIRIN_INCHI, 'inchi=1S/CH4/h1H4', BENZOIC_SMILES, `${ASPIRIN_SMILES} aspirin`];
        for (const cred of [{ key: who.key }, { token: who.token }]) {
          const r = await lookup(h, endpoint, { operation, queries: structures }, cred);
          assert.equal(r.status, 200, r.text);
          assert.deepEqual(
            r.body.results.map((i: any) => [i.status, i.data]),
            structures.map(() => ['structure_egress_not_allowed', null]),
          );
        }
        assert.equal(standIn.requests.length, 0, `zero upstream requests: ${sent()}`);
        const g = await lookup(h, endpoint, { operation, queries: [gene] }, { key: who.key });
        assert.notEqual(g.body.results[0].status, 'structure_egress_not_allowed');
        assert.equal(standIn.requests.length, 1, 'the gene symbol went out once');
        standIn.reset();
        const allowed = await lookup(h, endpoint, { operation, queries: [ASPIRIN_INCHI, BENZOIC_SMILES] }, { key: who.structureKey });
        assert.deepEqual(
          allowed.body.results.map((i: any) => i.status === 'structure_egress_not_allowed'),
          [true, false],
        );
        assert.equal(standIn.requests.length, 1, 'with allow_structure_search the SMILES (only) went out');
        assert.ok(!leaked('InChI=1S'), 'no InChI reached the source');
      });
    }

    it('turning allow_structure_search off (PATCH) takes effect on the next request', async () => {
      const u = await h.user();
      const k = await h.key(u.token, { allow_structure_search: true });
      const body = { operation: 'substructure', queries: ['C1=CC=CC=C1C(=O)O'] };
      const off = await h.req('PATCH', `/api/v1/auth/api-keys/${k.id}`, { token: u.token, body: { allow_structure_search: false } });
      assert.equal(off.status, 200);
      assert.equal(off.body.allow_structure_search, false);
      const r = await lookup(h, 'bioactivity', body, { key: k.secret });
      assert.equal(r.body.results[0].status, 'structure_egress_not_allowed');
      assert.equal(standIn.requests.length, 0);
      const on = await h.req('PATCH', `/api/v1/auth/api-keys/${k.id}`, { token: u.token, body: { allow_structure_search: true } });
      assert.equal(on.body.allow_structure_search, true);
      const r2 = await lookup(h, 'bioactivity', body, { key: k.secret });
      assert.notEqual(r2.body.results[0].status, 'structure_egress_not_allowed');
      assert.equal(standIn.requests.length, 1);
    });
  });
}
