// Molecule features (src/ml/mol-features.ts): RDKit 2D descriptors appended before the FFN.
// A model trained with them stores how to compute them, computes them for every molecule it
// predicts (the test split's predictions at training equal predict()'s), and uses them (the
// same molecule with other descriptor values gets another prediction); the normalisation is the
// training split's, clipped. Run: node --import tsx --test test/ml/mol-features.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseSmiles } from '../../src/chem/depict.js';
import { readCsvTable } from '../../src/ml/csv.js';
import { featurizeAll } from '../../src/ml/featurize.js';
import { loadModel, predict, resolveOptions, serializeModel, trainModel, type TrainResult, type TrainingRow } from '../../src/ml/index.js';
import { memberPredictions } from '../../src/ml/model.js';
import { CLIP, fitFeatureSpec, moleculeFeatures, normaliseFeatures, rawDescriptors } from '../../src/ml/mol-features.js';
import { getRDKit } from '../../src/chem/rdkit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ESOL: TrainingRow[] = readCsvTable(fs.readFileSync(path.join(root, 'data/public/esol.csv'), 'utf8')).map((r) => ({
  smiles: (r.smiles ?? '').trim(),
  target: r['measured log solubility in mols per litre'] ?? '',
}));

let fit: TrainResult;

before(async () => {
  fit = await trainModel(ESOL.slice(0, 80), { hidden_size: 32, depth: 2, batch_size: 16, epochs: 6, seed: 3, molecule_features: 'rdkit_2d' }, undefined, undefined, { threads: 1 });
});

describe('molecule features', () => {
  test('the option is checked', () => {
    assert.equal(resolveOptions({}).molecule_features, 'none');
    assert.throws(
      () => resolveOptions({ molecule_features: 'morgan' as never }),
      (e: { issues?: { loc: unknown[] }[] }) => JSON.stringify(e.issues?.[0]?.loc) === '["options","molecule_features"]',
    );
  });

  test('the model stores the descriptors, their training-split normalisation and the wider FFN input', () => {
    const c = fit.model.config;
    const spec = c.molecule_features!;
    assert.equal(spec.generator, 'rdkit_2d');
    assert.equal(spec.names.length, 43);
    assert.ok(spec.names.includes('CrippenClogP') && spec.names.includes('tpsa'));
    assert.deepEqual(spec.names, [...spec.names].sort());
    assert.equal(c.architecture.extra_features, 43);
    assert.equal(c.hyperparameters.molecule_features, 'rdkit_2d');
    assert.deepEqual(c.parameters.find((p) => p.name === 'ffn_0_W')?.shape, [32 + 43, 32]);
    // the means are the training split's: recompute them from the training rows
    const train = ESOL.slice(0, 80).filter((_, i) => !fit.split_rows.val.includes(i) && !fit.split_rows.test.includes(i));
    assert.equal(train.length, c.split.train);
    return getRDKit().then((rdkit) => {
      const logp = spec.names.indexOf('CrippenClogP');
      const values = train.map((r) => {
        const mol = parseSmiles(rdkit, r.smiles)!;
        try {
          return rawDescriptors(mol, spec.names).values[logp]!;
        } finally {
          mol.delete();
        }
      });
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      assert.ok(Math.abs(spec.mean[logp]! - mean) < 1e-9, `${spec.mean[logp]} vs ${mean}`);
    });
  });

  test("prediction computes the features: the test predictions of training are predict()'s, after a save and load", async () => {
    const model = loadModel(serializeModel(fit.model));
    assert.deepEqual(model.config.molecule_features, fit.model.config.molecule_features);
    const preds = await predict(
      model,
      fit.test_predictions.map((t) => t.smiles),
    );
    assert.equal(preds.length, 8);
    for (const [i, t] of fit.test_predictions.entries())
      assert.ok(Math.abs(preds[i]!.prediction! - t.prediction) < 1e-5, `${t.smiles}: ${preds[i]!.prediction} vs ${t.prediction}`);
  });

  test('the features matter: other descriptor values give another prediction', async () => {
    const rdkit = await getRDKit();
    const spec = fit.model.config.molecule_features!;
    const smiles = 'CCCCCCCCO';
    const [f] = featurizeAll(rdkit, [smiles]).map((p) => p!.features);
    const mol = parseSmiles(rdkit, smiles)!;
    try {
      f!.extra = moleculeFeatures(mol, spec);
    } finally {
      mol.delete();
    }
    const own = memberPredictions(fit.model, [f!])[0]![0]!;
    assert.ok(Math.abs(own - (await predict(fit.model, [smiles]))[0]!.prediction!) < 1e-6);
    const zeroed = memberPredictions(fit.model, [{ ...f!, extra: new Float32Array(spec.names.length) }])[0]![0]!;
    assert.ok(Math.abs(own - zeroed) > 1e-3, `${own} vs ${zeroed}`);
  });

  test('normalisation: training mean and deviation, clipped to +-CLIP, missing values at the mean, constants kept finite', () => {
    const spec = fitFeatureSpec(['a', 'b', 'c'], [Float64Array.of(1, 5, Number.NaN), Float64Array.of(3, 5, 2)]);
    assert.deepEqual(spec.mean, [2, 5, 2]);
    assert.deepEqual(spec.std, [1, 1, 1]);
    assert.deepEqual(Array.from(normaliseFeatures(spec, Float64Array.of(4, 5, Number.NaN))), [2, 0, 0]);
    assert.deepEqual(Array.from(normaliseFeatures(spec, Float64Array.of(100, -100, 2))), [CLIP, -CLIP, 0]);
  });

  test('a model without molecule features is unchanged: no spec, FFN input of the hidden size', async () => {
    const plain = await trainModel(ESOL.slice(0, 60), { hidden_size: 32, depth: 2, batch_size: 16, epochs: 1, seed: 3 }, undefined, undefined, { threads: 1 });
    assert.equal(plain.model.config.molecule_features, null);
    assert.equal(plain.model.config.architecture.extra_features, undefined);
    assert.deepEqual(plain.model.config.parameters.find((p) => p.name === 'ffn_0_W')?.shape, [32, 32]);
  });
});
