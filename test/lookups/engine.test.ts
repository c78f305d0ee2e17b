// The engine's rules: privacy of structures, the response cache, the shared per-source rate
// limit, disabled sources, request validation, retries honouring Retry-After, concurrency.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MemoryLookupCache } from '../../src/lookups/cache.js';
import { RateLimiterRegistry } from '../../src/lookups/rate-limit.js';
import { LookupService } from '../../src/lookups/service.js';
import { LookupRequestError, SourceDisabledError, type LookupCache, type LookupValidationIssue } from '../../src/lookups/types.js';
import { loadConfig } from '../../src/config.js';
import { assertLocalUrls, closedPortBase, LOOKUP_URL_VARS, serviceFor, StandIn } from './stand-in.js';

let standIn: StandIn;
before(async () => {
  standIn = await new StandIn().start();
});
after(async () => {
  await standIn.stop();
});
beforeEach(() => standIn.reset());

describe('privacy: structures leave only with permission', () => {
  const ASPIRIN_SMILES = 'CC(=O)Oc1ccccc1C(=O)O';
  const ASPIRIN_INCHI = 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)';

  test('compound names that are SMILES or InChI are held back; real names go out', async () => {
    const svc = serviceFor(standIn);
    const res = await svc.run('compounds', { names: [ASPIRIN_SMILES, ASPIRIN_INCHI, 'CCO', 'aspirin'] }, { allowStructures: false });
    assert.deepEqual(
      res.compounds.map((c) => c.status),
      ['structure_egress_not_allowed', 'structure_egress_not_allowed', 'structure_egress_not_allowed', 'found'],
    );
    assert.equal(res.compounds[0]?.name, ASPIRIN_SMILES);
    assert.equal(res.compounds[0]?.cid, null);
    assert.equal(standIn.requests.length, 1, 'only the name was sent');
    const [req] = standIn.requests;
    assert.ok(req);
    assert.match(req.path, /\/name\/aspirin\//);
    const all = standIn.requests.map((r) => r.path + r.body + r.query.toString()).join('\n');
    assert.ok(!all.includes('Oc1ccccc1') && !all.includes('InChI'), 'no structure reached the stand-in');
  });

  test('compounds never sends a structure, even for a key that allows structure search', async () => {
    const res = await serviceFor(standIn).run('compounds', { names: [ASPIRIN_SMILES] }, { allowStructures: true });
    assert.equal(res.compounds[0]?.status, 'structure_egress_not_allowed');
    assert.equal(standIn.requests.length, 0);
  });

  test('similarity and substructure without permission: every item held back, zero upstream requests', async () => {
    const svc = serviceFor(standIn);
    for (const operation of ['similarity', 'substructure']) {
      const res = await svc.run('bioactivity', { operation, queries: [ASPIRIN_SMILES, 'c1ccccc1C(=O)O'] }, { allowStructures: false });
      assert.deepEqual(
        res.results.map((r) => r.status),
        ['structure_egress_not_allowed', 'structure_egress_not_allowed'],
      );
      assert.equal(res.results[0]?.data, null);
    }
    assert.equal(standIn.requests.length, 0);
  });

  test('similarity with permission sends the SMILES', async () => {
    const res = await serviceFor(standIn).run('bioactivity', { operation: 'similarity', queries: [ASPIRIN_SMILES] }, { allowStructures: true });
    assert.equal(res.results[0]?.status, 'found');
    assert.ok(standIn.requests.some((r) => r.path.startsWith('/chembl/api/data/similarity/')));
  });

  test('molecule lookups and properties hold back names that are structures', async () => {
    const svc = serviceFor(standIn);
    const a = await svc.run('bioactivity', { operation: 'molecule_activities', queries: [ASPIRIN_SMILES] }, { allowStructures: true });
    const b = await svc.run('properties', { operation: 'experimental', queries: [ASPIRIN_INCHI] }, { allowStructures: true });
    assert.equal(a.results[0]?.status, 'structure_egress_not_allowed');
    assert.equal(b.results[0]?.status, 'structure_egress_not_allowed');
    assert.equal(standIn.requests.length, 0);
  });

  test('compound names: a SMILES with a trailing name, CXSMILES, reaction SMILES and a lower-case InChI are held back', async () => {
    const names = [
      'CC(=O)Oc1ccccc1C(=O)O aspirin',
      'Cc1ccccc1 |c:1|',
      'CCO>>CC=O',
      'inchi=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
      'aspirin CC(=O)Oc1ccccc1C(=O)O',
      'CS gas',
      'CNP',
      'vitamin C',
    ];
    for (const allowStructures of [false, true]) {
      standIn.reset();
      const res = await serviceFor(standIn).run('compounds', { names }, { allowStructures });
      assert.deepEqual(
        res.compounds.map((c) => [c.name, c.status]),
        [...names.slice(0, 7).map((n) => [n, 'structure_egress_not_allowed']), ['vitamin C', 'not_found']],
      );
      assert.deepEqual(
        standIn.requests.map((r) => decodeURIComponent(r.path)),
        ['/rest/pug/compound/name/vitamin C/property/Title,SMILES/JSON'],
        'only the real name went out',
      );
    }
  });

  // Each source's free-text operation, counted at the stand-in: an InChI never leaves; a SMILES
  // with SMILES-only syntax leaves only with permission; gene symbols that happen to parse as
  // SMILES (CS, CNP) are sent.
  const freeText: { name: string; endpoint: 'bioactivity' | 'targets' | 'proteins' | 'structures'; operation: string; sent: string; path: RegExp }[] = [
    { name: 'ChEMBL target search', endpoint: 'bioactivity', operation: 'target', sent: 'CS', path: /^\/chembl\/api\/data\/target\/search\.json$/ },
    {
      name: 'ChEMBL target_activities (name resolved by search)',
      endpoint: 'bioactivity',
      operation: 'target_activities',
      sent: 'CNP',
      path: /^\/chembl\/api\/data\/target\/search\.json$/,
    },
    { name: 'Open Targets search (target_associations)', endpoint: 'targets', operation: 'target_associations', sent: 'CNP', path: /^\/api\/v4\/graphql$/ },
    { name: 'Open Targets search (disease_drugs)', endpoint: 'targets', operation: 'disease_drugs', sent: 'CS', path: /^\/api\/v4\/graphql$/ },
    { name: 'UniProt search', endpoint: 'proteins', operation: 'search', sent: 'CS', path: /^\/uniprotkb\/search$/ },
    { name: 'RCSB full-text search', endpoint: 'structures', operation: 'search', sent: 'CNP', path: /^\/rcsbsearch\/v2\/query$/ },
  ];
  for (const f of freeText) {
    test(`free text, ${f.name}: InChI and SMILES held back (zero requests), gene symbol sent`, async () => {
      const held = [ASPIRIN_INCHI, 'inchi=1S/CH4/h1H4', ASPIRIN_SMILES, 'CC(=O)Oc1ccccc1C(=O)O aspirin', 'c1ccccc1', 'CCO>>CC=O', '[Na+].[Cl-]'];
      const svc = serviceFor(standIn);
      const res = await svc.run(f.endpoint, { operation: f.operation, queries: held }, { allowStructures: false });
      assert.deepEqual(
        res.results.map((r) => r.status),
        held.map(() => 'structure_egress_not_allowed'),
      );
      assert.equal(standIn.requests.length, 0, 'zero upstream requests');
      const sent = await svc.run(f.endpoint, { operation: f.operation, queries: [f.sent] }, { allowStructures: false });
      const [item] = sent.results;
      assert.ok(item);
      assert.notEqual(item.status, 'structure_egress_not_allowed');
      assert.equal(standIn.requests.length, 1, `${f.sent} was sent once`);
      const [req] = standIn.requests;
      assert.ok(req);
      assert.match(req.path, f.path);
      assert.ok(req.query.toString().includes(f.sent) || req.body.includes(f.sent));
    });
  }

  test('free text with allow_structure_search: a SMILES is sent, an InChI still is not', async () => {
    const svc = serviceFor(standIn);
    const res = await svc.run('structures', { operation: 'search', queries: ['c1ccccc1', ASPIRIN_INCHI] }, { allowStructures: true });
    assert.deepEqual(
      res.results.map((r) => r.status),
      ['not_found', 'structure_egress_not_allowed'],
    );
    assert.equal(standIn.requests.length, 1);
    const [req] = standIn.requests;
    assert.ok(req);
    assert.equal(JSON.parse(req.body).query.parameters.value, 'c1ccccc1');
    const sim = await svc.run('bioactivity', { operation: 'similarity', queries: [ASPIRIN_INCHI] }, { allowStructures: true });
    assert.equal(sim.results[0]?.status, 'structure_egress_not_allowed');
    assert.equal(standIn.requests.length, 1, 'an InChI goes nowhere, not even to similarity');
  });

  test('ID operations: a query shaped like an ID but written as a SMILES is held back; real IDs go out', async () => {
    const svc = serviceFor(standIn);
    // C1CCC1 (cyclobutane) matches the UniProt accession pattern [A-NR-Z][0-9][A-Z][A-Z0-9]{2}[0-9].
    const p = await svc.run('proteins', { operation: 'entry', queries: ['C1CCC1', 'P00533'] }, { allowStructures: false });
    assert.deepEqual(
      p.results.map((r) => r.status),
      ['structure_egress_not_allowed', 'found'],
    );
    const t = await svc.run('targets', { operation: 'target_drugs', queries: [ASPIRIN_INCHI, 'ENSG00000146648'] }, { allowStructures: false });
    assert.deepEqual(
      t.results.map((r) => r.status),
      ['structure_egress_not_allowed', 'found'],
    );
    const s = await svc.run('structures', { operation: 'entry', queries: ['4HHB'] }, { allowStructures: false });
    assert.equal(s.results[0]?.status, 'found');
    assert.deepEqual(
      standIn.requests.map((r) => r.path),
      ['/uniprotkb/P00533', '/api/v4/graphql', '/rest/v1/core/entry/4HHB'],
    );
  });

  test('an injected isStructure decides (e.g. backed by RDKit); a throwing one fails closed', async () => {
    const seen: string[] = [];
    const svc = serviceFor(standIn, {
      isStructure: async (name) => {
        seen.push(name);
        if (name === 'boom') throw new Error('pool down');
        return name === 'aspirin';
      },
    });
    const res = await svc.run('compounds', { names: ['aspirin', 'glucose', 'boom'] }, { allowStructures: false });
    assert.deepEqual(
      res.compounds.map((c) => c.status),
      ['structure_egress_not_allowed', 'found', 'structure_egress_not_allowed'],
    );
    assert.deepEqual(seen.sort(), ['aspirin', 'boom', 'glucose']);
    assert.equal(standIn.requests.length, 1);
  });
});

