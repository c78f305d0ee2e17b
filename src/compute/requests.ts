// What a feature's asynchronous request (a job row with origin `utility` or `inference`;
// docs/architecture.md, "Feature requests on the job runtime") shows of itself, shared by the
// features that list and read them.
import { AppError } from '../errors.js';
import type { JobService } from './service.js';
import { TERMINAL, type JobOrigin, type JobRow } from './store.js';

export function requestFields(j: JobRow) {
  const info = j.info as { molecules?: number; units?: number };
  return {
    request_id: j.id,
    status: j.status,
    message: j.message,
    progress: j.progress,
    molecules: info.molecules ?? 0,
    // A request that failed gave its count back (docs/usage.md); a cancelled one keeps it.
    counted: j.status === 'error' ? 0 : (info.units ?? 0),
    created_at: j.created_at.toISOString(),
    started_at: j.started_at?.toISOString() ?? null,
    finished_at: j.finished_at?.toISOString() ?? null,
  };
}

/** Cancels a request that has not ended, or deletes one that has (with its result). */
export async function removeRequest(
  jobs: JobService,
  userId: string,
  requestId: string,
  origin: Exclude<JobOrigin, 'job'>,
): Promise<{ request_id: string; status: 'cancelled' | 'deleted' }> {
  const job = await jobs.get(userId, requestId, origin);
  if (!TERMINAL.has(job.status)) {
    try {
      await jobs.cancel(userId, requestId, origin);
      return { request_id: requestId, status: 'cancelled' };
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'job-already-finished') throw err;
    }
  }
  await jobs.delete(userId, requestId, origin);
  return { request_id: requestId, status: 'deleted' };
}

/** The job engine locates payload problems at ["payload", ...]; a feature's request body is the payload itself. */
export function asRequestError(err: unknown): unknown {
  return err instanceof AppError && err.issues
    ? new AppError(err.code, err.message, { issues: err.issues.map((i) => ({ ...i, loc: i.loc[0] === 'payload' ? i.loc.slice(1) : i.loc })) })
    : err;
}

/** A page of a feature's requests, newest first, each shown by `item`. */
export async function listRequests<T>(
  jobs: JobService,
  userId: string,
  q: { status?: string; limit?: number; offset?: number },
  origin: Exclude<JobOrigin, 'job'>,
  item: (j: JobRow) => T,
) {
  const page = await jobs.list(userId, { status: q.status, limit: q.limit, offset: q.offset }, origin);
  return { items: page.rows.map(item), total: page.total, limit: page.limit, offset: page.offset };
}
