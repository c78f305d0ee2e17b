// The fused D-MPNN (src/ml/fused.ts, on the WebAssembly SIMD kernels): its forward pass against
// the tfjs one, its hand-written backward pass against tfjs's automatic differentiation (every
// entry) and against finite differences (every parameter, with dropout, both losses), and fused training:
// deterministic for a seed, the same with one gradient thread as with two.
// Run: node --import tsx --test test/ml/fused.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { disposeBatch, stack, toTensors } from '../../src/ml/batch.js';
import { readCsvTable } from '../../src/ml/csv.js';
import { DmpnnParams, forward, initialWeights, parameterShapes, type Architecture } from '../../src/ml/dmpnn.js';
import { featurizeAll, type MolFeatures } from '../../src/ml/featurize.js';
import { FusedNet, type LossKind } from '../../src/ml/fused.js';
import { serializeModel, trainModel, type TrainingRow } from '../../src/ml/index.js';
import { Prng } from '../../src/ml/prng.js';
import { getRDKit } from '../../src/chem/rdkit.js';
import { tf, tfReady } from '../../src/ml/tf.js';
import { PARTS } from '../../src/ml/grad-protocol.js';
import { cutParts } from '../../src/ml/trainer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ESOL: TrainingRow[] = readCsvTable(fs.readFileSync(path.join(root, 'data/public/esol.csv'), 'utf8')).map((r) => ({
  smiles: (r.smiles ?? '').trim(),
  target: r['measured log solubility in mols per litre'] ?? '',
}));

/** Molecule features of the test molecules (values of both signs, as normalised descriptors). */
const FEATURES = 7;
const arch = (a: Partial<Architecture>): Architecture => ({ depth: 3, hidden_size: 16, ffn_layers: 2, dropout: 0, aggregation: 'norm', aggregation_norm: 100, ...a });
/** Odd sizes on purpose: hidden sizes that are not multiples of the 4 x 8 blocks, every aggregation, FFN depth and message depth 2..4. */
const ARCHS = [
  arch({ depth: 3, hidden_size: 300, ffn_layers: 2 }),
  arch({ depth: 2, hidden_size: 37, ffn_layers: 3, aggregation: 'mean' }),
  arch({ depth: 4, hidden_size: 33, ffn_layers: 1, aggregation: 'sum' }),
  // molecule features appended before the FFN (src/ml/mol-features.ts), with one FFN layer and with two
  arch({ depth: 3, hidden_size: 29, ffn_layers: 2, extra_features: FEATURES }),
  arch({ depth: 2, hidden_size: 21, ffn_layers: 1, aggregation: 'mean', extra_features: FEATURES }),
];

let mols: MolFeatures[];
let labels: Float32Array;
const all = (n: number) => Array.from({ length: n }, (_, i) => i);

before(async () => {
  await tfReady();
  const rdkit = await getRDKit();
  // 40 ESOL molecules, and molecules without bonds (one atom; ions) among them
  const smiles = [...ESOL.slice(0, 38).map((r) => r.smiles), 'C', '[Na+].[Cl-]'];
  mols = featurizeAll(rdkit, smiles).map((p, i) => ({ ...p!.features, extra: Float32Array.from({ length: FEATURES }, (_, j) => Math.cos(i * 1.7 + j) * (j + 1)) }));
  labels = Float32Array.from(smiles, (_, i) => Math.sin(i) * 2);
});

/** The tfjs forward pass and its autodiff gradients (MSE) of `weights`. */
function tfjsReference(a: Architecture, weights: Float32Array[]): { out: Float32Array; grads: Float32Array[] } {
  const params = new DmpnnParams(a, weights, true);
  const batch = toTensors(stack(mols));
  const y = tf.tensor1d(labels);
  try {
    const outT = tf.tidy(() => forward(params, batch, null));
    const out = outT.dataSync() as Float32Array;
    outT.dispose();
    const { value, grads } = tf.variableGrads(() => tf.losses.meanSquaredError(y, forward(params, batch, null)) as tf.Scalar, params.vars);
    const g = params.vars.map((v) => Float32Array.from(grads[v.name]!.dataSync() as Float32Array));
    tf.dispose([value, ...Object.values(grads)]);
    return { out: Float32Array.from(out), grads: g };
  } finally {
    disposeBatch(batch);
    y.dispose();
    params.dispose();
  }
}

