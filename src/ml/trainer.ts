// The optimiser steps of one ensemble member, by one of two engines (docs/models.md, "Speed"):
//
// - "fused" (the default): fused.ts's hand-written forward and backward passes on WebAssembly
//   SIMD kernels, and Adam on the flat parameters (adam.ts). Data-parallel: each batch is cut
//   into PARTS (4) parts of about equal work (atoms + directed bonds) by its order alone; each
//   part's gradients are computed apart, by this thread or the gradient thread (with `threads`
//   2), whichever claims it first, and summed in a fixed order, part 0 + part 1 + ... The cut and
//   the sum do not depend on the threads, so one thread and two give the same weights, byte for
//   byte; a thread the machine holds back computes fewer parts.
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
import { boardBytes, boardViews, claim, computePart, PARTS, type Board } from './grad-protocol.js';
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
  /** the gradient thread's nice value on Linux (src/compute/types/mpnn-train-thread.ts: 10, as its own), so that the API's threads come first; default unchanged */
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

/**
 * Cuts a batch into PARTS parts by its order alone: bounds[k] is the position whose prefix work
 * (atoms + directed bonds) is nearest k / PARTS of the whole (never before bounds[k - 1]).
 */
export function cutParts(mols: readonly MolFeatures[], idx: readonly number[], bounds: Int32Array): void {
  const work = (i: number) => {
    const m = mols[i] as MolFeatures;
    return m.nAtoms + 2 * m.nBonds;
  };
  let total = 0;
  for (const i of idx) total += work(i);
  bounds[0] = 0;
  let c = 0;
  let prefix = 0;
  for (let k = 1; k < PARTS; k++) {
    const target = (total * k) / PARTS;
    // advance while the next prefix is nearer the target
    while (c < idx.length && Math.abs(prefix + work(idx[c] as number) - target) <= Math.abs(prefix - target)) prefix += work(idx[c++] as number);
    bounds[k] = c;
  }
  bounds[PARTS] = idx.length;
}

/** sum += other (a function of its own: hot, and optimised apart from the async step around it). */
function addInto(sum: Float32Array, other: Float32Array): void {
  for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) + (other[i] as number);
}

class FusedTrainer implements MemberTrainer {
  private readonly net: FusedNet;
  private readonly adam: Adam;
  private readonly sum: Float32Array;
  private evalNet: FusedNet | null = null;
  private local: Board | null = null;

  constructor(
    private readonly s: MemberSetup,
    private helper: GradientHelper | null,
  ) {
    this.net = new FusedNet(s.arch);
    this.net.setWeights(s.weights);
    this.adam = new Adam(this.net.size);
    this.sum = new Float32Array(this.net.size);
  }

  /** A board of this thread's own (no gradient thread). */
  private localBoard(): Board {
    this.local ??= boardViews(new ArrayBuffer(boardBytes(this.net.size, this.s.batchSize)), this.net.size, this.s.batchSize);
    return this.local;
  }

  /** Puts the batch on `board`, cut into its parts, with no part claimed. */
  private post(board: Board, idx: readonly number[], labels: Float32Array): void {
    cutParts(this.s.train, idx, board.bounds);
    board.idx.set(idx);
    board.labels.set(labels);
    Atomics.store(board.ctrl, 0, 0);
  }

  /** Claims and computes parts of the batch on `board` until none is left. */
  private work(board: Board, n: number, seed: number | null): void {
    for (let k = claim(board); k >= 0; k = claim(board)) computePart(this.net, this.s.train, board, k, n, seed, this.s.loss);
  }

  async step(idx: readonly number[], labels: Float32Array, lr: number): Promise<number> {
    const { s, net, sum } = this;
    const n = idx.length;
    const seed = s.arch.dropout > 0 ? s.rng.nextUint32() : null;
    let board: Board;
    if (this.helper) {
      board = this.helper.board;
      this.post(board, idx, labels);
      board.weights.set(net.params);
      const helped = this.helper.run(n, seed, s.loss).then(
        () => true,
        () => false,
      );
      this.work(board, n, seed);
      if (!(await helped)) {
        // the gradient thread failed: it is dropped, and every part computed here (the same result)
        this.dropHelper();
        board = this.localBoard();
        this.post(board, idx, labels);
        this.work(board, n, seed);
      }
    } else {
      board = this.localBoard();
      this.post(board, idx, labels);
      this.work(board, n, seed);
    }
    // part 0 + part 1 + ..., whoever computed them
    let loss = 0;
    let first = true;
    for (let k = 0; k < PARTS; k++) {
      if (board.bounds[k] === board.bounds[k + 1]) continue;
      loss += board.losses[k] as number;
      if (first) sum.set(board.slots[k] as Float32Array);
      else addInto(sum, board.slots[k] as Float32Array);
      first = false;
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
