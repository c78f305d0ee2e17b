// The chemistry worker pool: RDKit MinimalLib (WASM) in piscina worker threads, so RDKit never
// runs on the event loop.
//
// - Threads are started on first use (or by start()), each loading RDKit from a module
//   compiled once per process. The first `threads` threads run a warm-up pass; threads that
//   replace a dead one only prepare what a task's kind needs (the alert SMARTS for `describe`)
//   before its first item, outside the item's time limit.
// - A request's items go out in a few batches (tasks); each item's result is independent.
// - Before each item a worker writes the item's index and start time to shared memory. A
//   watchdog terminates a worker whose current item has run longer than the item timeout
//   (piscina replaces the thread). When a task dies (timeout, crash, WASM abort), the item that
//   was running is reported failed and the other items of the batch are run again, so one bad
//   molecule never fails its neighbours.
// - Bounded cost of bad inputs:
//   - an input that killed its thread, or timed out twice, is remembered (bounded LRU, 10
//     minutes by default) and answered at once with the same failure, without a worker (one
//     timeout alone is not: a valid molecule may be slow once on a busy machine);
//   - the retry budget is per batch: the items of a batch retried after a failure share half
//     the item timeout of worker time; past it, the items not done fail at once (`timeout`).
//     So a batch of N hanging items costs about one item timeout plus the budget (1.5
//     timeouts), not N. An API request (at most 20 items) has no more batches than threads
//     with the default maxBatch (one when every thread is busy), and they run in parallel, so the request costs about that
//     too; a call with more batches than lanes (a compute job's chunk) pays it once per batch
//     that hits a failure, one lane's batches after the other;
//   - tasks are dispatched by the pool, at most one per thread. While a thread's current item
//     has run longer than a quarter of the item timeout (at most 1 s), a stand-in thread (a
//     second piscina pool of up to `threads` threads, started on demand, ended when idle)
//     takes a task in its place, so other requests are served while a hang is timed out.
import crypto from 'node:crypto';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';
import { ChemCache } from './cache.js';
import { compileRDKit } from './rdkit.js';
import {
  PROGRESS_SLOTS,
  type FaultInjection,
  type KindInput,
  type KindOptions,
  type KindOutput,
  type TaskKind,
  type TaskMessage,
  type TaskReply,
  type WorkerConfig,
  type WorkerItemResult,
} from './kinds.js';

/** Kinds whose items are one string and whose output carries a canonical cache key. */
type CachedKind = { [K in TaskKind]: KindInput<K> extends string ? (KindOutput<K> extends { key: string | null } ? K : never) : never }[TaskKind];

type ItemFailure = 'timeout' | 'crashed' | 'failed' | 'unavailable';
export type ItemOutcome<T> = { ok: true; value: T } | { ok: false; failure: ItemFailure; message: string };

interface ChemPoolOptions {
  threads: number;
  /** Longest one item may run before its thread is terminated and replaced (default 10 s). */
  itemTimeoutMs?: number;
  /** Items per task at most (default 20). */
  maxBatch?: number;
  /** Cache entries (0 = no cache). */
  cacheEntries?: number;
  /** Run a few molecules through each kind when one of the first `threads` threads starts (default true). */
  warmup?: boolean;
  /** Inputs that crashed a thread or timed out twice, remembered and answered without a worker (default 1,000; 0 = off). */
  failureMemoryEntries?: number;
  /** How long such an input is remembered, ms (default 10 minutes). */
  failureMemoryMs?: number;
  /** Tests only: make workers hang, crash or abort on given inputs. */
  faults?: FaultInjection;
}

interface ChemPoolStats {
  threads: number;
  tasks: number;
  items: number;
  timeouts: number;
  crashes: number;
  retriedItems: number;
  /** Items answered from the failure memory (an input that crashed a thread, or timed out twice, before). */
  rememberedFailures: number;
  /** Items failed without finishing because their retry budget ran out. */
  budgetFailures: number;
  /** Tasks waiting for a thread (the pool's queue and piscina's). */
  queued: number;
  /** Time workers spent on items of completed tasks, ms (for the benchmark's breakdown). */
  workerBusyMs: number;
  /** Most tasks running at once so far. */
  peakRunning: number;
}

