// Predictions of a trained model for a list of SMILES, one result per input, in order.
//
// prediction: the ensemble mean (target units, or the probability of class 1); uncertainty:
// the ensemble's standard deviation (population, across members), null for a single model;
// in_domain: whether the molecule's highest Tanimoto similarity (Morgan radius 2, 2048 bits)
// to the training molecules reaches the model's threshold; error: null, or why there is no
// prediction ("unreadable SMILES", or NON_FINITE when the model's output for the molecule is not
// a finite number: prediction and uncertainty are then null).
import { parseSmiles } from '../chem/depict.js';
import { FEATURIZER_VERSION, featurizeMol, withHybridisationQueries, type MolFeatures } from './featurize.js';
import { maxTanimoto } from '../chem/similarity.js';
import { morganFingerprint } from './fingerprint.js';
import { ensembleStats, memberPredictions, type TrainedModel } from './model.js';
import { moleculeFeatures } from './mol-features.js';
import { getRDKit, type RDKitModule } from '../chem/rdkit.js';
import { tfReady } from './tf.js';

/** The error of a molecule whose prediction (or ensemble spread) is not a finite number. */
export const NON_FINITE = 'the model gave no finite prediction for this molecule';

export interface Prediction {
  smiles: string;
  prediction: number | null;
  uncertainty: number | null;
  in_domain: boolean | null;
  /** highest Tanimoto similarity to a training molecule */
  similarity: number | null;
  error: string | null;
}

/** Predicts with an RDKit instance the caller holds (tfReady() must have resolved). */
export function predictWith(rdkit: RDKitModule, model: TrainedModel, smiles: readonly string[]): Prediction[] {
  if (model.config.featurizer_version !== FEATURIZER_VERSION) {
    throw new Error(`the model was trained with featuriser ${model.config.featurizer_version}; this build has ${FEATURIZER_VERSION}`);
  }
  const spec = model.config.molecule_features ?? null;
  const feats: (MolFeatures | null)[] = [];
  const sims: (number | null)[] = [];
  withHybridisationQueries(rdkit, (queries) => {
    for (const s of smiles) {
      const mol = typeof s === 'string' ? parseSmiles(rdkit, s.trim()) : null;
      if (!mol) {
        feats.push(null);
        sims.push(null);
        continue;
      }
      try {
        const f = featurizeMol(mol, queries);
        if (spec) f.extra = moleculeFeatures(mol, spec);
        feats.push(f);
        sims.push(maxTanimoto(morganFingerprint(mol), model.fingerprints));
      } finally {
        mol.delete();
      }
    }
  });
  const ok = feats.flatMap((f, i) => (f ? [i] : []));
  const perMember = memberPredictions(
    model,
    ok.map((i) => feats[i] as MolFeatures),
  );
  const stats = ensembleStats(perMember, ok.length);
  const out: Prediction[] = smiles.map((s) => ({ smiles: s, prediction: null, uncertainty: null, in_domain: null, similarity: null, error: 'unreadable SMILES' }));
  for (const [k, i] of ok.entries()) {
    const sim = sims[i] as number;
    const mean = stats.mean[k] as number;
    const std = stats.std[k] ?? null;
    const finite = Number.isFinite(mean) && (std === null || Number.isFinite(std));
    out[i] = {
      smiles: smiles[i] as string,
      prediction: finite ? mean : null,
      uncertainty: finite ? std : null,
      in_domain: sim >= model.config.applicability_domain.threshold,
      similarity: sim,
      error: finite ? null : NON_FINITE,
    };
  }
  return out;
}

/** Predicts with this thread's RDKit instance. */
export async function predict(model: TrainedModel, smiles: readonly string[]): Promise<Prediction[]> {
  const [rdkit] = await Promise.all([getRDKit(), tfReady()]);
  return predictWith(rdkit, model, smiles);
}
