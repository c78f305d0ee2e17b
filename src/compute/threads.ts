// Placement `thread`: a job type's long CPU work (model training, ...) in a dedicated worker
// thread per job, so it neither blocks the event loop (heartbeats, the API) nor starves the
// chemistry pool. The thread runs the default export of `module`, a ThreadWork function; its
// progress reaches the job's progress(), and an abort (cancel, runtime limit, shutdown) ends
// the thread at once.
import { Worker } from 'node:worker_threads';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import { JobAborted } from './job-type.js';

/** What a thread module exports as default: the work, given its input and a progress reporter. */
export type ThreadWork<I, O> = (input: I, report: (fraction: number, message?: string, detail?: Record<string, unknown>) => void) => Promise<O> | O;

export type ThreadMessage<O> =
  { kind: 'progress'; fraction: number; message?: string; detail?: Record<string, unknown> } | { kind: 'done'; output: O } | { kind: 'failed'; message: string; name: string };

export interface ThreadContext {
  signal: AbortSignal;
  progress(fraction: number, message?: string, detail?: Record<string, unknown>): void;
}

/** The thread's entry: thread-entry.js when compiled; from sources, thread-tsx.mjs registers tsx first (Node 20 threads do not inherit it). */
function entry(): URL {
  return RUNNING_FROM_SOURCE ? new URL('./thread-tsx.mjs', import.meta.url) : siblingModule(import.meta.url, 'thread-entry');
}

/** Error raised in the thread, rethrown here with its message (the stack stays in the thread). */
export class ThreadWorkError extends Error {}

/**
 * Runs `module`'s default export with `input` in a new worker thread and resolves with its
 * output. Rejects with the signal's reason (a JobAborted) when aborted, terminating the thread.
 */
export function runInThread<I, O>(module: URL, input: I, ctx: ThreadContext, opts: { resourceLimits?: { maxOldGenerationSizeMb?: number } } = {}): Promise<O> {
  if (ctx.signal.aborted) return Promise.reject(ctx.signal.reason instanceof JobAborted ? ctx.signal.reason : new JobAborted('cancelled'));
  return new Promise<O>((resolve, reject) => {
    const worker = new Worker(entry(), { workerData: { module: module.href, input }, resourceLimits: opts.resourceLimits });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      finish(() => reject(ctx.signal.reason instanceof JobAborted ? ctx.signal.reason : new JobAborted('cancelled')));
      void worker.terminate();
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: ThreadMessage<O>) => {
      if (m.kind === 'progress') ctx.progress(m.fraction, m.message, m.detail);
      else if (m.kind === 'done') finish(() => resolve(m.output));
      else finish(() => reject(Object.assign(new ThreadWorkError(m.message), { name: m.name })));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the job's worker thread exited (code ${code}) without a result`))));
  });
}