type Lane = 'main' | 'standby';

interface Running {
  lane: Lane;
  progress: Int32Array;
  base: number;
  size: number;
  abort: AbortController;
  /** Index of the item that timed out, or -1. */
  timedOut: number;
  /** Worker time this task may use, from its first item on (retries after a failure); Infinity otherwise. */
  budgetMs: number;
  /** Answers the task's caller before the task ends (the budget ran out); null once used. */
  giveUp: (() => void) | null;
  /** Counted in the pool's `stuck` (its current item has run longer than stuckMs). */
  stuck: boolean;
}

/** What ended a task, for runBatch. */
type TaskEnd =
  { kind: 'reply'; reply: TaskReply } | { kind: 'died'; at: number; failure: 'timeout' | 'crashed'; message: string; spentMs: number } | { kind: 'closed' } | { kind: 'given-up' };

interface Call<K extends TaskKind> {
  kind: K;
  items: KindInput<K>[];
  options: KindOptions<K>;
  out: ItemOutcome<KindOutput<K>>[];
  /** Prefix of the failure-memory keys of this call's inputs (kind and options); computed when first needed. */
  scope?: string;
}

interface Waiter {
  resolve: (lane: Lane) => void;
}

interface Pools {
  /** `threads` threads, always there. */
  main: Piscina;
  /** Stand-ins for stuck threads: none until needed, at most `threads`, ended after a minute idle. */
  standby: Piscina;
}

/** A failure remembered for an input: a crash at once, a timeout from its second time on. */
interface RememberedFailure {
  failure: 'timeout' | 'crashed';
  message: string;
  /** Times the input timed out while remembered (a crash needs none). */
  timeouts: number;
}

/** Timeouts of one input (within the memory's lifetime) before it is answered without a worker. */
const TIMEOUTS_REMEMBERED = 2;

/**
 * The worker module: dist/chem/worker.js when compiled. From TypeScript sources (tests, tsx),
 * worker threads do not inherit tsx's loader on Node 20: worker-tsx.mjs registers it in the
 * thread and then loads worker.ts.
 */
function workerFilename(): string {
  return RUNNING_FROM_SOURCE ? new URL('./worker-tsx.mjs', import.meta.url).href : siblingModule(import.meta.url, 'worker').href;
}

/** The options that shape an item's result (not `key`, which only adds the cache key), hashed. */
function optionsDigest(options: unknown): string {
  let shape = options;
  if (options && typeof options === 'object' && !Array.isArray(options) && 'key' in options) {
    const { key: _key, ...rest } = options as Record<string, unknown>;
    shape = rest;
  }
  return crypto
    .createHash('sha1')
    .update(JSON.stringify(shape) ?? '')
    .digest('base64url');
}

export class ChemPool {
  readonly threads: number;
  readonly itemTimeoutMs: number;
  readonly maxBatch: number;
  readonly cache: ChemCache;
  /** An item running longer than this no longer holds its thread's place (a stand-in may start). */
  readonly stuckMs: number;
  /** Worker time the items of one batch retried after a failure get, together, before they fail unrun (per batch, not per call). */
  readonly retryBudgetMs: number;
  private readonly warmup: boolean;
  private readonly faults: FaultInjection | null;
  private readonly failures: LRUCache<string, RememberedFailure> | null;
  private pools: Pools | null = null;
  private starting: Promise<Pools> | null = null;
  private closed = false;
  private readonly running = new Set<Running>();
  private readonly waiting: Waiter[] = [];
  /** Tasks handed to each pool and not yet ended. */
  private readonly inFlight: Record<Lane, number> = { main: 0, standby: 0 };
  /** Running tasks whose current item has run longer than stuckMs (updated by the watchdog). */
  private stuck = 0;
  private watchdog: NodeJS.Timeout | null = null;
  private readonly counters = { tasks: 0, items: 0, timeouts: 0, crashes: 0, retriedItems: 0, rememberedFailures: 0, budgetFailures: 0, workerBusyMs: 0, peakRunning: 0 };

