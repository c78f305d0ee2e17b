// Bemis-Murcko scaffolds (src/ml/scaffold.ts) against native RDKit's
// MurckoScaffold.GetScaffoldForMol over the featuriser fixture's molecules
// (scripts/rdkit/mpnn_features_reference.py): the same atoms kept, and the same scaffold once
// both are written as MinimalLib canonical SMILES.
// Run: node --import tsx --test test/ml/scaffold.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseSmiles } from '../../src/chem/depict.js';
import { readMolGraph } from '../../src/chem/molgraph.js';
import { mlGraph } from '../../src/ml/molgraph.js';
import { getRDKit, type RDKitModule } from '../../src/chem/rdkit.js';
import { murckoScaffold, scaffoldAtoms } from '../../src/ml/scaffold.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const reference = JSON.parse(fs.readFileSync(path.join(here, '../fixtures/ml/mpnn-features-reference.json'), 'utf8')) as {
  molecules: { name: string; smiles: string; scaffold_atoms: number[]; scaffold_smiles: string }[];
};

/** Molecules native RDKit 2022.09 reads and MinimalLib 2026.09 refuses (docs/models.md). */
const NOT_READ_BY_MINIMALLIB = new Set(['NCI 4844']);

let rdkit: RDKitModule;
before(async () => {
  rdkit = await getRDKit();
});

function canonical(smiles: string): string {
  if (smiles === '') return '';
  const mol = rdkit.get_mol(smiles);
  try {
    return mol?.is_valid() ? mol.get_smiles() : `unreadable ${smiles}`;
  } finally {
    mol?.delete();
  }
}

describe('Bemis-Murcko scaffolds against native RDKit', () => {
  test('the same atoms are kept for every molecule', () => {
    const bad: string[] = [];
    let compared = 0;
    for (const ref of reference.molecules) {
      if (NOT_READ_BY_MINIMALLIB.has(ref.name)) continue;
      const mol = parseSmiles(rdkit, ref.smiles);
      assert.ok(mol, ref.smiles);
      try {
        const kept = scaffoldAtoms(mlGraph(readMolGraph(mol.get_json())));
        compared++;
        if (JSON.stringify(kept) !== JSON.stringify(ref.scaffold_atoms))
          bad.push(`${ref.name} ${ref.smiles}: ours ${JSON.stringify(kept)}, native ${JSON.stringify(ref.scaffold_atoms)}`);
      } finally {
        mol.delete();
      }
    }
    assert.ok(compared >= 560, `${compared} compared`);
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} differ`);
  });

  test('the same scaffold SMILES (both canonicalised by MinimalLib)', () => {
    const bad: string[] = [];
    for (const ref of reference.molecules) {
      if (NOT_READ_BY_MINIMALLIB.has(ref.name)) continue;
      const ours = murckoScaffold(rdkit, ref.smiles);
      const native = canonical(ref.scaffold_smiles);
      if (ours !== native) bad.push(`${ref.name} ${ref.smiles}: ours ${String(ours)}, native ${native} (${ref.scaffold_smiles})`);
    }
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} differ`);
  });

  test('examples', () => {
    assert.equal(murckoScaffold(rdkit, 'CCCCCC(=O)O'), '');
    assert.equal(murckoScaffold(rdkit, 'Cn1cccc1'), 'c1cc[nH]c1');
    assert.equal(murckoScaffold(rdkit, 'CC(=O)Oc1ccccc1C(=O)O'), 'c1ccccc1');
    assert.equal(murckoScaffold(rdkit, 'O=C1CCC(C)CC1'), 'O=C1CCCCC1');
    assert.equal(murckoScaffold(rdkit, 'not a molecule'), null);
  });
});
