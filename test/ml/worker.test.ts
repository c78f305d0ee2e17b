// Training in a worker thread, as the job runtime will run it: progress arrives as messages,
// the model comes back as one Buffer, and it is the model the main thread trains from the same
// data and seed, byte for byte. The job's thread work runs itself and its gradient thread at
// nice value 10 (Linux), below the API's threads.
// Run: node --import tsx --test test/ml/worker.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readCsvTable } from '../../src/ml/csv.js';
import { loadModel, serializeModel, trainModel, type TrainOptions } from '../../src/ml/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = readCsvTable(fs.readFileSync(path.join(here, '../../data/public/esol.csv'), 'utf8'))
  .slice(0, 60)
  .map((r) => ({ smiles: (r.smiles ?? '').trim(), target: r['measured log solubility in mols per litre'] ?? '' }));

/** The worker module, with tsx's loader registered in the thread first (Node 20 workers do not inherit it). */
function workerUrl(): URL {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./train-worker.ts', import.meta.url).href;
  return new URL(`data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`)}`);
}

test('trains in a worker thread: progress messages, the model as bytes, the same model as in the main thread', async () => {
  const options: TrainOptions = { hidden_size: 32, depth: 2, epochs: 3, batch_size: 16, ensemble_size: 2, seed: 11 };
  const epochs: unknown[] = [];
  const done = await new Promise<{ model: Uint8Array }>((resolve, reject) => {
    const w = new Worker(workerUrl(), { workerData: { rows, options } });
    w.on('message', (m: { kind: string; info?: unknown; model?: Uint8Array }) => {
      if (m.kind === 'epoch') epochs.push(m.info);
      else resolve(m as { model: Uint8Array });
    });
    w.once('error', reject);
  });
  assert.equal(epochs.length, 6);
  const inWorker = loadModel(done.model);
  assert.equal(inWorker.weights.length, 2);
  const inMain = await trainModel(rows, options);
  assert.ok(Buffer.from(done.model).equals(serializeModel(inMain.model)));
});

/** The nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended
    }
  });
}

test('the mpnn_train job thread trains at nice 10, and so does its gradient thread; the API thread keeps its nice value', { skip: process.platform !== 'linux' }, async () => {
  const mine = os.getPriority(0);
  const seen: number[][] = [];
  const done = await new Promise<{ model: Uint8Array }>((resolve, reject) => {
    const w = new Worker(workerUrl(), { workerData: { rows, options: { hidden_size: 64, depth: 2, epochs: 3, batch_size: 16, seed: 2 }, job: true } });
    w.on('message', (m: { kind: string; model?: Uint8Array }) => {
      if (m.kind === 'epoch') seen.push(threadNices());
      else resolve(m as { model: Uint8Array });
    });
    w.once('error', reject);
  });
  assert.ok(done.model.byteLength > 1000);
  assert.equal(seen.length, 3);
  // the job thread, its gradient thread (and from sources, threads they started: tsx's loader)
  for (const nices of seen) assert.ok(nices.filter((n) => n === 10).length >= 2, `thread nice values during training: ${nices.join(' ')}`);
  assert.equal(os.getPriority(0), mine);
});
