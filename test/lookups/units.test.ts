// Pure parts of the lookups: the structure check, the licence classifier, the rate limiter,
// Retry-After parsing, and the exported rules the routes build on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyReferenceLicense } from '../../src/lookups/licenses.js';
import { parseRetryAfter } from '../../src/lookups/http.js';
import { SlidingWindowLimiter } from '../../src/lookups/rate-limit.js';
import { DEFAULT_PROPERTIES, OPERATIONS, PROPERTY_NAMES, REQUEST_SCHEMAS } from '../../src/lookups/schemas.js';
import { isInchi, looksLikeStructure, smilesAtomCount } from '../../src/lookups/structure.js';
import { uniprotSearchQuery, UNIPROT_ACCESSION_RE } from '../../src/lookups/sources/uniprot.js';

describe('structure check', () => {
  test('SMILES of two or more atoms and InChI are structures', () => {
    for (const s of [
      'CCO',
      'CC(=O)Oc1ccccc1C(=O)O',
      'CC(=O)OC1=CC=CC=C1C(=O)O',
      'C1CCCCC1',
      '[Na+].[Cl-]',
      'C[C@@H](N)C(=O)O',
      'F/C=C/F',
      'c1ccc2c(c1)[nH]c1ccccc12',
      'O=C=O',
      'C%10CCCCC%10',
      '[13CH3]C',
      'NO',
      'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
      'InChI=1/CH4/h1H4',
    ])
      assert.equal(looksLikeStructure(s), true, s);
  });

  test('names, single atoms and broken SMILES are not', () => {
    for (const s of [
      'aspirin',
      'Aspirin',
      'caffeine',
      'acetylsalicylic acid',
      'ibuprofen',
      'Br',
      'C',
      '[Na+]',
      'D-glucose',
      'vitamin C',
      'CO2',
      'C1CC',
      'CC(',
      'CC)',
      'C==C',
      '(C)C',
      'NaCl',
      '2244',
      'CHEMBL25',
      'EGFR',
      '[Xx]C',
      '',
    ])
      assert.equal(looksLikeStructure(s), false, s);
  });

  test('atom counts', () => {
    assert.equal(smilesAtomCount('CC(=O)Oc1ccccc1C(=O)O'), 13);
    assert.equal(smilesAtomCount('[Na+].[Cl-]'), 2);
    assert.equal(smilesAtomCount('ClCBr'), 3);
    assert.equal(smilesAtomCount('hello'), null);
    assert.equal(isInchi('InChI=1S/H2O/h1H2'), true);
    assert.equal(isInchi('inchi is a format'), false);
  });
});

describe('licence classifier (properties lookup)', () => {
  const cases: [Record<string, string>, string | null][] = [
    [{ LicenseURL: 'https://creativecommons.org/publicdomain/zero/1.0/' }, 'CC0-1.0'],
    [{ LicenseURL: 'https://creativecommons.org/licenses/by/4.0/' }, 'CC-BY'],
    [{ LicenseURL: 'https://creativecommons.org/licenses/by-sa/3.0/' }, 'CC-BY-SA'],
    [{ LicenseURL: 'https://creativecommons.org/licenses/by-nc/4.0/' }, null],
    [{ LicenseURL: 'https://creativecommons.org/licenses/by-nd/4.0/' }, null],
    [{ LicenseURL: 'https://www.nlm.nih.gov/web_policies.html' }, 'US-government'],
    [
      {
        LicenseURL: 'https://www.cdc.gov/Other/disclaimer.html',
        LicenseNote: 'The information provided using CDC Web site is only intended to be general summary information to the public.',
      },
      'US-government',
    ],
    [{ LicenseURL: 'https://www.ilo.org/global/copyright/request-for-permission/lang--en/index.htm', LicenseNote: 'Creative Commons CC BY 4.0' }, 'CC-BY'],
    [{ LicenseURL: 'https://www.drugbank.ca/legal/terms_of_use', LicenseNote: "Creative Common's Attribution-NonCommercial 4.0 International License" }, null],
    [
      {
        LicenseURL: 'http://www.hmdb.ca/citing',
        LicenseNote: 'HMDB is offered to the public as a freely available resource. Use and re-distribution of the data for commercial purposes requires explicit permission.',
      },
      null,
    ],
    [{ LicenseNote: 'This data is in the public domain.' }, 'public-domain'],
    [{ LicenseNote: 'These data are not in the public domain.' }, null],
    [{ LicenseURL: 'https://www.sigmaaldrich.com/terms' }, null],
    [{}, null],
  ];
  for (const [ref, expected] of cases)
    test(`${ref.LicenseURL ?? ref.LicenseNote ?? '(no licence)'} -> ${expected}`, () => {
      assert.equal(classifyReferenceLicense(ref), expected);
    });
  test('a missing reference is not allowed', () => assert.equal(classifyReferenceLicense(undefined), null));
});

describe('rate limiter', () => {
  test('sliding window: N start at once, the next N one window later', () => {
    const l = new SlidingWindowLimiter(5, 1000);
    const t = 1_000_000;
    const waits = Array.from({ length: 12 }, () => l.reserve(t));
    assert.deepEqual(waits, [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000]);
    // Later callers see the reservations already made.
    assert.equal(l.reserve(t + 1500), 500); // the 13th call: 5 in the window that starts at t + 1000
  });
});

describe('Retry-After', () => {
  test('seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter('0.5'), 500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now), 3000);
    assert.equal(parseRetryAfter('soon'), null);
    assert.equal(parseRetryAfter(null), null);
  });
});

describe('exported rules', () => {
  test('operations per endpoint', () => {
    assert.deepEqual(OPERATIONS.bioactivity, ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure']);
    assert.deepEqual(OPERATIONS.targets, ['target_associations', 'disease_associations', 'target_drugs', 'disease_drugs']);
    assert.deepEqual(OPERATIONS.proteins, ['entry', 'search']);
    assert.deepEqual(OPERATIONS.structures, ['entry', 'by_uniprot', 'search']);
    assert.deepEqual(OPERATIONS.properties, ['experimental']);
    assert.deepEqual((REQUEST_SCHEMAS.bioactivity.properties.operation as any).enum, OPERATIONS.bioactivity);
  });

  test('property names', () => {
    assert.deepEqual(DEFAULT_PROPERTIES, ['boiling_point', 'melting_point', 'density', 'vapor_pressure', 'heat_of_vaporization', 'viscosity', 'surface_tension']);
    assert.ok(PROPERTY_NAMES.includes('other'));
  });

  test('UniProt accessions and query building', () => {
    for (const a of ['P00533', 'Q99999', 'A0A022YWF9', 'P00533-2']) assert.ok(UNIPROT_ACCESSION_RE.test(a), a);
    for (const a of ['EGFR', 'P0053', 'hello']) assert.ok(!UNIPROT_ACCESSION_RE.test(a), a);
    assert.equal(uniprotSearchQuery('tumor "suppressor"', null), '(gene:"tumor \\"suppressor\\"" OR protein_name:"tumor \\"suppressor\\"")');
  });
});
