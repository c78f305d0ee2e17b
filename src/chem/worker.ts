// A chemistry worker thread (run by piscina from pool.ts). RDKit MinimalLib is instantiated
// once per thread, from the module the pool compiled once for the whole process, and every
// task is a batch of items of one kind, dispatched through the registry below.
//
// Progress is written to shared memory before each item (kinds.ts, PROGRESS_SLOTS), so that the
// pool's watchdog can time out the one item that hangs, and tell which item was running when
// the thread died; the pool can also ask the task to stop before its next item.
import { workerData } from 'node:worker_threads';
import { depictMarked, depictMolecule, depictReaction } from './depict.js';
import { describeItem } from './describe.js';
import { warmUp } from './properties/index.js';
import { JOB_HANDLERS } from './jobs/handlers.js';
import { UTILITY_HANDLERS } from './utilities/handlers.js';
import { loadRDKit, type RDKitModule } from './rdkit.js';
import { isWasmFatal, Wasm } from './wasm.js';
import type { KindMap, TaskKind, TaskMessage, TaskReply, WorkerConfig, WorkerItemResult } from './kinds.js';

type Handler<K extends TaskKind> = (rdkit: RDKitModule, input: KindMap[K]['input'], options: KindMap[K]['options']) => KindMap[K]['output'];

/** The registry: one handler per task kind. Compute jobs add theirs here. */
const HANDLERS: { [K in TaskKind]: Handler<K> } = {
  depict: depictMolecule,
  depict_reaction: depictReaction,
  depict_marked: depictMarked,
  describe: describeItem,
  ...JOB_HANDLERS, // compute-job kinds (src/chem/jobs)
  ...UTILITY_HANDLERS, // the utilities (src/chem/utilities)
};

const config = (workerData ?? { wasmModule: null, warmupTickets: null, faults: null }) as WorkerConfig;

const rdkit = await loadRDKit(config.wasmModule);
rdkit.disable_logging(); // parse errors are per-item results, not log lines
rdkit.prefer_coordgen(false); // RDKit's own depictor, as native RDKit draws by default

const WARMUP = ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O', 'c1ccc2[nH]ccc2c1', 'O=C([O-])CC[NH3+].[Na+]'];

/** Kinds whose one-off preparation has been done in this thread. */
const prepared = new Set<string>();

/**
 * One-off work a kind needs before its first item, run outside the items' time limit: the
 * alert catalogs' and QED's SMARTS for `describe` (parsed once per RDKit instance).
 */
function prepare(kind: string): void {
  if (prepared.has(kind)) return;
  if (kind === 'describe') warmUp(rdkit);
  prepared.add(kind);
}

const tickets = config.warmupTickets ? new Int32Array(config.warmupTickets) : null;
if (tickets && Atomics.sub(tickets, 0, 1) > 0) {
  // The pool's first threads: once through each kind, so the first real requests do not pay
  // for RDKit's lazy initialisation (the alert catalogs' SMARTS are compiled on first use) and
  // the first tier of WASM code. Threads that replace a dead one, or stand in for a stuck one,
  // skip this (it took seconds on a loaded machine): they only prepare() a kind on first use.
  prepare('describe');
  for (const s of WARMUP) {
    depictMolecule(rdkit, s, { width: 300, height: 220, key: true });
    describeItem(rdkit, s, { key: true });
  }
  depictReaction(rdkit, 'CC(=O)O.OCC>[H+]>CC(=O)OCC.O', { width: 600, height: 220, key: true });
}

function healthy(): boolean {
  try {
    const m = rdkit.get_mol('CC');
    const ok = !!m && m.get_num_atoms() === 2;
    m?.delete();
    return ok;
  } catch {
    return false;
  }
}

function injectFaults(input: unknown): void {
  const f = config.faults;
  if (!f || typeof input !== 'string') return;
  if (f.hang?.includes(input)) for (;;);
  if (f.crash?.includes(input)) process.exit(99);
  if (f.abort?.includes(input)) throw new Wasm.RuntimeError('Aborted(injected fault)');
}

export default function runTask(task: TaskMessage): TaskReply {
  const handler = HANDLERS[task.kind as TaskKind] as Handler<TaskKind> | undefined;
  if (!handler) throw new Error(`unknown chemistry task kind "${task.kind}"`);
  const progress = new Int32Array(task.progress);
  prepare(task.kind); // before the first item's clock starts
  const started = performance.now();
  const results: WorkerItemResult[] = [];
  Atomics.store(progress, 2, Date.now() - task.base);
  for (let i = 0; i < task.items.length; i++) {
    // The pool gave up on this task (its caller has been answered): stop here.
    if (Atomics.load(progress, 3) !== 0) break;
    Atomics.store(progress, 1, Date.now() - task.base);
    Atomics.store(progress, 0, i);
    let result: WorkerItemResult;
    try {
      injectFaults(task.items[i]);
      result = { ok: true, value: handler(rdkit, task.items[i] as never, task.options as never) };
    } catch (err) {
      // A WASM trap or abort leaves the RDKit instance unusable: end this thread (the pool
      // blames this item, retries the others and starts a fresh thread).
      if (isWasmFatal(err) || !healthy()) process.exit(70);
      result = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (task.port) task.port.postMessage([i, result]);
    else results.push(result);
  }
  task.port?.close();
  Atomics.store(progress, 0, task.items.length);
  return { results, busyMs: performance.now() - started };
}
