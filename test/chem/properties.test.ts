// Molecular-properties engine against native RDKit (reference values made by
// scripts/rdkit/make_fixtures.py with Debian's RDKit 2022.09) and against hand-computed
// mass-spectrometry values. Run: node --import tsx --test test/chem/properties.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { _internal, describeMolecule, MAX_HEAVY_ATOMS, MAX_SMILES_LENGTH, releaseQueries, type MolecularProperties } from '../../src/chem/properties/index.js';
import { loadRDKit, type RDKitModule } from '../../src/chem/rdkit.js';
import { ELEMENTS } from '../../src/chem/properties/data.js';
import { ELECTRON_MASS } from '../../src/chem/properties/mass.js';
import { PROPERTIES_SCHEMAS } from '../../src/chem/properties/schema.js';
import { Ajv } from 'ajv';

const here = path.dirname(fileURLToPath(import.meta.url));

interface RefProps {
  formula: string;
  mw: number;
  monoisotopic_mass: number;
  clogp: number;
  tpsa: number;
  hba: number;
  /** native NumHBA with RDKit 2026.03's acceptor fix (rdkit#8997) applied, see make_fixtures.py */
  hba_rdkit2026: number;
  hbd: number;
  rotatable_bonds: number;
  aromatic_rings: number;
  heavy_atoms: number;
  formal_charge: number;
  qed: number | null;
  qed_properties: Record<string, number> | null;
  pains: string[];
  brenk: string[];
}
interface RefRecord {
  name: string;
  source: string;
  smiles: string;
  ref: RefProps;
}
const reference = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/chem/reference.json'), 'utf8')) as {
  rdkit_version: string;
  molecules: RefRecord[];
};

let rdkit: RDKitModule;
const results = new Map<string, MolecularProperties | null>();

before(async () => {
  rdkit = await loadRDKit();
  for (const r of reference.molecules) {
    const out = describeMolecule(rdkit, r.smiles);
    results.set(r.smiles, out.properties);
  }
});

after(() => {
  if (rdkit) releaseQueries(rdkit);
});

type Field = keyof RefProps;
const EXACT: Field[] = ['formula', 'heavy_atoms', 'hbd', 'rotatable_bonds', 'aromatic_rings', 'formal_charge'];
const NUMERIC: [Field, number][] = [
  ['mw', 0.01],
  ['monoisotopic_mass', 0.01],
  ['clogp', 0.01],
  ['tpsa', 0.01],
];

function report(title: string, rows: string[]): void {
  if (rows.length === 0) return;
  console.log(`# ${title}: ${rows.length} mismatch(es)`);
  for (const r of rows.slice(0, 40)) console.log(`#   ${r}`);
  if (rows.length > 40) console.log(`#   ... ${rows.length - 40} more`);
}

function fraction(field: string, check: (got: MolecularProperties, ref: RefProps, r: RefRecord) => string | null): number {
  const rows: string[] = [];
  let ok = 0;
  for (const r of reference.molecules) {
    const got = results.get(r.smiles);
    if (!got) {
      rows.push(`${r.name} ${r.smiles}: no properties from WASM`);
      continue;
    }
    const bad = check(got, r.ref, r);
    if (bad === null) ok++;
    else rows.push(`${r.name} ${r.smiles}: ${bad}`);
  }
  report(field, rows);
  return ok / reference.molecules.length;
}

