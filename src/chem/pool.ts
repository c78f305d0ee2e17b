// The chemistry worker pool: RDKit MinimalLib (WASM) in piscina worker threads, so RDKit never
// runs on the event loop.
//
// - Threads are started on first use (or by start()), each loading RDKit once from a module
//   compiled once per process.
// - A request's items go out in a few batches (tasks); each item's result is independent.
// - Before each item a worker writes the item's index and start time to shared memory. A
//   watchdog terminates a worker whose current item has run longer than the item timeout
//   (piscina replaces the thread). When a task dies (timeout, crash, WASM abort), the item that
//   was running is reported failed and the other items of the batch are run again, so one bad
//   molecule never fails its neighbours and costs one timeout at most.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Piscina } from 'piscina';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import { ChemCache } from './cache.js';
import { Wasm } from './wasm.js';
import type { FaultInjection, KindInput, KindOptions, KindOutput, TaskKind, TaskMessage, TaskReply, WorkerConfig } from './kinds.js';

/** Kinds whose items are one string and whose output carries a canonical cache key. */
export type CachedKind = { [K in TaskKind]: KindInput<K> extends string ? (KindOutput<K> extends { key: string | null } ? K : never) : never }[TaskKind];

export type ItemFailure = 'timeout' | 'crashed' | 'failed' | 'unavailable';
export type ItemOutcome<T> = { ok: true; value: T } | { ok: false; failure: ItemFailure; message: string };

export interface ChemPoolOptions {
  threads: number;
  /** Longest one item may run before its thread is terminated and replaced (default 10 s). */
  itemTimeoutMs?: number;
  /** Items per task at most (default 20). */
  maxBatch?: number;
  /** Cache entries (0 = no cache). */
  cacheEntries?: number;
  /** Run a few molecules through each kind when a thread starts (default true). */
  warmup?: boolean;
  /** Tests only: make workers hang, crash or abort on given inputs. */
  faults?: FaultInjection;
}

export interface ChemPoolStats {
  threads: number;
  tasks: number;
  items: number;
  timeouts: number;
  crashes: number;
  retriedItems: number;
  queued: number;
  /** Time workers spent on items of completed tasks, ms (for the benchmark's breakdown). */
  workerBusyMs: number;
}

interface Running {
  progress: Int32Array;
  base: number;
  size: number;
  abort: AbortController;
  /** Index of the item that timed out, or -1. */
  timedOut: number;
}

const require = createRequire(import.meta.url);

/**
 * The worker module: dist/chem/worker.js when compiled. From TypeScript sources (tests, tsx),
 * worker threads do not inherit tsx's loader on Node 20: worker-tsx.mjs registers it in the
 * thread and then loads worker.ts.
 */
function workerFilename(): string {
  return RUNNING_FROM_SOURCE ? new URL('./worker-tsx.mjs', import.meta.url).href : siblingModule(import.meta.url, 'worker').href;
}

export class ChemPool {
  readonly threads: number;
  readonly itemTimeoutMs: number;
  readonly maxBatch: number;
  readonly cache: ChemCache;
  private readonly warmup: boolean;
  private readonly faults: FaultInjection | null;
  private piscina: Piscina | null = null;
  private starting: Promise<Piscina> | null = null;
  private closed = false;
  private readonly running = new Set<Running>();
  private watchdog: NodeJS.Timeout | null = null;
  private readonly counters = { tasks: 0, items: 0, timeouts: 0, crashes: 0, retriedItems: 0, workerBusyMs: 0 };

  constructor(opts: ChemPoolOptions) {
    this.threads = Math.max(1, Math.floor(opts.threads));
    this.itemTimeoutMs = opts.itemTimeoutMs ?? 10_000;
    this.maxBatch = Math.max(1, opts.maxBatch ?? 20);
    this.warmup = opts.warmup ?? true;
    this.faults = opts.faults ?? null;
    this.cache = new ChemCache(opts.cacheEntries ?? 0);
  }

  /** Compiles RDKit once and starts the threads; called by the first task otherwise. */
  start(): Promise<Piscina> {
    if (this.closed) return Promise.reject(new Error('the chemistry pool is closed'));
    this.starting ??= (async () => {
      const bytes = await fs.promises.readFile(require.resolve('@rdkit/rdkit/RDKit_minimal.wasm'));
      const wasmModule = await Wasm.compile(bytes);
      const workerData: WorkerConfig = { wasmModule, warmup: this.warmup, faults: this.faults };
      const piscina = new Piscina({
        filename: workerFilename(),
        minThreads: this.threads,
        maxThreads: this.threads,
        idleTimeout: Infinity,
        workerData,
        // RDKit's WASM heap lives outside V8's; these bound the JS side of each thread.
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      });
      // A thread that dies between tasks is replaced by piscina; nothing to report.
      piscina.on('error', () => undefined);
      if (this.closed) {
        await piscina.destroy();
        throw new Error('the chemistry pool is closed');
      }
      this.piscina = piscina;
      return piscina;
    })();
    return this.starting;
  }

  /** Runs one item. */
  async run<K extends TaskKind>(kind: K, input: KindInput<K>, options: KindOptions<K>): Promise<ItemOutcome<KindOutput<K>>> {
    return (await this.runItems(kind, [input], options))[0];
  }

  /** Runs items of one kind in as few tasks as keep every thread busy; one outcome per item, in order. */
  async runItems<K extends TaskKind>(kind: K, items: KindInput<K>[], options: KindOptions<K>): Promise<ItemOutcome<KindOutput<K>>[]> {
    const out = new Array<ItemOutcome<KindOutput<K>>>(items.length);
    if (items.length === 0) return out;
    this.counters.items += items.length;
    const indices = items.map((_, i) => i);
    await Promise.all(this.batches(indices).map((b) => this.runBatch(kind, items, options, b, out, 0)));
    return out;
  }