  constructor(opts: ChemPoolOptions) {
    this.threads = Math.max(1, Math.floor(opts.threads));
    this.itemTimeoutMs = opts.itemTimeoutMs ?? 10_000;
    this.maxBatch = Math.max(1, opts.maxBatch ?? 20);
    this.warmup = opts.warmup ?? true;
    this.faults = opts.faults ?? null;
    this.cache = new ChemCache(opts.cacheEntries ?? 0);
    this.stuckMs = Math.min(1_000, this.itemTimeoutMs / 4);
    this.retryBudgetMs = this.itemTimeoutMs / 2;
    const entries = Math.max(0, Math.floor(opts.failureMemoryEntries ?? 1_000));
    this.failures = entries > 0 ? new LRUCache({ max: entries, ttl: Math.max(1, opts.failureMemoryMs ?? 600_000) }) : null;
  }

  /** Compiles RDKit once and starts the threads; called by the first task otherwise. */
  async start(): Promise<void> {
    await this.startPools();
  }

  private startPools(): Promise<Pools> {
    if (this.closed) return Promise.reject(new Error('the chemistry pool is closed'));
    this.starting ??= (async () => {
      const wasmModule = await compileRDKit();
      // One warm-up ticket per initial thread: threads started later (replacements, stand-ins)
      // find none and skip the warm-up pass.
      const warmupTickets = new SharedArrayBuffer(4);
      new Int32Array(warmupTickets)[0] = this.warmup ? this.threads : 0;
      const workerData: WorkerConfig = { wasmModule, warmupTickets, faults: this.faults };
      const common = {
        filename: workerFilename(),
        workerData,
        // RDKit's WASM heap lives outside V8's; these bound the JS side of each thread.
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      };
      const pools: Pools = {
        main: new Piscina({ ...common, minThreads: this.threads, maxThreads: this.threads, idleTimeout: Infinity }),
        standby: new Piscina({ ...common, minThreads: 0, maxThreads: this.threads, idleTimeout: 60_000 }),
      };
      // A thread that dies between tasks is replaced by piscina; nothing to report.
      pools.main.on('error', () => undefined);
      pools.standby.on('error', () => undefined);
      if (this.closed) {
        await Promise.all([pools.main.destroy(), pools.standby.destroy()]);
        throw new Error('the chemistry pool is closed');
      }
      this.pools = pools;
      return pools;
    })();
    return this.starting;
  }

  /** Runs one item. */
  async run<K extends TaskKind>(kind: K, input: KindInput<K>, options: KindOptions<K>): Promise<ItemOutcome<KindOutput<K>>> {
    const [outcome] = await this.runItems(kind, [input], options);
    if (!outcome) throw new Error(`the chemistry pool returned no outcome for a ${kind} item`);
    return outcome;
  }