describe('properties vs native RDKit', () => {
  test('reference set is large and varied', () => {
    assert.ok(reference.molecules.length >= 500, `${reference.molecules.length} molecules`);
    assert.ok(reference.molecules.some((r) => r.ref.pains.length > 0));
    assert.ok(reference.molecules.some((r) => r.ref.brenk.length > 0));
    assert.ok(reference.molecules.some((r) => r.smiles.includes('.')));
  });

  test('every reference molecule is described', () => {
    const missing = reference.molecules.filter((r) => !results.get(r.smiles));
    report(
      'not described',
      missing.map((r) => `${r.name} ${r.smiles}`),
    );
    assert.ok(missing.length / reference.molecules.length <= 0.01, `${missing.length} molecules not described`);
  });

  for (const field of EXACT) {
    test(`${field} identical for >= 99%`, () => {
      const f = fraction(field, (got, ref) =>
        got[field as keyof MolecularProperties] === ref[field] ? null : `got ${JSON.stringify(got[field as keyof MolecularProperties])}, native ${JSON.stringify(ref[field])}`,
      );
      assert.ok(f >= 0.99, `${field}: ${(f * 100).toFixed(2)}% identical`);
    });
  }

  test('hba identical for >= 99% (RDKit 2026 definition); every difference from 2022.09 is rdkit#8997', () => {
    // MinimalLib 2026.09 counts acceptors with the fixed SMARTS (N-substituted pyrrole- and
    // pyridone-type aromatic N are not acceptors); native 2022.09 still counts them.
    const f = fraction('hba', (got, ref) => (got.hba === ref.hba_rdkit2026 ? null : `got ${got.hba}, native (fixed) ${ref.hba_rdkit2026}, native 2022.09 ${ref.hba}`));
    assert.ok(f >= 0.99, `hba: ${(f * 100).toFixed(2)}% identical`);
    const changed = reference.molecules.filter((r) => r.ref.hba !== r.ref.hba_rdkit2026);
    assert.ok(changed.length > 10, 'the fixture exercises the changed definition');
    const plain = fraction('hba vs native 2022.09 (rdkit#8997)', (got, ref) => (got.hba === ref.hba ? null : `got ${got.hba}, native 2022.09 ${ref.hba}`));
    assert.ok(plain < f, 'the 2022.09 definition differs');
  });

  for (const [field, tol] of NUMERIC) {
    test(`${field} within ${tol} for >= 99%`, () => {
      const f = fraction(field, (got, ref) => {
        const a = got[field as keyof MolecularProperties] as number;
        const b = ref[field] as number;
        return Math.abs(a - b) <= tol ? null : `got ${a}, native ${b}`;
      });
      assert.ok(f >= 0.99, `${field}: ${(f * 100).toFixed(2)}% within ${tol}`);
    });
  }

  test('qed within 0.005 for >= 99%', () => {
    const f = fraction('qed', (got, ref) => {
      if (ref.qed === null || got.qed === null || got.qed === undefined) return got.qed === ref.qed ? null : `got ${got.qed}, native ${ref.qed}`;
      return Math.abs(got.qed - ref.qed) <= 0.005 ? null : `got ${got.qed}, native ${ref.qed} (native props ${JSON.stringify(ref.qed_properties)})`;
    });
    assert.ok(f >= 0.99, `qed: ${(f * 100).toFixed(2)}% within 0.005`);
  });

  test('PAINS alert names identical for >= 99%', () => {
    const f = fraction('pains', (got, ref) =>
      JSON.stringify(got.alerts.pains) === JSON.stringify(ref.pains) ? null : `got ${JSON.stringify(got.alerts.pains)}, native ${JSON.stringify(ref.pains)}`,
    );
    assert.ok(f >= 0.99, `pains: ${(f * 100).toFixed(2)}% identical`);
  });

  test('Brenk alert names identical for >= 99%', () => {
    const f = fraction('brenk', (got, ref) =>
      JSON.stringify(got.alerts.brenk) === JSON.stringify(ref.brenk) ? null : `got ${JSON.stringify(got.alerts.brenk)}, native ${JSON.stringify(ref.brenk)}`,
    );
    assert.ok(f >= 0.99, `brenk: ${(f * 100).toFixed(2)}% identical`);
  });

  test('Lipinski and Veber follow the reported fields', () => {
    for (const r of reference.molecules) {
      const p = results.get(r.smiles);
      if (!p) continue;
      const lv = [p.mw > 500 && 'mw>500', p.clogp > 5 && 'clogp>5', p.hbd > 5 && 'hbd>5', p.hba > 10 && 'hba>10'].filter(Boolean);
      assert.deepEqual(p.lipinski, { pass: lv.length <= 1, violations: lv }, r.smiles);
      const vv = [p.rotatable_bonds > 10 && 'rotatable_bonds>10', p.tpsa > 140 && 'tpsa>140'].filter(Boolean);
      assert.deepEqual(p.veber, { pass: vv.length === 0, violations: vv }, r.smiles);
    }
    const ref = (smiles: string) => reference.molecules.find((r) => r.smiles === smiles)!;
    // cyclosporin A: mw 1202.6, clogp 3.27, hbd 5, hba 12 -> two violations, fails
    const cyclo = results.get(
      ref(
        'CC[C@H]1C(=O)N(CC(=O)N([C@H](C(=O)N[C@H](C(=O)N([C@H](C(=O)N[C@H](C(=O)N[C@@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N1)[C@@H]([C@H](C)C/C=C/C)O)C)C(C)C)C)CC(C)C)C)CC(C)C)C)C)C)CC(C)C)C)C(C)C)CC(C)C)C)C',
      ).smiles,
    )!;
    assert.equal(cyclo.lipinski.pass, false);
    assert.deepEqual(cyclo.lipinski.violations, ['mw>500', 'hba>10']);
    assert.deepEqual(cyclo.veber, { pass: false, violations: ['rotatable_bonds>10', 'tpsa>140'] });
    const aspirin = results.get('CC(=O)Oc1ccccc1C(=O)O')!;
    assert.deepEqual(aspirin.lipinski, { pass: true, violations: [] });
    assert.deepEqual(aspirin.veber, { pass: true, violations: [] });
  });
});

