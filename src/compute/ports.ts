// What the job engine needs from its neighbours, as small interfaces wired in instance.ts:
// the artifact store (inputs and results) and the events feed.
import type { Queryable } from '../db/database.js';
import type { JobOutput } from './job-type.js';

export interface JobArtifacts {
  /** Writes a job's output as its result artifact (file and row, or neither); returns the artifact id. */
  writeResult(o: { userId: string; jobId: string; jobType: string; output: JobOutput }): Promise<string>;
  /** The JSON document of GET /jobs/result, read from the result artifact. */
  readResult(userId: string, artifactId: string): Promise<unknown>;
  deleteForJob(userId: string, jobId: string): Promise<void>;
  countMolecules(userId: string, artifactId: string, port?: string): Promise<number>;
  readMolecules(userId: string, artifactId: string, port?: string): AsyncIterable<{ id: string; smiles: string; name?: string }>;
}

export interface JobEventSink {
  /** Appends a terminal event inside the transaction that ends the job. */
  append(tx: Queryable, e: { userId: string; kind: 'job'; subjectId: string; status: string; workflowRunId?: string | null }): Promise<unknown>;
}
