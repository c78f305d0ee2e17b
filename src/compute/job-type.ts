// What a job type is: a payload schema, an estimate model and a run. One file per type in
// types/, one line in registry.ts.
import type { TSchema } from '@sinclair/typebox';
import type { Resource } from './resources.js';

/** Thrown by a run for a problem with the job's own input: the job ends `error` and is charged for the runtime used. */
export class JobInputError extends Error {}

/** Thrown (or surfaced) when the job was stopped by cancel or by its runtime limit. */
export class JobAborted extends Error {
  constructor(readonly reason: 'cancelled' | 'runtime-limit' | 'shutdown') {
    super(reason);
  }
}

/** Runtime limit (CONTRACT.md section 4): 3 x the expected runtime + a grace (60 s unless configured). */
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
  /** Number of molecules in an uploaded molecule set (404/422 problems when not usable). */
  countMolecules(artifactId: string, port?: string): Promise<number>;
}

export interface OutputRecord {
  id: string;
  files: Record<string, { name: string; content: string | Buffer; contentType?: string }>;
  primary?: string;
  metrics?: Record<string, number>;
}

export interface JobOutput {
  /** JSON document answered by GET /jobs/result (also stored in the result artifact). */
  result: unknown;
  /** Extra ports of the result artifact (records of per-molecule output). */
  ports?: Record<string, { format: string; kind: string; records: Iterable<OutputRecord> | AsyncIterable<OutputRecord> }>;
  warnings?: unknown[];
}

export interface RunContext<P> {
  jobId: string;
  userId: string;
  payload: P;
  resource: Resource;
  /** Aborted on cancel, runtime limit or shutdown; long runs must watch it. */
  signal: AbortSignal;
  /** Reports progress (0..1) and an optional status message; cheap, call often. */
  progress(fraction: number, message?: string): void;
  /** Molecules of an uploaded set. */
  readMolecules(artifactId: string, port?: string): AsyncIterable<{ id: string; smiles: string; name?: string }>;
  /** Services a type may need (the chemistry pool and others), typed by the type itself. */
  services: unknown;
}

export interface JobType<P = any> {
  name: string;
  summary: string;
  payload: TSchema;
  estimate(payload: P, ctx: EstimateContext): Promise<Estimate>;
  run(ctx: RunContext<P>): Promise<JobOutput>;
}
