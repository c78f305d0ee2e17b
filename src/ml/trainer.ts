// The optimiser steps of one ensemble member, by one of two engines (docs/models.md, "Speed"):
//
// - "fused" (the default): fused.ts's hand-written forward and backward passes on WebAssembly
//   SIMD kernels, and Adam on the flat parameters (adam.ts). Data-parallel: each batch is cut
//   into two parts of about equal work (atoms + directed bonds) by its order alone; the
//   gradients of each part are computed apart (part 1 in a gradient thread when `threads` is 2)
//   and summed in a fixed order, part 0 + part 1. The cut and the sum do not depend on the
//   number of threads, so one thread and two give the same weights, byte for byte.
// - "tfjs": the forward pass of dmpnn.ts on TensorFlow.js with the kernels of kernels.ts,
//   gradients from tf.variableGrads, tfjs's Adam: the engine before the fused one, kept as the
//   reference of test/ml/fused.test.ts and the baseline of `npm run bench:models`.
import { availableParallelism } from 'node:os';
import { Adam } from './adam.js';
import { disposeBatch, stack, toTensors } from './batch.js';
import { DmpnnParams, forward, type Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import { FusedNet, parameterCount, type LossKind } from './fused.js';
import { GradientHelper } from './grad-pool.js';
import { rawOutputs, type Engine } from './model.js';
import type { Prng } from './prng.js';
import { tf } from './tf.js';

export type { Engine };

/** How training runs (not part of the model: the same options give the same model either way, per engine). */
export interface TrainRuntime {
  /** "fused" (default) or "tfjs" (the former engine, for comparison) */
  engine?: Engine;
  /** threads computing gradients, 1 or 2 (default: 2 when the machine has 2 cores or more) */
  threads?: number;
  /** the gradient thread's nice value on Linux (train-thread.ts: 10, as its own), so that the API's threads come first; default unchanged */
  nice?: number;
}

export interface MemberTrainer {
  /** One Adam step on the batch train[idx] with scaled `labels` (one per idx); resolves with the batch's summed loss. */
  step(idx: readonly number[], labels: Float32Array, lr: number): Promise<number>;
  /** Raw outputs (no dropout) of molecules. */
  outputs(mols: readonly MolFeatures[]): Float32Array;
  weights(): Float32Array[];
  dispose(): void;
}

export interface MemberSetup {
  arch: Architecture;
  loss: LossKind;
  batchSize: number;
  initLr: number;
  weights: Float32Array[];
  rng: Prng;
  train: readonly MolFeatures[];
}

class ScheduledAdam extends tf.AdamOptimizer {
  constructor(lr: number) {
    // PyTorch's Adam defaults (chemprop): betas (0.9, 0.999), eps 1e-8
    super(lr, 0.9, 0.999, 1e-8);
  }
  setLearningRate(lr: number): void {
    this.learningRate = lr;
  }
}

class TfjsTrainer implements MemberTrainer {
  private readonly params: DmpnnParams;
  private readonly optimizer: ScheduledAdam;

  constructor(private readonly s: MemberSetup) {
    this.params = new DmpnnParams(s.arch, s.weights, true);
    this.optimizer = new ScheduledAdam(s.initLr);
  }

  step(idx: readonly number[], labelValues: Float32Array, lr: number): Promise<number> {
    const { s, params, optimizer } = this;
    const batch = toTensors(stack(idx.map((i) => s.train[i] as MolFeatures)));
    const labels = tf.tensor1d(labelValues);
    try {
      optimizer.setLearningRate(lr);
      const loss = tf.tidy(() => {
        const seeds = () => s.rng.nextUint32();
        const { value, grads } = tf.variableGrads(() => {
          const out = forward(params, batch, s.arch.dropout > 0 ? seeds : null);
          return s.loss === 'mse' ? tf.losses.meanSquaredError(labels, out) : tf.losses.sigmoidCrossEntropy(labels, out);
        }, params.vars);
        optimizer.applyGradients(grads as unknown as Record<string, tf.Variable>); // tfjs declares the gradients map as variables
        return value;
      });
      const sum = (loss.dataSync()[0] as number) * idx.length;
      loss.dispose();
      return Promise.resolve(sum);
    } finally {
      disposeBatch(batch);
      labels.dispose();
    }
  }

  outputs(mols: readonly MolFeatures[]): Float32Array {
    return rawOutputs(this.params, mols);
  }

  weights(): Float32Array[] {
    return this.params.read();
  }

  dispose(): void {
    this.params.dispose();
    this.optimizer.dispose();
  }
}

/** Where a batch is cut into its two parts: the position whose prefix work (atoms + directed bonds) is nearest half. */
export function cutBatch(mols: readonly MolFeatures[], idx: readonly number[]): number {
  if (idx.length < 2) return idx.length;
  const work = (i: number) => {
    const m = mols[i] as MolFeatures;
    return m.nAtoms + 2 * m.nBonds;
  };
  let total = 0;
  for (const i of idx) total += work(i);
  let prefix = 0;
  let cut = 1;
  let best = Infinity;
  for (let c = 1; c < idx.length; c++) {
    prefix += work(idx[c - 1] as number);
    const d = Math.abs(2 * prefix - total);
    if (d < best) {
      best = d;
      cut = c;
    }
  }
  return cut;
}

/** sum += other (a function of its own: hot, and optimised apart from the async step around it). */
function addInto(sum: Float32Array, other: Float32Array): void {
  for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) + (other[i] as number);
}

