// What a job's run gives (docs/jobs.md): the result document and its ports' records. Its own
// file because both job-type.ts and ports.ts read it (job-type.ts re-exports it).
import type { Queryable } from '../db/database.js';

export interface OutputRecord {
  id: string;
  files: Record<string, { name: string; content: string | Buffer; contentType?: string }>;
  primary?: string;
  metrics?: Record<string, number>;
}

export interface JobOutput {
  /** JSON document answered by GET /jobs/result (also stored in the result artifact). */
  result: unknown;
  /**
   * Runs in the transaction that stores the result and completes the job (e.g. registering a
   * trained model); a JobInputError thrown here ends the job `error` with its message instead.
   */
  inFinish?(tx: Queryable, resultArtifactId: string): Promise<void>;
  /** Extra ports of the result artifact (records of per-molecule output). */
  ports?: Record<string, { format: string; kind: string; records: Iterable<OutputRecord> | AsyncIterable<OutputRecord> }>;
  warnings?: unknown[];
}