  /**
   * Runs items of one kind in as few tasks as keep every thread busy (or at most `parallel`
   * threads at a time: a compute job uses as many as its resource has vCPUs); one outcome per
   * item, in order.
   */
  async runItems<K extends TaskKind>(kind: K, items: KindInput<K>[], options: KindOptions<K>, parallel = Infinity): Promise<ItemOutcome<KindOutput<K>>[]> {
    const out = new Array<ItemOutcome<KindOutput<K>>>(items.length);
    if (items.length === 0) return out;
    this.counters.items += items.length;
    const call: Call<K> = { kind, items, options, out };
    const todo: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const known = this.rememberedFailure(call, i);
      if (known) {
        out[i] = { ok: false, failure: known.failure, message: `${known.message} (this input failed the same way recently; not run again)` };
        this.counters.rememberedFailures++;
      } else todo.push(i);
    }
    if (todo.length) {
      // A call is split over the threads to answer it sooner when they are free. A call of one
      // batch's size (an API request) that finds every thread with a task (or tasks waiting) goes
      // as one task: split, it would only add tasks (messages, bookkeeping) and finish no sooner.
      const busy = todo.length <= this.maxBatch && (this.inFlight.main >= this.threads || this.waiting.length > 0);
      const lanes = busy ? 1 : Math.max(1, Math.min(this.threads, parallel));
      const queue = this.batches(todo, lanes);
      const lane = async () => {
        for (let b = queue.shift(); b; b = queue.shift()) await this.runBatch(call, b, Infinity, 0);
      };
      await Promise.all(Array.from({ length: Math.min(lanes, queue.length) }, lane));
    }
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
    for (const [i, input] of inputs.entries()) {
      const hit = this.cache.get<KindOutput<K>>(kind, input, variant);
      if (hit) out[i] = { ok: true, value: hit };
      else {
        const at = pending.get(input);
        if (at) at.push(i);
        else pending.set(input, [i]);
      }
    }
    if (pending.size === 0) return out;
    const unique = [...pending];
    const results = await this.runItems(
      kind,
      unique.map(([input]) => input),
      { ...options, key: this.cache.enabled },
    );
    for (const [k, [input, positions]] of unique.entries()) {
      let res = results[k];
      if (res === undefined) throw new Error(`the chemistry pool returned ${String(results.length)} outcomes for ${String(unique.length)} ${kind} inputs`);
      if (res.ok && res.value.key) res = { ok: true, value: this.cache.set(kind, input, variant, res.value.key, res.value) };
      for (const i of positions) out[i] = res;
    }
    return out;
  }

  /** The failure-memory key of a call's string input (the options digest is computed once per call, and only when needed). */
  private failureKey<K extends TaskKind>(call: Call<K>, input: string): string {
    call.scope ??= `${call.kind}\u0000${optionsDigest(call.options)}\u0000`;
    return call.scope + input;
  }

  /** A failure to answer the item with at once: a crash, or a second timeout, of the same input. */
  private rememberedFailure<K extends TaskKind>(call: Call<K>, i: number): RememberedFailure | undefined {
    const input = call.items[i];
    if (!this.failures || this.failures.size === 0 || typeof input !== 'string') return undefined;
    const known = this.failures.get(this.failureKey(call, input));
    return known && (known.failure === 'crashed' || known.timeouts >= TIMEOUTS_REMEMBERED) ? known : undefined;
  }

  private rememberFailure<K extends TaskKind>(call: Call<K>, i: number, failure: 'timeout' | 'crashed', message: string): void {
    const input = call.items[i];
    if (!this.failures || typeof input !== 'string') return;
    const key = this.failureKey(call, input);
    const before = this.failures.get(key);
    const timeouts = failure === 'timeout' ? (before?.failure === 'timeout' ? before.timeouts : 0) + 1 : 0;
    // Setting it again restarts its lifetime: a second timeout is remembered from then on.
    this.failures.set(key, { failure, message, timeouts });
  }

  /** Splits a request over `lanes` threads: one request alone uses them all, and tasks stay few. */
  private batches(indices: number[], lanes: number): number[][] {
    const count = Math.max(Math.ceil(indices.length / this.maxBatch), Math.min(lanes, Math.ceil(indices.length / 4)));
    const size = Math.ceil(indices.length / count);
    const out: number[][] = [];
    for (let i = 0; i < indices.length; i += size) out.push(indices.slice(i, i + size));
    return out;
  }

  /**
   * Runs one batch as a task. `budgetMs` is Infinity on a first attempt; retries after a
   * failure carry what is left of the batch's retry budget (worker time from their first item
   * on). Each batch of a call gets its own budget.
   */
  private async runBatch<K extends TaskKind>(call: Call<K>, indices: number[], budgetMs: number, attempt: number): Promise<void> {
    const fill = (failure: ItemFailure, message: string, which = indices) => {
      for (const i of which) call.out[i] ??= { ok: false, failure, message };
    };
    const settle = (k: number, res: WorkerItemResult) => {
      const i = indices[k];
      if (i === undefined) return; // not an item of this task
      call.out[i] = res.ok ? { ok: true, value: res.value as KindOutput<K> } : { ok: false, failure: 'failed', message: res.error };
    };
    if (budgetMs <= 0) {
      this.counters.budgetFailures += indices.length;
      return fill('timeout', 'not run: other items of the request hung or crashed and used up its retry time');
    }
    let pools: Pools;
    try {
      pools = await this.startPools();
    } catch (err) {
      return fill('unavailable', (err as Error).message);
    }
    // Retries go ahead of new requests: they belong to a request already waiting.
    const lane = await this.acquire(budgetMs !== Infinity);
    if (this.closed) {
      this.release(lane);
      return fill('unavailable', 'the chemistry pool is closed');
    }
    const progress = new SharedArrayBuffer(PROGRESS_SLOTS * 4);
    const p32 = new Int32Array(progress);
    p32[0] = -1;
    p32[2] = -1;
    const r: Running = { lane, progress: p32, base: Date.now(), size: indices.length, abort: new AbortController(), timedOut: -1, budgetMs, giveUp: null, stuck: false };
    const task: TaskMessage = { kind: call.kind, items: indices.map((i) => call.items[i]), options: call.options, progress, base: r.base };
    // A retry streams each item's result back, so that what it finished counts even if it is
    // given up on or dies; a first attempt returns its results in one reply (fewer messages).
    let port: MessagePort | null = null;
    const collect = () => {
      if (!port) return;
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const [k, res] = m.message as [number, WorkerItemResult];
        settle(k, res);
      }
      port.close();
      port = null;
    };
    if (budgetMs !== Infinity) {
      const channel = new MessageChannel();
      port = channel.port1;
      task.port = channel.port2;
    }
    this.counters.tasks++;
    const gaveUp = new Promise<TaskEnd>((resolve) => {
      r.giveUp = () => resolve({ kind: 'given-up' });
    });
    this.running.add(r);
    this.counters.peakRunning = Math.max(this.counters.peakRunning, this.running.size);
    const ended = this.dispatch(pools[lane], r, task, call, indices, task.port ? [task.port] : []);
    this.armWatchdog();
    const end = await Promise.race([ended, gaveUp]);
    r.giveUp = null;
    collect(); // the streamed results of the items done, if any
    const outOfBudget = () => {
      const unfinished = indices.filter((i) => call.out[i] === undefined);
      this.counters.budgetFailures += unfinished.length;
      fill('timeout', 'not finished: other items of the request hung or crashed and used up its retry time', unfinished);
    };
    switch (end.kind) {
      case 'reply':
        end.reply.results.forEach((res, k) => settle(k, res));
        // A task told to stop (its budget ran out just as it replied) has items not done.
        return outOfBudget();
      case 'closed':
        return fill('unavailable', 'the chemistry pool is closed');
      case 'given-up':
        return outOfBudget();
      case 'died': {
        const left = budgetMs === Infinity ? this.retryBudgetMs : budgetMs - end.spentMs;
        const failed = indices[end.at]; // undefined when it died outside the items
        if (failed !== undefined) {
          fill(end.failure, end.message, [failed]);
          // Items done before it (streamed, on a retry) keep their results.
          const rest = indices.filter((i, k) => k !== end.at && call.out[i] === undefined);
          this.counters.retriedItems += rest.length;
          if (rest.length) await this.runBatch(call, rest, left, attempt);
        } else if (attempt === 0) {
          // Died before its first item or after its last: run the whole batch once more.
          const rest = indices.filter((i) => call.out[i] === undefined);
          this.counters.retriedItems += rest.length;
          if (rest.length) await this.runBatch(call, rest, left, 1);
        } else {
          fill('crashed', end.message);
        }
      }
    }
  }

  /**
   * Hands a task to piscina and does the bookkeeping when it ends, whether or not its caller
   * still waits for it (a task given up on keeps its thread until its current item ends).
   */
  private async dispatch<K extends TaskKind>(piscina: Piscina, r: Running, task: TaskMessage, call: Call<K>, indices: number[], transferList: MessagePort[]): Promise<TaskEnd> {
    try {
      const reply = (await piscina.run(task, { signal: r.abort.signal, transferList })) as TaskReply;
      this.counters.workerBusyMs += reply.busyMs;
      // A task told to stop (its budget ran out) returns fewer results; its caller has moved on.
      return { kind: 'reply', reply };
    } catch (err) {
      if (this.closed) return { kind: 'closed' };
      const at = r.timedOut >= 0 ? r.timedOut : Atomics.load(r.progress, 0);
      const failure = r.timedOut >= 0 ? 'timeout' : 'crashed';
      if (failure === 'timeout') this.counters.timeouts++;
      else this.counters.crashes++;
      const message = failure === 'timeout' ? `item ran longer than ${this.itemTimeoutMs} ms` : `worker died: ${(err as Error).message}`;
      const failed = indices[at]; // undefined when it died outside the items
      if (failed !== undefined) this.rememberFailure(call, failed, failure, message);
      const startedAt = Atomics.load(r.progress, 2);
      const spentMs = startedAt >= 0 ? Date.now() - (r.base + startedAt) : 0;
      return { kind: 'died', at, failure, message, spentMs };
    } finally {
      this.running.delete(r);
      if (r.stuck) {
        r.stuck = false;
        this.stuck--;
      }
      this.release(r.lane);
    }
  }

  /**
   * Waits for a place: a main thread, or while tasks are stuck, a stand-in (one per stuck task,
   * at most `threads`). `front`: ahead of the tasks already waiting.
   */
  private acquire(front: boolean): Promise<Lane> {
    return new Promise<Lane>((resolve) => {
      const w: Waiter = { resolve };
      if (front) this.waiting.unshift(w);
      else this.waiting.push(w);
      this.drain();
      if (this.waiting.length) this.armWatchdog();
    });
  }

  private release(lane: Lane): void {
    this.inFlight[lane]--;
    this.drain();
  }

  private drain(): void {
    while (this.waiting.length) {
      let lane: Lane;
      if (this.closed || this.inFlight.main < this.threads) lane = 'main';
      else if (this.inFlight.standby < Math.min(this.threads, this.stuck)) lane = 'standby';
      else return;
      this.inFlight[lane]++;
      this.waiting.shift()!.resolve(lane);
    }
  }

  private armWatchdog(): void {
    if (this.watchdog) return;
    const every = Math.max(10, Math.min(250, Math.floor(this.itemTimeoutMs / 4)));
    this.watchdog = setInterval(() => this.patrol(), every);
    this.watchdog.unref();
  }

  /** The watchdog's round: item timeouts, retry budgets, stuck threads, and the queue. */
  private patrol(): void {
    if (this.running.size === 0 && this.waiting.length === 0) {
      clearInterval(this.watchdog!);
      this.watchdog = null;
      this.stuck = 0;
      return;
    }
    const now = Date.now();
    let stuck = 0;
    for (const r of this.running) {
      r.stuck = false;
      if (r.timedOut >= 0) continue;
      // Read the index before the start time: the worker writes them in the other order, so
      // a racing read can only see a later start (never a false timeout).
      const at = Atomics.load(r.progress, 0);
      if (at >= 0 && at < r.size) {
        const ran = now - (r.base + Atomics.load(r.progress, 1));
        if (ran > this.itemTimeoutMs) {
          r.timedOut = at;
          r.abort.abort(new Error('chemistry item timed out'));
          continue;
        }
        if (ran > this.stuckMs) {
          r.stuck = true;
          stuck++;
        }
      }
      if (r.giveUp && r.budgetMs !== Infinity) {
        const startedAt = Atomics.load(r.progress, 2);
        if (startedAt >= 0 && now - (r.base + startedAt) > r.budgetMs) {
          // Tell the worker to stop before its next item, and answer the caller now; the
          // current item still ends by itself or by its timeout.
          Atomics.store(r.progress, 3, 1);
          r.giveUp();
          r.giveUp = null;
        }
      }
    }
    this.stuck = stuck;
    this.drain();
  }

  stats(): ChemPoolStats {
    const piscinaQueued = this.pools ? this.pools.main.queueSize + this.pools.standby.queueSize : 0;
    return { threads: this.threads, queued: this.waiting.length + piscinaQueued, ...this.counters };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.drain(); // waiting tasks see the pool closed
    const p = this.starting;
    this.starting = null;
    this.pools = null;
    if (p) await p.then((pools) => Promise.all([pools.main.destroy(), pools.standby.destroy()])).catch(() => undefined);
  }
}
