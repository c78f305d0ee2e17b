// The result documents of mpnn_train and mpnn_predict (GET /jobs/result; docs/models.md), as
// JSON schemas published in the OpenAPI document (MpnnTrainResult, MpnnPredictResult) and
// checked against real results by test/openapi/job-results.test.ts.
import { Type } from '@sinclair/typebox';

const Num = Type.Number();
const NullNum = Type.Union([Type.Number(), Type.Null()]);
const Count = Type.Integer({ minimum: 0 });
const Open = (description: string) => Type.Object({}, { additionalProperties: true, description });

const Metrics = Type.Union(
  [
    Type.Object({ rmse: Num, mae: Num, r2: NullNum }, { additionalProperties: false, description: 'Regression, in the target units' }),
    Type.Object({ roc_auc: NullNum, accuracy: Num }, { additionalProperties: false, description: 'Classification' }),
  ],
  { description: 'rmse, mae, r2 (regression) or roc_auc, accuracy (classification)' },
);

const DataReport = Type.Object(
  {
    rows: Count,
    used: Count,
    unreadable: Count,
    unreadable_rows: Type.Array(Count, { description: 'Rows RDKit cannot read (the first 100)' }),
    duplicates: Count,
    duplicate_rows: Type.Array(Count, { description: "Rows dropped as repeats of an earlier row's structure (the first 100)" }),
  },
  { additionalProperties: false },
);

export const MpnnTrainResult = Type.Object(
  {
    job_type: Type.Literal('mpnn_train'),
    model_name: Type.String(),
    model_id: Type.String(),
    test_metrics: Type.Union([Metrics, Type.Null()], { description: 'Of the ensemble on the test split (null when the split has none)' }),
    val_metrics: Metrics,
    learning_curve: Type.Array(
      Type.Object(
        {
          member: Count,
          members: Type.Integer({ minimum: 1 }),
          epoch: Type.Integer({ minimum: 1 }),
          epochs: Type.Integer({ minimum: 1 }),
          train_loss: Num,
          val_metric: NullNum,
          lr: Num,
        },
        { additionalProperties: false },
      ),
      { description: 'Every epoch of every ensemble member' },
    ),
    test_predictions: Type.Array(Type.Object({ row: Count, smiles: Type.String(), target: Num, prediction: Num, uncertainty: NullNum }, { additionalProperties: false }), {
      description: 'Parity data: each test row, its measured and its predicted value',
    }),
    data: DataReport,
    model_card: Type.Object(
      {
        model: Type.String({ description: 'user/<model_name>: how /inference/predict names it' }),
        model_id: Type.String(),
        name: Type.String(),
        task: Type.Union([Type.Literal('regression'), Type.Literal('classification')]),
        target: Type.String(),
        units: Type.Union([Type.String(), Type.Null()]),
        architecture: Open('depth, hidden_size, ffn_layers, dropout, aggregation, ...'),
        n_train: Count,
        n_val: Count,
        n_test: Count,
        split: Open('type, seed, val_fraction, test_fraction'),
        metrics: Metrics,
        hyperparameters: Open('As trained, defaults filled in'),
        molecule_features: Open('set (none or rdkit_2d), description and the descriptors appended before the feed-forward network'),
        size_bytes: Count,
        ensemble_size: Type.Integer({ minimum: 1 }),
        data: DataReport,
        applicability_domain: Open('rule, fingerprint, radius, n_bits, threshold, training_molecules'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'mpnn_train: the learning curve, test metrics and predictions, and the model card' },
);

export const MpnnPredictResult = Type.Object(
  {
    job_type: Type.Literal('mpnn_predict'),
    model: Type.String({ description: 'public/<id> or user/<name>' }),
    task: Type.Union([Type.Literal('regression'), Type.Literal('classification')]),
    target: Type.String(),
    units: Type.Union([Type.String(), Type.Null()]),
    counts: Type.Object({ molecules: Count, ok: Count, failed: Count }, { additionalProperties: false }),
    predictions: Type.Array(Type.Ref('PredictionItem'), { description: 'One per molecule, in input order' }),
  },
  { additionalProperties: false, description: 'mpnn_predict: a prediction per molecule' },
);