describe('cache', () => {
  test('a repeat costs no upstream call, across requests of the same service', async () => {
    const cache = new MemoryLookupCache();
    const svc = serviceFor(standIn, { cache });
    const body = { operation: 'molecule', queries: ['CHEMBL25', 'CHEMBL999999999'] };
    const first = await svc.run('bioactivity', body, { allowStructures: false });
    const calls = standIn.requests.length;
    assert.ok(calls >= 2);
    const second = await svc.run('bioactivity', body, { allowStructures: false });
    assert.equal(standIn.requests.length, calls, 'no new upstream request');
    assert.deepEqual(second, first);
    assert.equal(second.results[1]?.status, 'not_found');
  });

  test('the cache is shared through the LookupCache interface (a second instance reads what the first wrote)', async () => {
    const store = new Map<string, { v: unknown; until: number }>();
    const ttls: number[] = [];
    const shared: LookupCache = {
      async get(k) {
        const e = store.get(k);
        return e && e.until > Date.now() ? JSON.parse(JSON.stringify(e.v)) : undefined;
      },
      async set(k, v, ttlMs) {
        ttls.push(ttlMs);
        store.set(k, { v: JSON.parse(JSON.stringify(v)), until: Date.now() + ttlMs });
      },
    };
    await serviceFor(standIn, { cache: shared }).run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(standIn.requests.length, 1);
    const res = await serviceFor(standIn, { cache: shared }).run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(standIn.requests.length, 1);
    assert.equal(res.results[0]?.release, '2025_01');
    assert.deepEqual(ttls, [24 * 60 * 60 * 1000]);
    for (const k of store.keys()) assert.match(k, /^lookup:v1:[0-9a-f]{64}$/, 'keys hold no query text');
  });

  test('different parameters are different entries; failures are not cached', async () => {
    const svc = serviceFor(standIn);
    await svc.run('targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 2 }, { allowStructures: false });
    await svc.run('targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 3 }, { allowStructures: false });
    assert.equal(standIn.requests.length, 2);
    standIn.reset();
    standIn.mode = 'error500';
    const failing = serviceFor(standIn, { retries: 0 });
    assert.equal((await failing.run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false })).results[0]?.status, 'upstream_error');
    standIn.mode = 'ok';
    assert.equal((await failing.run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false })).results[0]?.status, 'found');
    assert.equal(standIn.requests.length, 2);
  });

  test('the same query twice in one request is fetched once', async () => {
    const res = await serviceFor(standIn).run('compounds', { names: ['aspirin', 'aspirin'] }, { allowStructures: false });
    assert.deepEqual(
      res.compounds.map((c) => c.cid),
      [2244, 2244],
    );
    assert.equal(standIn.requests.length, 1);
  });
});

