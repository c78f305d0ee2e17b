// Training a D-MPNN ensemble: pure data in and out, so that it can run in a worker thread.
// Progress goes to `onEpoch` after each epoch of each member; `shouldStop` is asked before
// every batch, and a true answer ends training with a TrainingStopped error.
//
// Per member k (seed + k): PyTorch-style initial weights, Adam (PyTorch's betas and epsilon)
// with chemprop's warm-up/decay schedule stepped per batch, MSE on standard-scaled targets
// (regression) or binary cross-entropy on logits (classification), gradients from
// tf.variableGrads. After each epoch the validation metric (RMSE, or ROC AUC) is computed; the
// best epoch's weights are kept, and with `patience` set a member stops after that many epochs
// without improvement. Test metrics are the ensemble mean's. A run whose validation or test
// metrics or test predictions are not finite (the training diverged) is refused: an AppError
// ('invalid'), never a model (docs/models.md, "Training data").
import { descriptorMatrix } from './baselines.js';
import { prepareData, splitData, type DataReport, type Datum, type TrainingRow } from './data.js';
import { initialWeights, parameterShapes } from './dmpnn.js';
import { FEATURIZER_VERSION } from './featurize.js';
import { FP_BITS, FP_BYTES, FP_RADIUS, morganFingerprint } from './fingerprint.js';
import { classificationMetrics, regressionMetrics, type ClassificationMetrics, type RegressionMetrics } from './metrics.js';
import { ensembleStats, memberPredictions, MODEL_FORMAT, MODEL_FORMAT_VERSION, toPrediction, type ModelConfig, type TrainedModel } from './model.js';
import { fitFeatureSpec, normaliseFeatures, type MoleculeFeatureSpec } from './mol-features.js';
import { resolveOptions, type ResolvedOptions, type TrainOptions } from './options.js';
import { Prng } from './prng.js';
import { getRDKit, type RDKitModule } from '../chem/rdkit.js';
import { learningRate, type LrSchedule } from './schedule.js';
import { memberTrainer, type TrainRuntime } from './trainer.js';
import { tf, tfReady } from './tf.js';
import { parseSmiles } from '../chem/depict.js';
import { AppError } from '../errors.js';

export interface EpochInfo {
  /** ensemble member, 0-based */
  member: number;
  members: number;
  /** epoch just finished, 1-based */
  epoch: number;
  epochs: number;
  /** mean training loss over the epoch's batches (scaled MSE, or BCE) */
  train_loss: number;
  /** validation RMSE in target units (regression) or ROC AUC (classification; accuracy when the validation set has one class) */
  val_metric: number | null;
  /** learning rate at the end of the epoch */
  lr: number;
}

export class TrainingStopped extends Error {
  constructor() {
    super('training stopped on request');
    this.name = 'TrainingStopped';
  }
}

export interface TestPrediction {
  /** the row's index in the input */
  row: number;
  smiles: string;
  target: number;
  prediction: number;
  uncertainty: number | null;
}

export interface TrainResult {
  model: TrainedModel;
  learning_curve: EpochInfo[];
  /** ensemble metrics on the test split (null when the split has no test part) */
  test_metrics: RegressionMetrics | ClassificationMetrics | null;
  val_metrics: RegressionMetrics | ClassificationMetrics;
  test_predictions: TestPrediction[];
  data: DataReport;
  split: { train: number; val: number; test: number };
  /** the rows (input indices) of each part */
  split_rows: { train: number[]; val: number[]; test: number[] };
  duration_ms: number;
}

function metricsOf(o: ResolvedOptions, y: ArrayLike<number>, p: ArrayLike<number>): RegressionMetrics | ClassificationMetrics {
  return o.task === 'regression' ? regressionMetrics(y, p) : classificationMetrics(y, p);
}

/** The validation number reported and compared: RMSE (lower is better) or ROC AUC / accuracy (higher is better). */
function validationMetric(o: ResolvedOptions, y: ArrayLike<number>, p: ArrayLike<number>): number {
  if (o.task === 'regression') return (regressionMetrics(y, p) as RegressionMetrics).rmse;
  const m = classificationMetrics(y, p);
  return m.roc_auc ?? m.accuracy;
}
const better = (o: ResolvedOptions, a: number, b: number | null): boolean => b === null || (o.task === 'regression' ? a < b : a > b);

interface MemberResult {
  weights: Float32Array[];
  best_epoch: number;
  epochs_run: number;
  val_metric: number | null;
}

/** The resolved options and the number of molecule features the network takes. */
type NetOptions = ResolvedOptions & { extra_features: number };

