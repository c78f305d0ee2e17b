// POST /describe over real HTTP (PGlite backend). The correctness of each property against
// native RDKit is tested with the properties engine (test/chem/properties*.test.ts); this file
// tests the endpoint: shape, order, per-item errors, validation, auth, isolation and the cache.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChemPool } from '../../src/chem/pool.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const pglite = BACKENDS.find((b) => b.name === 'pglite')!;

const PROPERTY_FIELDS = [
  'alerts',
  'aromatic_rings',
  'clogp',
  'formal_charge',
  'formula',
  'hba',
  'hbd',
  'heavy_atoms',
  'lipinski',
  'monoisotopic_mass',
  'ms',
  'mw',
  'qed',
  'rotatable_bonds',
  'tpsa',
  'veber',
];

/** A 200 body, or a problem (422 errors, 403 type) for the failure cases. */
type Body = { items: Item[]; errors: { loc: unknown; type: string }[]; type: string; retry: string };

interface Item {
  properties: Record<string, any> | null;
  error: string | null;
}

describe('molecular properties API', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(pglite, { CRUCIBLE_CHEM_THREADS: '2' });
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  const describeReq = (body: unknown, auth: { token?: string; key?: string } = { token }) => h.req<Body>('POST', '/api/v1/describe', { ...auth, body });

  it('describes each molecule in input order, with per-item errors', async () => {
    const smiles = ['CC(=O)Oc1ccccc1C(=O)O', 'nonsense(', 'C'.repeat(2001), 'Clc1ccccc1', '', 'C'.repeat(201), 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', '[Na+].[O-]C(=O)C'];
    const r = await describeReq({ smiles });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['items']);
    assert.deepEqual(
      r.body.items.map((i) => i.error),
      [null, 'unparseable', 'too_large', null, 'unparseable', 'too_large', null, null],
    );
    for (const item of r.body.items) {
      assert.deepEqual(Object.keys(item).sort(), ['canonical_smiles', 'detail', 'error', 'inchi', 'inchikey', 'properties']);
      if (item.error) assert.equal(item.properties, null);
      else assert.deepEqual(Object.keys(item.properties ?? {}).sort(), PROPERTY_FIELDS);
    }
    const [aspirin, , , chlorobenzene, , , caffeine, acetate] = r.body.items.map((i) => i.properties);
    assert.ok(aspirin && chlorobenzene && caffeine && acetate);
    // Native RDKit 2022.09 values for aspirin.
    assert.equal(aspirin.formula, 'C9H8O4');
    assert.ok(Math.abs(aspirin.mw - 180.159) < 0.01);
    assert.ok(Math.abs(aspirin.monoisotopic_mass - 180.042259) < 0.001);
    assert.ok(Math.abs(aspirin.clogp - 1.3101) < 0.001);
    assert.ok(Math.abs(aspirin.tpsa - 63.6) < 0.01);
    assert.equal(aspirin.heavy_atoms, 13);
    assert.equal(aspirin.hbd, 1);
    assert.equal(aspirin.hba, 3);
    assert.equal(aspirin.rotatable_bonds, 2);
    assert.equal(aspirin.aromatic_rings, 1);
    assert.ok(Math.abs(aspirin.qed - 0.5501) < 0.005);
    assert.deepEqual(aspirin.lipinski, { pass: true, violations: [] });
    assert.equal(caffeine.formula, 'C8H10N4O2');
    assert.equal(caffeine.aromatic_rings, 2);
    assert.equal(acetate.formal_charge, 0);
    assert.equal(acetate.formula, 'C2H3NaO2');
    // Chlorine's isotope pattern: M+2 about 32% of M.
    const m2 = chlorobenzene.ms.isotopes.find((p: { label: string }) => p.label === 'M+2');
    assert.ok(m2 && Math.abs(m2.relative_abundance - 32) < 1.5, JSON.stringify(chlorobenzene.ms.isotopes));
  });

  it('rejects malformed requests with 422 and loc at the item or field', async () => {
    const cases: [unknown, (string | number)[], string][] = [
      [{ smiles: [] }, ['body', 'smiles'], 'too_short'],
      [{ smiles: Array.from({ length: 21 }, () => 'C') }, ['body', 'smiles'], 'too_long'],
      [{ smiles: ['C', 7] }, ['body', 'smiles', 1], 'string_type'],
      [{ smiles: [['C']] }, ['body', 'smiles', 0], 'string_type'],
      [{}, ['body', 'smiles'], 'missing'],
      [{ smiles: ['C'], width: 300 }, ['body', 'width'], 'extra_forbidden'],
    ];
    for (const [body, loc, type] of cases) {
      const r = await describeReq(body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.retry, 'validation');
      assert.ok(
        r.body.errors.some((e: { loc: unknown; type: string }) => JSON.stringify(e.loc) === JSON.stringify(loc) && e.type === type),
        `${JSON.stringify(body)} -> ${JSON.stringify(r.body.errors)}`,
      );
    }
  });

  it('needs a credential with the read scope', async () => {
    assert.equal((await h.req('POST', '/api/v1/describe', { body: { smiles: ['C'] } })).status, 401);
    const u = await h.user();
    const writeOnly = await h.key(u.token, { scopes: ['write'] });
    const denied = await describeReq({ smiles: ['C'] }, { key: writeOnly.secret });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.type, '/api/v1/problems/insufficient-scope');
    const readOnly = await h.key(u.token, { scopes: ['read'] });
    const ok = await describeReq({ smiles: ['O'] }, { key: readOnly.secret });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.items[0]?.properties?.formula, 'H2O');
  });

  it('serves repeated molecules from the cache by canonical SMILES', async () => {
    const chem = h.services.chem;
    const first = await describeReq({ smiles: ['OCCN', 'c1ccncc1'] });
    const tasks0 = chem.stats().tasks;
    const hits0 = chem.cache.stats().hits;
    const again = await describeReq({ smiles: ['c1ccncc1', 'OCCN', 'OCCN'] });
    assert.equal(chem.stats().tasks, tasks0);
    assert.equal(chem.cache.stats().hits - hits0, 3);
    assert.deepEqual(again.body.items[0], first.body.items[1]);
    assert.deepEqual(again.body.items[1], first.body.items[0]);
    const respelled = await describeReq({ smiles: ['NCCO'] });
    assert.deepEqual(respelled.body.items[0], first.body.items[0]);
  });

  it('a hung molecule fails alone with describe_failed; the service keeps serving', async () => {
    const original = h.services.chem;
    const faulty = new ChemPool({ threads: 2, itemTimeoutMs: 2_000, faults: { hang: ['CCCCCC hang'], abort: ['CCCCCC abort'] } });
    h.services.chem = faulty;
    try {
      const r = await describeReq({ smiles: ['CCO', 'CCCCCC hang', 'CCN', 'CCCCCC abort', 'O'] });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.items.map((i) => i.error ?? i.properties!.formula),
        ['C2H6O', 'describe_failed', 'C2H7N', 'describe_failed', 'H2O'],
      );
    } finally {
      h.services.chem = original;
      await faulty.close();
    }
  });

  it('documents MolecularProperties, MassSpecHints, MsAdduct and IsotopePeak in the OpenAPI document', async () => {
    const doc = (await h.req('GET', '/openapi.json')).body;
    assert.ok(doc.paths['/api/v1/describe']?.post);
    const schemas = doc.components.schemas;
    for (const name of ['DescribeRequest', 'Description', 'DescribeResponse', 'MolecularProperties', 'MassSpecHints', 'MsAdduct', 'IsotopePeak', 'RuleCheck']) {
      assert.ok(schemas[name], name);
    }
    // Named components, referenced rather than inlined.
    const refs = (x: unknown): string[] => JSON.stringify(x).match(/"\$ref":"[^"]+"/g) ?? [];
    assert.ok(
      refs(schemas.MolecularProperties.properties.ms).some((r) => r.endsWith('/MassSpecHints"')),
      JSON.stringify(schemas.MolecularProperties.properties.ms),
    );
    assert.ok(refs(schemas.MassSpecHints.properties.adducts).some((r) => r.endsWith('/MsAdduct"')));
    assert.ok(refs(schemas.MassSpecHints.properties.isotopes).some((r) => r.endsWith('/IsotopePeak"')));
    assert.deepEqual(Object.keys(schemas.MsAdduct.properties).sort(), ['adduct', 'charge', 'formula', 'mz']);
    assert.deepEqual(Object.keys(schemas.IsotopePeak.properties).sort(), ['label', 'mass', 'relative_abundance']);
  });
});
