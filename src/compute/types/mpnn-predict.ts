// `mpnn_predict`: predictions of a model (`public/<id>` or `user/<name>`) for a list of SMILES
// or an uploaded molecule set, in a dedicated worker thread (docs/models.md). A job type for
// workflows (charged by runtime) and the job behind an asynchronous inference request
// (POST /inference/submit: not charged, counted against the monthly allowance).
import { Type, type Static } from '@sinclair/typebox';
import { AppError, invalid } from '../../errors.js';
import type { PredictThreadInput } from './mpnn-predict-thread.js';
import type { Prediction } from '../../ml/predict.js';
import { JobInputError, type JobType } from '../job-type.js';
import { RUNNING_FROM_SOURCE } from '../../paths.js';
import { runInThread } from '../threads.js';
import { CALIBRATION } from './calibration.js';
import { loadLibrary, moleculePorts } from './molecule-jobs.js';
import { MpnnPredictResult } from './mpnn-results.js';

export const MAX_ASYNC_SMILES = 100_000;
/** CPU ms per molecule of a prediction (parse, features, one forward pass per member; docs/models.md). */
const MS_PER_MOLECULE = 3;

const Payload = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 200, description: 'public/<id> or user/<name>' }),
    smiles: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { minItems: 1, maxItems: MAX_ASYNC_SMILES, description: 'SMILES to predict; or give input_artifact_id' })),
    input_artifact_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded molecule set instead of smiles' })),
    port: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    uncertainty: Type.Optional(Type.Boolean({ default: true, description: 'Report the ensemble standard deviation' })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

export interface PredictionItem {
  /** From a molecule set: the record's id and name (null when it has none). */
  id?: string;
  name?: string | null;
  smiles: string;
  prediction: number | null;
  uncertainty: number | null;
  in_domain: boolean | null;
  error: string | null;
}

/** A molecule of a set: its id and name, and why it could not be read (a molblock RDKit refused). */
export interface MoleculeLabel {
  id: string;
  name: string | null;
  error?: string;
}

/**
 * The API's prediction item (docs/models.md, "Inference"): smiles (as given, or the set's SMILES),
 * prediction, uncertainty, in_domain, error; with the record's id and name when the molecule came
 * from a molecule set.
 */
export function predictionItem(p: Prediction, uncertainty = true, label?: MoleculeLabel): PredictionItem {
  const item = { smiles: p.smiles, prediction: p.prediction, uncertainty: uncertainty ? p.uncertainty : null, in_domain: p.in_domain, error: p.error };
  if (!label) return item;
  return { id: label.id, name: label.name, ...item, ...(label.error ? { error: `RDKit cannot read this molecule (${label.error})` } : {}) };
}

export const mpnnPredictJob: JobType<Payload> = {
  name: 'mpnn_predict',
  ports: moleculePorts({}),
  runsOn: 'thread',
  methods: ['rdkit', 'dmpnn', 'morgan'],
  summary: 'Predict a property with a public model or one of your MPNN models, for SMILES or an uploaded molecule set',
  payload: Payload,
  result: MpnnPredictResult,

  async estimate(p, ctx) {
    if ((p.smiles === undefined) === (p.input_artifact_id === undefined)) throw invalid(['smiles'], 'Give smiles or input_artifact_id (one of the two)', null, 'missing');
    if (ctx.models) await ctx.models.resolve(ctx.userId, p.model);
    const n = p.smiles?.length ?? (await ctx.countMolecules(p.input_artifact_id!, p.port));
    return {
      expectedRuntimeSec: Math.round((CALIBRATION.overheadSec + 3 + (CALIBRATION.SAFETY * n * MS_PER_MOLECULE) / 1000) * 1000) / 1000,
      assumptions: { molecules: n, model: p.model },
    };
  },

  async run(ctx) {
    const p = ctx.payload;
    if (!ctx.deps.models) throw new Error('the models module is not available in this instance');
    const model = await ctx.deps.models.resolve(ctx.userId, p.model).catch((err: unknown) => {
      throw err instanceof AppError ? new JobInputError(`${err.message} (deleted since the request was made?)`) : err;
    });
    let smiles = p.smiles;
    let labels: MoleculeLabel[] | undefined;
    if (!smiles) {
      // The set as the chemistry job types read it: record ids made unique, names kept, SDF molblocks as RDKit's SMILES.
      const { items } = await loadLibrary(ctx);
      smiles = items.map((t) => (t.error ? '' : t.smiles));
      labels = items.map((t) => ({ id: t.id, name: t.name ?? null, ...(t.error ? { error: t.error } : {}) }));
    }
    const weights = await model.weights().catch((err: unknown) => {
      throw err instanceof AppError ? new JobInputError(`model ${p.model}: ${err.message} (deleted since the request was made?)`) : err;
    });
    const preds = await runInThread<PredictThreadInput, Prediction[]>(
      new URL(`./mpnn-predict-thread${RUNNING_FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url),
      { weights, smiles },
      { signal: ctx.signal, progress: (f, m, d) => ctx.progress(f, m, d) },
    );
    const predictions = preds.map((x, i) => predictionItem(x, p.uncertainty ?? true, labels?.[i]));
    const failed = predictions.filter((x) => x.error !== null).length;
    return {
      result: {
        job_type: 'mpnn_predict',
        model: p.model,
        task: model.task,
        target: model.target,
        units: model.units,
        counts: { molecules: predictions.length, ok: predictions.length - failed, failed },
        predictions,
      },
    };
  },
};
