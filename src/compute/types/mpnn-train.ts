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
import { parseCsv } from '../../ml/csv.js';
import { checkTarget } from '../../ml/data.js';
import type { TrainThreadInput, TrainThreadOutput } from '../../ml/train-thread.js';
import { JobInputError, type JobType, type RunContext } from '../job-type.js';
import type { JobModels } from '../ports.js';
import { RUNNING_FROM_SOURCE } from '../../paths.js';
import { runInThread } from '../threads.js';
import { CALIBRATION } from './calibration.js';

export const MAX_INLINE_ROWS = 5000;
/** Rows read from an uploaded CSV. */
export const MAX_FILE_ROWS = 50_000;
const MAX_FILE_BYTES = 32 * 1024 * 1024;

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
 * CPU ms per molecule per epoch (forward + backward, validation included) at depth 3, by hidden
 * size h: 1 + 0.03 h + 0.00013 h^2, fitted to docs/models.md "Speed" (ESOL: about 3 ms at
 * h = 64, 5.5 at 128, 20 at 300 on the 2-core machine).
 */
function msPerMoleculeEpoch(hidden: number, depth: number): number {
  return (1 + 0.03 * hidden + 0.00013 * hidden * hidden) * (0.4 + (0.6 * depth) / 3);
}

function trainingRowsFromCsv(text: string, p: Payload): { smiles: string; target: string }[] {
  let records: string[][];
  try {
    records = parseCsv(text).map((r) => r.map((f) => f.trim()));
  } catch (err) {
    throw new JobInputError(`the training file is not CSV: ${(err as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new JobInputError('the training file is empty');
  const lower = header.map((h) => h.toLowerCase());
  const smilesCol = lower.indexOf((p.smiles_column ?? 'smiles').toLowerCase());
  const targetCol = header.indexOf(p.target_column ?? '');
  if (smilesCol < 0) throw new JobInputError(`the training file has no "${p.smiles_column ?? 'smiles'}" column; its columns are ${header.join(', ')}`);
  if (targetCol < 0) throw new JobInputError(`the training file has no target column "${p.target_column}"; its columns are ${header.join(', ')}`);
  if (rows.length > MAX_FILE_ROWS) throw new JobInputError(`the training file has ${rows.length} rows; at most ${MAX_FILE_ROWS}`);
  return rows.map((r) => ({ smiles: r[smilesCol] ?? '', target: r[targetCol] ?? '' }));
}

/**
 * The training file's text, checked as at submit: a file deleted (or otherwise unusable) since
 * is the user's input problem (JobInputError), never a platform fault.
 */
async function readTrainingFile(ctx: RunContext<Payload>, models: JobModels, artifactId: string): Promise<string> {
  try {
    await models.checkTrainingFile(ctx.userId, artifactId);
    return await ctx.readText(artifactId, MAX_FILE_BYTES);
  } catch (err) {
    throw err instanceof AppError ? new JobInputError(`input_artifact_id: ${err.message}`) : err;
  }
}

export const mpnnTrainJob: JobType<Payload> = {
  name: 'mpnn_train',
  ports: { inputs: { data: { type: 'table', field: 'input_artifact_id' } }, outputs: { model: 'model' } },
  runsOn: 'thread',
  methods: ['rdkit', 'dmpnn', 'model_training', 'morgan'],
  summary: 'Train a directed message-passing neural network (D-MPNN, as chemprop) on your measurements and register it under model_name',
  payload: Payload,

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
    if (p.input_artifact_id) await ctx.models?.checkTrainingFile(ctx.userId, p.input_artifact_id);
    if (!p.overwrite && (await ctx.models?.exists(ctx.userId, p.model_name))) {
      throw new AppError('model-exists', `a model named ${p.model_name} exists; set overwrite to replace it`);
    }
    const n = p.rows?.length ?? (p.input_artifact_id ? MAX_INLINE_ROWS : 0);
    const h = p.hyperparameters ?? {};
    const work = n * (h.epochs ?? 50) * (h.ensemble_size ?? 1) * msPerMoleculeEpoch(h.hidden_size ?? 300, h.depth ?? 3);
    return {
      expectedRuntimeSec: Math.round((CALIBRATION.overheadSec + 5 + (CALIBRATION.SAFETY * work) / 1000) * 1000) / 1000,
      assumptions: {
        rows: n,
        input: p.rows ? 'inline' : 'artifact (assumed 5,000 rows)',
        model: 'rows x epochs x ensemble x per-molecule-epoch cost scaled by hidden size and depth (docs/models.md)',
      },
    };
  },

  async run(ctx) {
    const p = ctx.payload;
    if (!ctx.deps.models) throw new Error('the models module is not available in this instance');
    const models = ctx.deps.models;
    const rows = p.rows ?? trainingRowsFromCsv(await readTrainingFile(ctx, models, p.input_artifact_id!), p);
    const h = p.hyperparameters ?? {};
    const test = p.test_fraction ?? 0.1;
    const val = p.val_fraction ?? 0.1;
    const input: TrainThreadInput = {
      rows,
      options: { task: p.task, ...h, seed: p.split_seed ?? 0, patience: null, split: { type: p.split ?? 'random', sizes: [1 - val - test, val, test], seed: p.split_seed ?? 0 } },
    };
    const out = await runInThread<TrainThreadInput, TrainThreadOutput>(new URL(`../../ml/train-thread${RUNNING_FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url), input, {
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
      ...info,
      applicability_domain: out.config.applicability_domain,
    };
    return {
      result: {
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
