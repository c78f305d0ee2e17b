// The task kinds the chemistry worker pool runs: what one item takes and gives back.
// A new kind is one entry here (types) and one entry in worker.ts (the handler).
import type { DepictOptions, DepictOutcome } from './depict.js';
import type { DescribeOptions, DescribeOutcome } from './describe.js';
import type { JobKindMap } from './jobs/types.js';
import type { WasmModule } from './wasm.js';

/** The compute-job kinds (src/chem/jobs/types.ts) are merged in. */
export interface KindMap extends JobKindMap {
  /** One molecule SMILES -> SVG. */
  depict: { input: string; options: DepictOptions; output: DepictOutcome };
  /** One reaction SMILES -> SVG. */
  depict_reaction: { input: string; options: DepictOptions; output: DepictOutcome };
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
  /**
   * Int32Array view, shared with the pool's watchdog: [0] index of the item being worked on
   * (-1 before the first, items.length when done), [1] when it started (ms after `base`).
   */
  progress: SharedArrayBuffer;
  base: number;
}

/** One item's result from a worker: the kind's output, or a caught exception. */
export type WorkerItemResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface TaskReply {
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
  warmup: boolean;
  faults: FaultInjection | null;
}
