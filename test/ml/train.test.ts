// Training, determinism, serialisation, prediction and ensembles of the D-MPNN library
// (src/ml) on small slices of data/public/esol.csv, each run in seconds.
// Run: node --import tsx --test test/ml/train.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readCsvTable } from '../../src/ml/csv.js';
import { loadModel, mergeModels, predict, serializeModel, trainModel, TrainingStopped, type EpochInfo, type TrainResult, type TrainingRow } from '../../src/ml/index.js';
import { stack, toTensors, disposeBatch } from '../../src/ml/batch.js';
import { DmpnnParams, forward, initialWeights } from '../../src/ml/dmpnn.js';
import { featurizeAll } from '../../src/ml/featurize.js';
import { Prng } from '../../src/ml/prng.js';
import { getRDKit } from '../../src/chem/rdkit.js';
import { tf, tfReady } from '../../src/ml/tf.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ESOL: TrainingRow[] = readCsvTable(fs.readFileSync(path.join(root, 'data/public/esol.csv'), 'utf8')).map((r) => ({
  smiles: (r.smiles ?? '').trim(),
  target: r['measured log solubility in mols per litre'] ?? '',
}));
const rows60 = ESOL.slice(0, 60);
const tiny = { hidden_size: 32, depth: 2, ffn_layers: 2, batch_size: 8, seed: 7 } as const;

let fit: TrainResult;
let curve: EpochInfo[];

before(async () => {
  curve = [];
  // the fit test: 60 molecules, 40 epochs, every molecule in training but 6 + 6
  fit = await trainModel(rows60, { ...tiny, epochs: 40, learning_rate: 3e-3 }, (e) => curve.push(e));
});