const maxAbs = (x: ArrayLike<number>) => Array.from(x).reduce((m, v) => Math.max(m, Math.abs(v)), 0);

/** Per-parameter views of a flat gradient vector. */
function split(a: Architecture, flat: Float32Array): Float32Array[] {
  let at = 0;
  return parameterShapes(a).map(({ shape }) => {
    const n = shape.reduce((x, y) => x * y, 1);
    at += n;
    return flat.subarray(at - n, at);
  });
}

describe('fused D-MPNN', () => {
  test('forward pass: the same outputs as the tfjs model, molecules without bonds included', () => {
    for (const a of ARCHS) {
      const w = initialWeights(a, new Prng(3));
      const net = new FusedNet(a);
      net.setWeights(w);
      net.load(mols, all(mols.length));
      const out = net.forward(null);
      const ref = tfjsReference(a, w).out;
      for (let i = 0; i < ref.length; i++) assert.ok(Math.abs(out[i]! - ref[i]!) <= 1e-5 * (1 + Math.abs(ref[i]!)), `${a.hidden_size}: molecule ${i}: ${out[i]} vs ${ref[i]}`);
      // a forward-only network in chunks gives the same numbers, bit for bit (a molecule's output does not depend on its batch)
      const evalNet = new FusedNet(a, false);
      evalNet.setWeights(w);
      const chunked = new Float32Array(mols.length);
      evalNet.evaluate(mols, all(mols.length), chunked, 0, 7);
      assert.deepEqual(chunked, Float32Array.from(out));
    }
  });

  test("backward pass: the gradients of tfjs's automatic differentiation, every parameter", () => {
    for (const a of ARCHS) {
      const w = initialWeights(a, new Prng(5));
      const net = new FusedNet(a);
      net.setWeights(w);
      net.load(mols, all(mols.length));
      net.forward(null);
      net.backward(labels, mols.length, 'mse');
      const ours = split(a, net.grads);
      const ref = tfjsReference(a, w).grads;
      parameterShapes(a).forEach(({ name }, p) => {
        const scale = maxAbs(ref[p]!);
        assert.ok(scale > 0, `${name} has a gradient`);
        for (let i = 0; i < ref[p]!.length; i++) {
          assert.ok(Math.abs(ours[p]![i]! - ref[p]![i]!) <= 1e-4 * scale, `${a.hidden_size} ${name}[${i}]: fused ${ours[p]![i]}, tfjs ${ref[p]![i]}`);
        }
      });
    }
  });

  for (const [loss, dropout] of [
    ['mse', 0],
    ['mse', 0.3],
    ['bce', 0.2],
  ] as [LossKind, number][]) {
    test(`backward pass: finite differences of every parameter (${loss}, dropout ${dropout}${dropout === 0.3 ? ', molecule features' : ''})`, () => {
      const a = arch({ depth: 3, hidden_size: 19, ffn_layers: 3, dropout, aggregation: 'mean', extra_features: dropout === 0.3 ? FEATURES : 0 });
      const w = initialWeights(a, new Prng(11));
      const net = new FusedNet(a);
      const y = loss === 'bce' ? labels.map((v) => (v > 0 ? 1 : 0)) : labels;
      const idx = all(12);
      const seed = 1234;
      // the loss of the first 12 molecules, the same dropout masks every time (one seed)
      const lossAt = (weights: Float32Array[]) => {
        net.setWeights(weights);
        net.load(mols, idx);
        net.forward(seed);
        return net.backward(y, idx.length, loss) / idx.length;
      };
      lossAt(w);
      const g = split(a, Float32Array.from(net.grads));
      parameterShapes(a).forEach(({ name }, p) => {
        // the derivative along this parameter's gradient, g / max|g| (the largest step 3e-4),
        // against central differences: g.g / max|g| (a single entry or a random direction is
        // lost in float32 rounding and ReLU kinks; along the gradient the signal is largest)
        const gp = g[p]!;
        const top = maxAbs(gp);
        assert.ok(top > 0, `${name} has a gradient`);
        const analytic = gp.reduce((s, v) => s + (v * v) / top, 0);
        const eps = 3e-4;
        const shifted = (d: number) => lossAt(w.map((x, q) => (q === p ? x.map((v, i) => v + (d * gp[i]!) / top) : x)));
        const numeric = (shifted(eps) - shifted(-eps)) / (2 * eps);
        assert.ok(Math.abs(numeric / analytic - 1) <= 0.02, `${name}: backward ${analytic}, finite difference ${numeric}`);
      });
    });
  }

  test('a batch is cut into 4 parts of about equal work (atoms + directed bonds), by its order alone', () => {
    const idx = all(mols.length);
    const bounds = new Int32Array(PARTS + 1);
    cutParts(mols, idx, bounds);
    const work = (i: number) => mols[i]!.nAtoms + 2 * mols[i]!.nBonds;
    const total = idx.reduce((s, i) => s + work(i), 0);
    const largest = Math.max(...idx.map(work));
    assert.equal(bounds[0], 0);
    assert.equal(bounds[PARTS], mols.length);
    for (let k = 1; k < PARTS; k++) {
      assert.ok(bounds[k]! >= bounds[k - 1]!);
      const before = idx.slice(0, bounds[k]).reduce((s, i) => s + work(i), 0);
      assert.ok(Math.abs(before - (total * k) / PARTS) <= largest / 2, `bound ${k} at ${bounds[k]}: ${before} of ${total}`);
    }
    // fewer molecules than parts: empty parts, every molecule in one
    cutParts(mols, [3, 4], bounds);
    assert.equal(bounds[0], 0);
    assert.equal(bounds[PARTS], 2);
    assert.deepEqual(
      [...bounds]
        .slice(0, -1)
        .map((b, k) => bounds[k + 1]! - b)
        .reduce((a, b) => a + b, 0),
      2,
    );
  });
});

