// Morgan fingerprints (radius 2, 2048 bits, RDKit MinimalLib) for the applicability domain: a
// molecule is in domain when its highest Tanimoto similarity (maxTanimoto, src/chem/similarity.ts)
// to a training molecule reaches the model's threshold (docs/models.md, "Applicability domain and
// uncertainty").
import type { Mol } from '@rdkit/rdkit';

export const FP_RADIUS = 2;
export const FP_BITS = 2048;
export const FP_BYTES = FP_BITS / 8;
const FP_DETAILS = JSON.stringify({ radius: FP_RADIUS, nBits: FP_BITS });

/** The fingerprint of a parsed molecule, FP_BYTES bytes (bit i is bit i % 8 of byte i >> 3). */
export function morganFingerprint(mol: Mol): Uint8Array {
  const fp = mol.get_morgan_fp_as_uint8array(FP_DETAILS) as Uint8Array;
  return Uint8Array.from(fp);
}