describe('prefilter', () => {
  test('results are identical with and without the prefilter', () => {
    // every hand-picked molecule and every 3rd NCI one (export_catalogs.py --verify checks
    // the prefilter natively against every pattern over all 5,000 NCI molecules)
    const subset = reference.molecules.filter((r, i) => r.source !== 'nci' || i % 3 === 0);
    assert.ok(subset.length > 400);
    for (const r of subset) {
      const plain = _internal.describe(rdkit, r.smiles, { prefilter: false });
      assert.deepEqual(plain.properties, results.get(r.smiles) ?? null, r.smiles);
    }
  });
});

describe('errors', () => {
  test('unparseable, too_large and the limits', () => {
    for (const bad of ['C1CC', 'not a smiles', 'c1cccc1', '', 'C(C', '{"commonchem":{"version":10}}', 'C\nC']) {
      const r = describeMolecule(rdkit, bad);
      assert.deepEqual([r.properties, r.error], [null, 'unparseable'], JSON.stringify(bad));
      assert.ok(typeof r.detail === 'string' && r.detail.length > 0, `a reason for ${JSON.stringify(bad)}`);
    }
    assert.equal(MAX_SMILES_LENGTH, 2000);
    assert.equal(MAX_HEAVY_ATOMS, 200);
    assert.equal(describeMolecule(rdkit, 'C'.repeat(200)).error, null);
    assert.equal(describeMolecule(rdkit, 'C'.repeat(201)).error, 'too_large');
    // 2,001 characters but only 2 heavy atoms: the length limit applies before parsing
    assert.equal(describeMolecule(rdkit, 'C' + ' '.repeat(1999) + 'C').error, 'too_large');
    // explicit hydrogens are not heavy atoms: 200 carbons written with [H] atoms
    assert.equal(describeMolecule(rdkit, '[H]C([H])([H])' + 'C'.repeat(199)).error, null);
  });
});