describe('training', () => {
  test('reports every epoch, and the training loss goes down', () => {
    assert.equal(curve.length, 40);
    assert.deepEqual(
      curve.map((e) => e.epoch),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.ok(curve.every((e) => e.member === 0 && e.members === 1 && e.epochs === 40 && Number.isFinite(e.train_loss)));
    const first = curve[0]!.train_loss;
    const last = curve.at(-1)!.train_loss;
    assert.ok(last < first / 2, `training loss ${first} -> ${last}`);
    assert.deepEqual(fit.learning_curve, curve);
    assert.equal(tf.memory().numTensors, 0, 'training leaves no tensor behind');
  });

  test('fits a small training set to a low loss (the gradients are tfjs autodiff, applied by Adam)', () => {
    // scaled MSE: 1 is the loss of predicting the mean
    assert.ok(curve.at(-1)!.train_loss < 0.25, `final training loss ${curve.at(-1)!.train_loss}`);
    assert.deepEqual(fit.split, { train: 48, val: 6, test: 6 });
    assert.equal(fit.test_predictions.length, 6);
    assert.ok(fit.test_metrics && 'rmse' in fit.test_metrics && Number.isFinite(fit.test_metrics.rmse));
    const member = fit.model.config.members[0]!;
    assert.ok(member.best_epoch >= 1 && member.best_epoch <= 40);
    assert.equal(member.val_metric, Math.min(...curve.map((e) => e.val_metric!)));
  });

  test('tfjs gradients of the D-MPNN match finite differences', async () => {
    await tfReady();
    const rdkit = await getRDKit();
    const feats = featurizeAll(
      rdkit,
      rows60.slice(0, 5).map((r) => r.smiles),
    ).map((p) => p!.features);
    const arch = { depth: 3, hidden_size: 16, ffn_layers: 2, dropout: 0, aggregation: 'norm' as const, aggregation_norm: 100 };
    const weights = initialWeights(arch, new Prng(1));
    const params = new DmpnnParams(arch, weights, true);
    const batch = toTensors(stack(feats));
    try {
      const loss = () => tf.tidy(() => tf.sum(tf.square(forward(params, batch, null))).dataSync()[0]!);
      const { grads } = tf.variableGrads(() => tf.sum(tf.square(forward(params, batch, null))) as tf.Scalar, params.vars);
      const W_h = params.vars[2]!;
      const g = (grads[W_h.name] as tf.Tensor).dataSync();
      // largest entries of dL/dW_h against central differences
      const order = Array.from(g.keys()).sort((a, b) => Math.abs(g[b]!) - Math.abs(g[a]!));
      for (const i of order.slice(0, 3)) {
        const w = weights.map((x) => x.slice());
        const eps = 1e-2;
        w[2]![i]! += eps;
        params.write(w);
        const up = loss();
        w[2]![i]! -= 2 * eps;
        params.write(w);
        const down = loss();
        params.write(weights);
        const numeric = (up - down) / (2 * eps);
        assert.ok(Math.abs(numeric - g[i]!) <= 0.05 * Math.abs(g[i]!) + 1e-4, `dL/dW_h[${i}]: autodiff ${g[i]}, finite difference ${numeric}`);
      }
      tf.dispose(Object.values(grads));
    } finally {
      disposeBatch(batch);
      params.dispose();
    }
  });

  test('is deterministic: the same seed gives the same weights, byte for byte', async () => {
    const a = await trainModel(rows60, { ...tiny, epochs: 3 });
    const b = await trainModel(rows60, { ...tiny, epochs: 3 });
    const c = await trainModel(rows60, { ...tiny, epochs: 3, seed: 8 });
    assert.ok(serializeModel(a.model).equals(serializeModel(b.model)));
    assert.ok(!serializeModel(a.model).equals(serializeModel(c.model)));
    assert.deepEqual(
      a.learning_curve.map((e) => e.train_loss),
      b.learning_curve.map((e) => e.train_loss),
    );
  });

  test('classification: binary cross-entropy, probabilities, ROC AUC and accuracy', async () => {
    const median = [...rows60.map((r) => Number(r.target))].sort((a, b) => a - b)[30]!;
    const rows = rows60.map((r) => ({ smiles: r.smiles, target: Number(r.target) >= median ? 1 : 0 }));
    const r = await trainModel(rows, { ...tiny, task: 'classification', epochs: 5 });
    assert.equal(r.model.config.task, 'classification');
    assert.equal(r.model.config.scaler, null);
    assert.equal(r.model.config.metric, 'roc_auc');
    assert.ok(r.test_metrics && 'accuracy' in r.test_metrics && r.test_metrics.accuracy >= 0 && r.test_metrics.accuracy <= 1);
    assert.ok(r.test_predictions.every((t) => t.prediction > 0 && t.prediction < 1));
    assert.ok(r.learning_curve.at(-1)!.train_loss < r.learning_curve[0]!.train_loss);
    const [p] = await predict(r.model, ['CCO']);
    assert.ok(p!.prediction! > 0 && p!.prediction! < 1);
  });

  test('stops between batches when asked', async () => {
    let batches = 0;
    await assert.rejects(
      trainModel(rows60, { ...tiny, epochs: 5 }, undefined, () => ++batches > 3),
      (err: unknown) => err instanceof TrainingStopped,
    );
    assert.equal(batches, 4);
  });
});

describe('models', () => {
  test('serialise and load round trip gives identical predictions', async () => {
    const buf = serializeModel(fit.model);
    assert.ok(buf.length > 1000 && buf.length < 200_000, `${buf.length} bytes`);
    const loaded = loadModel(buf);
    assert.deepEqual(loaded.config, fit.model.config);
    const smiles = ['CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O', rows60[0]!.smiles];
    const tensors = tf.memory().numTensors;
    assert.deepEqual(await predict(loaded, smiles), await predict(fit.model, smiles));
    assert.equal(tf.memory().numTensors, tensors, 'prediction leaves no tensor behind');
    assert.throws(() => loadModel(Buffer.from('not a model at all')), /not a Crucible D-MPNN model/);
  });

  test('predictions: one per input, errors for unreadable SMILES, domain from training similarity', async () => {
    const [train0, unreadable, far] = await predict(fit.model, [
      fit.model.config.split.train > 0 ? rows60.find((_, i) => fit.split_rows.train.includes(i))!.smiles : '',
      'C1CC',
      '[Fe+2].[Cl-].[Cl-]',
    ]);
    assert.equal(train0!.similarity, 1);
    assert.equal(train0!.in_domain, true);
    assert.equal(train0!.uncertainty, null);
    assert.ok(Number.isFinite(train0!.prediction));
    assert.equal(train0!.error, null);
    assert.deepEqual(unreadable, { smiles: 'C1CC', prediction: null, uncertainty: null, in_domain: null, similarity: null, error: 'unreadable SMILES' });
    assert.equal(far!.in_domain, false);
    assert.ok(far!.similarity! < 0.3);
  });

  test('ensemble uncertainty is null for one member and positive for three; merged members equal one ensemble', async () => {
    const three = await trainModel(rows60, { ...tiny, epochs: 2, ensemble_size: 3 });
    assert.equal(three.model.weights.length, 3);
    assert.deepEqual(
      three.model.config.members.map((m) => m.seed),
      [7, 8, 9],
    );
    const [p] = await predict(three.model, ['CCCCO']);
    assert.ok(p!.uncertainty! > 0, `uncertainty ${p!.uncertainty}`);
    assert.ok(three.test_predictions.every((t) => t.uncertainty! > 0));
    const parts = await Promise.all([7, 8, 9].map((seed) => trainModel(rows60, { ...tiny, epochs: 2, seed })));
    const merged = mergeModels(parts.map((r) => r.model));
    assert.ok(serializeModel(merged).equals(serializeModel(three.model)));
  });
});
