// A worker thread that trains a model (test/ml/worker.test.ts): rows and options from
// workerData, each epoch posted as progress, the model posted as one Buffer at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { serializeModel, trainModel, type TrainOptions, type TrainingRow } from '../../src/ml/index.js';

const { rows, options } = workerData as { rows: TrainingRow[]; options: TrainOptions };
const result = await trainModel(rows, options, (info) => parentPort?.postMessage({ kind: 'epoch', info }));
const model = serializeModel(result.model);
parentPort?.postMessage({ kind: 'done', model, test_metrics: result.test_metrics });