describe('fused training', () => {
  const rows = ESOL.slice(0, 120);
  const opts = { hidden_size: 48, depth: 3, ffn_layers: 2, batch_size: 16, epochs: 3, seed: 3 } as const;

  test('deterministic: the same seed gives the same weights byte for byte, with one gradient thread or two, with dropout too', async () => {
    for (const dropout of [0, 0.2]) {
      const two = await trainModel(rows, { ...opts, dropout }, undefined, undefined, { threads: 2 });
      const twoAgain = await trainModel(rows, { ...opts, dropout }, undefined, undefined, { threads: 2 });
      const one = await trainModel(rows, { ...opts, dropout }, undefined, undefined, { threads: 1 });
      const other = await trainModel(rows, { ...opts, dropout, seed: 4 }, undefined, undefined, { threads: 2 });
      const bytes = serializeModel(two.model);
      assert.ok(bytes.equals(serializeModel(twoAgain.model)), `dropout ${dropout}: two runs differ`);
      assert.ok(bytes.equals(serializeModel(one.model)), `dropout ${dropout}: one thread and two differ`);
      assert.ok(!bytes.equals(serializeModel(other.model)), `dropout ${dropout}: another seed gives the same weights`);
      assert.deepEqual(
        one.learning_curve.map((e) => e.train_loss),
        two.learning_curve.map((e) => e.train_loss),
      );
    }
  });

  test('learns as the tfjs engine does: the same training losses to 4 significant digits over 3 epochs', async () => {
    const fused = await trainModel(rows, opts, undefined, undefined, { engine: 'fused' });
    const tfjs = await trainModel(rows, opts, undefined, undefined, { engine: 'tfjs' });
    const a = fused.learning_curve.map((e) => e.train_loss);
    const b = tfjs.learning_curve.map((e) => e.train_loss);
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= 1e-4 * Math.abs(b[i]!), `epoch ${i + 1}: fused ${a[i]}, tfjs ${b[i]}`);
    assert.ok(a.at(-1)! < a[0]!);
    assert.equal(tf.memory().numTensors, 0, 'training leaves no tensor behind');
  });
});
