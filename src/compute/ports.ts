// What the job engine needs from its neighbours, as small interfaces it declares and
// instance wiring fills: the wallet (reservations and settlement), the artifact store (inputs
// and results) and the events feed. The engine imports nothing from src/modules.
import type { Queryable, StatementTail } from '../db/database.js';
import type { JobOutput } from './job-output.js';
import type { JobRow } from './store.js';

/** A record of a molecule set: `molblock` when it came from SDF, `metrics` its numeric SDF data fields (a conformer search's energy_hartree and index). */
export interface MoleculeRecord {
  id: string;
  smiles: string;
  name?: string;
  molblock?: string;
  metrics?: Record<string, number>;
}

export interface JobArtifacts {
  /**
   * Writes a job's output as its result artifact: the file first (atomically), then ONE
   * transaction holding the artifact row and `finish(tx, artifactId)` (the terminal
   * transition, its settlement and its event). When finish returns null (the job is no longer
   * this attempt's) or anything fails, the transaction rolls back and this attempt's file is
   * removed. Returns finish's value (null: lost the job, nothing kept).
   */
  writeResult<T>(o: { userId: string; jobId: string; jobType: string; output: JobOutput; finish: (tx: Queryable, artifactId: string) => Promise<T | null> }): Promise<T | null>;
  /** The JSON document of GET /jobs/result, read from the result artifact. */
  readResult(userId: string, artifactId: string): Promise<unknown>;
  /** Deletes the rows of a job's artifacts in the caller's transaction; returns their storage keys for removeObjects after commit. */
  deleteRowsForJob(tx: Queryable, userId: string, jobId: string): Promise<string[]>;
  /** Removes stored objects whose rows were deleted (and committed). */
  removeObjects(keys: string[]): Promise<void>;
  /** Molecules in an uploaded set; AppErrors located relative to the job payload (["input_artifact_id"], ["port"]). */
  countMolecules(userId: string, artifactId: string, port?: string): Promise<number>;
  readMolecules(userId: string, artifactId: string, port?: string): AsyncIterable<MoleculeRecord>;
  /** An uploaded file's size, and its bytes when at most maxBytes (null beyond); AppError not-found when it is not there. */
  readFile?(userId: string, artifactId: string, maxBytes: number): Promise<JobFile>;
}

/** A file an artifact holds (its `file` record, else its first record): docking receptors and reference ligands. */
export interface JobFile {
  name: string;
  size: number;
  /**
   * The bytes as storage gives them, read once (null when over maxBytes: nothing read). A stream,
   * not a string: a 50 MB file decoded in one piece held the event loop for 50 to 250 ms
   * (docs/reliability.md, "No request stalls the server"); docking decodes it in a thread.
   */
  content: AsyncIterable<Uint8Array> | null;
}

/** An entry's PDB-format file from RCSB PDB (docking receptors by pdb_id; src/lookups/pdb-files.ts). */
export type JobPdbFile =
  | { status: 'found'; pdb_id: string; text: string; url: string; source: string; license: string; attribution: string }
  | { status: 'not_found' | 'invalid_query'; pdb_id: string }
  | { status: 'disabled' | 'upstream_error' | 'timeout'; pdb_id: string; detail: string };

export interface JobPdbFiles {
  fetch(pdbId: string): Promise<JobPdbFile>;
}

export interface JobReservation {
  userId: string;
  keyId: string | null;
  jobId: string;
  amountMicros: number;
  /** The key's monthly spend ceiling (null = wallet only). */
  ceilingMicros: number | null;
  /** The ledger note (default "job submit"). */
  note?: string;
}

/** A hold that several jobs charge against (a workflow run's reservation, docs/workflows.md). */
export interface HoldCharge {
  userId: string;
  /** The id the hold was reserved under (the run id). */
  holdId: string;
  jobId: string;
  keyId: string | null;
  chargeMicros: number;
  note: string;
}

export interface JobWallet {
  /**
   * Locks the account's wallet row. Every path that ends work takes it before the account's
   * event counter (docs/reliability.md "One lock order"): run -> job -> wallet -> events.
   */
  lock(tx: Queryable, userId: string): Promise<void>;
  /** Reserves every amount or nothing (AppError insufficient-funds / spend-ceiling-exceeded), in the caller's transaction. */
  reserveAll(tx: Queryable, items: JobReservation[]): Promise<void>;
  /**
   * Releases a job's reservation and charges at most it, in the transaction that ends the job;
   * `tail` (the job's event) runs in the same statement, after the wallet is locked and moved.
   */
  settle(
    tx: Queryable,
    s: { userId: string; jobId: string; keyId: string | null; reservedMicros: number; chargeMicros: number; note: string },
    tail?: StatementTail,
  ): Promise<void>;
  /**
   * Charges a job against a hold: the charge leaves the balance and the same amount of the hold
   * is released; `tail` as for settle. Resolves to false, having written nothing (and run no
   * tail), for a charge of 0.
   */
  chargeHold(tx: Queryable, c: HoldCharge, tail?: StatementTail): Promise<boolean>;
  /** Releases what is left of a hold (the run ended). */
  releaseHold(tx: Queryable, r: { userId: string; holdId: string; keyId: string | null; amountMicros: number; note: string }): Promise<void>;
}

