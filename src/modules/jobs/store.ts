import type { Queryable } from '../../db/database.js';

export type JobStatus = 'queued' | 'dispatched' | 'running' | 'completed' | 'error' | 'cancelled';
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['completed', 'error', 'cancelled']);
export const ACTIVE_STATUSES: JobStatus[] = ['queued', 'dispatched', 'running'];

export interface JobRow {
  id: string;
  user_id: string;
  key_id: string | null;
  job_name: string;
  job_type: string;
  resource: string;
  payload: unknown;
  status: JobStatus;
  message: string;
  progress: number;
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
  created_at: Date;
  dispatched_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NewJob {
  id: string;
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
  /** The queue message that announces it (sent in the same transaction). */
  queueJobId: string;
}

export const jobsStore = {
  async insert(tx: Queryable, j: NewJob): Promise<void> {
    await tx.query(
      `INSERT INTO jobs (id, user_id, key_id, job_name, job_type, resource, payload, expected_runtime_sec, rate_micros_per_sec, reserved_micros, info, queue_job_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [j.id, j.userId, j.keyId, j.name, j.type, j.resource, JSON.stringify(j.payload), j.expectedRuntimeSec, j.rateMicrosPerSec, j.reservedMicros, JSON.stringify(j.info), j.queueJobId],
    );
  },
  async get(q: Queryable, userId: string, id: string, forUpdate = false): Promise<JobRow | null> {
    const { rows } = await q.query<JobRow>(`SELECT * FROM jobs WHERE id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [id, userId]);
    return rows[0] ?? null;
  },
  async getById(q: Queryable, id: string): Promise<JobRow | null> {
    const { rows } = await q.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]);
    return rows[0] ?? null;
  },
  async delete(tx: Queryable, userId: string, id: string): Promise<void> {
    await tx.query('DELETE FROM jobs WHERE id = $1 AND user_id = $2', [id, userId]);
  },
};
