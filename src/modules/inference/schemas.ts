// OpenAPI schemas of inference (docs/models.md, "Inference").
import { Type } from '@sinclair/typebox';
import { Nullable, pageSchema } from '../../api/schemas.js';
import { UTILITY_STATUSES } from '../utilities/schemas.js';

export const SYNC_SMILES = 100;
export const ASYNC_SMILES = 100_000;

const Task = Type.Unsafe<'regression' | 'classification'>({ type: 'string', enum: ['regression', 'classification'] });

export const PredictionItem = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'From a molecule set (input_artifact_id): the record id, as in the set (made unique with ~2, ~3 when it repeats)' })),
    name: Type.Optional(Nullable(Type.String(), { description: 'From a molecule set: the record name (null when it has none)' })),
    smiles: Type.String({ description: "The SMILES as given; from a molecule set, the set's SMILES (RDKit's for an SDF record)" }),
    prediction: Nullable(Type.Number(), { description: 'In the target units (regression) or the probability of class 1 (classification); null when error is set' }),
    uncertainty: Nullable(Type.Number(), { description: "The ensemble's standard deviation; null for a single model or when not asked for" }),
    in_domain: Nullable(Type.Boolean(), { description: "Within the model's applicability domain: highest Tanimoto similarity to a training molecule >= the model's threshold" }),
    error: Nullable(Type.String()),
  },
  { $id: 'PredictionItem', additionalProperties: false },
);

const Model = Type.String({ minLength: 1, maxLength: 200, description: 'public/<id> or user/<name> (GET /inference/models)' });

export const PredictRequest = Type.Object(
  {
    model: Model,
    smiles: Type.Array(Type.String({ maxLength: 2000 }), {
      minItems: 1,
      maxItems: ASYNC_SMILES,
      description: `1 to ${SYNC_SMILES} SMILES (larger batches: POST /inference/submit)`,
    }),
    uncertainty: Type.Optional(Type.Boolean({ default: true })),
  },
  { $id: 'PredictRequest', additionalProperties: false },
);

export const PredictResponse = Type.Object(
  {
    model: Type.String(),
    task: Task,
    target: Type.String(),
    units: Nullable(Type.String()),
    predictions: Type.Array(Type.Ref(PredictionItem)),
    counted: Type.Integer(),
  },
  { $id: 'PredictResponse', additionalProperties: false },
);

export const InferenceSubmitRequest = Type.Object(
  {
    model: Model,
    smiles: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { minItems: 1, maxItems: ASYNC_SMILES })),
    input_artifact_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded molecule set instead of smiles' })),
    port: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    uncertainty: Type.Optional(Type.Boolean({ default: true })),
  },
  { $id: 'InferenceSubmitRequest', additionalProperties: false },
);

export const InferenceModels = Type.Object(
  {
    models: Type.Array(
      Type.Object(
        {
          model: Type.String(),
          kind: Type.Unsafe<'public' | 'user'>({ type: 'string', enum: ['public', 'user'], description: 'A public model or one of yours' }),
          name: Type.String(),
          task: Task,
          target: Type.String(),
          units: Nullable(Type.String()),
          limits: Type.Object({ sync_smiles: Type.Integer(), async_smiles: Type.Integer() }, { additionalProperties: false }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'InferenceModels', additionalProperties: false },
);

const RequestFields = {
  request_id: Type.String(),
  model: Type.String(),
  status: Type.Union(UTILITY_STATUSES.map((s) => Type.Literal(s))),
  message: Type.String(),
  progress: Type.Number(),
  molecules: Type.Integer(),
  counted: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
};

export const InferenceRequest = Type.Object(
  { ...RequestFields, counts: Nullable(Type.Object({ molecules: Type.Integer(), ok: Type.Integer(), failed: Type.Integer() }, { additionalProperties: false })) },
  { $id: 'InferenceRequest', additionalProperties: false },
);
export const InferenceRequestList = pageSchema('items', InferenceRequest, 'InferenceRequestList');
export const InferenceResultPage = Type.Object(
  { request_id: Type.String(), model: Type.String(), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), predictions: Type.Array(Type.Ref(PredictionItem)) },
  { $id: 'InferenceResultPage', additionalProperties: false },
);

export const INFERENCE_SCHEMAS = [
  PredictionItem,
  PredictRequest,
  PredictResponse,
  InferenceSubmitRequest,
  InferenceModels,
  InferenceRequest,
  InferenceRequestList,
  InferenceResultPage,
];