/** Seed of part `part` of a batch's dropout, from the batch's seed. */
const partSeed = (seed: number, part: number) => (seed + Math.imul(part, 0x9e3779b9)) >>> 0;

class FusedTrainer implements MemberTrainer {
  private readonly net: FusedNet;
  private readonly adam: Adam;
  private readonly sum: Float32Array;
  private evalNet: FusedNet | null = null;

  constructor(
    private readonly s: MemberSetup,
    private helper: GradientHelper | null,
  ) {
    this.net = new FusedNet(s.arch);
    this.net.setWeights(s.weights);
    this.adam = new Adam(this.net.size);
    this.sum = new Float32Array(this.net.size);
  }

  private part(idx: readonly number[], labels: Float32Array, from: number, to: number, n: number, seed: number | null): number {
    const net = this.net;
    net.load(this.s.train, idx, from, to);
    net.forward(seed);
    return net.backward(labels.subarray(from, to), n, this.s.loss);
  }

  async step(idx: readonly number[], labels: Float32Array, lr: number): Promise<number> {
    const { s, net, sum } = this;
    const n = idx.length;
    const cut = cutBatch(s.train, idx);
    const seed = s.arch.dropout > 0 ? s.rng.nextUint32() : null;
    const seedOf = (part: number) => (seed === null ? null : partSeed(seed, part));
    const pending = cut < n && this.helper ? this.helper.compute(net.params, idx, labels, cut, n, n, seedOf(1), s.loss) : null;
    let loss = this.part(idx, labels, 0, cut, n, seedOf(0));
    sum.set(net.grads);
    if (cut < n) {
      let other: Float32Array;
      const helped = pending ? await pending.catch(() => null) : null;
      if (helped !== null) {
        loss += helped;
        other = (this.helper as GradientHelper).grads;
      } else {
        // no gradient thread, or it failed (then it is dropped): the part is computed here, with the same result
        if (pending) this.dropHelper();
        loss += this.part(idx, labels, cut, n, n, seedOf(1));
        other = net.grads;
      }
      addInto(sum, other);
    }
    this.adam.step(net.params, sum, lr);
    return loss;
  }

  outputs(mols: readonly MolFeatures[]): Float32Array {
    // a forward-only network of its own: evaluation in chunks of 256 does not grow the training network's memory
    this.evalNet ??= new FusedNet(this.s.arch, false);
    this.evalNet.setParams(this.net.params);
    const out = new Float32Array(mols.length);
    this.evalNet.evaluate(
      mols,
      mols.map((_, i) => i),
      out,
    );
    return out;
  }

  weights(): Float32Array[] {
    return this.net.weights();
  }

  private dropHelper(): void {
    this.helper?.release();
    this.helper = null;
  }

  dispose(): void {
    this.dropHelper();
  }
}

/** The number of gradient threads to use: `threads`, or 2 when the machine has 2 cores or more. */
export function gradientThreads(runtime: TrainRuntime): number {
  const t = runtime.threads ?? Math.min(2, availableParallelism());
  return t >= 2 ? 2 : 1;
}

/** A trainer for one member; with the fused engine and 2 threads it holds a gradient thread until disposed. */
export async function memberTrainer(s: MemberSetup, runtime: TrainRuntime): Promise<MemberTrainer> {
  if (runtime.engine === 'tfjs') return new TfjsTrainer(s);
  let helper: GradientHelper | null = null;
  if (gradientThreads(runtime) === 2) {
    // without a gradient thread (it could not start) the run computes both parts itself: the same weights, later
    helper = await GradientHelper.start(s.arch, parameterCount(s.arch), [...s.train], s.batchSize, runtime.nice ?? null).catch(() => null);
  }
  return new FusedTrainer(s, helper);
}
