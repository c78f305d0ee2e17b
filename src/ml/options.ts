// Training options: the hyperparameters of the contract with their ranges and defaults, and the
// training settings around them. Defaults follow chemprop (docs/models.md, "Training
// defaults and where they come from"); out-of-range values are input errors located at ["options", name].
import { invalidInput, type Issue } from '../errors.js';
import type { Aggregation, Architecture } from './dmpnn.js';
import { MOLECULE_FEATURE_SETS, type MoleculeFeatureSet } from './mol-features.js';

export type Task = 'regression' | 'classification';
export type SplitType = 'random' | 'scaffold';

export interface SplitOptions {
  type: SplitType;
  /** train, validation, test shares (sum 1; validation above 0) */
  sizes: [number, number, number];
  seed: number;
}

export interface TrainOptions {
  task?: Task;
  /** message-passing steps, 2..6 (3) */
  depth?: number;
  /** hidden size of messages and FFN, 32..600 (300) */
  hidden_size?: number;
  /** linear layers of the FFN, 1..3 (2) */
  ffn_layers?: number;
  /** dropout probability, 0..0.5 (0) */
  dropout?: number;
  /** 1..200 (50) */
  epochs?: number;
  /** 8..256 (50) */
  batch_size?: number;
  /** the peak (max) learning rate, 1e-5..0.1 (1e-3); warm-up starts and decay ends at a tenth of it */
  learning_rate?: number;
  /** 1..5 (1) */
  ensemble_size?: number;
  /** seed of member 0's weights, shuffles and dropout (member k uses seed + k) (0) */
  seed?: number;
  /** stop a member after this many epochs without a better validation metric; null: run all epochs (null) */
  patience?: number | null;
  /** "norm" (sum / 100, chemprop v2's default), "mean" or "sum" */
  aggregation?: Aggregation;
  warmup_epochs?: number;
  /** random 80/10/10 with seed 0 by default */
  split?: Partial<SplitOptions>;
  /** applicability domain: a molecule is in domain when its highest Tanimoto similarity to a training molecule is at least this (0.3) */
  ad_threshold?: number;
  /** molecule features appended before the FFN: "none" (chemprop's default) or "rdkit_2d" (normalised RDKit 2D descriptors; mol-features.ts) */
  molecule_features?: MoleculeFeatureSet;
}

export interface ResolvedOptions extends Architecture {
  task: Task;
  epochs: number;
  batch_size: number;
  learning_rate: number;
  init_lr: number;
  final_lr: number;
  warmup_epochs: number;
  ensemble_size: number;
  seed: number;
  patience: number | null;
  split: SplitOptions;
  ad_threshold: number;
  molecule_features: MoleculeFeatureSet;
}

interface Range {
  min: number;
  max: number;
  integer: boolean;
  default: number;
}

export const HYPERPARAMETER_RANGES: Record<'depth' | 'hidden_size' | 'ffn_layers' | 'dropout' | 'epochs' | 'batch_size' | 'learning_rate' | 'ensemble_size', Range> = {
  depth: { min: 2, max: 6, integer: true, default: 3 },
  hidden_size: { min: 32, max: 600, integer: true, default: 300 },
  ffn_layers: { min: 1, max: 3, integer: true, default: 2 },
  dropout: { min: 0, max: 0.5, integer: false, default: 0 },
  epochs: { min: 1, max: 200, integer: true, default: 50 },
  batch_size: { min: 8, max: 256, integer: true, default: 50 },
  learning_rate: { min: 1e-5, max: 0.1, integer: false, default: 1e-3 },
  ensemble_size: { min: 1, max: 5, integer: true, default: 1 },
};

/** Applies defaults and checks ranges; throws an AppError ('invalid') listing every bad option. */
export function resolveOptions(o: TrainOptions = {}): ResolvedOptions {
  const issues: Issue[] = [];
  const bad = (loc: (string | number)[], msg: string, input: unknown) => issues.push({ type: 'ml_option_invalid', loc: ['options', ...loc], msg, input });
  const num = (key: keyof typeof HYPERPARAMETER_RANGES): number => {
    const r = HYPERPARAMETER_RANGES[key];
    const v = o[key];
    if (v === undefined) return r.default;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < r.min || v > r.max || (r.integer && !Number.isInteger(v))) {
      bad([key], `must be ${r.integer ? 'an integer' : 'a number'} from ${r.min} to ${r.max}`, v);
      return r.default;
    }
    return v;
  };
  const task = o.task ?? 'regression';
  if (task !== 'regression' && task !== 'classification') bad(['task'], 'must be "regression" or "classification"', task);
  const aggregation = o.aggregation ?? 'norm';
  if (!['norm', 'mean', 'sum'].includes(aggregation)) bad(['aggregation'], 'must be "norm", "mean" or "sum"', aggregation);
  const epochs = num('epochs');
  const learning_rate = num('learning_rate');
  const seed = o.seed ?? 0;
  if (!Number.isSafeInteger(seed)) bad(['seed'], 'must be an integer', seed);
  const patience = o.patience ?? null;
  if (patience !== null && (!Number.isInteger(patience) || patience < 1)) bad(['patience'], 'must be a positive integer or null', patience);
  const warmup = o.warmup_epochs ?? 2;
  if (!Number.isInteger(warmup) || warmup < 0) bad(['warmup_epochs'], 'must be a non-negative integer', warmup);
  const features = o.molecule_features ?? 'none';
  if (!MOLECULE_FEATURE_SETS.includes(features)) bad(['molecule_features'], `must be ${MOLECULE_FEATURE_SETS.map((f) => `"${f}"`).join(' or ')}`, features);
  const ad = o.ad_threshold ?? 0.3;
  if (typeof ad !== 'number' || !(ad >= 0 && ad <= 1)) bad(['ad_threshold'], 'must be a number from 0 to 1', ad);
  const sizes = o.split?.sizes ?? [0.8, 0.1, 0.1];
  const sizesOk =
    Array.isArray(sizes) &&
    sizes.length === 3 &&
    sizes.every((s) => typeof s === 'number' && s >= 0 && s <= 1) &&
    Math.abs(sizes[0] + sizes[1] + sizes[2] - 1) < 1e-6 &&
    sizes[1] > 0;
  if (!sizesOk) bad(['split', 'sizes'], 'must be three shares (train, validation, test) summing to 1, validation above 0', sizes);
  const splitType = o.split?.type ?? 'random';
  if (splitType !== 'random' && splitType !== 'scaffold') bad(['split', 'type'], 'must be "random" or "scaffold"', splitType);
  const splitSeed = o.split?.seed ?? 0;
  if (!Number.isSafeInteger(splitSeed)) bad(['split', 'seed'], 'must be an integer', splitSeed);
  const depth = num('depth');
  const hidden_size = num('hidden_size');
  const ffn_layers = num('ffn_layers');
  const dropout = num('dropout');
  const batch_size = num('batch_size');
  const ensemble_size = num('ensemble_size');
  if (issues.length) throw invalidInput(issues);
  return {
    task,
    depth,
    hidden_size,
    ffn_layers,
    dropout,
    aggregation,
    aggregation_norm: 100,
    epochs,
    batch_size,
    learning_rate,
    init_lr: learning_rate / 10,
    final_lr: learning_rate / 10,
    // chemprop requires more epochs than warm-up epochs; a shorter run warms up for fewer
    warmup_epochs: Math.min(warmup, epochs - 1),
    ensemble_size,
    seed,
    patience,
    split: { type: splitType, sizes, seed: splitSeed },
    ad_threshold: ad,
    molecule_features: features,
  };
}
