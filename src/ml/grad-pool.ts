// Gradient threads for data-parallel fused training (docs/models.md, "Speed"). A training run
// takes a helper thread from this thread's pool (or starts one), gives it the training
// molecules and SharedArrayBuffers for the weights, the gradients and each batch's part (indices
// and labels), and per batch asks it for the gradients of that part while computing the other
// part itself. Idle helpers stay for the next run of this thread, unreferenced (they keep no
// process alive); a helper ends with the thread that started it.
import { Worker } from 'node:worker_threads';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import type { Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import type { LossKind } from './fused.js';
import { ioViews, type GradReply, type GradRequest } from './grad-protocol.js';

function workerUrl(): URL {
  return RUNNING_FROM_SOURCE ? new URL('./grad-worker-tsx.mjs', import.meta.url) : siblingModule(import.meta.url, 'grad-worker');
}

/** One helper thread; requests are answered in order. */
class Helper {
  readonly worker: Worker;
  private waiting: { resolve: (r: GradReply) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | null = null;

  constructor() {
    this.worker = new Worker(workerUrl());
    this.worker.on('message', (r: GradReply) => {
      const w = this.waiting.shift();
      if (!w) return;
      if (r.kind === 'error') w.reject(new Error(`gradient thread: ${r.message}`));
      else w.resolve(r);
      if (this.waiting.length === 0) this.worker.unref();
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const w of this.waiting.splice(0)) w.reject(err);
      idle.delete(this);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the gradient thread exited (code ${code})`)));
    this.worker.unref(); // after the listeners: adding a 'message' listener refs the thread's port again
  }

  get alive(): boolean {
    return this.failure === null;
  }

  request(msg: GradRequest): Promise<GradReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.ref(); // an answer is awaited: keep the process alive until it comes
      this.worker.postMessage(msg);
    });
  }

  post(msg: GradRequest): void {
    if (!this.failure) this.worker.postMessage(msg);
  }
}

const idle = new Set<Helper>();

/** A helper computing one part of each batch for a training run. */
export class GradientHelper {
  private readonly weightsView: Float32Array;
  private readonly gradsView: Float32Array;
  private readonly idx: Int32Array;
  private readonly labels: Float32Array;
  private released = false;

  private constructor(
    private readonly helper: Helper,
    weights: SharedArrayBuffer,
    grads: SharedArrayBuffer,
    io: SharedArrayBuffer,
    capacity: number,
  ) {
    this.weightsView = new Float32Array(weights);
    this.gradsView = new Float32Array(grads);
    ({ idx: this.idx, labels: this.labels } = ioViews(io, capacity));
  }

  /** A helper holding `mols` for a network of `arch` with `size` parameters, batches of at most `capacity`, at nice value `nice` (null: unchanged). */
  static async start(arch: Architecture, size: number, mols: MolFeatures[], capacity: number, nice: number | null): Promise<GradientHelper> {
    let helper: Helper | undefined;
    for (const h of idle) {
      idle.delete(h);
      if (h.alive) {
        helper = h;
        break;
      }
    }
    helper ??= new Helper();
    const weights = new SharedArrayBuffer(4 * size);
    const grads = new SharedArrayBuffer(4 * size);
    const io = new SharedArrayBuffer(8 * capacity);
    await helper.request({ kind: 'init', arch, mols, weights, grads, io, capacity, nice });
    return new GradientHelper(helper, weights, grads, io, capacity);
  }

  /** Starts the gradients of mols[idx[from..to)] with `params` as weights; resolves with the part's summed loss. */
  compute(
    params: Float32Array,
    idx: ArrayLike<number>,
    labels: ArrayLike<number>,
    from: number,
    to: number,
    denominator: number,
    seed: number | null,
    loss: LossKind,
  ): Promise<number> {
    this.weightsView.set(params);
    for (let i = from; i < to; i++) {
      this.idx[i - from] = idx[i] as number;
      this.labels[i - from] = labels[i] as number;
    }
    return this.helper.request({ kind: 'grad', n: to - from, denominator, seed, loss }).then((r) => (r as { loss: number }).loss);
  }

  /** The gradients of the last compute (a view of the shared buffer). */
  get grads(): Float32Array {
    return this.gradsView;
  }

  /** Gives the helper back to the pool (it drops the run's molecules). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.helper.post({ kind: 'release' });
    if (this.helper.alive) idle.add(this.helper);
  }
}
