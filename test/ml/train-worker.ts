// A worker thread that trains a model (test/ml/worker.test.ts): rows and options from
// workerData, each epoch posted as progress, the model posted as one Buffer at the end. With
// `job`, it runs the mpnn_train job's thread work (src/compute/types/mpnn-train-thread.ts) instead of trainModel.
import { parentPort, workerData } from 'node:worker_threads';
import { serializeModel, trainModel, type TrainOptions, type TrainingRow } from '../../src/ml/index.js';
import work from '../../src/compute/types/mpnn-train-thread.js';

const { rows, options, job } = workerData as { rows: TrainingRow[]; options: TrainOptions; job?: boolean };
if (job) {
  const out = await work({ rows, options }, (_fraction, _message, detail) => parentPort?.postMessage({ kind: 'epoch', info: detail }));
  parentPort?.postMessage({ kind: 'done', model: out.weights });
} else {
  const result = await trainModel(rows, options, (info) => parentPort?.postMessage({ kind: 'epoch', info }));
  const model = serializeModel(result.model);
  parentPort?.postMessage({ kind: 'done', model, test_metrics: result.test_metrics });
}
