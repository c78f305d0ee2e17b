// Gradient threads for data-parallel fused training (docs/models.md, "Speed"). A training run
// takes a helper thread from this thread's pool (or starts one), gives it the training
// molecules and a shared board (grad-protocol.ts: the batch, its cut, the weights, each part's
// gradients), and per batch asks it to claim and compute parts while claiming parts itself. Idle helpers stay for the next run of this thread, unreferenced (they keep no
// process alive); a helper ends with the thread that started it.
import { Worker } from 'node:worker_threads';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import type { Architecture } from './dmpnn.js';
import type { MolFeatures } from './featurize.js';
import type { LossKind } from './fused.js';
import { boardBytes, boardViews, type Board, type GradReply, type GradRequest } from './grad-protocol.js';

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

/** A helper computing parts of each batch for a training run. */
export class GradientHelper {
  private released = false;

  private constructor(
    private readonly helper: Helper,
    /** the shared board of the run's batches */
    readonly board: Board,
  ) {}

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
    const board = new SharedArrayBuffer(boardBytes(size, capacity));
    await helper.request({ kind: 'init', arch, mols, board, size, capacity, nice });
    return new GradientHelper(helper, boardViews(board, size, capacity));
  }

  /** Asks the helper to claim and compute parts of the batch on the board (set up, counter at 0); resolves when it has no more. */
  run(denominator: number, seed: number | null, loss: LossKind): Promise<void> {
    return this.helper.request({ kind: 'grad', denominator, seed, loss }).then(() => undefined);
  }

  /** Gives the helper back to the pool (it drops the run's molecules). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.helper.post({ kind: 'release' });
    if (this.helper.alive) idle.add(this.helper);
  }
}