describe('mass spectrometry', () => {
  // Exact masses (RDKit's periodic table = AME/IUPAC values) used in the hand arithmetic.
  const H = 1.007825032;
  const C = 12.0;
  const N = 14.003074004;
  const O = 15.99491462;
  const Na = 22.98976928;
  const K = 38.96370668;
  const Cl35 = 34.968852682;
  const e = 0.000548579909065;

  const props = (smiles: string) => {
    const r = describeMolecule(rdkit, smiles);
    assert.equal(r.error, null, smiles);
    return r.properties!;
  };
  const adduct = (p: MolecularProperties, name: string) => p.ms!.adducts.find((a) => a.adduct === name);
  const peak = (p: MolecularProperties, label: string) => p.ms!.isotopes.find((x) => x.label === label);
  /** The first adduct and isotope peak of p's mass-spectrometry hints, asserted to be there. */
  const firstAdduct = (p: MolecularProperties) => {
    const a = p.ms?.adducts[0];
    assert.ok(a, 'an adduct');
    return a;
  };
  const firstIsotope = (p: MolecularProperties) => {
    const x = p.ms?.isotopes[0];
    assert.ok(x, 'an isotope peak');
    return x;
  };
  const ratio = (p: MolecularProperties, label: string) => (100 * peak(p, label)!.relative_abundance) / peak(p, 'M')!.relative_abundance;

  test('electron mass constant', () => {
    assert.equal(ELECTRON_MASS, e);
  });

  test('aspirin adducts, hand-computed', () => {
    const p = props('CC(=O)Oc1ccccc1C(=O)O');
    // C9H8O4: 9*12 + 8*1.007825032 + 4*15.99491462 = 108 + 8.062600256 + 63.97965848 = 180.042258736
    const M = 9 * C + 8 * H + 4 * O;
    assert.ok(Math.abs(M - 180.042258736) < 1e-9);
    assert.ok(Math.abs(p.monoisotopic_mass - M) < 1e-6);
    const expected: [string, number, number, string][] = [
      // [M+H]+   = M + H - e             = 180.042258736 + 1.007825032 - 0.000548580 = 181.049535188
      ['[M+H]+', 1, M + H - e, 'C9H9O4+'],
      // [M+Na]+  = M + Na - e            = 180.042258736 + 22.98976928 - 0.000548580 = 203.031479436
      ['[M+Na]+', 1, M + Na - e, 'C9H8NaO4+'],
      // [M+K]+   = M + K - e             = 180.042258736 + 38.96370668 - 0.000548580 = 219.005416836
      ['[M+K]+', 1, M + K - e, 'C9H8KO4+'],
      // [M+NH4]+ = M + N + 4H - e        = 180.042258736 + 14.003074004 + 4.031300128 - 0.000548580 = 198.076084288
      ['[M+NH4]+', 1, M + N + 4 * H - e, 'C9H12NO4+'],
      // [M-H]-   = M - H + e             = 180.042258736 - 1.007825032 + 0.000548580 = 179.034982284
      ['[M-H]-', -1, M - H + e, 'C9H7O4-'],
      // [M+Cl]-  = M + 35Cl + e          = 180.042258736 + 34.968852682 + 0.000548580 = 215.011659998
      ['[M+Cl]-', -1, M + Cl35 + e, 'C9H8ClO4-'],
      // [M+HCOO]- = M + C + H + 2O + e   = 180.042258736 + 12 + 1.007825032 + 31.98982924 + 0.000548580 = 225.040461588
      ['[M+HCOO]-', -1, M + C + H + 2 * O + e, 'C10H9O6-'],
    ];
    assert.deepEqual(
      p.ms!.adducts.map((a) => a.adduct),
      expected.map((x) => x[0]),
    );
    for (const [name, charge, mz, formula] of expected) {
      const a = adduct(p, name)!;
      assert.equal(a.charge, charge, name);
      assert.equal(a.formula, formula, name);
      assert.ok(Math.abs(a.mz - mz) < 1e-6, `${name}: ${a.mz} vs ${mz}`);
    }
    assert.ok(Math.abs(adduct(p, '[M+H]+')!.mz - 181.049535188) < 1e-6);
    assert.ok(Math.abs(adduct(p, '[M-H]-')!.mz - 179.034982284) < 1e-6);
    assert.ok(Math.abs(adduct(p, '[M+HCOO]-')!.mz - 225.040461588) < 1e-6);
  });

  test('charged species are their own ion', () => {
    // tetramethylammonium C4H12N+: 4*12 + 12*1.007825032 + 14.003074004 - e = 74.096425816 + ...
    const tma = props('C[N+](C)(C)C');
    const m = 4 * C + 12 * H + N - e;
    assert.deepEqual(
      tma.ms!.adducts.map((a) => [a.adduct, a.charge, a.formula]),
      [['[M]+', 1, 'C4H12N+']],
    );
    assert.ok(Math.abs(firstAdduct(tma).mz - m) < 1e-6);
    assert.ok(Math.abs(tma.monoisotopic_mass - m) < 1e-6);
    // paraquat C12H14N2 2+: m/z = (12*12 + 14*H + 2*N - 2e) / 2
    const pq = props('C[n+]1ccc(-c2cc[n+](C)cc2)cc1');
    assert.equal(firstAdduct(pq).adduct, '[M]2+');
    assert.ok(Math.abs(firstAdduct(pq).mz - (12 * C + 14 * H + 2 * N - 2 * e) / 2) < 1e-6);
    // acetate C2H3O2-: [M]- at 2*12 + 3H + 2O + e
    const ac = props('CC(=O)[O-]');
    assert.equal(ac.formula, 'C2H3O2-');
    assert.deepEqual(
      ac.ms!.adducts.map((a) => a.adduct),
      ['[M]-'],
    );
    assert.ok(Math.abs(firstAdduct(ac).mz - (2 * C + 3 * H + 2 * O + e)) < 1e-6);
  });

  test('salts: the largest fragment is the MS species', () => {
    // metformin hydrochloride: the hints are about metformin C4H11N5 (neutral)
    const p = props('Cl.CN(C)C(=N)N=C(N)N');
    const M = 4 * C + 11 * H + 5 * N;
    assert.ok(Math.abs(adduct(p, '[M+H]+')!.mz - (M + H - e)) < 1e-6);
    assert.equal(adduct(p, '[M+H]+')!.formula, 'C4H12N5+');
    assert.ok(Math.abs(firstIsotope(p).mass - M) < 1e-6);
    // sodium ibuprofen: the ibuprofen anion
    const s = props('[Na+].CC(C)Cc1ccc(cc1)C(C)C(=O)[O-]');
    assert.deepEqual(
      s.ms!.adducts.map((a) => [a.adduct, a.formula]),
      [['[M]-', 'C13H17O2-']],
    );
  });

  test('no [M-H]- without a hydrogen; dummy atoms give no hints', () => {
    const p = props('ClC(Cl)(Cl)Cl');
    assert.equal(adduct(p, '[M-H]-'), undefined);
    assert.ok(adduct(p, '[M+Cl]-'));
    assert.equal(props('*C(=O)O').ms, null);
  });

  // Abundances: RDKit's periodic table (IUPAC 1997 representative compositions, Rosman &
  // Taylor 1998): 12C 98.93, 13C 1.07; 1H 99.9885, 2H 0.0115; 35Cl 75.78, 37Cl 24.22;
  // 79Br 50.69, 81Br 49.31; 32S 94.93, 33S 0.76, 34S 4.29, 36S 0.02 (percent).
  // r = 13C/12C = 1.07/98.93 = 0.0108157
  test('chlorobenzene: M+2 about 32% of M', () => {
    const p = props('Clc1ccccc1');
    // M+2/M = 37Cl/35Cl + 13C2 = 24.22/75.78 + C(6,2) r^2 = 31.961% + 0.175% = 32.14%
    const r = ratio(p, 'M+2');
    assert.ok(Math.abs(r - 32.14) < 0.02, `M+2/M = ${r}`);
    // M+1/M = 6 r + 5 * 0.0115/99.9885 = 6.489% + 0.058% = 6.547%
    assert.ok(Math.abs(ratio(p, 'M+1') - 6.547) < 0.01, `M+1/M = ${ratio(p, 'M+1')}`);
    assert.equal(peak(p, 'M')!.relative_abundance, 100);
    assert.ok(Math.abs(peak(p, 'M')!.mass - p.monoisotopic_mass) < 1e-9);
    // the M+2 peak is mostly C6H5(37Cl): 72 + 5*1.007825032 + 36.965902602
    assert.ok(Math.abs(peak(p, 'M+2')!.mass - (72 + 5 * H + 36.965902602)) < 0.002);
  });

  test('bromobenzene: M+2 about 97% of M', () => {
    const p = props('Brc1ccccc1');
    // M+2/M = 81Br/79Br + 13C2 = 49.31/50.69 + 0.175% = 97.278% + 0.175% = 97.45%
    const r = ratio(p, 'M+2');
    assert.ok(Math.abs(r - 97.45) < 0.03, `M+2/M = ${r}`);
  });

  test('dibromomethane: 1:2:1 triplet, M+2 is the base peak', () => {
    const p = props('BrCBr');
    assert.equal(peak(p, 'M+2')!.relative_abundance, 100);
    // (M : M+2 : M+4) = 1 : 2*0.97278 : 0.97278^2 -> M+2/M = 194.56%, M+4/M = 94.63%
    assert.ok(Math.abs(ratio(p, 'M+2') - 194.56) < 0.05, `${ratio(p, 'M+2')}`);
    assert.ok(Math.abs(ratio(p, 'M+4') - 94.63) < 0.05, `${ratio(p, 'M+4')}`);
  });

  test('thiophene and an S2 compound: the 34S M+2', () => {
    const p = props('c1ccsc1');
    // M+2/M = 34S/32S + 13C2 + 33S*13C = 4.29/94.93 + C(4,2) r^2 + (0.76/94.93)(4r)
    //       = 4.519% + 0.070% + 0.035% = 4.624% (+ 0.002% from 2H)
    assert.ok(Math.abs(ratio(p, 'M+2') - 4.626) < 0.005, `${ratio(p, 'M+2')}`);
    // M+1/M = 4r + 33S/32S + 4 * 2H = 4.326% + 0.801% + 0.046% = 5.173%
    assert.ok(Math.abs(ratio(p, 'M+1') - 5.173) < 0.005, `${ratio(p, 'M+1')}`);
    const dmds = props('CSSC');
    // M+2/M = 2 * 4.519% + 33S2 0.006% + 13C2 0.012% + 33S*13C 0.035% = 9.09%
    assert.ok(Math.abs(ratio(dmds, 'M+2') - 9.09) < 0.01, `${ratio(dmds, 'M+2')}`);
  });

  test('isotope labels and elements without a lighter isotope', () => {
    // 13CH4: the label is fixed, M is 13CH4 and there is no carbon M+1 contribution
    const p = props('[13CH4]');
    assert.ok(Math.abs(peak(p, 'M')!.mass - (13.00335484 + 4 * H)) < 1e-6);
    // M+1 would only be 2H: 4 * 0.0115% = 0.046% of M, below the 0.1% cut
    assert.deepEqual(
      p.ms!.isotopes.map((x) => x.label),
      ['M'],
    );
    // iron: 54Fe (5.845%) shows as M-2 against 56Fe (91.754%)
    const fe = props('[Fe]');
    assert.ok(Math.abs(ratio(fe, 'M-2') - (100 * 5.845) / 91.754) < 0.01);
  });

  test('vanadium: M is 51V, the monoisotopic mass; 50V shows as M-1', () => {
    // RDKit 2022.09's table calls 50V (0.25 %) vanadium's most common isotope; MinimalLib
    // 2026.09 (monoisotopic_mass) and the hints use 51V (99.75 %).
    const V51 = 50.9439595;
    const V50 = 49.9471585;
    const v = props('[V]');
    assert.ok(Math.abs(v.monoisotopic_mass - V51) < 1e-9);
    assert.deepEqual(
      v.ms!.isotopes.map((x) => x.label),
      ['M-1', 'M'],
    );
    assert.ok(Math.abs(peak(v, 'M')!.mass - V51) < 1e-9);
    assert.equal(peak(v, 'M')!.relative_abundance, 100);
    // M-1/M = 0.25 / 99.75 = 0.2506 %
    assert.ok(Math.abs(peak(v, 'M-1')!.mass - V50) < 1e-9);
    assert.ok(Math.abs(ratio(v, 'M-1') - (100 * 0.25) / 99.75) < 1e-6);
    // [M+H]+ = 50.9439595 + 1.007825032 - 0.000548580 = 51.951235952
    assert.ok(Math.abs(adduct(v, '[M+H]+')!.mz - (V51 + H - e)) < 1e-9);
    // metavanadic acid HVO3: M = 50.9439595 + 3 * 15.99491462 + 1.007825032 = 99.936528392
    const hvo3 = props('O=[V](=O)O');
    const M = V51 + 3 * O + H;
    assert.ok(Math.abs(M - 99.936528392) < 1e-9);
    assert.ok(Math.abs(hvo3.monoisotopic_mass - M) < 1e-6);
    assert.equal(peak(hvo3, 'M')!.relative_abundance, 100);
    // M is the monoisotopic mass (isotopologues with 50V and one heavier atom weigh in at 1e-7)
    assert.ok(Math.abs(peak(hvo3, 'M')!.mass - M) < 1e-6);
    const labels = hvo3.ms!.isotopes.map((x) => x.label);
    assert.deepEqual(labels, ['M-1', 'M', 'M+1', 'M+2']);
    assert.deepEqual(
      hvo3.ms!.isotopes.map((x) => x.mass),
      [...hvo3.ms!.isotopes.map((x) => x.mass)].sort((a, b) => a - b),
      'peaks in mass order, one nominal mass apart',
    );
    // [M+H]+ = 99.936528392 + 1.007825032 - 0.000548580 = 100.943804844
    assert.ok(Math.abs(adduct(hvo3, '[M+H]+')!.mz - 100.943804844) < 1e-6);
    assert.ok(Math.abs(adduct(hvo3, '[M-H]-')!.mz - (M - H + e)) < 1e-6);
    // orthovanadate VO4(3-): its own ion, m/z = (M + 3e) / 3
    const vo4 = props('[O-][V](=O)([O-])[O-]');
    assert.equal(firstAdduct(vo4).adduct, '[M]3-');
    assert.ok(Math.abs(firstAdduct(vo4).mz - vo4.monoisotopic_mass / 3) < 1e-9);
    assert.ok(Math.abs(firstAdduct(vo4).mz - (V51 + 4 * O + 3 * e) / 3) < 1e-9);
  });

  test('every element: M and the adducts are built on the isotope of monoisotopic_mass', () => {
    // Covers the three elements whose "most common isotope" RDKit 2026.09 changed (V, Rn, Ra),
    // and fails if a MinimalLib upgrade changes another (then rerun scripts/rdkit/export_monoisotopic.ts).
    let n = 0;
    for (let z = 1; z <= 118; z++) {
      const element = ELEMENTS[z];
      assert.ok(element, `element ${z}`);
      const sym = element.symbol;
      const p = props(`[${sym}]`);
      const m = peak(p, 'M')!;
      assert.ok(Math.abs(m.mass - p.monoisotopic_mass) < 1e-9, `${sym}: M ${m.mass} vs monoisotopic_mass ${p.monoisotopic_mass}`);
      assert.equal(m.relative_abundance, 100, `${sym}: M is the most abundant isotope`);
      assert.ok(Math.abs(adduct(p, '[M+H]+')!.mz - (p.monoisotopic_mass + H - e)) < 1e-9, sym);
      n++;
    }
    assert.equal(n, 118);
  });
});

