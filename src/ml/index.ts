// The ML library's public API: a D-MPNN (chemprop's model) on TensorFlow.js, with RDKit
// MinimalLib featurisation. Plain functions and data, no HTTP (docs/models.md).
export { trainModel, assertFiniteResult, TrainingStopped, type EpochInfo, type TestPrediction, type TrainResult } from './train.js';
export { predict, predictWith, type Prediction } from './predict.js';
export { serializeModel, loadModel } from './serialize.js';
export { mergeModels } from './ensemble.js';
export { prepareData, checkTarget, splitData, splitIndices, MIN_ROWS, MAX_ABS_TARGET, type DataReport, type Datum, type Split, type TrainingRow } from './data.js';
export { resolveOptions, HYPERPARAMETER_RANGES, type TrainOptions, type ResolvedOptions, type SplitOptions, type Task } from './options.js';
export { featurizeAll, FEATURIZER_VERSION, ATOM_FDIM, BOND_FDIM, type MolFeatures } from './featurize.js';
export { murckoScaffold } from './scaffold.js';
export { meanBaseline, ridgeBaseline, descriptorMatrix, type BaselineResult } from './baselines.js';
export { regressionMetrics, classificationMetrics, type RegressionMetrics, type ClassificationMetrics } from './metrics.js';
export { getRDKit } from '../chem/rdkit.js';
export type { ModelConfig, TrainedModel } from './model.js';
