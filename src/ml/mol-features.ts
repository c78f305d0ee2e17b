// Molecule-level features appended to the D-MPNN's molecule vector before its feed-forward
// network (chemprop's `features_generator` idea; docs/models.md, "Molecule features").
//
// "rdkit_2d": every descriptor of RDKit MinimalLib's Mol.get_descriptors() (43 of them in
// MinimalLib 2026.09: masses, Crippen logP and molar refractivity, TPSA, Labute ASA, H-bond
// donors and acceptors, ring, atom and stereocentre counts, the chi and kappa indices, Phi, ...),
// in the order of their sorted names. Normalised with the training split's mean and population
// standard deviation, then clipped to +-CLIP: a molecule far outside the training set (a
// descriptor 40 standard deviations out) cannot drive the network outside what it learnt.
// The names, means and deviations are stored in the model, which computes the same features
// for every molecule it predicts.
import type { Mol } from '@rdkit/rdkit';

export type MoleculeFeatureSet = 'none' | 'rdkit_2d';
export const MOLECULE_FEATURE_SETS: readonly MoleculeFeatureSet[] = ['none', 'rdkit_2d'];

/** Normalised values are clipped to +-CLIP. */
export const CLIP = 5;

/** What a model stores to compute its molecule features again. */
export interface MoleculeFeatureSpec {
  generator: 'rdkit_2d';
  /** MinimalLib's descriptor names, in the order of the features */
  names: string[];
  mean: number[];
  std: number[];
  clip: number;
}

/** The raw descriptors of a molecule under `names` (all, sorted, when null); NaN where MinimalLib gives none. */
export function rawDescriptors(mol: Mol, names: readonly string[] | null): { names: string[]; values: Float64Array; missing: string[] } {
  const d = JSON.parse(mol.get_descriptors()) as Record<string, unknown>;
  const use = names ?? Object.keys(d).sort();
  const missing: string[] = [];
  const values = Float64Array.from(use, (n) => {
    const v = d[n];
    if (v === undefined) missing.push(n);
    return typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN;
  });
  return { names: [...use], values, missing };
}

/** The training split's means and deviations (missing values ignored; a constant descriptor gets deviation 1). */
export function fitFeatureSpec(names: readonly string[], rows: readonly Float64Array[]): MoleculeFeatureSpec {
  const d = names.length;
  const mean: number[] = [];
  const std: number[] = [];
  for (let j = 0; j < d; j++) {
    let s = 0;
    let n = 0;
    for (const r of rows) {
      const v = r[j] as number;
      if (Number.isFinite(v)) {
        s += v;
        n++;
      }
    }
    const m = n ? s / n : 0;
    let v2 = 0;
    for (const r of rows) {
      const v = r[j] as number;
      if (Number.isFinite(v)) v2 += (v - m) ** 2;
    }
    const sd = n ? Math.sqrt(v2 / n) : 0;
    mean.push(m);
    std.push(sd > 1e-12 ? sd : 1);
  }
  return { generator: 'rdkit_2d', names: [...names], mean, std, clip: CLIP };
}

/** Normalised, clipped features (a missing descriptor is the training mean: 0). */
export function normaliseFeatures(spec: MoleculeFeatureSpec, raw: Float64Array): Float32Array {
  const out = new Float32Array(spec.names.length);
  for (let j = 0; j < out.length; j++) {
    const v = raw[j] as number;
    if (!Number.isFinite(v)) continue;
    const z = (v - (spec.mean[j] as number)) / (spec.std[j] as number);
    out[j] = Math.max(-spec.clip, Math.min(spec.clip, z));
  }
  return out;
}

/** The model's features of a molecule; refuses a build whose MinimalLib lacks one of the model's descriptors. */
export function moleculeFeatures(mol: Mol, spec: MoleculeFeatureSpec): Float32Array {
  const raw = rawDescriptors(mol, spec.names);
  if (raw.missing.length) throw new Error(`the model uses RDKit descriptors this build does not compute: ${raw.missing.join(', ')}`);
  return normaliseFeatures(spec, raw.values);
}

/** What a model card says about the molecule features of a model (its config's spec). */
export function describeMoleculeFeatures(spec: MoleculeFeatureSpec | null | undefined): Record<string, unknown> {
  if (!spec) return { set: 'none', description: "none: the D-MPNN's learnt molecule vector alone (chemprop's default)" };
  return {
    set: spec.generator,
    description: `${spec.names.length} RDKit 2D descriptors (RDKit MinimalLib Mol.get_descriptors()) appended to the molecule vector before the feed-forward network; standardised with the training split's mean and standard deviation, clipped to +-${spec.clip}; computed for every molecule predicted`,
    descriptors: spec.names,
  };
}
