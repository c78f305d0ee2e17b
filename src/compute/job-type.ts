// What a job type is: a payload schema, an estimate model, where it runs and the run itself.
// One file per type in types/, one line in registry.ts (docs/architecture.md, "Recipes").
import type { TSchema } from '@sinclair/typebox';
import type { StructureInfoOptions, StructureInfoOutcome } from '../chem/jobs/types.js';
import type { ChemPool } from '../chem/pool.js';
import type { EngineName } from '../engines/catalog.js';
import type { Engines } from '../engines/discovery.js';
import type { JobOutput, OutputRecord } from './job-output.js';
import type { JobFile, JobModels, JobPdbFiles, MoleculeRecord } from './ports.js';
import type { Resource } from './resources.js';

// A job's output has a file of its own (the ports read it too, and job-type.ts reads the ports).
export type { JobOutput, MoleculeRecord, OutputRecord };

/** Thrown by a run for a problem with the job's own input: the job ends `error` and is charged for the runtime used. */
export class JobInputError extends Error {}

/** Thrown (or surfaced) when the job was stopped by cancel or by its runtime limit. */
export class JobAborted extends Error {
  constructor(readonly reason: 'cancelled' | 'runtime-limit' | 'shutdown') {
    super(reason);
  }
}

/** Runtime limit (docs/jobs.md): 3 x the expected runtime + a grace (60 s unless configured). */
export function runtimeLimitSec(expectedSec: number, graceSec = 60): number {
  return 3 * expectedSec + graceSec;
}

export interface Estimate {
  expectedRuntimeSec: number;
  assumptions: Record<string, unknown>;
}

export interface EstimateContext {
  userId: string;
  resource: Resource;
  /** Number of molecules in an uploaded molecule set (AppErrors located relative to the payload when not usable). */
  countMolecules(artifactId: string, port?: string): Promise<number>;
  /** Users' models (the model job types check names and references at submit). */
  models?: JobModels;
  /** RDKit's reading of inline structures (engine job types size and check them at submit). */
  structureInfo?(inputs: string[], options?: StructureInfoOptions): Promise<StructureInfoOutcome[]>;
  /** An uploaded file of the user (docking checks its receptor and reference ligand at submit). */
  readFile?(artifactId: string, maxBytes: number): Promise<JobFile>;
  /** The records of a molecule set of the user (rerank counts and sizes its ensembles at submit). */
  readMolecules?(artifactId: string, port?: string): AsyncIterable<MoleculeRecord>;
  /** RCSB PDB files (docking checks a pdb_id at submit). */
  pdb?: JobPdbFiles;
  /** The RDKit program (src/engines/rdkit/program.ts) run here: null without the rdkit engine (tautomers counts them at submit). */
  rdkit?<T>(request: Record<string, unknown>): Promise<T | null>;
  /** The result document (GET /jobs/result) of one of the user's jobs, by its result artifact (profile_table checks its sources at submit). */
  readResult?(artifactId: string): Promise<unknown>;
}

export interface RunContext<P> {
  jobId: string;
  userId: string;
  payload: P;
  resource: Resource;
  /** Aborted on cancel, runtime limit or shutdown; long runs must watch it. */
  signal: AbortSignal;
  /**
   * Reports progress (0..1), an optional status message and optional structured detail (e.g.
   * `{epoch, epochs, train_loss, val_metric}`, shown as /jobs/status `progress`); cheap, call often.
   * A `milestone` (an epoch ended) is written within a quarter second; other progress with the next heartbeat.
   */
  progress(fraction: number, message?: string, detail?: Record<string, unknown>, milestone?: boolean): void;
  /** Molecules of an uploaded set (`molblock`: the record's connection table, when it came from SDF). */
  readMolecules(artifactId: string, port?: string): AsyncIterable<MoleculeRecord>;
  /** An uploaded file (its `file` record, else its first record): its size, and its bytes when at most maxBytes. */
  readFile(artifactId: string, maxBytes: number): Promise<JobFile>;
  /** The result document (GET /jobs/result) of one of the user's jobs, by its result artifact (a workflow step's `result` port). */
  readResult(artifactId: string): Promise<unknown>;
  /** What job types may use, shared by the instance. */
  deps: JobDeps;
}

/** The instance's parts available to every job type. */
export interface JobDeps {
  /** RDKit worker threads; a job uses at most its resource's vCPUs of them. */
  chem: ChemPool;
  /** Users' and public models (absent in an instance without the models module). */
  models?: JobModels;
  /** The engines this worker found at start (engine job types run them; docs/engines.md). */
  engines?: Engines;
  /** RCSB PDB files (docking receptors given as pdb_id). */
  pdb?: JobPdbFiles;
  /** The instance's cache directory (under its data directory): docking's prepared receptors. */
  cacheDir?: string;
}

/**
 * Where a type's CPU work runs: `chem-pool` (RDKit calls on the shared chemistry threads),
 * `thread` (a dedicated worker thread per job through compute/threads.ts: long CPU work such
 * as model training, which must neither block the event loop nor starve the chemistry pool),
 * `process` (external programs, each call through runEngine of src/engines/process.ts) or
 * `event-loop` (no CPU work).
 */
export type Placement = 'chem-pool' | 'thread' | 'process' | 'event-loop';

/** What flows between workflow steps (docs/workflows.md): an artifact port of one of these kinds. */
export type PortType = 'molecules' | 'json' | 'csv' | 'svg' | 'model' | 'table';

/** An input port: a payload field that takes an artifact id (and the field naming its port, if any). */
export interface InputPort {
  type: PortType;
  field: string;
  portField?: string;
  /** The payload field that takes the same data inline (a SMILES list), for a workflow input given as a list. */
  inline?: string;
}

export interface JobType<P = unknown> {
  name: string;
  summary: string;
  payload: TSchema;
  /**
   * The result document GET /jobs/result answers (docs/jobs.md), `job_type` first: published in
   * the OpenAPI document as <Type>Result, a branch of JobResult; test/openapi/job-results.test.ts
   * checks a real result of every type against it.
   */
  result?: TSchema;
  /** The artifact ports a workflow step of this type takes and gives (none: it is not chained). */
  ports?: { inputs: Record<string, InputPort>; outputs: Record<string, PortType> };
  runsOn: Placement;
  /**
   * The engines a payload needs (docs/engines.md): a worker claims the job only when it found
   * them all, and estimate and submit answer 503 engine-unavailable when no live worker has.
   */
  engines?(payload: P): EngineName[];
  /** Every set of engines `engines` can return (each is a queue lane, src/compute/lanes.ts). */
  engineSets?: EngineName[][];
  /**
   * The methods it runs, as the reference papers name them (src/modules/papers/catalog.json,
   * `methods`: clogp, tpsa, morgan, butina, ...): GET /papers/cite lists their papers.
   */
  methods: readonly string[];
  /** The methods a given payload runs (GET /papers/cite of a job); `methods` when absent. */
  methodsOf?(payload: P): string[];
  estimate(payload: P, ctx: EstimateContext): Promise<Estimate>;
  run(ctx: RunContext<P>): Promise<JobOutput>;
}
