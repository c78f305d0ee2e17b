// Morgan fingerprints (radius 2, 2048 bits, RDKit MinimalLib) and Tanimoto similarity, for the
// applicability domain: a molecule is in domain when its highest Tanimoto similarity to a
// training molecule reaches the model's threshold (docs/models.md, "Applicability domain").
import type { Mol } from '@rdkit/rdkit';

export const FP_RADIUS = 2;
export const FP_BITS = 2048;
export const FP_BYTES = FP_BITS / 8;
const FP_DETAILS = JSON.stringify({ radius: FP_RADIUS, nBits: FP_BITS });

const POPCOUNT = new Uint8Array(256);
for (let i = 1; i < 256; i++) POPCOUNT[i] = (POPCOUNT[i >> 1] as number) + (i & 1);

/** The fingerprint of a parsed molecule, FP_BYTES bytes (bit i is bit i % 8 of byte i >> 3). */
export function morganFingerprint(mol: Mol): Uint8Array {
  const fp = mol.get_morgan_fp_as_uint8array(FP_DETAILS) as Uint8Array;
  return Uint8Array.from(fp);
}

function popcount(a: Uint8Array, offset = 0): number {
  let n = 0;
  for (let i = 0; i < FP_BYTES; i++) n += POPCOUNT[a[offset + i] as number] as number;
  return n;
}

/**
 * Highest Tanimoto similarity of `fp` to the fingerprints packed in `library` (count x
 * FP_BYTES bytes); 0 for an empty library. Two empty fingerprints count as identical (1).
 */
export function maxTanimoto(fp: Uint8Array, library: Uint8Array): number {
  const count = library.length / FP_BYTES;
  const a = popcount(fp);
  let best = 0;
  for (let k = 0; k < count; k++) {
    const o = k * FP_BYTES;
    let both = 0;
    let b = 0;
    for (let i = 0; i < FP_BYTES; i++) {
      const x = library[o + i] as number;
      b += POPCOUNT[x] as number;
      both += POPCOUNT[x & (fp[i] as number)] as number;
    }
    const union = a + b - both;
    const sim = union === 0 ? 1 : both / union;
    if (sim > best) best = sim;
  }
  return best;
}
