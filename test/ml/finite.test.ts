// Non-finite numbers in the D-MPNN library (docs/models.md, "Training data" and "Inference"):
// training refuses targets beyond +-1e6 and results that are not finite, and a prediction that
// is not a finite number is the molecule's error, never a NaN or an Infinity in the output.
// Run: node --import tsx --test test/ml/finite.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../src/errors.js';
import { readCsvTable } from '../../src/ml/csv.js';
import { assertFiniteResult, loadModel, predict, serializeModel, trainModel, type TrainedModel, type TrainingRow } from '../../src/ml/index.js';
import { NON_FINITE } from '../../src/ml/predict.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ESOL: TrainingRow[] = readCsvTable(fs.readFileSync(path.join(root, 'data/public/esol.csv'), 'utf8')).map((r) => ({
  smiles: (r.smiles ?? '').trim(),
  target: r['measured log solubility in mols per litre'] ?? '',
}));
const tiny = { hidden_size: 32, depth: 2, ffn_layers: 1, batch_size: 16, epochs: 1 } as const;

let model: TrainedModel;
before(async () => {
  model = (await trainModel(ESOL.slice(0, 50), { ...tiny, ensemble_size: 2 })).model;
});

/** A copy of `model` whose output layer's bias of member `member` is `value`. */
function withOutputBias(member: number, value: number): TrainedModel {
  const m = loadModel(serializeModel(model));
  const weights = m.weights[member]!;
  weights[weights.length - 1]!.fill(value);
  return m;
}

describe('non-finite numbers', () => {
  test('targets of +-1e308 are refused before any training, at each row', async () => {
    const rows = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i % 2 ? -1e308 : 1e308 }));
    await assert.rejects(
      () => trainModel(rows, tiny),
      (err: unknown) => {
        assert.ok(err instanceof AppError && err.code === 'invalid');
        assert.equal(err.issues?.length, 60);
        assert.deepEqual(
          err.issues?.slice(0, 2).map((i) => [i.type, i.loc]),
          [
            ['ml_target_out_of_range', ['rows', 0, 'target']],
            ['ml_target_out_of_range', ['rows', 1, 'target']],
          ],
        );
        return true;
      },
    );
  });

  test('a training result with a metric or a test prediction that is not finite is refused; null metrics are not', () => {
    const ok = { val_metrics: { rmse: 1, mae: 0.5, r2: null }, test_metrics: null, test_predictions: [{ row: 0, smiles: 'C', target: 1, prediction: 2, uncertainty: null }] };
    assert.doesNotThrow(() => assertFiniteResult(ok));
    const diverged = [
      { ...ok, val_metrics: { rmse: Number.NaN, mae: 0.5, r2: null } },
      { ...ok, test_metrics: { rmse: Number.POSITIVE_INFINITY, mae: 1, r2: 0.5 } },
      { ...ok, test_predictions: [{ ...ok.test_predictions[0]!, prediction: Number.NaN }] },
      { ...ok, test_predictions: [{ ...ok.test_predictions[0]!, uncertainty: Number.POSITIVE_INFINITY }] },
    ];
    for (const r of diverged) {
      assert.throws(
        () => assertFiniteResult(r),
        (err: unknown) => err instanceof AppError && err.code === 'invalid' && /not finite numbers .*diverged.*No model was kept/.test(err.message),
      );
    }
  });

  test('a molecule whose prediction is NaN or Infinity gets an error, not the number; other molecules are unaffected', async () => {
    const smiles = ['CCO', 'not a molecule', 'c1ccccc1'];
    const fine = await predict(model, smiles);
    assert.ok(fine[0]!.error === null && Number.isFinite(fine[0]!.prediction) && Number.isFinite(fine[0]!.uncertainty));

    for (const bad of [withOutputBias(1, Number.NaN), withOutputBias(0, 3e38)]) {
      bad.config.scaler = { mean: 0, std: 1e300 }; // 3e38 x 1e300 overflows to Infinity
      const preds = await predict(bad, smiles);
      assert.deepEqual(
        preds.map((p) => [p.smiles, p.prediction, p.uncertainty, p.error]),
        [
          ['CCO', null, null, NON_FINITE],
          ['not a molecule', null, null, 'unreadable SMILES'],
          ['c1ccccc1', null, null, NON_FINITE],
        ],
      );
      assert.equal(preds[0]!.in_domain, fine[0]!.in_domain, 'the domain does not depend on the output');
      assert.doesNotThrow(() => JSON.stringify(preds));
    }
  });
});
