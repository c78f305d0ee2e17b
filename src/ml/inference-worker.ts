// An inference worker thread (run by piscina from inference-pool.ts): loads models from the
// bytes the pool sends once per model (cached here by key), and predicts with this thread's
// own RDKit and TensorFlow.js instances, off the event loop and off the chemistry pool.
import { loadModel } from './serialize.js';
import { predict, type Prediction } from './predict.js';
import type { TrainedModel } from './model.js';

export interface InferenceTask {
  /** Identifies the model's bytes (model id and version): the cache key. */
  key: string;
  /** The serialised model; null when the pool believes this thread has it cached. */
  weights: Uint8Array | null;
  smiles: string[];
}

export type InferenceReply = { ok: true; predictions: Prediction[] } | { ok: false; needWeights: true };

/** Models loaded in this thread, least recently used first. */
const models = new Map<string, TrainedModel>();
const MAX_MODELS = 8;

export default async function infer(task: InferenceTask): Promise<InferenceReply> {
  let model = models.get(task.key);
  if (!model) {
    if (!task.weights) return { ok: false, needWeights: true };
    model = loadModel(task.weights);
    models.set(task.key, model);
    while (models.size > MAX_MODELS) models.delete(models.keys().next().value as string);
  } else {
    models.delete(task.key);
    models.set(task.key, model);
  }
  return { ok: true, predictions: await predict(model, task.smiles) };
}
