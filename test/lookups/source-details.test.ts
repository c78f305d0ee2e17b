// Details of the lookup sources beyond the per-operation cases of sources.test.ts: how names,
// slashes, long SMILES, properties and licences travel to and from the stand-in that answers
// the services' real paths with recorded payloads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_PROPERTIES, LIMITS, PROPERTY_HEADINGS, PROPERTY_NAMES } from '../../src/lookups/schemas.js';
import { CHEMBL_MAX_URL_LENGTH, chemblSearchByPost, pythonQuote } from '../../src/lookups/sources/chembl.js';
import { fixture, serviceFor, StandIn } from './stand-in.js';

let standIn: StandIn;
before(async () => {
  standIn = await new StandIn().start();
});
after(async () => {
  await standIn.stop();
});

describe('source details', () => {
  test('a name with several CIDs: best first, the others in other_cids', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('compounds', { names: ['glucose'] }, { allowStructures: false });
    const c = res.compounds[0];
    assert.ok(c);
    assert.equal(c.cid, 5793);
    assert.deepEqual(c.other_cids, [79025]);
    assert.equal(c.title, 'D-Glucose');
  });

  test('a name with a slash goes in a POST body, not the path', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('compounds', { names: ['D/L-glucose'] }, { allowStructures: false });
    assert.equal(res.compounds[0]?.status, 'found');
    const [req] = standIn.requests;
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/rest/pug/compound/name/property/Title,SMILES/JSON');
    assert.equal(new URLSearchParams(req.body).get('name'), 'D/L-glucose');
  });

  test('ChEMBL names are resolved through search; a name without hits is not_found', async () => {
    standIn.reset();
    const svc = serviceFor(standIn);
    const res = await svc.run('bioactivity', { operation: 'molecule_activities', queries: ['aspirin', 'nosuchdrug'], limit: 2 }, { allowStructures: false });
    const [aspirin, noSuchDrug] = res.results;
    assert.ok(aspirin && noSuchDrug);
    assert.equal(aspirin.status, 'found');
    assert.deepEqual((aspirin.data as any).resolution, { query: 'aspirin', matched: 'CHEMBL25', entity: 'molecule' });
    assert.equal(noSuchDrug.status, 'not_found');
    const act = standIn.requests.find((r) => r.path === '/chembl/api/data/activity.json')!;
    assert.equal(act.query.get('molecule_chembl_id'), 'CHEMBL25');
    assert.equal(act.query.get('limit'), '2');
  });

  test('ChEMBL target search by name lists every hit', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('bioactivity', { operation: 'target', queries: ['EGFR'] }, { allowStructures: false });
    const [item] = res.results;
    assert.ok(item);
    const d = item.data as any;
    assert.equal(d.total_count, 2);
    assert.deepEqual(
      d.targets.map((t: any) => t.target_type),
      ['SINGLE PROTEIN', 'PROTEIN COMPLEX'],
    );
  });

  test('similarity threshold is sent in the path; an unparseable SMILES is invalid_query', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('bioactivity', { operation: 'similarity', queries: ['CC(=O)Oc1ccccc1C(=O)O', 'C((('], threshold: 85 }, { allowStructures: true });
    const [similar, unparseable] = res.results;
    assert.ok(similar && unparseable);
    assert.equal(similar.status, 'found');
    assert.equal((similar.data as any).threshold, 85);
    assert.ok(standIn.requests.some((r) => r.path.endsWith('/85.json')));
    assert.equal(unparseable.status, 'invalid_query');
  });

  test('ChEMBL: a SMILES with "/" or "\\" goes as the official client sends it (POST, X-HTTP-Method-Override: GET), never as %2F in the path', async () => {
    standIn.reset();
    const svc = serviceFor(standIn);
    const sub = await svc.run('bioactivity', { operation: 'substructure', queries: ['C/C=C/c1ccccc1C(=O)O'], limit: 5 }, { allowStructures: true });
    assert.equal(sub.results[0]?.status, 'found');
    const calls = standIn.requests.filter((q) => q.path !== '/chembl/api/data/status.json');
    assert.equal(calls.length, 1);
    const [r] = calls;
    assert.ok(r);
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/chembl/api/data/substructure.json');
    assert.equal(r.headers['x-http-method-override'], 'GET');
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(r.body), [
      ['smiles', 'C/C%3DC/c1ccccc1C%28%3DO%29O'],
      ['limit', 5],
      ['offset', 0],
    ]);
    assert.ok(!/%2F/i.test(r.rawUrl));

    standIn.reset();
    const sim = await svc.run('bioactivity', { operation: 'similarity', queries: ['F/C=C\\F', 'CC(=O)Oc1ccccc1C(=O)O'], threshold: 90 }, { allowStructures: true });
    assert.deepEqual(
      sim.results.map((i) => i.status),
      ['not_found', 'found'],
    );
    const post = standIn.requests.find((q) => q.method === 'POST')!;
    assert.equal(post.path, '/chembl/api/data/similarity.json');
    assert.deepEqual(JSON.parse(post.body), [
      ['smiles', 'F/C%3DC%5CF'],
      ['similarity', 90],
      ['limit', 10],
      ['offset', 0],
    ]);
    // A plain SMILES keeps the documented path form.
    assert.ok(standIn.requests.some((q) => q.method === 'GET' && decodeURIComponent(q.path) === '/chembl/api/data/similarity/CC(=O)Oc1ccccc1C(=O)O/90.json'));
    assert.ok(standIn.requests.every((q) => !/^[^?]*(?:%2F|%5C)/i.test(q.rawUrl)));
  });

  test('ChEMBL: a URL over 2000 characters would go as POST too (a 500-character SMILES stays below that)', async () => {
    assert.equal(chemblSearchByPost('CCO', 'https://www.ebi.ac.uk/chembl/api/data/substructure/CCO.json?limit=10'), false);
    assert.equal(chemblSearchByPost('C/C=C/C', 'https://www.ebi.ac.uk/chembl/api/data/substructure/C%2FC%3DC%2FC.json'), true);
    assert.equal(chemblSearchByPost('CC', 'https://www.ebi.ac.uk/' + 'x'.repeat(1980)), true);
    // The longest SMILES the API takes, written with characters a path must escape ([, @, ]
    // become %5B, %40, %5D): its URL is long, but below the limit, so it goes as a GET.
    const smiles = '[C@@H](O)'.repeat(55) + 'CCCCC';
    assert.equal(smiles.length, LIMITS.maxSmilesLength);
    for (const path of [`similarity/${encodeURIComponent(smiles)}/40.json`, `substructure/${encodeURIComponent(smiles)}.json`]) {
      const url = `https://www.ebi.ac.uk/chembl/api/data/${path}?limit=${LIMITS.bioactivityLimit.max}`;
      assert.ok(url.length > 900 && url.length <= CHEMBL_MAX_URL_LENGTH, `${url.length} characters`);
      assert.equal(chemblSearchByPost(smiles, url), false);
    }
    // And the source sends it so.
    standIn.reset();
    const res = await serviceFor(standIn).run('bioactivity', { operation: 'substructure', queries: [smiles] }, { allowStructures: true });
    assert.equal(res.results[0]?.status, 'not_found');
    const calls = standIn.requests.filter((q) => q.path !== '/chembl/api/data/status.json');
    assert.deepEqual(
      calls.map((q) => [q.method, decodeURIComponent(q.path)]),
      [['GET', `/chembl/api/data/substructure/${smiles}.json`]],
    );
  });

  test('pythonQuote is urllib.parse.quote with safe "/"', () => {
    assert.equal(pythonQuote("CC(=O)O/C=C\\[C@@H]#N%12!*'~_.-+ x"), 'CC%28%3DO%29O/C%3DC%5C%5BC%40%40H%5D%23N%2512%21%2A%27~_.-%2B%20x');
  });

  test('UniProt: a string that is no accession is invalid_query and is not sent', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('proteins', { operation: 'entry', queries: ['not an accession'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'invalid_query');
    assert.equal(standIn.requests.length, 0);
  });

  test('UniProt search by taxon ID', async () => {
    standIn.reset();
    await serviceFor(standIn).run('proteins', { operation: 'search', queries: ['EGFR'], organism: '9606' }, { allowStructures: false });
    const [req] = standIn.requests;
    assert.ok(req);
    assert.equal(req.query.get('query'), '(gene:"EGFR" OR protein_name:"EGFR") AND (organism_id:9606)');
    assert.equal(req.query.get('size'), '10');
  });

  test('Open Targets: an unknown Ensembl ID answers target: null -> not_found', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('targets', { operation: 'target_associations', queries: ['ENSG00000000000'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'not_found');
    assert.equal(standIn.requests.length, 1, 'an ID needs no search');
  });

  test('Open Targets: limit sizes the association page and truncates drug lists', async () => {
    standIn.reset();
    const svc = serviceFor(standIn);
    await svc.run('targets', { operation: 'target_associations', queries: ['ENSG00000146648'], limit: 7 }, { allowStructures: false });
    const [req] = standIn.requests;
    assert.ok(req);
    assert.equal(JSON.parse(req.body).variables.size, 7);
    const res = await svc.run('targets', { operation: 'target_drugs', queries: ['ENSG00000146648'], limit: 2 }, { allowStructures: false });
    const [item] = res.results;
    assert.ok(item);
    const d = item.data as any;
    assert.equal(d.drugs.length, 2);
    assert.equal(d.total_count, 4);
  });

  test('RCSB: a string that is no PDB ID is invalid_query and is not sent; a search with no hits (HTTP 204) is not_found', async () => {
    standIn.reset();
    const svc = serviceFor(standIn);
    const res = await svc.run('structures', { operation: 'entry', queries: ['hemoglobin'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'invalid_query');
    assert.equal(standIn.requests.length, 0);
    const s = await svc.run('structures', { operation: 'search', queries: ['nothing matches this'], limit: 5 }, { allowStructures: false });
    assert.equal(s.results[0]?.status, 'not_found');
    const [req] = standIn.requests;
    assert.ok(req);
    const sent = JSON.parse(req.body);
    assert.deepEqual(sent.request_options.paginate, { start: 0, rows: 5 });
    assert.equal(sent.return_type, 'entry');
  });

  test('properties: a CID is used as is, `other` and `limit` are honoured', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run(
      'properties',
      { operation: 'experimental', queries: ['2244'], properties: ['melting_point', 'other'], limit: 5 },
      { allowStructures: false },
    );
    const [item] = res.results;
    assert.ok(item);
    const d = item.data as any;
    assert.equal(standIn.requests.length, 1, 'no name resolution for a CID');
    const [req] = standIn.requests;
    assert.ok(req);
    assert.equal(req.path, '/rest/pug_view/data/compound/2244/JSON');
    assert.equal(req.query.get('heading'), 'Experimental Properties');
    assert.deepEqual(Object.keys(d.properties), ['melting_point', 'other']);
    assert.deepEqual(
      d.properties.melting_point.map((v: any) => v.value),
      ['275 °F (NTP, 1992)', '135 °C', '136 °C', '135 °C'],
    );
    assert.equal(d.properties.melting_point[3].number, 135);
    assert.equal(d.properties.melting_point[3].unit, '°C');
    assert.equal(d.properties.melting_point[3].reference.license, 'CC0-1.0');
    assert.deepEqual(
      d.properties.other.map((v: any) => v.value),
      ['Stable in dry air; in moist air it gradually hydrolyzes to salicylic and acetic acids.'],
    );
    // melting point: DrugBank and Good Scents; other: DrugBank.
    assert.equal(d.excluded, 3);
  });

  test('properties: `other` collects the critical constants and the other measured values, each under its PUG-View heading', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run(
      'properties',
      { operation: 'experimental', queries: ['benzene'], properties: ['other', 'boiling_point'], limit: 10 },
      { allowStructures: false },
    );
    const [item] = res.results;
    assert.ok(item);
    assert.equal(item.status, 'found');
    assert.equal(item.record_id, '241');
    assert.deepEqual(
      standIn.requests.map((r) => r.path),
      ['/rest/pug/compound/name/benzene/cids/JSON', '/rest/pug_view/data/compound/241/JSON'],
    );
    const d = item.data as any;
    assert.deepEqual(
      d.properties.other.map((v: any) => [v.heading, v.value, v.reference.license]),
      [
        ['Critical Temperature & Pressure', 'Critical temperature: 288.9 °C; critical pressure: 4.89 MPa', 'US-government'],
        ['Enthalpy of Sublimation', '44.7 kJ/mol', 'US-government'],
        ['Dielectric Constant', '2.2825 at 20 °C', 'US-government'],
        ['Ionization Potential', '9.24 eV', 'US-government'],
        ['Ionization Potential', '9.24 eV', 'US-government'],
        ['Relative Evaporation Rate', '2.8 (Butyl acetate = 1)', 'US-government'],
        ['Other Experimental Properties', 'Forms an azeotrope with water (91.17% benzene), bp 69.25 °C', 'US-government'],
      ],
    );
    assert.equal(d.properties.other[0].reference.source_name, 'Hazardous Substances Data Bank (HSDB)');
    assert.match(d.properties.other[0].reference.citation, /CRC Handbook of Chemistry and Physics/);
    assert.equal(d.properties.other[3].reference.source_name, 'The National Institute for Occupational Safety and Health (NIOSH)');
    assert.deepEqual(
      d.properties.boiling_point.map((v: any) => [v.heading, v.value]),
      [
        ['Boiling Point', '176.2 °F at 760 mmHg (NTP, 1992)'],
        ['Boiling Point', '80.08 °C'],
        ['Boiling Point', '80 °C'],
      ],
    );
    // The Good Scents Company (no licence): its critical temperature and its odour note.
    assert.equal(d.excluded, 2);
    // `limit` counts values per property over all its headings.
    standIn.reset();
    const two = await serviceFor(standIn).run('properties', { operation: 'experimental', queries: ['241'], properties: ['other'], limit: 2 }, { allowStructures: false });
    const [limited] = two.results;
    assert.ok(limited);
    assert.deepEqual(
      (limited.data as any).properties.other.map((v: any) => v.heading),
      ['Critical Temperature & Pressure', 'Enthalpy of Sublimation'],
    );
    assert.equal((limited.data as any).excluded, 2);
  });

  test('properties: every accepted name maps to PUG-View headings PubChem has; `other` covers the critical constants', () => {
    // Experimental Properties subheadings of the committed PUG-View records.
    const recorded = new Set<string>();
    for (const cid of [241, 2244]) {
      const collect = (sections: any[], under: string[]) => {
        for (const sec of sections ?? []) {
          if (under.at(-1) === 'Experimental Properties') recorded.add(sec.TOCHeading);
          collect(sec.Section, [...under, sec.TOCHeading]);
        }
      };
      collect(fixture(`pubchem/pugview-${cid}-experimental.json`).Record.Section, []);
    }
    // Every subheading of those records is collected by a name, but the ones docs/lookups.md
    // says are not returned.
    const all: string[] = PROPERTY_NAMES.flatMap((n) => [...PROPERTY_HEADINGS[n]]);
    assert.deepEqual(
      [...recorded].filter((h) => !all.includes(h)),
      ['Physical Description'],
    );
    // Every heading named is one PubChem uses: in those records, or among the Experimental
    // Properties subheadings PubChem spells so (PROVESID pubchemview.py, experimental_properties;
    // "Critical Temperature & Pressure" from PubChem's TOC heading list; docs/lookups.md).
    const pubchemHeadings = new Set([
      ...recorded,
      'Autoignition Temperature',
      'Boiling Point',
      'Critical Temperature & Pressure',
      'Decomposition',
      'Density',
      'Dielectric Constant',
      'Dissociation Constants',
      'Enthalpy of Sublimation',
      'Flash Point',
      'Heat of Combustion',
      'Heat of Vaporization',
      "Henry's Law Constant",
      'Ionization Potential',
      'LogP',
      'Melting Point',
      'Optical Rotation',
      'Other Experimental Properties',
      'Refractive Index',
      'Relative Evaporation Rate',
      'Solubility',
      'Surface Tension',
      'Vapor Density',
      'Vapor Pressure',
      'Viscosity',
    ]);
    for (const name of PROPERTY_NAMES) {
      assert.ok(PROPERTY_HEADINGS[name].length >= 1, name);
      for (const h of PROPERTY_HEADINGS[name]) assert.ok(pubchemHeadings.has(h), `${name}: "${h}" is not a PubChem heading`);
    }
    // The reference's default set: the seven headings the recorded aspirin and water answers use.
    assert.deepEqual(
      DEFAULT_PROPERTIES.flatMap((n) => [...PROPERTY_HEADINGS[n]]),
      ['Boiling Point', 'Melting Point', 'Density', 'Vapor Pressure', 'Heat of Vaporization', 'Viscosity', 'Surface Tension'],
    );
    // docs/lookups.md's table says the same as PROPERTY_HEADINGS, name by name, in order.
    const doc = fs.readFileSync(new URL('../../docs/lookups.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('| name | PUG-View headings |'));
    const table = Object.fromEntries(
      [...section.slice(0, section.indexOf('\n\n')).matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|$/gm)].map(([, name, headings]) => [name, headings?.split(', ').map((h) => h.trim())]),
    );
    assert.deepEqual(table, Object.fromEntries(PROPERTY_NAMES.map((n) => [n, [...PROPERTY_HEADINGS[n]]])));
    assert.ok((PROPERTY_HEADINGS.other as readonly string[]).includes('Critical Temperature & Pressure'));
    assert.ok((PROPERTY_HEADINGS.other as readonly string[]).includes('Other Experimental Properties'));
    assert.equal(new Set(all).size, all.length, 'no heading is collected by two names');
  });

  test('properties: an unknown CID is not_found', async () => {
    standIn.reset();
    const res = await serviceFor(standIn).run('properties', { operation: 'experimental', queries: ['99999999'] }, { allowStructures: false });
    assert.equal(res.results[0]?.status, 'not_found');
  });
});
