// Every operation of every source, against the local stand-in that answers the services' real
// paths with the recorded payloads: a found case, a not-found case, an upstream 500 (after the
// retries: upstream_error) and a slow upstream past the timeout (timeout).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompoundItem, EndpointName, LookupItem } from '../../src/lookups/types.js';
import { Ajv } from 'ajv';
import { CompoundsResponseSchema, lookupResponseSchema } from '../../src/lookups/schemas.js';
import { serviceFor, StandIn } from './stand-in.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** Every answer must match the response schema the OpenAPI document publishes. */
function assertSchema(endpoint: EndpointName, res: unknown) {
  let v = validators.get(endpoint);
  if (!v) {
    v = ajv.compile(endpoint === 'compounds' ? CompoundsResponseSchema : lookupResponseSchema(endpoint));
    validators.set(endpoint, v);
  }
  assert.ok(v(res), `${endpoint} response does not match its schema: ${ajv.errorsText(v.errors)}`);
}

interface Case {
  endpoint: EndpointName;
  operation: string;
  found: string;
  notFound: string;
  body?: Record<string, unknown>;
  allowStructures?: boolean;
  check(item: any, standIn: StandIn): void;
}

const CASES: Case[] = [
  {
    endpoint: 'compounds',
    operation: 'names',
    found: 'aspirin',
    notFound: 'notacompoundxyz',
    check(c: CompoundItem) {
      assert.equal(c.cid, 2244);
      assert.deepEqual(c.other_cids, []);
      assert.equal(c.smiles, 'CC(=O)OC1=CC=CC=C1C(=O)O');
      assert.equal(c.title, 'Aspirin');
      assert.equal(c.url, 'https://pubchem.ncbi.nlm.nih.gov/compound/2244');
      assert.equal(c.record_id, '2244');
      assert.equal(c.source, 'pubchem');
      assert.equal(c.license, 'NCBI public domain; depositor terms apply');
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'molecule',
    found: 'CHEMBL25',
    notFound: 'CHEMBL999999999',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.record_id, 'CHEMBL25');
      assert.equal(i.title, 'ASPIRIN');
      assert.equal(i.url, 'https://www.ebi.ac.uk/chembl/explore/compound/CHEMBL25');
      assert.equal(i.release, 'ChEMBL_35');
      assert.equal(d.total_count, 1);
      assert.equal(d.molecules[0].canonical_smiles, 'CC(=O)Oc1ccccc1C(=O)O');
      assert.equal(d.molecules[0].molecular_weight, 180.16);
      assert.equal(d.molecules[0].max_phase, 4);
      assert.equal(d.molecules[0].first_approval, 1950);
      assert.equal(d.molecules[0].standard_inchi_key, 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'target',
    found: 'CHEMBL203',
    notFound: 'CHEMBL1',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.record_id, 'CHEMBL203');
      assert.equal(i.title, 'Epidermal growth factor receptor erbB1');
      assert.equal(i.url, 'https://www.ebi.ac.uk/chembl/explore/target/CHEMBL203');
      assert.deepEqual(d.targets[0].accessions, ['P00533']);
      assert.deepEqual(d.targets[0].gene_symbols, ['EGFR']);
      assert.equal(d.targets[0].tax_id, 9606);
      assert.equal(d.targets[0].target_type, 'SINGLE PROTEIN');
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'molecule_activities',
    found: 'CHEMBL25',
    notFound: 'CHEMBL424242',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.record_id, 'CHEMBL25');
      assert.equal(d.molecule_chembl_id, 'CHEMBL25');
      assert.equal(d.resolution, null);
      assert.equal(d.total_count, 5847);
      assert.equal(d.activities.length, 2);
      assert.equal(d.activities[0].target_pref_name, 'Cyclooxygenase-1');
      assert.equal(d.activities[0].standard_type, 'IC50');
      assert.equal(d.activities[0].standard_value, 1670);
      assert.equal(d.activities[0].pchembl_value, 5.78);
      assert.equal(d.activities[1].standard_relation, '>');
      assert.equal(d.activities[1].pchembl_value, null);
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'target_activities',
    found: 'CHEMBL203',
    notFound: 'CHEMBL1',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(d.target_chembl_id, 'CHEMBL203');
      assert.equal(d.total_count, 27514);
      assert.equal(d.activities[0].molecule_pref_name, 'GEFITINIB');
      assert.equal(d.activities[0].pchembl_value, 8.52);
      assert.equal(d.activities[1].molecule_chembl_id, 'CHEMBL553');
      assert.equal(i.url, 'https://www.ebi.ac.uk/chembl/explore/target/CHEMBL203');
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'similarity',
    found: 'CC(=O)Oc1ccccc1C(=O)O',
    notFound: 'CCCCCCCCCCCCCCCCCCCC',
    allowStructures: true,
    check(i: LookupItem, s: StandIn) {
      const d = i.data as any;
      assert.equal(d.threshold, 70);
      assert.equal(d.molecules[0].molecule_chembl_id, 'CHEMBL25');
      assert.equal(d.molecules[0].similarity, 100);
      assert.ok(
        s.requests.some(
          (r) => r.path === '/chembl/api/data/similarity/CC(%3DO)Oc1ccccc1C(%3DO)O/70.json' || r.path === '/chembl/api/data/similarity/CC(=O)Oc1ccccc1C(=O)O/70.json',
        ),
      );
    },
  },
  {
    endpoint: 'bioactivity',
    operation: 'substructure',
    found: 'c1ccccc1C(=O)O',
    notFound: 'C1CC1',
    allowStructures: true,
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(d.total_count, 41873);
      assert.deepEqual(
        d.molecules.map((m: any) => m.molecule_chembl_id),
        ['CHEMBL25', 'CHEMBL424', 'CHEMBL541'],
      );
      assert.equal(d.molecules[1].pref_name, 'SALICYLIC ACID');
    },
  },
  {
    endpoint: 'targets',
    operation: 'target_associations',
    found: 'EGFR',
    notFound: 'NOTAGENE1',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.source, 'opentargets');
      assert.equal(i.license, 'CC0 1.0');
      assert.equal(i.record_id, 'ENSG00000146648');
      assert.equal(i.title, 'EGFR');
      assert.equal(i.release, '26.03');
      assert.equal(i.url, 'https://platform.opentargets.org/target/ENSG00000146648');
      assert.deepEqual(d.resolution, { query: 'EGFR', matched: 'ENSG00000146648', entity: 'target' });
      assert.equal(d.total_count, 2743);
      assert.equal(d.associations[0].disease.id, 'EFO_0003060');
      assert.equal(d.associations[0].score, 0.8458);
      assert.equal(d.associations[0].datatype_scores.known_drug, 0.9999);
    },
  },
  {
    endpoint: 'targets',
    operation: 'disease_associations',
    found: 'EFO_0003060',
    notFound: 'EFO_9999999',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.title, 'non-small cell lung carcinoma');
      assert.equal(i.url, 'https://platform.opentargets.org/disease/EFO_0003060');
      assert.equal(d.resolution, null);
      assert.equal(d.total_count, 5410);
      assert.equal(d.associations[1].target.approved_symbol, 'ALK');
    },
  },
  {
    endpoint: 'targets',
    operation: 'target_drugs',
    found: 'ENSG00000146648',
    notFound: 'ENSG00000000001',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(d.total_count, 4);
      assert.deepEqual(
        d.drugs.map((x: any) => x.drug_name),
        ['CETUXIMAB', 'GEFITINIB', 'ERLOTINIB', 'OSIMERTINIB'],
      );
      assert.equal(d.drugs[0].drug_type, 'Antibody');
      assert.deepEqual(
        d.drugs[2].diseases.map((x: any) => x.id),
        ['EFO_0003060', 'EFO_0002618'],
      );
    },
  },
  {
    endpoint: 'targets',
    operation: 'disease_drugs',
    found: 'non-small cell lung carcinoma',
    notFound: 'EFO_0000000',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.record_id, 'EFO_0003060');
      assert.deepEqual(d.resolution, { query: 'non-small cell lung carcinoma', matched: 'EFO_0003060', entity: 'disease' });
      // Most advanced stage first: the PHASE_3 row moves behind the approved ones.
      assert.deepEqual(
        d.drugs.map((x: any) => [x.drug_id, x.max_clinical_stage]),
        [
          ['CHEMBL939', 'APPROVAL'],
          ['CHEMBL3353410', 'APPROVAL'],
          ['CHEMBL1614701', 'PHASE_3'],
        ],
      );
      assert.deepEqual(d.drugs[0].mechanisms[0], { mechanism_of_action: 'Epidermal growth factor receptor erbB1 inhibitor', action_type: 'INHIBITOR', target_symbols: ['EGFR'] });
    },
  },
  {
    endpoint: 'proteins',
    operation: 'entry',
    found: 'P00533',
    notFound: 'Q99999',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.source, 'uniprot');
      assert.equal(i.license, 'CC BY 4.0');
      assert.equal(i.release, '2025_01');
      assert.equal(i.url, 'https://www.uniprot.org/uniprotkb/P00533/entry');
      assert.equal(i.title, 'Epidermal growth factor receptor');
      assert.equal(d.uniprot_id, 'EGFR_HUMAN');
      assert.equal(d.reviewed, true);
      assert.deepEqual(d.gene_names, ['EGFR', 'ERBB', 'ERBB1', 'HER1']);
      assert.deepEqual(d.ec_numbers, ['2.7.10.1']);
      assert.deepEqual(d.pdb_ids, ['1IVO', '1M17', '1XKK']);
      assert.equal(d.length, 1210);
      assert.equal(d.mass, 134277);
      assert.deepEqual(d.organism, { scientific_name: 'Homo sapiens', common_name: 'Human', taxon_id: 9606 });
      assert.match(d.function, /^Receptor tyrosine kinase binding ligands of the EGF family/);
    },
  },
  {
    endpoint: 'proteins',
    operation: 'search',
    found: 'EGFR',
    notFound: 'zzzznothing',
    body: { organism: 'Homo sapiens' },
    check(i: LookupItem, s: StandIn) {
      const d = i.data as any;
      assert.equal(d.total_count, 2);
      assert.equal(d.organism, 'Homo sapiens');
      assert.equal(d.results[0].accession, 'P00533');
      assert.equal(d.results[0].reviewed, true);
      assert.equal(d.results[1].reviewed, false);
      assert.equal(d.results[1].protein_name, 'Epidermal growth factor receptor');
      const q = s.requests.find((r) => r.path === '/uniprotkb/search')!.query.get('query');
      assert.equal(q, '(gene:"EGFR" OR protein_name:"EGFR") AND (organism_name:"Homo sapiens")');
    },
  },
  {
    endpoint: 'structures',
    operation: 'entry',
    found: '4hhb',
    notFound: '9ZZZ',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.source, 'rcsb');
      assert.equal(i.license, 'CC0 1.0');
      assert.equal(i.record_id, '4HHB');
      assert.equal(i.url, 'https://www.rcsb.org/structure/4HHB');
      assert.equal(i.title, 'THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION');
      assert.deepEqual(d.methods, ['X-RAY DIFFRACTION']);
      assert.equal(d.resolution, 1.74);
      assert.equal(d.polymer_entity_count, 2);
      assert.equal(d.citation.doi, '10.1016/0022-2836(84)90472-8');
      assert.equal(d.citation.pubmed_id, 6726807);
      assert.equal(d.deposit_date, '1984-03-07T00:00:00+0000');
    },
  },
  {
    endpoint: 'structures',
    operation: 'by_uniprot',
    found: 'P69905',
    notFound: 'P12345',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(d.total_count, 321);
      assert.deepEqual(
        d.entries.map((e: any) => e.pdb_id),
        ['1A3N', '2HHB', '4HHB'],
      );
      assert.equal(d.entries[0].title, 'DEOXY HUMAN HEMOGLOBIN');
      assert.equal(d.entries[0].resolution, 1.8);
      assert.equal(i.record_id, '1A3N');
    },
  },
  {
    endpoint: 'structures',
    operation: 'search',
    found: 'hemoglobin',
    notFound: 'zzzz nothing at all',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(d.total_count, 1205);
      assert.equal(d.entries[0].pdb_id, '4HHB');
      assert.equal(d.entries[0].score, 1);
      assert.equal(d.entries[1].title, 'REFINEMENT OF THE HUMAN DEOXYHAEMOGLOBIN STRUCTURE AT 1.74 ANGSTROMS RESOLUTION');
    },
  },
  {
    endpoint: 'properties',
    operation: 'experimental',
    found: 'aspirin',
    notFound: 'notacompoundxyz',
    check(i: LookupItem) {
      const d = i.data as any;
      assert.equal(i.record_id, '2244');
      assert.equal(i.title, 'Aspirin');
      assert.equal(i.url, 'https://pubchem.ncbi.nlm.nih.gov/compound/2244#section=Experimental-Properties');
      assert.deepEqual(Object.keys(d.properties), ['boiling_point', 'melting_point', 'density', 'vapor_pressure', 'heat_of_vaporization', 'viscosity', 'surface_tension']);
      assert.deepEqual(
        d.properties.melting_point.map((v: any) => v.value),
        ['275 °F (NTP, 1992)', '135 °C', '136 °C'],
      );
      assert.deepEqual(
        d.properties.melting_point.map((v: any) => v.reference.source_name),
        ['CAMEO Chemicals', 'Hazardous Substances Data Bank (HSDB)', 'ILO-WHO International Chemical Safety Cards (ICSCs)'],
      );
      assert.equal(d.properties.melting_point[2].reference.license, 'CC-BY');
      assert.equal(d.properties.boiling_point.length, 2);
      assert.equal(d.properties.boiling_point[1].reference.citation?.startsWith("O'Neil, M.J. (ed.). The Merck Index"), true);
      assert.deepEqual(d.properties.viscosity, []);
      // Dropped: Good Scents (no licence) twice, DrugBank (CC BY-NC) once.
      assert.equal(d.excluded, 3);
    },
  },
];