describe('rate limit', () => {
  test('PubChem at 5/s: 10 names take about a second, and no second holds more than 5 calls', async () => {
    const svc = serviceFor(standIn, { rateLimits: { pubchem: 5 }, rateLimiters: new RateLimiterRegistry() });
    // Warm the connection pool first, so that connection set-up does not skew arrival times,
    // then let the window empty.
    await svc.run('compounds', { names: ['warm-up'] }, { allowStructures: false });
    await new Promise((r) => setTimeout(r, 1000));
    standIn.reset();
    const names = Array.from({ length: 10 }, (_, i) => `compound number ${i}`);
    const t0 = Date.now();
    const res = await svc.run('compounds', { names }, { allowStructures: false });
    const elapsed = Date.now() - t0;
    assert.ok(res.compounds.every((c) => c.status === 'not_found'));
    const at = standIn.requests.map((r) => r.at).sort((a, b) => a - b);
    assert.equal(at.length, 10);
    assert.ok(elapsed >= 950, `10 calls at 5/s took ${elapsed} ms`);
    for (const [i, t] of at.entries()) {
      const fiveBefore = at[i - 5];
      if (fiveBefore === undefined) continue;
      assert.ok(t - fiveBefore >= 900, `calls ${i - 5} and ${i} are ${t - fiveBefore} ms apart`);
    }
  });

  test('the limit is shared by every request (and service) using the same registry', async () => {
    const registry = new RateLimiterRegistry();
    const a = serviceFor(standIn, { rateLimits: { uniprot: 4 }, rateLimiters: registry });
    const b = serviceFor(standIn, { rateLimits: { uniprot: 4 }, rateLimiters: registry });
    const t0 = Date.now();
    await Promise.all([
      a.run('proteins', { operation: 'entry', queries: ['P12345', 'P12346', 'P12347', 'P12348'] }, { allowStructures: false }),
      b.run('proteins', { operation: 'entry', queries: ['P22345', 'P22346', 'P22347', 'P22348'] }, { allowStructures: false }),
    ]);
    assert.equal(standIn.requests.length, 8);
    assert.ok(Date.now() - t0 >= 950, 'eight calls at 4/s need a second window');
  });
});

