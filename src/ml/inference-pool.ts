// Inference threads (docs/models.md): a small piscina pool, apart from the chemistry pool and
// the event loop, that predicts with cached models. The pool sends a model's bytes to a thread
// the first time it needs them (a thread answers `needWeights` when it has not cached them).
import { Piscina } from 'piscina';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import type { InferenceReply, InferenceTask } from './inference-worker.js';
import type { Prediction } from './predict.js';

function workerFilename(): string {
  return RUNNING_FROM_SOURCE ? new URL('./inference-worker-tsx.mjs', import.meta.url).href : siblingModule(import.meta.url, 'inference-worker').href;
}

export class InferencePool {
  private pool: Piscina | null = null;

  constructor(private readonly threads = 1) {}

  private get piscina(): Piscina {
    this.pool ??= new Piscina({ filename: workerFilename(), minThreads: 0, maxThreads: this.threads, idleTimeout: 10 * 60_000 });
    return this.pool;
  }

  /** Predictions for `smiles` with the model whose bytes `weights()` reads (called only when a thread lacks them). */
  async predict(key: string, weights: () => Promise<Uint8Array>, smiles: string[]): Promise<Prediction[]> {
    const first = (await this.piscina.run({ key, weights: null, smiles } satisfies InferenceTask)) as InferenceReply;
    if (first.ok) return first.predictions;
    const reply = (await this.piscina.run({ key, weights: await weights(), smiles } satisfies InferenceTask)) as InferenceReply;
    if (!reply.ok) throw new Error('the inference thread did not take the model');
    return reply.predictions;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}
