// What a training thread and its gradient thread share (grad-pool.ts, grad-worker.ts), in a
// module of their own: importing grad-worker.ts would make the importing thread a gradient
// thread (it listens on its parent port).
//
// A batch is cut into PARTS parts by its order alone (cutParts); each part's gradients are
// computed apart, by whichever thread claims the part first (an atomic counter on the board), and
// added part 0 + part 1 + ... in that order, so that the weights do not depend on the number of
// threads or on which thread computed what (docs/models.md, "Determinism").
import type { Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import type { FusedNet, LossKind } from './fused.js';

/** Parts of a batch: more than threads, so that a thread the machine holds back gets fewer. */
export const PARTS = 4;

export type GradRequest =
  | {
      kind: 'init';
      arch: Architecture;
      mols: MolFeatures[];
      board: SharedArrayBuffer;
      /** floats in the parameters */
      size: number;
      /** molecules in a batch, at most */
      capacity: number;
      /** the thread's nice value (Linux), or null to leave it */
      nice: number | null;
    }
  | { kind: 'grad'; denominator: number; seed: number | null; loss: LossKind }
  | { kind: 'release' };

export type GradReply = { kind: 'ready' } | { kind: 'done' } | { kind: 'error'; message: string };

/** A batch on the shared board: its molecules, labels, cut, the weights, and each part's loss and gradients. */
export interface Board {
  /** [0]: the next part to claim */
  ctrl: Int32Array;
  /** part k is idx[bounds[k]..bounds[k + 1]) */
  bounds: Int32Array;
  idx: Int32Array;
  labels: Float32Array;
  losses: Float64Array;
  weights: Float32Array;
  slots: Float32Array[];
}

const layout = (size: number, capacity: number) => {
  const losses = 0;
  const ctrl = losses + 8 * PARTS;
  const bounds = ctrl + 16;
  const idx = bounds + 4 * (PARTS + 1);
  const labels = idx + 4 * capacity;
  const weights = labels + 4 * capacity;
  const slots = weights + 4 * size;
  return { losses, ctrl, bounds, idx, labels, weights, slots, bytes: slots + 4 * size * PARTS };
};

export function boardBytes(size: number, capacity: number): number {
  return layout(size, capacity).bytes;
}

/** The board's views over `buf` (shared with a gradient thread, or a thread's own). */
export function boardViews(buf: ArrayBufferLike, size: number, capacity: number): Board {
  const o = layout(size, capacity);
  return {
    ctrl: new Int32Array(buf, o.ctrl, 4),
    bounds: new Int32Array(buf, o.bounds, PARTS + 1),
    idx: new Int32Array(buf, o.idx, capacity),
    labels: new Float32Array(buf, o.labels, capacity),
    losses: new Float64Array(buf, o.losses, PARTS),
    weights: new Float32Array(buf, o.weights, size),
    slots: Array.from({ length: PARTS }, (_, k) => new Float32Array(buf, o.slots + 4 * size * k, size)),
  };
}

/** The next unclaimed part of the board's batch, or -1. */
export function claim(board: Board): number {
  const k = Atomics.add(board.ctrl, 0, 1);
  return k < PARTS ? k : -1;
}

/** Seed of part `part`'s dropout, from the batch's seed. */
export const partSeed = (seed: number | null, part: number): number | null => (seed === null ? null : (seed + Math.imul(part, 0x9e3779b9)) >>> 0);

/** Computes part k of the board's batch with `net` (its weights set): its summed loss and gradients into the board. */
export function computePart(net: FusedNet, mols: readonly MolFeatures[], board: Board, k: number, denominator: number, seed: number | null, loss: LossKind): void {
  const from = board.bounds[k] as number;
  const to = board.bounds[k + 1] as number;
  if (from === to) return;
  net.load(mols, board.idx, from, to);
  net.forward(partSeed(seed, k));
  board.losses[k] = net.backward(board.labels.subarray(from, to), denominator, loss);
  (board.slots[k] as Float32Array).set(net.grads);
}
