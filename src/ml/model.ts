// A trained model as plain data (JSON config + Float32Array weights + training fingerprints),
// and running its ensemble over featurised molecules.
import { stack, toTensors, disposeBatch } from './batch.js';
import { DmpnnParams, forward, parameterShapes, type Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import { FusedNet } from './fused.js';
import type { MoleculeFeatureSet, MoleculeFeatureSpec } from './mol-features.js';
import type { SplitOptions, Task } from './options.js';
import { tf } from './tf.js';

export const MODEL_FORMAT = 'crucible-dmpnn';
export const MODEL_FORMAT_VERSION = 1;

/** How a network is computed: fused.ts's kernels (the default) or TensorFlow.js (dmpnn.ts), docs/models.md "Speed". */
export type Engine = 'fused' | 'tfjs';

export interface ModelConfig {
  format: typeof MODEL_FORMAT;
  format_version: number;
  featurizer_version: string;
  task: Task;
  architecture: Architecture;
  hyperparameters: {
    depth: number;
    hidden_size: number;
    ffn_layers: number;
    dropout: number;
    epochs: number;
    batch_size: number;
    learning_rate: number;
    init_lr: number;
    final_lr: number;
    warmup_epochs: number;
    ensemble_size: number;
    seed: number;
    patience: number | null;
    aggregation: string;
    /** absent in models made before molecule features existed: "none" */
    molecule_features?: MoleculeFeatureSet;
  };
  /** how the molecule features are computed (names, normalisation); null or absent: none */
  molecule_features?: MoleculeFeatureSpec | null;
  /** standard scaler of regression targets (population standard deviation); null for classification */
  scaler: { mean: number; std: number } | null;
  applicability_domain: {
    rule: 'max_tanimoto_to_training_set';
    fingerprint: 'morgan';
    radius: number;
    n_bits: number;
    threshold: number;
    training_molecules: number;
  };
  members: { seed: number; best_epoch: number; epochs_run: number; val_metric: number | null }[];
  parameters: { name: string; shape: number[] }[];
  split: SplitOptions & { train: number; val: number; test: number };
  metric: 'rmse' | 'roc_auc';
  created_with: { tfjs: string; rdkit: string };
}

export interface TrainedModel {
  config: ModelConfig;
  /** weights[member][parameter], in config.parameters order */
  weights: Float32Array[][];
  /** fingerprints of the training molecules, count x 256 bytes */
  fingerprints: Uint8Array;
}

/** Raw outputs (scaled regression values or logits) of one parameter set, in batches. */
export function rawOutputs(params: DmpnnParams, mols: readonly MolFeatures[], batchSize = 256): Float32Array {
  const out = new Float32Array(mols.length);
  for (let i = 0; i < mols.length; i += batchSize) {
    const batch = toTensors(stack(mols.slice(i, i + batchSize)));
    try {
      const values = tf.tidy(() => forward(params, batch, null));
      out.set(values.dataSync() as Float32Array, i);
      values.dispose();
    } finally {
      disposeBatch(batch);
    }
  }
  return out;
}

/** Raw output -> prediction in target units (regression) or probability (classification). */
export function toPrediction(config: Pick<ModelConfig, 'task' | 'scaler'>, raw: number): number {
  if (config.task === 'classification') return 1 / (1 + Math.exp(-raw));
  const s = config.scaler ?? { mean: 0, std: 1 };
  return raw * s.std + s.mean;
}

/** Raw outputs of each member's weights (members x molecules), by `engine`. */
export function memberOutputs(arch: Architecture, weights: readonly Float32Array[][], mols: readonly MolFeatures[], engine: Engine = 'fused'): Float32Array[] {
  const shapes = parameterShapes(arch);
  for (const w of weights) if (w.length !== shapes.length) throw new Error('the model weights do not match its architecture');
  if (engine === 'fused') {
    const net = new FusedNet(arch, false);
    const idx = mols.map((_, i) => i);
    return weights.map((w) => {
      net.setWeights(w);
      const out = new Float32Array(mols.length);
      net.evaluate(mols, idx, out);
      return out;
    });
  }
  return weights.map((w) => {
    const params = new DmpnnParams(arch, w, false);
    try {
      return rawOutputs(params, mols);
    } finally {
      params.dispose();
    }
  });
}

/** Each member's predictions, members x molecules. */
export function memberPredictions(model: TrainedModel, mols: readonly MolFeatures[], engine: Engine = 'fused'): Float64Array[] {
  return memberOutputs(model.config.architecture, model.weights, mols, engine).map((raw) => Float64Array.from(raw, (r) => toPrediction(model.config, r)));
}

/** Ensemble mean and standard deviation (population, across members; null for one member) per molecule. */
export function ensembleStats(perMember: readonly Float64Array[], count: number): { mean: Float64Array; std: (number | null)[] } {
  const k = perMember.length;
  const mean = new Float64Array(count);
  const std: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    let s = 0;
    for (const p of perMember) s += p[i] as number;
    const m = s / k;
    mean[i] = m;
    if (k < 2) std.push(null);
    else {
      let v = 0;
      for (const p of perMember) v += ((p[i] as number) - m) ** 2;
      std.push(Math.sqrt(v / k));
    }
  }
  return { mean, std };
}
