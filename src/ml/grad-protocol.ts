// The messages between a training thread and its gradient thread (grad-pool.ts, grad-worker.ts),
// in a module of their own: importing grad-worker.ts would make the importing thread a gradient
// thread (it listens on its parent port).
import type { Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import type { LossKind } from './fused.js';

export type GradRequest =
  | {
      kind: 'init';
      arch: Architecture;
      mols: MolFeatures[];
      weights: SharedArrayBuffer;
      grads: SharedArrayBuffer;
      io: SharedArrayBuffer;
      capacity: number;
      /** the thread's nice value (Linux), or null to leave it */
      nice: number | null;
    }
  | { kind: 'grad'; n: number; denominator: number; seed: number | null; loss: LossKind }
  | { kind: 'release' };

export type GradReply = { kind: 'ready' } | { kind: 'done'; loss: number } | { kind: 'error'; message: string };

/** The io buffer: `capacity` int32 molecule indices, then `capacity` float32 labels. */
export function ioViews(io: SharedArrayBuffer, capacity: number): { idx: Int32Array; labels: Float32Array } {
  return { idx: new Int32Array(io, 0, capacity), labels: new Float32Array(io, 4 * capacity, capacity) };
}
