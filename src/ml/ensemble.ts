// Ensembles trained in parts: members trained separately (e.g. one per worker thread, each a
// trainModel call with ensemble_size 1 and seed base + k, which gives the same weights as
// member k of one ensemble_size call) merged into one model.
import type { TrainedModel } from './model.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One model with every member of `models`, in order; they must share everything but their members. */
export function mergeModels(models: readonly TrainedModel[]): TrainedModel {
  const first = models[0];
  if (!first) throw new Error('no model to merge');
  for (const m of models.slice(1)) {
    const a = first.config;
    const b = m.config;
    if (
      a.featurizer_version !== b.featurizer_version ||
      a.task !== b.task ||
      !same(a.architecture, b.architecture) ||
      !same(a.parameters, b.parameters) ||
      !same(a.scaler, b.scaler) ||
      !same(a.molecule_features ?? null, b.molecule_features ?? null) ||
      !same(a.split, b.split) ||
      !same(a.applicability_domain, b.applicability_domain)
    ) {
      throw new Error('models trained on different data or with different architectures cannot be merged');
    }
    if (m.fingerprints.length !== first.fingerprints.length || !m.fingerprints.every((v, i) => v === first.fingerprints[i]))
      throw new Error('models trained on different molecules cannot be merged');
  }
  const members = models.flatMap((m) => m.config.members);
  return {
    config: { ...first.config, members, hyperparameters: { ...first.config.hyperparameters, ensemble_size: members.length, seed: members[0]?.seed ?? 0 } },
    weights: models.flatMap((m) => m.weights),
    fingerprints: first.fingerprints,
  };
}
