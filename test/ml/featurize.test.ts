// The D-MPNN featuriser (src/ml/featurize.ts) against native RDKit: chemprop v2's default atom
// and bond vectors, reproduced with native RDKit 2022.09 by
// scripts/rdkit/mpnn_features_reference.py over 500 NCI molecules and hand-picked edge cases,
// must equal ours from RDKit MinimalLib for every atom and bond of every molecule.
// Run: node --import tsx --test test/ml/featurize.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ATOM_FDIM, BOND_FDIM, featurizeAll, FEATURIZER_VERSION, type ParsedMolecule } from '../../src/ml/featurize.js';
import { getRDKit, type RDKitModule } from '../../src/chem/rdkit.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface RefMolecule {
  name: string;
  source: string;
  smiles: string;
  atoms: { hot: number[]; mass: number; raw: unknown[] }[];
  bonds: { atoms: [number, number]; hot: number[]; raw: unknown[] }[];
}
const reference = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/ml/mpnn-features-reference.json'), 'utf8')) as {
  rdkit_version: string;
  molecules: RefMolecule[];
};

/**
 * The residual differences, all between native RDKit 2022.09 and MinimalLib 2026.09 rather than
 * in our code (docs/models.md, "Featurisation"): a molecule the newer RDKit refuses (P with six
 * bonds, no charge), and two N atoms whose hybridisation the newer RDKit perceives differently.
 */
const NOT_PARSED = new Set(['NCI 4844']);
const ATOM_DIFFERENCES = new Set(['NCI 3880/4', 'NCI 3880/16']);

let rdkit: RDKitModule;
let ours: (ParsedMolecule | null)[];

before(async () => {
  rdkit = await getRDKit();
  ours = featurizeAll(
    rdkit,
    reference.molecules.map((m) => m.smiles),
  );
});
after(() => {});

/** Hot positions of row r of a matrix with `dim` columns, the last (mass) column left out for atoms. */
function hot(values: Float32Array, r: number, dim: number, skipLast: boolean): number[] {
  const out: number[] = [];
  for (let j = 0; j < dim - (skipLast ? 1 : 0); j++) if (values[r * dim + j] === 1) out.push(j);
  return out;
}

describe('featurisation against native RDKit (chemprop v2 defaults)', () => {
  test('the fixture has at least 500 NCI molecules and the hand-picked ones', () => {
    assert.ok(reference.molecules.filter((m) => m.source === 'nci').length >= 500);
    assert.ok(reference.molecules.some((m) => m.source === 'hand'));
    assert.equal(ATOM_FDIM, 72);
    assert.equal(BOND_FDIM, 14);
    assert.match(FEATURIZER_VERSION, /^chemprop-v2-default\//);
  });

  test('every molecule parses, with the same atoms and bonds in the same order', () => {
    const bad: string[] = [];
    for (const [i, ref] of reference.molecules.entries()) {
      const f = ours[i]?.features;
      if (!f) {
        if (!NOT_PARSED.has(ref.name)) bad.push(`${ref.name}: not parsed`);
      } else if (NOT_PARSED.has(ref.name)) bad.push(`${ref.name}: parsed, listed as refused`);
      else if (f.nAtoms !== ref.atoms.length || f.nBonds !== ref.bonds.length)
        bad.push(`${ref.name}: ${f.nAtoms}/${f.nBonds} atoms/bonds, native ${ref.atoms.length}/${ref.bonds.length}`);
      else {
        for (const [b, rb] of ref.bonds.entries()) {
          if (f.bondAtoms[2 * b] !== rb.atoms[0] || f.bondAtoms[2 * b + 1] !== rb.atoms[1]) bad.push(`${ref.name}: bond ${b} joins other atoms`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });

  test('atom vectors equal native RDKit for every atom (one-hot parts exactly, mass to 1e-6)', () => {
    const bad: string[] = [];
    let atoms = 0;
    for (const [i, ref] of reference.molecules.entries()) {
      const f = ours[i]?.features;
      if (!f) continue;
      for (const [a, ra] of ref.atoms.entries()) {
        atoms++;
        const got = hot(f.atoms, a, ATOM_FDIM, true);
        const mass = f.atoms[a * ATOM_FDIM + ATOM_FDIM - 1] as number;
        const same = JSON.stringify(got) === JSON.stringify(ra.hot) && Math.abs(mass - ra.mass) <= 1e-6;
        if (same === ATOM_DIFFERENCES.has(`${ref.name}/${a}`)) {
          bad.push(
            `${ref.name} (${ref.smiles}) atom ${a}: ours ${JSON.stringify(got)} ${mass.toFixed(5)}, native ${JSON.stringify(ra.hot)} ${ra.mass.toFixed(5)} raw ${JSON.stringify(ra.raw)}`,
          );
        }
      }
    }
    assert.ok(atoms > 8000, `${atoms} atoms compared`);
    assert.deepEqual(bad.slice(0, 20), [], `${bad.length} atoms differ`);
  });

  test('bond vectors equal native RDKit for every bond', () => {
    const bad: string[] = [];
    let bonds = 0;
    for (const [i, ref] of reference.molecules.entries()) {
      const f = ours[i]?.features;
      if (!f) continue;
      for (const [b, rb] of ref.bonds.entries()) {
        bonds++;
        const got = hot(f.bonds, b, BOND_FDIM, false);
        if (JSON.stringify(got) !== JSON.stringify(rb.hot))
          bad.push(`${ref.name} (${ref.smiles}) bond ${b}: ours ${JSON.stringify(got)}, native ${JSON.stringify(rb.hot)} raw ${JSON.stringify(rb.raw)}`);
      }
    }
    assert.ok(bonds > 8000, `${bonds} bonds compared`);
    assert.deepEqual(bad.slice(0, 20), [], `${bad.length} bonds differ`);
  });

  test('an unreadable SMILES gives null', () => {
    assert.deepEqual(featurizeAll(rdkit, ['not a molecule', 'C1CC']), [null, null]);
  });
});