  /**
   * Runs string inputs of a kind whose output carries a canonical `key`, through the cache:
   * inputs seen before are answered without a worker; repeated inputs in one call run once.
   * `variant` separates entries of the same input (the drawing size).
   */
  async runCached<K extends CachedKind>(kind: K, inputs: string[], options: KindOptions<K>, variant: string): Promise<ItemOutcome<KindOutput<K>>[]> {
    const out = new Array<ItemOutcome<KindOutput<K>>>(inputs.length);
    const pending = new Map<string, number[]>(); // input -> positions
    for (let i = 0; i < inputs.length; i++) {
      const hit = this.cache.get<KindOutput<K>>(kind, inputs[i], variant);
      if (hit) out[i] = { ok: true, value: hit };
      else {
        const at = pending.get(inputs[i]);
        if (at) at.push(i);
        else pending.set(inputs[i], [i]);
      }
    }
    if (pending.size === 0) return out;
    const unique = [...pending.keys()];
    const results = await this.runItems(kind, unique as KindInput<K>[], { ...options, key: this.cache.enabled });
    unique.forEach((input, k) => {
      let res = results[k];
      if (res.ok && res.value.key) res = { ok: true, value: this.cache.set(kind, input, variant, res.value.key, res.value) };
      for (const i of pending.get(input)!) out[i] = res;
    });
    return out;
  }

  /** Splits a request over the threads: one request alone uses them all, and tasks stay few. */
  private batches(indices: number[]): number[][] {
    const count = Math.max(Math.ceil(indices.length / this.maxBatch), Math.min(this.threads, Math.ceil(indices.length / 4)));
    const size = Math.ceil(indices.length / count);
    const out: number[][] = [];
    for (let i = 0; i < indices.length; i += size) out.push(indices.slice(i, i + size));
    return out;
  }

  private async runBatch<K extends TaskKind>(
    kind: K,
    items: KindInput<K>[],
    options: KindOptions<K>,
    indices: number[],
    out: ItemOutcome<KindOutput<K>>[],
    attempt: number,
  ): Promise<void> {
    const fill = (failure: ItemFailure, message: string, which = indices) => {
      for (const i of which) out[i] = { ok: false, failure, message };
    };
    let piscina: Piscina;
    try {
      piscina = await this.start();
    } catch (err) {
      return fill('unavailable', (err as Error).message);
    }
    const progress = new SharedArrayBuffer(8);
    const p32 = new Int32Array(progress);
    p32[0] = -1;
    const r: Running = { progress: p32, base: Date.now(), size: indices.length, abort: new AbortController(), timedOut: -1 };
    const task: TaskMessage = { kind, items: indices.map((i) => items[i]), options, progress, base: r.base };
    this.running.add(r);
    this.armWatchdog();
    this.counters.tasks++;
    let reply: TaskReply;
    try {
      reply = (await piscina.run(task, { signal: r.abort.signal })) as TaskReply;
    } catch (err) {
      if (this.closed) return fill('unavailable', 'the chemistry pool is closed');
      const at = r.timedOut >= 0 ? r.timedOut : Atomics.load(p32, 0);
      const failure: ItemFailure = r.timedOut >= 0 ? 'timeout' : 'crashed';
      if (failure === 'timeout') this.counters.timeouts++;
      else this.counters.crashes++;
      if (at >= 0 && at < indices.length) {
        const message = failure === 'timeout' ? `item ran longer than ${this.itemTimeoutMs} ms` : `worker died: ${(err as Error).message}`;
        fill(failure, message, [indices[at]]);
        const rest = indices.filter((_, k) => k !== at);
        this.counters.retriedItems += rest.length;
        if (rest.length) await this.runBatch(kind, items, options, rest, out, attempt);
      } else if (attempt === 0) {
        // Died before its first item or after its last: run the whole batch once more.
        this.counters.retriedItems += indices.length;
        await this.runBatch(kind, items, options, indices, out, 1);
      } else {
        fill('crashed', `worker died: ${(err as Error).message}`);
      }
      return;
    } finally {
      this.running.delete(r);
    }
    this.counters.workerBusyMs += reply.busyMs;
    reply.results.forEach((res, k) => {
      out[indices[k]] = res.ok ? { ok: true, value: res.value as KindOutput<K> } : { ok: false, failure: 'failed', message: res.error };
    });
  }

  private armWatchdog(): void {
    if (this.watchdog) return;
    const every = Math.max(10, Math.min(250, Math.floor(this.itemTimeoutMs / 4)));
    this.watchdog = setInterval(() => {
      if (this.running.size === 0) {
        clearInterval(this.watchdog!);
        this.watchdog = null;
        return;
      }
      const now = Date.now();
      for (const r of this.running) {
        if (r.timedOut >= 0) continue;
        // Read the index before the start time: the worker writes them in the other order, so
        // a racing read can only see a later start (never a false timeout).
        const at = Atomics.load(r.progress, 0);
        if (at < 0 || at >= r.size) continue;
        const started = r.base + Atomics.load(r.progress, 1);
        if (now - started > this.itemTimeoutMs) {
          r.timedOut = at;
          r.abort.abort(new Error('chemistry item timed out'));
        }
      }
    }, every);
    this.watchdog.unref();
  }

  stats(): ChemPoolStats {
    return { threads: this.threads, queued: this.piscina?.queueSize ?? 0, ...this.counters };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const p = this.starting;
    this.starting = null;
    this.piscina = null;
    if (p) await p.then((pool) => pool.destroy()).catch(() => undefined);
  }
}
