// Molecular properties of a list of SMILES, in input order, as plain data: what POST /describe
// answers, callable without a request (by workflows and the Assistant). A bad input is an item
// with `error` and `detail`; only a pool with no working thread fails the whole call.
import type { ChemPool } from '../../chem/pool.js';
import type { DescribeResult, MolecularProperties } from '../../chem/properties/index.js';
import { AppError } from '../../errors.js';

export interface DescribeCommand {
  smiles: string[];
}

export interface DescribeItem {
  properties: MolecularProperties | null;
  error: DescribeResult['error'] | 'describe_failed';
  detail: string | null;
  canonical_smiles: string | null;
  inchi: string | null;
  inchikey: string | null;
}

export async function describeMolecules(chem: ChemPool, cmd: DescribeCommand): Promise<{ items: DescribeItem[] }> {
  const results = await chem.runCached('describe', cmd.smiles, { key: false }, '');
  if (results.length > 0 && results.every((r) => !r.ok && r.failure === 'unavailable')) {
    throw new AppError('unavailable', 'the chemistry workers are not available; try again shortly');
  }
  return {
    items: results.map((r) => {
      if (!r.ok) return { properties: null, error: 'describe_failed', detail: r.message, canonical_smiles: null, inchi: null, inchikey: null };
      const ids = r.value.identifiers;
      return {
        properties: r.value.properties,
        error: r.value.error,
        detail: r.value.detail ?? null,
        canonical_smiles: ids?.canonical_smiles ?? null,
        inchi: ids?.inchi ?? null,
        inchikey: ids?.inchikey ?? null,
      };
    }),
  };
}
