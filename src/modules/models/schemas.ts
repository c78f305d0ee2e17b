// OpenAPI schemas of the models endpoints (docs/models.md).
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

const Metrics = Type.Record(Type.String(), Nullable(Type.Number()), { description: 'Test-set metrics: rmse, mae, r2 (regression) or roc_auc, accuracy (classification)' });

export const ModelInfo = Type.Object(
  {
    model_id: Type.String(),
    task: Type.Union([Type.Literal('regression'), Type.Literal('classification')]),
    target: Type.String(),
    units: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    trained_by_process_id: Nullable(Type.String()),
    n_train: Type.Integer(),
    n_val: Type.Integer(),
    n_test: Type.Integer(),
    split: Type.Record(Type.String(), Type.Unknown()),
    metrics: Metrics,
    hyperparameters: Type.Record(Type.String(), Type.Unknown()),
    size_bytes: Type.Integer(),
    ensemble_size: Type.Integer(),
  },
  { $id: 'MPNNModelInfo', additionalProperties: false },
);

export const GetMPNNModelsResponse = Type.Object(
  {
    model_names: Nullable(Type.Array(Type.String())),
    model_info: Nullable(Type.Record(Type.String(), Type.Ref(ModelInfo)), { description: 'Keyed by model name' }),
  },
  { $id: 'GetMPNNModelsResponse', additionalProperties: false },
);

export const PublicModelsResponse = Type.Object(
  {
    models: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description:
        'Model cards (docs/models.md): id, name, version, task, target, units, architecture, hyperparameters, training_data, split, test_metrics, baselines, applicability_domain, size_bytes',
    }),
  },
  { $id: 'PublicModelsResponse', additionalProperties: false },
);

export const ModelNameQuery = Type.Object({ model_name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export const OptionalModelNameQuery = Type.Object({ model_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false });

export const MODEL_SCHEMAS = [ModelInfo, GetMPNNModelsResponse, PublicModelsResponse];
