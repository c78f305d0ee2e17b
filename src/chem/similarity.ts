// Similarity of fingerprints packed as bit vectors (bit i is bit i % 8 of byte i >> 3), the one
// implementation the chemistry jobs (similarity search, Butina clustering), the utilities and
// the D-MPNN's applicability domain use (docs/models.md, "Applicability domain and uncertainty").
//
// Tanimoto = c / (a + b - c) as a double (c common bits, a and b bits set), exactly RDKit's
// TanimotoSimilarity for ExplicitBitVect (1 when both are empty), so results are bit-identical to
// native RDKit for the same fingerprints.

/** Bits set in a byte. */
const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + (POP8[i >> 1] ?? 0);

/** Bits set in a packed bit vector. */
export function popcount(fp: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < fp.length; i++) n += POP8[fp[i] ?? 0] ?? 0;
  return n;
}

/**
 * Bits set in both of two packed bit vectors of the same length, and in each; `b` may be read
 * from `offset` on (one fingerprint of several packed end to end).
 */
export function bitOverlap(a: Uint8Array, b: Uint8Array, offset = 0): { common: number; na: number; nb: number } {
  let common = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[offset + i] ?? 0;
    common += POP8[x & y] ?? 0;
    na += POP8[x] ?? 0;
    nb += POP8[y] ?? 0;
  }
  return { common, na, nb };
}

/** RDKit's TanimotoSimilarity from the bit counts: `common` bits in both, `a` and `b` set in each (1 for two empty vectors). */
export function tanimoto(common: number, a: number, b: number): number {
  const denom = a + b - common;
  return denom === 0 ? 1 : common / denom;
}

/** RDKit's TanimotoSimilarity of two packed bit vectors of the same length (1 for two empty ones, as RDKit). */
export function tanimotoBytes(a: Uint8Array, b: Uint8Array): number {
  const o = bitOverlap(a, b);
  return tanimoto(o.common, o.na, o.nb);
}

/**
 * Highest Tanimoto similarity of `fp` to the fingerprints packed end to end in `library` (each
 * as long as `fp`); 0 for an empty library.
 */
export function maxTanimoto(fp: Uint8Array, library: Uint8Array): number {
  const count = fp.length === 0 ? 0 : Math.floor(library.length / fp.length);
  let best = 0;
  for (let k = 0; k < count; k++) {
    const o = bitOverlap(fp, library, k * fp.length);
    const sim = tanimoto(o.common, o.na, o.nb);
    if (sim > best) best = sim;
  }
  return best;
}
