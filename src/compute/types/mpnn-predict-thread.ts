// The work of an `mpnn_predict` job's worker thread (src/compute/threads.ts): predictions for
// every SMILES with one model, in chunks of 1,000 with progress between them.
import type { ThreadWork } from '../threads.js';
import { predict, type Prediction } from '../../ml/predict.js';
import { loadModel } from '../../ml/serialize.js';

export interface PredictThreadInput {
  weights: Uint8Array;
  smiles: string[];
}

const CHUNK = 1000;

const work: ThreadWork<PredictThreadInput, Prediction[]> = async (input, report) => {
  const model = loadModel(input.weights);
  const out: Prediction[] = [];
  for (let i = 0; i < input.smiles.length; i += CHUNK) {
    out.push(...(await predict(model, input.smiles.slice(i, i + CHUNK))));
    report(out.length / input.smiles.length, `predicted ${out.length} of ${input.smiles.length}`);
  }
  return out;
};

export default work;
