// `mpnn_train`: trains a D-MPNN (src/ml) on the caller's measurements and registers it under
// the caller's model name (docs/models.md). Charged by runtime like every job. Training runs in
// a dedicated worker thread (placement `thread`): it neither blocks the event loop nor takes
// chemistry-pool threads; progress (epoch, train loss, validation metric) reaches /jobs/status.
// The result artifact holds the learning curve, test metrics, test predictions and the model
// card (result.json) and the weights (port `model`); the model is registered in the
// transaction that completes the job, so a job killed mid-way registers nothing.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { AppError, invalid, invalidInput, type Issue } from '../../errors.js';
import { checkTarget, MIN_ROWS, type TrainingRow } from '../../ml/data.js';
import { describeMoleculeFeatures, type MoleculeFeatureSpec } from '../../ml/mol-features.js';
import type { TrainThreadInput, TrainThreadOutput } from './mpnn-train-thread.js';
import { JobInputError, type JobType, type RunContext } from '../job-type.js';
import { RUNNING_FROM_SOURCE } from '../../paths.js';
import { runInThread } from '../threads.js';
import { MPNN_COST, trainingSeconds, trainingShape } from './mpnn-cost.js';
import { MAX_FILE_ROWS, readTrainingTable } from './mpnn-table.js';
import { MpnnTrainResult } from './mpnn-results.js';

export const MAX_INLINE_ROWS = 5000;
export { MAX_FILE_ROWS };

const Hyper = Type.Object(
  {
    depth: Type.Optional(Type.Integer({ minimum: 2, maximum: 6, default: 3, description: 'Message-passing steps (2..6, default 3)' })),
    hidden_size: Type.Optional(Type.Integer({ minimum: 32, maximum: 600, default: 300 })),
    ffn_layers: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 2 })),
    dropout: Type.Optional(Type.Number({ minimum: 0, maximum: 0.5, default: 0 })),
    epochs: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    batch_size: Type.Optional(Type.Integer({ minimum: 8, maximum: 256, default: 50 })),
    learning_rate: Type.Optional(Type.Number({ minimum: 1e-5, maximum: 0.1, default: 1e-3, description: 'Peak learning rate of the warm-up/decay schedule' })),
    ensemble_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 1 })),
    patience: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'Early stopping: end a member after this many epochs without a better validation metric (default: run every epoch)' }),
    ),
    molecule_features: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('rdkit_2d')], {
        default: 'none',
        description:
          'Molecule features appended before the feed-forward network: "none" (chemprop\'s default) or "rdkit_2d" (normalised RDKit 2D descriptors, computed again for every prediction; docs/models.md, "Molecule features")',
      }),
    ),
  },
  { additionalProperties: false },
);

const Payload = Type.Object(
  {
    model_name: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'Your name for the model (1..64 of A-Z a-z 0-9 . _ -)' }),
    task: Type.Union([Type.Literal('regression'), Type.Literal('classification')]),
    rows: Type.Optional(
      Type.Array(Type.Object({ smiles: Type.String({ maxLength: 2000 }), target: Type.Union([Type.Number(), Type.String({ maxLength: 100 })]) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: MAX_INLINE_ROWS,
        description: `Inline training rows (up to ${MAX_INLINE_ROWS}); or give input_artifact_id`,
      }),
    ),
    input_artifact_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded CSV with a SMILES column and the target column' })),
    target_column: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The CSV column holding the target (required with input_artifact_id)' })),
    smiles_column: Type.Optional(Type.String({ minLength: 1, maxLength: 200, default: 'smiles', description: 'The CSV column holding SMILES (default smiles, case-insensitive)' })),
    target_name: Type.Optional(Type.String({ maxLength: 200, description: 'What the target is (default: target_column, or "target")' })),
    units: Type.Optional(Type.String({ maxLength: 100 })),
    split: Type.Optional(Type.Union([Type.Literal('random'), Type.Literal('scaffold')], { default: 'random' })),
    split_seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 })),
    val_fraction: Type.Optional(Type.Number({ minimum: 0.05, maximum: 0.4, default: 0.1 })),
    test_fraction: Type.Optional(Type.Number({ minimum: 0, maximum: 0.4, default: 0.1 })),
    overwrite: Type.Optional(Type.Boolean({ default: false, description: 'Replace a model of the same name' })),
    hyperparameters: Type.Optional(Hyper),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

/**
 * The training rows of a file, read in the run: what submit checked, read again (a file deleted
 * since, or otherwise unusable, is the user's input problem, never a platform fault).
 */
async function rowsOfFile(ctx: RunContext<Payload>): Promise<TrainingRow[]> {
  try {
    return (await readTrainingTable(ctx.deps.models!, ctx.userId, ctx.payload, true)).data;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new JobInputError(err.init.derivedMessage ? err.message : `input_artifact_id: ${err.message}`);
  }
}