async function trainMember(
  member: number,
  o: NetOptions,
  train: readonly Datum[],
  val: readonly Datum[],
  scaler: { mean: number; std: number } | null,
  curve: EpochInfo[],
  runtime: TrainRuntime,
  onEpoch?: (info: EpochInfo) => void,
  shouldStop?: () => boolean,
): Promise<MemberResult> {
  const seed = o.seed + member;
  const rng = new Prng(seed);
  const trainer = await memberTrainer(
    {
      arch: o,
      loss: o.task === 'regression' ? 'mse' : 'bce',
      batchSize: o.batch_size,
      initLr: o.init_lr,
      weights: initialWeights(o, rng),
      rng,
      train: train.map((d) => d.features),
    },
    runtime,
  );
  const stepsPerEpoch = Math.ceil(train.length / o.batch_size);
  const schedule: LrSchedule = {
    init_lr: o.init_lr,
    max_lr: o.learning_rate,
    final_lr: o.final_lr,
    warmup_epochs: o.warmup_epochs,
    epochs: o.epochs,
    steps_per_epoch: stepsPerEpoch,
  };
  const yTrain = Float32Array.from(train, (d) => (scaler ? (d.target - scaler.mean) / scaler.std : d.target));
  const valMols = val.map((d) => d.features);
  const valTargets = val.map((d) => d.target);
  const labels = new Float32Array(o.batch_size);
  let step = 0;
  let best: MemberResult = { weights: trainer.weights(), best_epoch: 0, epochs_run: 0, val_metric: null };
  let sinceBest = 0;
  try {
    for (let epoch = 1; epoch <= o.epochs; epoch++) {
      const order = rng.shuffle(Array.from({ length: train.length }, (_, i) => i));
      let lossSum = 0;
      for (let start = 0; start < order.length; start += o.batch_size) {
        if (shouldStop?.()) throw new TrainingStopped();
        const idx = order.slice(start, start + o.batch_size);
        for (const [k, i] of idx.entries()) labels[k] = yTrain[i] as number;
        lossSum += await trainer.step(idx, labels.subarray(0, idx.length), learningRate(schedule, step));
        step++;
      }
      const raw = trainer.outputs(valMols);
      const preds = Array.from(raw, (r) => toPrediction({ task: o.task, scaler }, r));
      const metric = validationMetric(o, valTargets, preds);
      const info: EpochInfo = {
        member,
        members: o.ensemble_size,
        epoch,
        epochs: o.epochs,
        train_loss: lossSum / train.length,
        val_metric: Number.isFinite(metric) ? metric : null,
        lr: learningRate(schedule, Math.max(0, step - 1)),
      };
      curve.push(info);
      best.epochs_run = epoch;
      if (Number.isFinite(metric) && better(o, metric, best.val_metric)) {
        best = { weights: trainer.weights(), best_epoch: epoch, epochs_run: epoch, val_metric: metric };
        sinceBest = 0;
      } else sinceBest++;
      onEpoch?.(info);
      if (o.patience !== null && sinceBest >= o.patience) break;
    }
    if (best.best_epoch === 0) best.weights = trainer.weights();
    return best;
  } finally {
    trainer.dispose();
  }
}

function fingerprintsOf(rdkit: RDKitModule, smiles: readonly string[]): Uint8Array {
  const out = new Uint8Array(smiles.length * FP_BYTES);
  for (const [i, s] of smiles.entries()) {
    const mol = parseSmiles(rdkit, s);
    if (!mol) continue;
    try {
      out.set(morganFingerprint(mol), i * FP_BYTES);
    } finally {
      mol.delete();
    }
  }
  return out;
}

/**
 * Refuses a result with a metric or test prediction that is not a finite number (null metrics,
 * such as R2 of a constant split, are allowed): an AppError ('invalid') saying so.
 */
export function assertFiniteResult(r: Pick<TrainResult, 'val_metrics' | 'test_metrics' | 'test_predictions'>): void {
  const bad: string[] = [];
  for (const [part, metrics] of [
    ['validation', r.val_metrics],
    ['test', r.test_metrics],
  ] as const) {
    for (const [name, v] of Object.entries(metrics ?? {})) if (v !== null && !Number.isFinite(v)) bad.push(`${part} ${name} ${String(v)}`);
  }
  const preds = r.test_predictions.filter((p) => !Number.isFinite(p.prediction) || (p.uncertainty !== null && !Number.isFinite(p.uncertainty))).length;
  if (preds) bad.push(`${preds} test predictions`);
  if (bad.length) {
    throw new AppError(
      'invalid',
      `training gave values that are not finite numbers (${bad.join(', ')}): the training diverged; lower learning_rate or check the targets' scale. No model was kept`,
    );
  }
}

/**
 * With `molecule_features` "rdkit_2d": every molecule's RDKit descriptors, normalised with the
 * training split's statistics, set as its features' `extra`; the spec the model keeps.
 */
function attachMoleculeFeatures(rdkit: RDKitModule, data: readonly Datum[], trainRows: readonly number[]): MoleculeFeatureSpec {
  const { names, rows } = descriptorMatrix(
    rdkit,
    data.map((d) => d.canonical),
  );
  const raw = rows.map((r) => Float64Array.from(r ?? names.map(() => Number.NaN)));
  const spec = fitFeatureSpec(
    names,
    trainRows.map((i) => raw[i] as Float64Array),
  );
  data.forEach((d, i) => (d.features.extra = normaliseFeatures(spec, raw[i] as Float64Array)));
  return spec;
}

