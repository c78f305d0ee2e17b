// The one way a job reaches a terminal state: a conditional UPDATE (only one caller can win,
// so cancel racing completion leaves exactly one state), the settlement of its reservation
// and its terminal event, all in the caller's transaction.
import type { Queryable } from '../db/database.js';
import type { JobRow } from '../modules/jobs/store.js';
import type { WalletService } from '../modules/wallet/service.js';
import type { JobEventSink } from './ports.js';

export interface Finish {
  status: 'completed' | 'error' | 'cancelled';
  message: string;
  /** false for platform faults: nothing is charged. */
  chargeable: boolean;
  resultArtifactId?: string | null;
  /** Only this worker's running claim may finish the job (workers); absent for API cancel and sweeps. */
  worker?: { id: string; attempt: number };
}

export interface TransitionDeps {
  wallet: WalletService;
  events: JobEventSink;
}

/** Returns the finished row, or null when the job was already terminal or no longer this worker's. */
export async function finishJob(tx: Queryable, deps: TransitionDeps, jobId: string, f: Finish): Promise<JobRow | null> {
  const params: unknown[] = [jobId, f.status, f.message, f.resultArtifactId ?? null, f.chargeable];
  let guard = `status IN ('queued', 'dispatched', 'running')`;
  if (f.worker) {
    params.push(f.worker.id, f.worker.attempt);
    guard = `status = 'running' AND worker_id = $6 AND attempts = $7`;
  }
  // The charge is runtime x rate rounded to the micro-dollar, at most the reservation, and
  // nothing for a platform fault: computed here with the runtime, in the same statement.
  const runtime = `CASE WHEN started_at IS NULL THEN 0 ELSE greatest(0, extract(epoch FROM now() - started_at)::float8) END`;
  const { rows } = await tx.query<JobRow>(
    `UPDATE jobs SET status = $2, message = $3, result_artifact_id = coalesce($4, result_artifact_id), finished_at = now(),
            progress = CASE WHEN $2 = 'completed' THEN 1 ELSE progress END,
            runtime_seconds = ${runtime},
            charged_micros = CASE WHEN $5::boolean THEN least(reserved_micros, floor(${runtime} * rate_micros_per_sec + 0.5)::int8) ELSE 0 END
      WHERE id = $1 AND ${guard}
      RETURNING *`,
    params,
  );
  const job = rows[0];
  if (!job) return null;
  await deps.wallet.settle(tx, {
    userId: job.user_id,
    jobId: job.id,
    keyId: job.key_id,
    reservedMicros: job.reserved_micros,
    chargeMicros: job.charged_micros!, // set by the UPDATE above
    note: `job ${f.status}`,
  });
  await deps.events.append(tx, { userId: job.user_id, kind: 'job', subjectId: job.id, status: f.status, workflowRunId: null });
  return job;
}
