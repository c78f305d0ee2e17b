// The /describe task kind: helper around describeMolecule (src/chem/properties) that adds
// the canonical cache key. Runs inside a chemistry worker thread.
import { describeMolecule, type DescribeResult } from './properties/index.js';
import { canonicalSmiles, parseSmiles, tooManyAtomsOf } from './depict.js';
import type { RDKitModule } from './rdkit.js';
import { explainSmiles } from './explain.js';
import { tooLargeToParse } from './limits.js';

export interface DescribeOptions {
  /** Return the canonical cache key (costs one extra parse; skipped when caching is off). */
  key: boolean;
}

export interface DescribeOutcome extends DescribeResult {
  key: string | null;
}

export function describeItem(rdkit: RDKitModule, smiles: string, opts: DescribeOptions): DescribeOutcome {
  // The same size rules as depiction, checked before RDKit parses (long chains crash its parser).
  const large = tooLargeToParse(smiles);
  if (large) return { key: null, properties: null, error: 'too_large', detail: large };
  let key: string | null = null;
  if (opts.key) {
    const mol = parseSmiles(rdkit, smiles);
    if (!mol) return { key: null, properties: null, error: 'unparseable', detail: explainSmiles(rdkit, smiles) };
    try {
      const many = tooManyAtomsOf(mol);
      if (many) return { key: null, properties: null, error: 'too_large', detail: many };
      key = canonicalSmiles(mol, smiles);
    } finally {
      mol.delete();
    }
  }
  const r = describeMolecule(rdkit, smiles, { identifiers: true });
  return { ...r, key: r.properties ? key : null };
}