/** Trains a model on rows of {smiles, target} (see the file comment). */
export async function trainModel(
  rows: readonly TrainingRow[],
  options: TrainOptions = {},
  onEpoch?: (info: EpochInfo) => void,
  shouldStop?: () => boolean,
  runtime: TrainRuntime = {},
): Promise<TrainResult> {
  const started = performance.now();
  const resolved = resolveOptions(options);
  const [rdkit] = await Promise.all([getRDKit(), tfReady()]);
  const { data, report } = prepareData(rdkit, rows, resolved.task);
  const split = splitData(rdkit, data, resolved.split);
  const featureSpec = resolved.molecule_features === 'rdkit_2d' ? attachMoleculeFeatures(rdkit, data, split.train) : null;
  const o: NetOptions = { ...resolved, extra_features: featureSpec?.names.length ?? 0 };
  const pick = (idx: number[]) => idx.map((i) => data[i] as Datum);
  const train = pick(split.train);
  const val = pick(split.val);
  const test = pick(split.test);
  let scaler: { mean: number; std: number } | null = null;
  if (o.task === 'regression') {
    const mean = train.reduce((s, d) => s + d.target, 0) / train.length;
    const std = Math.sqrt(train.reduce((s, d) => s + (d.target - mean) ** 2, 0) / train.length);
    scaler = { mean, std: std > 0 ? std : 1 };
  }
  const curve: EpochInfo[] = [];
  const members: MemberResult[] = [];
  for (let k = 0; k < o.ensemble_size; k++) members.push(await trainMember(k, o, train, val, scaler, curve, runtime, onEpoch, shouldStop));

  const shapes = parameterShapes(o);
  const config: ModelConfig = {
    format: MODEL_FORMAT,
    format_version: MODEL_FORMAT_VERSION,
    featurizer_version: FEATURIZER_VERSION,
    task: o.task,
    architecture: {
      depth: o.depth,
      hidden_size: o.hidden_size,
      ffn_layers: o.ffn_layers,
      dropout: o.dropout,
      aggregation: o.aggregation,
      aggregation_norm: o.aggregation_norm,
      ...(o.extra_features ? { extra_features: o.extra_features } : {}),
    },
    hyperparameters: {
      depth: o.depth,
      hidden_size: o.hidden_size,
      ffn_layers: o.ffn_layers,
      dropout: o.dropout,
      epochs: o.epochs,
      batch_size: o.batch_size,
      learning_rate: o.learning_rate,
      init_lr: o.init_lr,
      final_lr: o.final_lr,
      warmup_epochs: o.warmup_epochs,
      ensemble_size: o.ensemble_size,
      seed: o.seed,
      patience: o.patience,
      aggregation: o.aggregation,
      molecule_features: o.molecule_features,
    },
    molecule_features: featureSpec,
    scaler,
    applicability_domain: {
      rule: 'max_tanimoto_to_training_set',
      fingerprint: 'morgan',
      radius: FP_RADIUS,
      n_bits: FP_BITS,
      threshold: o.ad_threshold,
      training_molecules: train.length,
    },
    members: members.map((m, k) => ({ seed: o.seed + k, best_epoch: m.best_epoch, epochs_run: m.epochs_run, val_metric: m.val_metric })),
    parameters: shapes.map(({ name, shape }) => ({ name, shape })),
    split: { ...o.split, train: train.length, val: val.length, test: test.length },
    metric: o.task === 'regression' ? 'rmse' : 'roc_auc',
    created_with: { tfjs: tf.version_core, rdkit: rdkit.version() },
  };
  const model: TrainedModel = {
    config,
    weights: members.map((m) => m.weights),
    fingerprints: fingerprintsOf(
      rdkit,
      train.map((d) => d.canonical),
    ),
  };

  const evaluate = (part: readonly Datum[]) => {
    const perMember = memberPredictions(
      model,
      part.map((d) => d.features),
      runtime.engine ?? 'fused',
    );
    return ensembleStats(perMember, part.length);
  };
  const valStats = evaluate(val);
  const testStats = evaluate(test);
  const result: TrainResult = {
    model,
    learning_curve: curve,
    test_metrics: test.length
      ? metricsOf(
          o,
          test.map((d) => d.target),
          testStats.mean,
        )
      : null,
    val_metrics: metricsOf(
      o,
      val.map((d) => d.target),
      valStats.mean,
    ),
    test_predictions: test.map((d, i) => ({ row: d.row, smiles: d.smiles, target: d.target, prediction: testStats.mean[i] as number, uncertainty: testStats.std[i] ?? null })),
    data: report,
    split: { train: train.length, val: val.length, test: test.length },
    split_rows: { train: train.map((d) => d.row), val: val.map((d) => d.row), test: test.map((d) => d.row) },
    duration_ms: performance.now() - started,
  };
  assertFiniteResult(result);
  return result;
}