describe('schemas', () => {
  test('ids and references', () => {
    assert.deepEqual(
      PROPERTIES_SCHEMAS.map((s) => s.$id),
      ['RuleCheck', 'MsAdduct', 'IsotopePeak', 'MassSpecHints', 'MolecularProperties'],
    );
    const mp = PROPERTIES_SCHEMAS[4] as unknown as { properties: Record<string, { $ref?: string; description?: string; anyOf?: { $ref?: string }[] }> };
    assert.equal(mp.properties.lipinski?.$ref, 'RuleCheck');
    assert.deepEqual(
      mp.properties.ms?.anyOf?.map((x) => x.$ref ?? null),
      ['MassSpecHints', null],
    );
    const hints = PROPERTIES_SCHEMAS[3] as unknown as { properties: Record<string, { items: { $ref: string } }> };
    assert.equal(hints.properties.adducts?.items.$ref, 'MsAdduct');
    assert.equal(hints.properties.isotopes?.items.$ref, 'IsotopePeak');
    for (const [k, v] of Object.entries(mp.properties)) assert.ok(v.description, `${k} has a description`);
  });

  test('every result validates against MolecularProperties', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const s of PROPERTIES_SCHEMAS) ajv.addSchema(s);
    const validate = ajv.getSchema('MolecularProperties')!;
    let n = 0;
    for (const p of results.values()) {
      if (!p) continue;
      assert.ok(validate(p), JSON.stringify(validate.errors));
      n++;
    }
    assert.ok(n > 1000);
    assert.equal(validate({ ...results.get('CCO.O')!, extra: 1 }), false, 'no undeclared fields');
  });
});
