// The /describe task kind: helper around describeMolecule (src/chem/properties) that adds
// the canonical cache key. Runs inside a chemistry worker thread.
import { describeMolecule, type DescribeResult } from './properties/index.js';
import { canonicalSmiles, countAtomTokens, MAX_GRAPH_ATOMS, parseSmiles, tooManyAtoms, type RDKitModule } from './depict.js';
import { MAX_INPUT_CHARS } from './limits.js';

export interface DescribeOptions {
  /** Return the canonical cache key (costs one extra parse; skipped when caching is off). */
  key: boolean;
}

export interface DescribeOutcome extends DescribeResult {
  key: string | null;
}

export function describeItem(rdkit: RDKitModule, smiles: string, opts: DescribeOptions): DescribeOutcome {
  if (smiles.length > MAX_INPUT_CHARS) return { key: null, properties: null, error: 'too_large' };
  let key: string | null = null;
  if (opts.key) {
    const mol = parseSmiles(rdkit, smiles);
    if (!mol) return { key: null, properties: null, error: 'unparseable' };
    try {
      if (tooManyAtoms(mol)) return { key: null, properties: null, error: 'too_large' };
      key = canonicalSmiles(mol, smiles);
    } finally {
      mol.delete();
    }
  } else if (countAtomTokens(smiles) > MAX_GRAPH_ATOMS) {
    // The same rule as depiction (tooManyAtoms) without a parse: floods of `*` or [H] atoms.
    return { key: null, properties: null, error: 'too_large' };
  }
  const r = describeMolecule(rdkit, smiles);
  return { key: r.properties ? key : null, properties: r.properties, error: r.error };
}