describe('disabled sources', () => {
  test('a disabled source raises SourceDisabledError (503 source-disabled); nothing is sent; other sources work', async () => {
    const svc = serviceFor(standIn, { disabled: ['chembl'] });
    await assert.rejects(
      () => svc.run('bioactivity', { operation: 'molecule', queries: ['CHEMBL25'] }, { allowStructures: false }),
      (e: unknown) => e instanceof SourceDisabledError && e.slug === 'source-disabled' && e.source === 'chembl' && e.endpoint === 'bioactivity',
    );
    assert.equal(standIn.requests.length, 0);
    assert.equal(svc.isDisabled('bioactivity'), true);
    assert.equal(svc.isDisabled('compounds'), false);
    assert.equal((await svc.run('compounds', { names: ['aspirin'] }, { allowStructures: false })).compounds[0]?.status, 'found');
  });

  test('the config list works as is: pubchem disables compounds and properties; rcsb disables structures', async () => {
    // Every host on a closed local port, ChEMBL on the stand-in: no public default can be reached.
    const closed = await closedPortBase();
    const env: Record<string, string> = Object.fromEntries(LOOKUP_URL_VARS.map((v) => [v, closed]));
    const config = loadConfig({ ...env, CRUCIBLE_LOOKUPS_DISABLED: 'pubchem,rcsb', CRUCIBLE_CHEMBL_URL: standIn.base });
    assertLocalUrls(config.lookups.urls);
    const svc = new LookupService({ urls: config.lookups.urls, disabled: config.lookups.disabled, rateLimiters: new RateLimiterRegistry(), retries: 0 });
    for (const e of ['compounds', 'properties', 'structures'] as const) assert.equal(svc.isDisabled(e), true, e);
    for (const e of ['bioactivity', 'targets', 'proteins'] as const) assert.equal(svc.isDisabled(e), false, e);
    await assert.rejects(() => svc.run('properties', { operation: 'experimental', queries: ['aspirin'] }, { allowStructures: false }), SourceDisabledError);
    // CRUCIBLE_CHEMBL_URL replaced scheme, host and port only: the path is ChEMBL's own.
    const res = await svc.run('bioactivity', { operation: 'molecule', queries: ['CHEMBL25'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'found');
    assert.ok(standIn.requests.some((r) => r.path === '/chembl/api/data/molecule/CHEMBL25.json'));
    // An enabled source on a closed port fails fast and locally.
    const t = await svc.run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(t.results[0]?.status, 'upstream_error');
  });
});

describe('validation: problems with loc, nothing sent upstream', () => {
  const svc = () => serviceFor(standIn);
  async function issues(endpoint: any, body: unknown): Promise<[LookupValidationIssue, ...LookupValidationIssue[]]> {
    try {
      await svc().run(endpoint, body, { allowStructures: true });
    } catch (e) {
      assert.ok(e instanceof LookupRequestError);
      assert.equal(standIn.requests.length, 0);
      const [first, ...rest] = e.errors;
      assert.ok(first, 'at least one issue');
      return [first, ...rest];
    }
    assert.fail('expected a LookupRequestError');
  }

  test('unknown operation: enum listing the allowed ones', async () => {
    const errs = await issues('bioactivity', { operation: 'docking', queries: ['CHEMBL25'] });
    assert.equal(errs.length, 1);
    assert.equal(errs[0].type, 'enum');
    assert.deepEqual(errs[0].loc, ['operation']);
    assert.equal(errs[0].input, 'docking');
    for (const op of ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure']) assert.ok(errs[0].msg.includes(`'${op}'`), op);
    assert.equal((await issues('properties', { operation: 'computed', queries: ['aspirin'] }))[0].msg, "Input should be 'experimental'");
  });

  test('too many queries, too long, empty', async () => {
    const many = await issues('compounds', { names: Array.from({ length: 21 }, (_, i) => `n${i}`) });
    assert.deepEqual([many[0].type, many[0].loc], ['too_long', ['names']]);
    const long = await issues('targets', { operation: 'target_drugs', queries: ['EGFR', 'x'.repeat(101)] });
    assert.deepEqual([long[0].type, long[0].loc], ['string_too_long', ['queries', 1]]);
    const empty = await issues('proteins', { operation: 'entry', queries: ['P00533', '  '] });
    assert.deepEqual([empty[0].type, empty[0].loc], ['string_too_short', ['queries', 1]]);
    const none = await issues('structures', { operation: 'entry', queries: [] });
    assert.deepEqual([none[0].type, none[0].loc], ['too_short', ['queries']]);
    const missing = await issues('structures', { operation: 'entry' });
    assert.deepEqual([missing[0].type, missing[0].loc], ['missing', ['queries']]);
  });

  test('bioactivity: IDs and names at most 100 characters, SMILES at most 500', async () => {
    const name = await issues('bioactivity', { operation: 'molecule', queries: ['a'.repeat(101)] });
    assert.equal(name[0].type, 'string_too_long');
    const smiles = await issues('bioactivity', { operation: 'similarity', queries: ['C'.repeat(501)] });
    assert.equal(smiles[0].type, 'string_too_long');
    // 300 carbons is a valid length for a SMILES query.
    standIn.reset();
    const res = await svc().run('bioactivity', { operation: 'substructure', queries: ['C'.repeat(300)] }, { allowStructures: true });
    assert.equal(res.results[0]?.status, 'not_found');
  });

  test('bioactivity limit 1..1000 and threshold 40..100', async () => {
    const cases: [unknown, string, string][] = [
      [{ limit: 0 }, 'greater_than_equal', 'limit'],
      [{ limit: 1001 }, 'less_than_equal', 'limit'],
      [{ limit: 2.5 }, 'int_type', 'limit'],
      [{ threshold: 39 }, 'greater_than_equal', 'threshold'],
      [{ threshold: 101 }, 'less_than_equal', 'threshold'],
    ];
    for (const [extra, type, field] of cases) {
      const errs = await issues('bioactivity', { operation: 'similarity', queries: ['CCO'], ...(extra as object) });
      assert.deepEqual([errs[0].type, errs[0].loc], [type, [field]]);
    }
  });

  test('defaults: limit 10, threshold 70', async () => {
    const n = svc().validate('bioactivity', { operation: 'similarity', queries: ['CCO'], limit: null });
    assert.equal(n.params.limit, 10);
    assert.equal(n.params.threshold, 70);
    assert.equal(svc().validate('properties', { operation: 'experimental', queries: ['x'] }).params.limit, 3);
  });

  test('unknown fields and unknown property names', async () => {
    const extra = await issues('targets', { operation: 'target_drugs', queries: ['EGFR'], organism: 'human' });
    assert.deepEqual([extra[0].type, extra[0].loc], ['extra_forbidden', ['organism']]);
    const prop = await issues('properties', { operation: 'experimental', queries: ['aspirin'], properties: ['boiling_point', 'colour'] });
    assert.deepEqual([prop[0].type, prop[0].loc], ['enum', ['properties', 1]]);
  });

  test('every problem of a request is reported at once', async () => {
    const errs = await issues('bioactivity', { operation: 'nope', queries: [''], limit: 0, threshold: 1 });
    assert.deepEqual(errs.map((e) => e.loc.join('.')).sort(), ['limit', 'operation', 'queries.0', 'threshold']);
  });
});

describe('upstream robustness', () => {
  test('429 with Retry-After is honoured before the retry', async () => {
    standIn.mode = 'status429';
    standIn.retryAfter = '1';
    const svc = serviceFor(standIn, { retries: 1, backoffBaseMs: 1 });
    const t0 = Date.now();
    const res = await svc.run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'upstream_error');
    assert.equal(standIn.requests.length, 2);
    const [attempt, retry] = standIn.requests;
    assert.ok(attempt && retry);
    assert.ok(retry.at - attempt.at >= 950, 'waited Retry-After');
    assert.ok(Date.now() - t0 < 5000);
  });

  test('a Retry-After longer than we hold a request gives up at once', async () => {
    standIn.mode = 'status429';
    standIn.retryAfter = '3600';
    const res = await serviceFor(standIn, { retries: 3 }).run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'upstream_error');
    assert.equal(standIn.requests.length, 1);
  });

  test('a failing source fails its items only: the request answers with the others', async () => {
    const svc = serviceFor(standIn, { timeoutMs: 200 });
    const res = await svc.run('compounds', { names: ['aspirin', 'glucose'] }, { allowStructures: false });
    assert.equal(res.compounds[1]?.status, 'found');
    standIn.mode = 'slow';
    const res2 = await serviceFor(standIn, { timeoutMs: 200, cache: undefined }).run('compounds', { names: ['aspirin', 'CCO'] }, { allowStructures: false });
    assert.deepEqual(
      res2.compounds.map((c) => c.status),
      ['timeout', 'structure_egress_not_allowed'],
    );
  });

  test('queries of one request run concurrently', async () => {
    standIn.mode = 'slow';
    standIn.slowMs = 1000;
    const svc = serviceFor(standIn, { timeoutMs: 5000, concurrency: 8 });
    await svc.run('targets', { operation: 'target_drugs', queries: Array.from({ length: 8 }, (_, i) => `ENSG0000000000${i}`) }, { allowStructures: false });
    const at = standIn.requests.map((r) => r.at).sort((a, b) => a - b);
    assert.equal(at.length, 8);
    const [earliest] = at;
    const latest = at.at(-1);
    assert.ok(earliest !== undefined && latest !== undefined);
    // One after the other, each call would start only after the previous one's 1 s answer.
    assert.ok(latest - earliest < 1000, `all 8 calls were under way together (spread ${latest - earliest} ms)`);
  });
});

describe('upstream failures say why, and are logged once', () => {
  function capture() {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    return { lines, logger: { warn: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } };
  }

  test('HTTP 500 through the retries: detail names the status and attempts; one log line with source and request id', async () => {
    standIn.reset();
    standIn.mode = 'error500';
    try {
      const log = capture();
      const res = await serviceFor(standIn, { logger: log.logger }).run(
        'proteins',
        { operation: 'entry', queries: ['P00533', 'P00533'] },
        { allowStructures: false, requestId: 'req-500' },
      );
      for (const item of res.results) assert.deepEqual([item.status, item.detail], ['upstream_error', 'uniprot: HTTP 500 (after 3 attempts)']);
      const failures = log.lines.filter((l) => l.msg === 'lookups: upstream call failed');
      assert.equal(failures.length, 1, 'identical queries share one upstream call and one log line');
      assert.deepEqual(failures[0]?.obj, { source: 'uniprot', operation: 'entry', requestId: 'req-500', detail: 'uniprot: HTTP 500 (after 3 attempts)' });
      assert.ok(!JSON.stringify(log.lines).includes('P00533'), 'the query is not logged');
    } finally {
      standIn.reset();
    }
  });

  test('connection refused and timeout', async () => {
    const closed = await closedPortBase();
    const refused = await serviceFor(standIn, { urls: { uniprot: closed } }).run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
    assert.equal(refused.results[0]?.status, 'upstream_error');
    assert.equal(refused.results[0]?.detail, `uniprot: connection refused by ${new URL(closed).host}`);
    standIn.reset();
    standIn.mode = 'slow';
    try {
      const slow = await serviceFor(standIn, { timeoutMs: 200 }).run('proteins', { operation: 'entry', queries: ['P00533'] }, { allowStructures: false });
      assert.deepEqual([slow.results[0]?.status, slow.results[0]?.detail], ['timeout', 'uniprot: no answer within 0.2 s']);
    } finally {
      standIn.reset();
    }
  });
});
