// The six lookup endpoints over HTTP, against the stand-in sources: for every operation a
// found and a not-found query in one request, the values that matter, and the whole answer
// checked against the response component that /openapi.json publishes for the route.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import type { Harness } from '../helpers/harness.js';
import { callers, lookup, responseValidators, StandIn, withHarness, type Callers } from './setup.js';

interface Case {
  endpoint: string;
  operation?: string;
  found: string;
  notFound: string;
  extra?: Record<string, unknown>;
  /** Needs an API key with allow_structure_search. */
  structure?: boolean;
  check(found: any): void;
}

const PUBCHEM_LICENSE = 'NCBI public domain; depositor terms apply';

const CASES: Case[] = [
  {
    endpoint: 'bioactivity',
    operation: 'molecule',
    found: 'CHEMBL25',
    notFound: 'CHEMBL999999999',
    check(i) {
      assert.deepEqual([i.source, i.license, i.record_id, i.title, i.release], ['chembl', 'CC BY-SA 3.0', 'CHEMBL25', 'ASPIRIN', 'ChEMBL_35']);
      assert.equal(i.url, 'https://www.ebi.ac.uk/chembl/explore/compound/CHEMBL25');
      assert.equal(i.data.molecules[0].standard_inchi_key, 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
      assert.equal(i.data.molecules[0].molecular_weight, 180.16);
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'target',
    found: 'CHEMBL203',
    notFound: 'CHEMBL1',
    check(i) {
      assert.equal(i.title, 'Epidermal growth factor receptor erbB1');
      assert.deepEqual(i.data.targets[0].accessions, ['P00533']);
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'molecule_activities',
    found: 'CHEMBL25',
    notFound: 'CHEMBL424242',
    check(i) {
      assert.equal(i.data.total_count, 5847);
      assert.equal(i.data.activities[0].target_pref_name, 'Cyclooxygenase-1');
      assert.equal(i.data.activities[0].pchembl_value, 5.78);
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'target_activities',
    found: 'CHEMBL203',
    notFound: 'CHEMBL1',
    check(i) {
      assert.equal(i.data.activities[0].molecule_pref_name, 'GEFITINIB');
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'similarity',
    found: 'CC(=O)Oc1ccccc1C(=O)O',
    notFound: 'CCCCCCCCCCCCCCCCCCCC',
    structure: true,
    check(i) {
      assert.equal(i.data.threshold, 70);
      assert.equal(i.data.molecules[0].molecule_chembl_id, 'CHEMBL25');
      assert.equal(i.data.molecules[0].similarity, 100);
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'substructure',
    found: 'c1ccccc1C(=O)O',
    notFound: 'C1CC1',
    structure: true,
    check(i) {
      assert.deepEqual(
        i.data.molecules.map((m: any) => m.molecule_chembl_id),
        ['CHEMBL25', 'CHEMBL424', 'CHEMBL541'],
      );
    },
  },
  {
    endpoint: 'targets',
    operation: 'target_associations',
    found: 'EGFR',
    notFound: 'NOTAGENE1',
    check(i) {
      assert.deepEqual([i.source, i.license, i.record_id, i.release], ['opentargets', 'CC0 1.0', 'ENSG00000146648', '26.03']);
      assert.deepEqual(i.data.resolution, { query: 'EGFR', matched: 'ENSG00000146648', entity: 'target' });
      assert.equal(i.data.associations[0].disease.id, 'EFO_0003060');
      assert.equal(i.data.associations[0].datatype_scores.known_drug, 0.9999);
    },
  },
  {
    endpoint: 'targets',
    operation: 'disease_associations',
    found: 'EFO_0003060',
    notFound: 'EFO_9999999',
    check(i) {
      assert.equal(i.title, 'non-small cell lung carcinoma');
      assert.equal(i.data.associations[1].target.approved_symbol, 'ALK');
    },
  },
  {
    endpoint: 'targets',
    operation: 'target_drugs',
    found: 'ENSG00000146648',
    notFound: 'ENSG00000000001',
    extra: { limit: 2 },
    check(i) {
      assert.equal(i.data.total_count, 4);
      // limit 2: the two most advanced drugs of the four.
      assert.equal(i.data.drugs.length, 2);
    },
  },
  {
    endpoint: 'targets',
    operation: 'disease_drugs',
    found: 'non-small cell lung carcinoma',
    notFound: 'EFO_0000000',
    check(i) {
      assert.equal(i.record_id, 'EFO_0003060');
      assert.equal(i.data.drugs[0].max_clinical_stage, 'APPROVAL');
    },
  },
  {
    endpoint: 'proteins',
    operation: 'entry',
    found: 'P00533',
    notFound: 'Q99999',
    check(i) {
      assert.deepEqual([i.source, i.license, i.release], ['uniprot', 'CC BY 4.0', '2025_01']);
      assert.equal(i.url, 'https://www.uniprot.org/uniprotkb/P00533/entry');
      assert.equal(i.data.uniprot_id, 'EGFR_HUMAN');
      assert.equal(i.data.length, 1210);
    },
  },
  {
    endpoint: 'proteins',
    operation: 'search',
    found: 'EGFR',
    notFound: 'zzzznothing',
    extra: { organism: 'Homo sapiens' },
    check(i) {
      assert.equal(i.data.organism, 'Homo sapiens');
      assert.equal(i.data.results[0].accession, 'P00533');
    },
  },
  {
    endpoint: 'structures',
    operation: 'entry',
    found: '4HHB',
    notFound: '9ZZZ',
    check(i) {
      assert.deepEqual([i.source, i.license, i.record_id, i.release], ['rcsb', 'CC0 1.0', '4HHB', null]);
      assert.equal(i.url, 'https://www.rcsb.org/structure/4HHB');
      assert.equal(i.data.resolution, 1.74);
      assert.equal(i.data.citation.pubmed_id, 6726807);
    },
  },
  {
    endpoint: 'structures',
    operation: 'by_uniprot',
    found: 'P69905',
    notFound: 'P12345',
    check(i) {
      assert.deepEqual(
        i.data.entries.map((e: any) => e.pdb_id),
        ['1A3N', '2HHB', '4HHB'],
      );
    },
  },
  {
    endpoint: 'structures',
    operation: 'search',
    found: 'hemoglobin',
    notFound: 'zzzz nothing at all',
    check(i) {
      assert.equal(i.data.total_count, 1205);
      assert.equal(i.data.entries[0].pdb_id, '4HHB');
    },
  },
  {
    endpoint: 'properties',
    operation: 'experimental',
    found: 'aspirin',
    notFound: 'notacompoundxyz',
    check(i) {
      assert.deepEqual([i.source, i.license, i.record_id, i.title], ['pubchem', PUBCHEM_LICENSE, '2244', 'Aspirin']);
      assert.deepEqual(Object.keys(i.data.properties), ['boiling_point', 'melting_point', 'density', 'vapor_pressure', 'heat_of_vaporization', 'viscosity', 'surface_tension']);
      assert.deepEqual(
        i.data.properties.melting_point.map((v: any) => v.value),
        ['275 °F (NTP, 1992)', '135 °C', '136 °C'],
      );
      assert.ok(i.data.properties.melting_point.every((v: any) => typeof v.reference.license === 'string'));
      assert.ok(i.data.excluded > 0, 'values of suppliers without an allowed licence are counted');
    },
  },
];

for (const backend of onlyOn('postgres')) {
  describe(`lookup endpoints over HTTP (${backend.name})`, () => {
    let standIn: StandIn;
    let h: Harness;
    let who: Callers;
    let check: (endpoint: string, body: unknown) => void;
    before(async () => {
      standIn = await new StandIn().start();
      h = await withHarness(backend, standIn);
      who = await callers(h);
      check = await responseValidators(h);
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });
    beforeEach(() => standIn.reset());

    it('compounds: found and not found, in input order, with the reference CompoundItem fields', async () => {
      const r = await lookup(h, 'compounds', { names: ['aspirin', 'notacompoundxyz', 'glucose'] }, { key: who.key });
      assert.equal(r.status, 200, r.text);
      check('compounds', r.body);
      assert.match(r.body.attribution, /PubChem/);
      const [aspirin, missing, glucose] = r.body.compounds;
      assert.deepEqual(aspirin, {
        name: 'aspirin',
        source: 'pubchem',
        license: PUBCHEM_LICENSE,
        status: 'found',
        cid: 2244,
        other_cids: [],
        smiles: 'CC(=O)OC1=CC=CC=C1C(=O)O',
        title: 'Aspirin',
        url: 'https://pubchem.ncbi.nlm.nih.gov/compound/2244',
        record_id: '2244',
        release: null,
      });
      assert.deepEqual([missing.name, missing.status, missing.cid, missing.url], ['notacompoundxyz', 'not_found', null, null]);
      assert.deepEqual([glucose.name, glucose.status], ['glucose', 'found']);
      // The path of the upstream call is PubChem's own (the variable replaced scheme, host and port only).
      assert.ok(standIn.requests.some((q) => q.path === '/rest/pug/compound/name/aspirin/property/Title,SMILES/JSON'));
    });

    for (const c of CASES) {
      it(`${c.endpoint} ${c.operation}: found and not found`, async () => {
        const body = { operation: c.operation, queries: [c.found, c.notFound], ...(c.extra ?? {}) };
        const r = await lookup(h, c.endpoint, body, { key: c.structure ? who.structureKey : who.key });
        assert.equal(r.status, 200, r.text);
        check(c.endpoint, r.body);
        assert.equal(typeof r.body.attribution, 'string');
        assert.ok(r.body.attribution.length > 0);
        const [found, notFound] = r.body.results;
        assert.equal(r.body.results.length, 2);
        assert.deepEqual([found.operation, found.query, found.status], [c.operation, c.found, 'found']);
        assert.equal(typeof found.url, 'string');
        c.check(found);
        assert.deepEqual([notFound.operation, notFound.query, notFound.status, notFound.data, notFound.record_id], [c.operation, c.notFound, 'not_found', null, null]);
        assert.equal(notFound.source, found.source);
        assert.ok(standIn.requests.length > 0, 'the answer came from the source');
      });
    }

    it('an access token works too (scope read): non-structure lookups answer the same', async () => {
      const r = await lookup(h, 'proteins', { operation: 'entry', queries: ['P00533'] }, { token: who.token });
      assert.equal(r.status, 200);
      assert.equal(r.body.results[0].status, 'found');
      assert.equal(r.body.results[0].data.accession, 'P00533');
    });

    it('OpenAPI documents each route: read scope, both credentials, request schema, the data shape per operation, 503', async () => {
      const doc = (await h.req('GET', '/openapi.json')).body;
      for (const e of ['compounds', 'bioactivity', 'targets', 'proteins', 'structures', 'properties']) {
        const op = doc.paths[`/api/v1/lookup/${e}`]?.post;
        assert.ok(op, `/lookup/${e} documented`);
        assert.equal(op['x-required-scope'], 'read');
        assert.deepEqual(op.security, [{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
        assert.ok(op.requestBody.content['application/json'].schema.$ref);
        assert.ok(op.responses['503'] && op.responses['422']);
      }
      const schemas = doc.components.schemas;
      const bio = schemas.BioactivityLookupResponse;
      assert.deepEqual(bio.required.sort(), ['attribution', 'results']);
      // One item variant per operation, each naming its operation and its data shape.
      const variants = bio.properties.results.items.anyOf;
      assert.deepEqual(
        variants.map((v: any) => v.properties.operation.enum[0]),
        ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure'],
      );
      for (const v of variants) assert.deepEqual([...v.required].sort(), ['license', 'operation', 'source', 'status']);
      const sim = variants.find((v: any) => v.properties.operation.enum[0] === 'similarity');
      assert.ok(sim.properties.data.anyOf[0].properties.threshold, 'similarity data documents threshold');
      assert.deepEqual([...schemas.CompoundItem.required].sort(), ['license', 'name', 'status']);
      assert.equal(schemas.CompoundItem.properties.source.default, 'pubchem');
      assert.deepEqual(schemas.BioactivityLookupRequest.properties.operation.enum, [
        'molecule',
        'target',
        'molecule_activities',
        'target_activities',
        'similarity',
        'substructure',
      ]);
      assert.deepEqual(schemas.BioactivityLookupRequest.properties.threshold.minimum, 40);
      assert.deepEqual(schemas.PropertiesLookupRequest.properties.operation.enum, ['experimental']);
    });
  });
}
