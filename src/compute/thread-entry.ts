// The body of a job's worker thread (threads.ts): imports the work module, runs its default
// export with the input and posts progress, then the output or the failure.
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadMessage, ThreadWork } from './threads.js';

const { module, input } = workerData as { module: string; input: unknown };
const post = (m: ThreadMessage<unknown>) => parentPort!.postMessage(m);

try {
  const work = (await import(module)) as { default: ThreadWork<unknown, unknown> };
  const output = await work.default(input, (fraction, message, detail) => post({ kind: 'progress', fraction, message, detail }));
  post({ kind: 'done', output });
} catch (err) {
  const e = err instanceof Error ? err : new Error(String(err));
  post({ kind: 'failed', message: e.message, name: e.name });
}