const bodyFor = (c: Case, q: string) => (c.endpoint === 'compounds' ? { names: [q] } : { operation: c.operation, queries: [q], ...(c.body ?? {}) });

let standIn: StandIn;
before(async () => {
  standIn = await new StandIn().start();
});
after(async () => {
  await standIn.stop();
});

const first = (res: any) => (res.compounds ?? res.results)[0];

for (const c of CASES) {
  describe(`${c.endpoint} ${c.operation}`, () => {
    test('found', async () => {
      standIn.reset();
      const svc = serviceFor(standIn);
      const res: any = await svc.run(c.endpoint, bodyFor(c, c.found), { allowStructures: c.allowStructures ?? false });
      const item = first(res);
      assert.equal(item.status, 'found', JSON.stringify(item));
      assertSchema(c.endpoint, res);
      assert.equal(typeof res.attribution, 'string');
      assert.ok(res.attribution.length > 20);
      if (c.endpoint !== 'compounds') {
        assert.equal(item.operation, c.operation);
        assert.equal(item.query, c.found);
      }
      c.check(item, standIn);
      // Every call went to the stand-in, none to a public host, under the service's real path.
      assert.ok(standIn.requests.length > 0);
      assert.ok(standIn.requests.every((r) => !r.path.startsWith('/ignored-prefix')));
    });

    test('not found', async () => {
      standIn.reset();
      const svc = serviceFor(standIn);
      const res: any = await svc.run(c.endpoint, bodyFor(c, c.notFound), { allowStructures: c.allowStructures ?? false });
      const item = first(res);
      assert.equal(item.status, 'not_found', JSON.stringify(item));
      assertSchema(c.endpoint, res);
      assert.ok(standIn.requests.length > 0, 'not_found must come from the source');
      if (c.endpoint === 'compounds') assert.equal(item.cid, null);
      else {
        assert.equal(item.data, null);
        assert.equal(item.record_id, null);
      }
    });

    test('upstream 500 -> upstream_error after the retries', async () => {
      standIn.reset();
      standIn.mode = 'error500';
      const svc = serviceFor(standIn, { retries: 2 });
      const res: any = await svc.run(c.endpoint, { ...bodyFor(c, c.found) }, { allowStructures: c.allowStructures ?? false });
      assert.equal(first(res).status, 'upstream_error');
      assert.equal(standIn.requests.length, 3, 'one call and two retries');
    });

    test('slow upstream -> timeout', async () => {
      standIn.reset();
      standIn.mode = 'slow';
      standIn.slowMs = 3000;
      const svc = serviceFor(standIn, { timeoutMs: 150 });
      const t0 = Date.now();
      const res: any = await svc.run(c.endpoint, bodyFor(c, c.found), { allowStructures: c.allowStructures ?? false });
      assert.equal(first(res).status, 'timeout');
      assert.ok(Date.now() - t0 < 2500, 'the timeout cut the call short');
      assert.equal(standIn.requests.length, 1, 'a timeout is not retried');
    });
  });
}
