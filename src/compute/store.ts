// The jobs table: every statement that reads or writes a job row is here, and this file is the
// table's only writer. The state machine (docs/jobs.md): queued -> dispatched -> running ->
// completed | error; queued, dispatched, running -> cancelled; terminal states never change.
// Writers that race (a worker finishing, a cancel, a sweep) use conditional UPDATEs that only
// one caller can win.
import type { Queryable } from '../db/database.js';
import { JOBS_CHANNEL, type QueueStatement } from './queue.js';

export type JobStatus = 'queued' | 'dispatched' | 'running' | 'completed' | 'error' | 'cancelled';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'dispatched', 'running', 'completed', 'error', 'cancelled'];
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['completed', 'error', 'cancelled']);
export const ACTIVE_STATUSES: JobStatus[] = ['queued', 'dispatched', 'running'];

/** What a job row runs for (docs/utilities.md): a wallet-charged job, or a feature's asynchronous request counted against the allowance. */
export type JobOrigin = 'job' | 'utility' | 'inference';

export interface JobRow {
  id: string;
  origin: JobOrigin;
  user_id: string;
  key_id: string | null;
  job_name: string;
  job_type: string;
  resource: string;
  payload: unknown;
  status: JobStatus;
  message: string;
  progress: number;
  /** Structured progress a job type reports beside `message` (e.g. epoch, train_loss). */
  progress_detail: Record<string, unknown> | null;
  attempts: number;
  queue_job_id: string | null;
  worker_id: string | null;
  heartbeat_at: Date | null;
  expected_runtime_sec: number;
  rate_micros_per_sec: number;
  reserved_micros: number;
  charged_micros: number | null;
  runtime_seconds: number;
  cancel_requested: boolean;
  result_artifact_id: string | null;
  info: Record<string, unknown>;
  /** The workflow run this job is a step of (docs/workflows.md), charged through its hold. */
  workflow_run_id: string | null;
  /** The queue lane it travels in (src/compute/lanes.ts). */
  lane: string;
  created_at: Date;
  dispatched_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NewJob {
  id: string;
  origin: JobOrigin;
  userId: string;
  keyId: string | null;
  name: string;
  type: string;
  resource: string;
  payload: unknown;
  expectedRuntimeSec: number;
  rateMicrosPerSec: number;
  reservedMicros: number;
  info: Record<string, unknown>;
  /** The lane (queue) it was sent in (src/compute/lanes.ts); '' by default. */
  lane?: string;
  /** A workflow run's step: reservedMicros is its share of the run's hold, not a reservation of its own. */
  workflowRunId?: string | null;
}

export interface TerminalUpdate {
  status: 'completed' | 'error' | 'cancelled';
  message: string;
  resultArtifactId: string | null;
  /** false for platform faults: nothing is charged. */
  chargeable: boolean;
  /** Only this worker's running claim may end the job; absent for cancels and sweeps. */
  worker?: { id: string; attempt: number };
}

export interface ListFilter {
  origin: JobOrigin;
  statuses?: JobStatus[];
  jobType?: string;
  /** Case-insensitive match on the job name or the process id. */
  text?: string;
  /** An ORDER BY expression built from a known column (never user text). */
  order: string;
  limit: number;
  offset: number;
}

/** The runtime from start to now, in seconds (0 before the start). */
const RUNTIME = `CASE WHEN started_at IS NULL THEN 0 ELSE greatest(0, extract(epoch FROM now() - started_at)::float8) END`;

/** A message claimed by claimFetched: its id, the job it announces, and that job's row when this statement claimed it (null: the job had moved on). */
export interface FetchedMessage {
  messageId: string;
  jobId: string;
  job: JobRow | null;
}

export const jobsStore = {
  /**
   * Inserts a queued job and the queue message that announces it, in one statement: the
   * message (pg-boss's own insert, captured by JobQueue.sendStatement) as a CTE, the row with
   * its id, and the NOTIFY that wakes idle workers when the transaction commits.
   */
  async insert(
    tx: Queryable,
    j: NewJob,
    message: { messageId: string; statement: QueueStatement },
    also?: (firstParam: number) => { ctes: string; params: unknown[] },
  ): Promise<void> {
    const n = message.statement.values.length;
    const p = (i: number) => `$${n + i}`;
    const params = [
      ...message.statement.values,
      j.id,
      j.userId,
      j.keyId,
      j.name,
      j.type,
      j.resource,
      JSON.stringify(j.payload),
      j.expectedRuntimeSec,
      j.rateMicrosPerSec,
      j.reservedMicros,
      JSON.stringify(j.info),
      j.origin,
      j.workflowRunId ?? null,
      j.lane ?? '',
      JOBS_CHANNEL,
    ];
    // `also`: more common table expressions of the same statement (a workflow step marked started).
    const more = also?.(params.length + 1);
    const { rows } = await tx.query<{ queue_job_id: string }>(
      `WITH m AS (${message.statement.text})${more ? `, ${more.ctes}` : ''}
       INSERT INTO jobs (id, user_id, key_id, job_name, job_type, resource, payload, expected_runtime_sec, rate_micros_per_sec, reserved_micros, info, queue_job_id, origin, workflow_run_id, lane)
       SELECT ${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::uuid, ${p(4)}::text, ${p(5)}::text, ${p(6)}::text, ${p(7)}::jsonb, ${p(8)}::float8, ${p(9)}::int8, ${p(10)}::int8, ${p(11)}::jsonb,
              m.id::text, ${p(12)}::text, ${p(13)}::uuid, ${p(14)}::text FROM m
       RETURNING queue_job_id, pg_notify(${p(15)}::text, lane)`,
      [...params, ...(more?.params ?? [])],
    );
    if (rows[0]?.queue_job_id !== message.messageId) throw new Error('the queue refused the job');
  },

  async get(q: Queryable, userId: string, id: string, origin: JobOrigin, forUpdate = false): Promise<JobRow | null> {
    const { rows } = await q.query<JobRow>(`SELECT * FROM jobs WHERE id = $1 AND user_id = $2 AND origin = $3${forUpdate ? ' FOR UPDATE' : ''}`, [id, userId, origin]);
    return rows[0] ?? null;
  },

  async delete(tx: Queryable, userId: string, id: string): Promise<void> {
    await tx.query('DELETE FROM jobs WHERE id = $1 AND user_id = $2', [id, userId]);
  },

  /** A page of a user's jobs, the total, the ids of the first 1,000 and their distinct names. */
  async list(q: Queryable, userId: string, f: ListFilter): Promise<{ rows: JobRow[]; total: number; pids: string[]; names: string[] }> {
    const where = ['user_id = $1', 'origin = $2'];
    const params: unknown[] = [userId, f.origin];
    if (f.statuses) {
      params.push(f.statuses);
      where.push(`status = ANY($${params.length}::text[])`);
    }
    if (f.jobType) {
      params.push(f.jobType);
      where.push(`job_type = $${params.length}`);
    }
    if (f.text) {
      params.push(`%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(job_name ILIKE $${params.length} OR id::text ILIKE $${params.length})`);
    }
    const cond = where.join(' AND ');
    const [items, agg, names] = await Promise.all([
      q.query<JobRow>(`SELECT * FROM jobs WHERE ${cond} ORDER BY ${f.order}, id LIMIT ${f.limit} OFFSET ${f.offset}`, params),
      q.query<{ total: number; pids: string[] | null }>(
        `SELECT count(*)::int AS total, (SELECT array_agg(id::text) FROM (SELECT id FROM jobs WHERE ${cond} ORDER BY ${f.order}, id LIMIT 1000) p) AS pids FROM jobs WHERE ${cond}`,
        params,
      ),
      q.query<{ job_name: string }>(`SELECT DISTINCT job_name FROM jobs WHERE ${cond} ORDER BY job_name LIMIT 1000`, params),
    ]);
    const a = agg.rows[0];
    return { rows: items.rows, total: a?.total ?? 0, pids: a?.pids ?? [], names: names.rows.map((r) => r.job_name) };
  },

  /**
   * Fetches a worker's messages and claims their jobs in one statement: pg-boss's fetch
   * (captured by JobQueue.fetchStatement) as a CTE, and each fetched message's job moved from
   * `queued` to `running` for this worker if the message is still the job's current one
   * (dispatched and started at the same instant: nothing happens between the two). Returns
   * every fetched message, with its job's row when it was claimed here.
   */
  async claimFetched(q: Queryable, fetch: QueueStatement, workerId: string): Promise<FetchedMessage[]> {
    const w = `$${fetch.values.length + 1}`;
    const { rows } = await q.query<JobRow & { fetched_message_id: string; fetched_job_id: string }>(
      `WITH m AS (${fetch.text}),
       c AS (
         UPDATE jobs j SET status = 'running', worker_id = ${w}, attempts = j.attempts + 1, dispatched_at = now(), started_at = now(), heartbeat_at = now()
           FROM m
          WHERE j.id = (m.data->>'jobId')::uuid AND j.queue_job_id = m.id::text AND j.status = 'queued'
         RETURNING j.*
       )
       SELECT m.id::text AS fetched_message_id, m.data->>'jobId' AS fetched_job_id, c.* FROM m LEFT JOIN c ON c.queue_job_id = m.id::text`,
      [...fetch.values, workerId],
    );
    return rows.map(({ fetched_message_id, fetched_job_id, ...job }) => ({ messageId: fetched_message_id, jobId: fetched_job_id, job: job.id ? (job as JobRow) : null }));
  },

  /** Records a heartbeat with the latest progress while the job runs; returns its status (null: no longer running, or not this attempt's: a late heartbeat never touches a finished job). */
  async heartbeat(
    q: Queryable,
    jobId: string,
    workerId: string,
    attempt: number,
    p: { fraction: number; message: string; detail: Record<string, unknown> | null },
  ): Promise<string | null> {
    const { rows } = await q.query<{ status: string }>(
      `UPDATE jobs SET heartbeat_at = now(), progress = $4, message = CASE WHEN $5 = '' THEN message ELSE $5 END,
              progress_detail = coalesce($6::jsonb, progress_detail)
        WHERE id = $1 AND worker_id = $2 AND attempts = $3 AND status = 'running' RETURNING status`,
      [jobId, workerId, attempt, p.fraction, p.message, p.detail === null ? null : JSON.stringify(p.detail)],
    );
    return rows[0]?.status ?? null;
  },

  /**
   * The one way into a terminal state. The charge is runtime x rate rounded to the
   * micro-dollar, at most the reservation, and nothing for a platform fault: computed in the
   * same statement as the runtime. Returns null when the job was already terminal or is no
   * longer this worker's.
   */
  async finish(tx: Queryable, jobId: string, f: TerminalUpdate): Promise<JobRow | null> {
    return (await this.finishLocking(tx, jobId, f)).job;
  },

  /**
   * finish, with `lock`: another lock taken by the same statement before the job's row (a
   * workflow step's run: the lock order run -> job, docs/reliability.md "One lock order"): its
   * CTEs, and `first`, a condition that is always true but reads them, so PostgreSQL runs them
   * (as a one-time filter) before it scans and locks the job's row; its `row` comes back as `locked`.
   */
  async finishLocking(
    tx: Queryable,
    jobId: string,
    f: TerminalUpdate,
    lock?: (firstParam: number) => { ctes: string; params: unknown[]; first: string; row: string },
  ): Promise<{ job: JobRow | null; locked: unknown }> {
    const params: unknown[] = [jobId, f.status, f.message, f.resultArtifactId, f.chargeable];
    let guard = `status IN ('queued', 'dispatched', 'running')`;
    if (f.worker) {
      params.push(f.worker.id, f.worker.attempt);
      guard = `status = 'running' AND worker_id = $6 AND attempts = $7`;
    }
    const l = lock?.(params.length + 1);
    const { rows } = await tx.query<JobRow & { locked?: unknown }>(
      `${l ? `WITH ${l.ctes} ` : ''}UPDATE jobs SET status = $2, message = $3, result_artifact_id = coalesce($4, result_artifact_id), finished_at = now(),
              progress = CASE WHEN $2 = 'completed' THEN 1 ELSE progress END,
              runtime_seconds = ${RUNTIME},
              charged_micros = CASE WHEN $5::boolean THEN least(reserved_micros, floor(${RUNTIME} * rate_micros_per_sec + 0.5)::int8) ELSE 0 END
        WHERE ${l ? `${l.first} AND ` : ''}id = $1 AND ${guard}
        RETURNING *${l ? `, ${l.row} AS locked` : ''}`,
      [...params, ...(l?.params ?? [])],
    );
    const row = rows[0];
    if (!row) return { job: null, locked: undefined };
    const { locked, ...job } = row;
    return { job: job as JobRow, locked };
  },

  /** Returns a worker's claim to the queue (shutdown) with a new queue message, keeping the attempt count. */
  async requeueOwn(tx: Queryable, jobId: string, workerId: string, attempt: number, newMessageId: () => Promise<string>): Promise<boolean> {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE jobs SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, attempts = attempts - 1
        WHERE id = $1 AND worker_id = $2 AND attempts = $3 AND status IN ('dispatched', 'running') RETURNING id`,
      [jobId, workerId, attempt],
    );
    if (!rows[0]) return false;
    await tx.query('UPDATE jobs SET queue_job_id = $2 WHERE id = $1', [jobId, await newMessageId()]);
    return true;
  },

  /** Ids of running jobs whose heartbeat is older than `staleSec`. */
  async staleIds(q: Queryable, staleSec: number, limit = 100): Promise<string[]> {
    const { rows } = await q.query<{ id: string }>(
      `SELECT id FROM jobs WHERE status IN ('dispatched', 'running') AND heartbeat_at < now() - make_interval(secs => $1) LIMIT ${limit}`,
      [staleSec],
    );
    return rows.map((r) => r.id);
  },

  /** Locks a job that is still stale (skipping one another sweeper holds). */
  async lockStale(tx: Queryable, id: string, staleSec: number): Promise<JobRow | null> {
    const { rows } = await tx.query<JobRow>(
      `SELECT * FROM jobs WHERE id = $1 AND status IN ('dispatched', 'running') AND heartbeat_at < now() - make_interval(secs => $2) FOR UPDATE SKIP LOCKED`,
      [id, staleSec],
    );
    return rows[0] ?? null;
  },

  /** A job whose worker was lost goes back to the queue with a new message. */
  async requeueLost(tx: Queryable, id: string, messageId: string): Promise<void> {
    await tx.query(
      `UPDATE jobs SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, message = 'requeued: its worker stopped responding', queue_job_id = $2 WHERE id = $1`,
      [id, messageId],
    );
  },

  /** Queued jobs old enough that their message may have been lost (fetched by a worker that died before claiming). */
  async longQueued(q: Queryable, limit = 100): Promise<{ id: string; queue_job_id: string | null; lane: string }[]> {
    const { rows } = await q.query<{ id: string; queue_job_id: string | null; lane: string }>(
      `SELECT id, queue_job_id, lane FROM jobs WHERE status = 'queued' AND created_at < now() - interval '90 seconds' ORDER BY created_at LIMIT ${limit}`,
    );
    return rows;
  },

  /** Gives a still-queued job a new message, unless another sweeper holds it or it moved on. */
  async resend(tx: Queryable, id: string, oldMessageId: string | null, newMessageId: () => Promise<string>): Promise<boolean> {
    const { rows } = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND status = 'queued' AND queue_job_id IS NOT DISTINCT FROM $2 FOR UPDATE SKIP LOCKED`, [id, oldMessageId]);
    if (!rows[0]) return false;
    await tx.query('UPDATE jobs SET queue_job_id = $2 WHERE id = $1', [id, await newMessageId()]);
    return true;
  },
};