/** A job's or a run's terminal event. */
export interface JobEvent {
  userId: string;
  kind: 'job' | 'workflow_run';
  subjectId: string;
  status: string;
  workflowRunId?: string | null;
}

export interface JobEventSink {
  /** Appends a terminal event inside the transaction that ends the job. */
  append(tx: Queryable, e: JobEvent): Promise<unknown>;
  /** The same append as the tail of the wallet's statement (JobWallet.settle, chargeHold): one round trip fewer. */
  appendTail(e: JobEvent): StatementTail;
}

/**
 * The workflow run engine as the job engine sees it (src/workflows/engine.ts): a step job's
 * end advances its run in the transaction that ends the job, so a run never misses a step's
 * end and no crash can leave the two apart.
 */
export interface JobWorkflows {
  /**
   * Locks the run a job belongs to (if any) before the job row, so that every writer takes run ->
   * job -> wallet in that order. Resolves to something stepFinished can reuse in the same
   * transaction (the run's row; null when the job is no step).
   */
  lockRunOf(tx: Queryable, jobId: string): Promise<unknown>;
  /**
   * The same lock as a common table expression of the statement that ends the job (one round
   * trip fewer; jobsStore.finishLocking): `first` is an always-true condition that reads the
   * CTEs, `row` an SQL expression of the run as jsonb (null when there is no such run), and
   * `locked(value)` turns that value into what stepFinished reuses.
   */
  lockRunWrite(runId: string, firstParam: number): { ctes: string; params: unknown[]; first: string; row: string; locked(value: unknown): unknown };
  /**
   * Records a step job's end, charges it against the run's hold and starts what became ready (or
   * ends the run); `locked`: what lockRunOf gave in this transaction. Writes the job's own
   * terminal event (`announce`) exactly once, with the account's wallet locked and before any
   * event of the run: as the tail of the hold charge's statement, which locks the wallet (else
   * `announce.append()` after wallet.lock).
   */
  stepFinished(tx: Queryable, job: JobRow, locked: unknown, announce: { append(): Promise<void>; tail: StatementTail }): Promise<void>;
}

/** A model a job can predict with: its identity and a reader of its weights. */
export interface JobModel {
  ref: string;
  /** Changes when the weights do (a cache key). */
  key: string;
  task: 'regression' | 'classification';
  target: string;
  units: string | null;
  weights(): Promise<Uint8Array>;
}

/** A trained model to register (its weights are member `model` of the job's result artifact). */
export interface NewJobModel {
  id: string;
  userId: string;
  name: string;
  task: 'regression' | 'classification';
  target: string;
  units: string | null;
  jobId: string;
  info: Record<string, unknown>;
}

/** Users' models, for the model job types (filled by src/modules/models). */
export interface JobModels {
  exists(userId: string, name: string): Promise<boolean>;
  /** `public/<id>` or `user/<name>`: an AppError not-found for anything the user cannot use. */
  resolve(userId: string, ref: string): Promise<JobModel>;
  /**
   * Checks a training table (`mpnn_train`'s input_artifact_id): AppError not-found when the
   * artifact is not there or not the user's, 'invalid' when it is not an uploaded CSV file, each
   * with its issue at ["input_artifact_id"].
   */
  checkTrainingFile(userId: string, artifactId: string): Promise<void>;
  /**
   * The training table's content as a stream of bytes (read it once), after checkTrainingFile's
   * checks; a file over maxBytes is a 422 at ["input_artifact_id"] (nothing read).
   */
  openTrainingFile(userId: string, artifactId: string, maxBytes: number): Promise<AsyncIterable<Uint8Array>>;
  /** In the transaction that completes the training job; AppError model-exists when the name is taken and !overwrite. */
  register(tx: Queryable, m: NewJobModel, weightsArtifactId: string, overwrite: boolean): Promise<void>;
}

/**
 * The features whose asynchronous requests (origin `utility` or `inference`) are counted
 * against the monthly allowance at submit (docs/usage.md): a request that ends `error` gives
 * its units back, in the transaction that ends it.
 */
export interface JobRequests {
  /** Called by finishJob for a request (origin other than `job`) that has just ended `error`. */
  failed(tx: Queryable, job: JobRow): Promise<void>;
}

/** The engine's neighbours, wired once per instance. */
export interface ComputePorts {
  wallet: JobWallet;
  events: JobEventSink;
  artifacts: JobArtifacts;
  /** Absent in an instance without the models module. */
  models?: JobModels;
  /** Absent in an instance without workflows. */
  workflows?: JobWorkflows;
  /** RCSB PDB files (docking by pdb_id); absent: a pdb_id is answered 503. */
  pdb?: JobPdbFiles;
  /** Absent in an instance without the allowance: a failed request gives nothing back. */
  requests?: JobRequests;
}
