// The task kinds the chemistry worker pool runs: what one item takes and gives back.
// A new kind is one entry here (types) and one entry in worker.ts (the handler).
import type { DepictOptions, DepictOutcome, MarkedDrawing } from './depict.js';
import type { SvgSize } from './svg.js';
import type { DescribeOptions, DescribeOutcome } from './describe.js';
import type { JobKindMap } from './jobs/types.js';
import type { UtilityKindMap } from './utilities/types.js';
import type { MessagePort } from 'node:worker_threads';
import type { WasmModule } from './wasm.js';

/** The compute-job kinds (src/chem/jobs/types.ts) and the utility kinds (src/chem/utilities/types.ts) are merged in. */
export interface KindMap extends JobKindMap, UtilityKindMap {
  /** One molecule SMILES -> SVG. */
  depict: { input: string; options: DepictOptions; output: DepictOutcome };
  /** One reaction SMILES -> SVG. */
  depict_reaction: { input: string; options: DepictOptions; output: DepictOutcome };
  /** One molblock -> SVG with atoms marked in colours, a title and a legend (the reactivity job's sites). */
  depict_marked: { input: MarkedDrawing; options: SvgSize; output: DepictOutcome };
  /** One molecule SMILES -> MolecularProperties. */
  describe: { input: string; options: DescribeOptions; output: DescribeOutcome };
}

export type TaskKind = keyof KindMap;
export type KindInput<K extends TaskKind> = KindMap[K]['input'];
export type KindOptions<K extends TaskKind> = KindMap[K]['options'];
export type KindOutput<K extends TaskKind> = KindMap[K]['output'];

/** What the pool posts to a worker: a batch of items of one kind. */
export interface TaskMessage {
  kind: string;
  items: unknown[];
  options: unknown;
  /** Int32Array view of PROGRESS_SLOTS slots, shared with the pool's watchdog (see PROGRESS_SLOTS). */
  progress: SharedArrayBuffer;
  base: number;
  /**
   * Retries after a failure: the worker posts each item's result here as `[index, result]`
   * when it is done (and the reply's `results` stays empty), so that the items finished before
   * the task died or was given up on keep their results.
   */
  port?: MessagePort;
}

/**
 * Slots of a task's shared progress array: [0] index of the item being worked on (-1 before
 * the first, items.length when done), [1] when it started (ms after `base`), [2] when the task's
 * first item started (-1 before), both written by the worker; [3] set to 1 by the pool to ask
 * the worker to stop before its next item (the task's caller has been answered).
 */
export const PROGRESS_SLOTS = 4;

/** One item's result from a worker: the kind's output, or a caught exception. */
export type WorkerItemResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface TaskReply {
  /** One per item in order; empty when the results went through the task's `port`. */
  results: WorkerItemResult[];
  /** Time the worker spent on the items, ms. */
  busyMs: number;
}

/** Test-only fault injection (never set from configuration): inputs that make the worker misbehave. */
export interface FaultInjection {
  /** Spin forever on these inputs (a hung RDKit call). */
  hang?: string[];
  /** End the worker thread on these inputs (a crash). */
  crash?: string[];
  /** Throw a WebAssembly.RuntimeError on these inputs (an aborted RDKit module). */
  abort?: string[];
}

export interface WorkerConfig {
  /** The compiled RDKit module, shared by every worker so each one skips compiling it. */
  wasmModule: WasmModule | null;
  /**
   * Int32Array of one slot: warm-up passes left. A starting thread takes one if any is left
   * (the pool's first threads); threads started later skip the warm-up. Null: no warm-up.
   */
  warmupTickets: SharedArrayBuffer | null;
  faults: FaultInjection | null;
}