export const mpnnTrainJob: JobType<Payload> = {
  name: 'mpnn_train',
  ports: { inputs: { data: { type: 'table', field: 'input_artifact_id' } }, outputs: { model: 'model' } },
  runsOn: 'thread',
  methods: ['rdkit', 'dmpnn', 'model_training', 'morgan'],
  summary: 'Train a directed message-passing neural network (D-MPNN, as chemprop) on your measurements and register it under model_name',
  payload: Payload,
  result: MpnnTrainResult,

  async estimate(p, ctx) {
    if ((p.rows === undefined) === (p.input_artifact_id === undefined)) throw invalid(['rows'], 'Give rows or input_artifact_id (one of the two)', null, 'missing');
    if (p.input_artifact_id && !p.target_column) throw invalid(['target_column'], 'Field required with input_artifact_id', null, 'missing');
    if ((p.val_fraction ?? 0.1) + (p.test_fraction ?? 0.1) >= 0.8)
      throw invalid(['test_fraction'], 'val_fraction + test_fraction must leave at least 20 % for training', p.test_fraction);
    if (p.rows) {
      // The targets' own rules (src/ml/data.ts): every bad one at once, before anything is reserved.
      const issues: Issue[] = [];
      for (const [i, row] of p.rows.entries()) {
        const checked = checkTarget(row.target, p.task, ['rows', i, 'target']);
        if ('issue' in checked && issues.push(checked.issue) >= 100) break;
      }
      if (issues.length) throw invalidInput(issues);
    }
    if (p.rows && p.rows.length < MIN_ROWS) {
      throw invalid(
        ['rows'],
        `${p.rows.length} rows; training takes at least ${MIN_ROWS} (rows RDKit cannot read and repeated structures do not count)`,
        p.rows.length,
        'too_short',
      );
    }
    // The file's header and rows, read now (streamed): a column it does not have is a 422 here, not a failed job.
    const counted = p.input_artifact_id && ctx.models ? (await readTrainingTable(ctx.models, ctx.userId, p, false)).rows : null;
    if (!p.overwrite && (await ctx.models?.exists(ctx.userId, p.model_name))) {
      throw new AppError('model-exists', `a model named ${p.model_name} exists; set overwrite to replace it`);
    }
    const n = p.rows?.length ?? counted ?? MAX_INLINE_ROWS;
    const h = p.hyperparameters ?? {};
    const val = p.val_fraction ?? 0.1;
    const size = {
      rows: n,
      epochs: h.epochs ?? 50,
      hidden_size: h.hidden_size ?? 300,
      depth: h.depth ?? 3,
      ensemble_size: h.ensemble_size ?? 1,
      batch_size: h.batch_size ?? 50,
      train_fraction: 1 - val - (p.test_fraction ?? 0.1),
      val_fraction: val,
    };
    return {
      expectedRuntimeSec: trainingSeconds(trainingShape(size)),
      assumptions: {
        rows: n,
        input: p.rows ? 'inline' : counted === null ? `artifact (not read here: assumed ${n} rows)` : `artifact (${n} data rows counted)`,
        epochs: size.epochs,
        hidden_size: size.hidden_size,
        depth: size.depth,
        ensemble_size: size.ensemble_size,
        batch_size: size.batch_size,
        model: `overhead + the threads' start + ${MPNN_COST.SAFETY} x the rest of the fitted training CPU time (rows, epochs x ensemble x batches, molecules x epochs x hidden size and depth; docs/jobs.md, "Calibration of the training estimate")`,
      },
    };
  },

  async run(ctx) {
    const p = ctx.payload;
    if (!ctx.deps.models) throw new Error('the models module is not available in this instance');
    const models = ctx.deps.models;
    const rows = p.rows ?? (await rowsOfFile(ctx));
    const h = p.hyperparameters ?? {};
    const test = p.test_fraction ?? 0.1;
    const val = p.val_fraction ?? 0.1;
    const input: TrainThreadInput = {
      rows,
      options: {
        task: p.task,
        ...h,
        seed: p.split_seed ?? 0,
        patience: h.patience ?? null,
        split: { type: p.split ?? 'random', sizes: [1 - val - test, val, test], seed: p.split_seed ?? 0 },
      },
    };
    const out = await runInThread<TrainThreadInput, TrainThreadOutput>(new URL(`./mpnn-train-thread${RUNNING_FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url), input, {
      signal: ctx.signal,
      progress: (f, m, d) => ctx.progress(f, m, d, true), // each message of the training thread ends an epoch
    }).catch((err: unknown) => {
      throw err instanceof Error && err.name === 'JobInputError' ? new JobInputError(err.message) : err;
    });
    const target = p.target_name ?? p.target_column ?? 'target';
    const r = out.result;
    const modelId = crypto.randomUUID();
    const info = {
      n_train: r.split.train,
      n_val: r.split.val,
      n_test: r.split.test,
      split: { type: p.split ?? 'random', seed: p.split_seed ?? 0, val_fraction: val, test_fraction: test },
      metrics: r.test_metrics ?? r.val_metrics,
      hyperparameters: (out.config.hyperparameters ?? {}) as Record<string, unknown>,
      size_bytes: out.weights.byteLength,
      ensemble_size: h.ensemble_size ?? 1,
      data: r.data,
    };
    const card = {
      model: `user/${p.model_name}`,
      model_id: modelId,
      name: p.model_name,
      task: p.task,
      target,
      units: p.units ?? null,
      architecture: out.config.architecture,
      molecule_features: describeMoleculeFeatures(out.config.molecule_features as MoleculeFeatureSpec | null | undefined),
      ...info,
      applicability_domain: out.config.applicability_domain,
    };
    return {
      result: {
        job_type: 'mpnn_train',
        model_name: p.model_name,
        model_id: modelId,
        test_metrics: r.test_metrics,
        val_metrics: r.val_metrics,
        learning_curve: r.learning_curve,
        test_predictions: r.test_predictions,
        data: r.data,
        model_card: card,
      },
      ports: {
        model: {
          format: 'crucible-dmpnn',
          kind: 'model',
          records: [{ id: 'model', files: { primary: { name: 'model.bin', content: Buffer.from(out.weights), contentType: 'application/octet-stream' } } }],
        },
      },
      inFinish: async (tx, artifactId) => {
        try {
          await models.register(
            tx,
            { id: modelId, userId: ctx.userId, name: p.model_name, task: p.task, target, units: p.units ?? null, jobId: ctx.jobId, info },
            artifactId,
            p.overwrite ?? false,
          );
        } catch (err) {
          throw err instanceof AppError ? new JobInputError(err.message) : err;
        }
      },
    };
  },
};
