// The workflow_runs and workflow_run_steps tables (migration 014; docs/workflows.md): every
// statement that reads or writes them. Writers lock the run row first (FOR UPDATE), so a
// run's steps change under one lock at a time.
import { firstRow, type Queryable } from '../db/database.js';

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export const RUN_TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
export type StepRowState = 'pending' | 'started' | 'completed' | 'failed' | 'cancelled' | 'skipped' | 'reused';
export const STEP_DONE: ReadonlySet<StepRowState> = new Set(['completed', 'reused']);

export interface RunRow {
  id: string;
  user_id: string;
  key_id: string | null;
  workflow_id: string | null;
  version: number | null;
  template_id: string | null;
  name: string;
  spec: unknown;
  inputs: Record<string, unknown>;
  status: RunStatus;
  message: string;
  reserved_micros: number;
  charged_micros: number;
  rerun_of: string | null;
  /** The link share the run was started through (null: the owner's, a user share's, a template's or an inline spec's). */
  share_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface StepRow {
  run_id: string;
  step_id: string;
  position: number;
  job_type: string;
  state: StepRowState;
  job_id: string | null;
  signature: string;
  planned_micros: number;
  expected_runtime_sec: number;
  result_artifact_id: string | null;
  charged_micros: number;
  message: string;
}

/** A step with its job's live state (null before it starts, or when its job was deleted). */
export interface StepView extends StepRow {
  job_status: string | null;
  job_progress: number | null;
  job_message: string | null;
  job_runtime_seconds: number | null;
}

export type NewRun = Omit<RunRow, 'status' | 'message' | 'charged_micros' | 'created_at' | 'finished_at'>;
export type NewStep = Omit<StepRow, 'run_id' | 'charged_micros' | 'message'> & { message?: string };

/** `queued` until one of its step jobs has left the queue (or a step was reused or ended). */
const PRESENTED_STATUS = `CASE WHEN r.status = 'running' AND NOT EXISTS (
    SELECT 1 FROM workflow_run_steps s LEFT JOIN jobs j ON j.id = s.job_id
     WHERE s.run_id = r.id AND (s.state NOT IN ('pending', 'started') OR (j.id IS NOT NULL AND j.status <> 'queued')))
  THEN 'queued' ELSE r.status END`;

export interface RunListFilter {
  statuses?: string[];
  workflowId?: string;
  text?: string;
  order: string;
  limit: number;
  offset: number;
}

export const runsStore = {
  /** The run and its steps as inserted (the new rows are this transaction's alone until it commits: no lock to take). */
  async insertRun(tx: Queryable, r: NewRun, steps: NewStep[]): Promise<{ run: RunRow; steps: StepRow[] }> {
    const run = await tx.query<RunRow>(
      `INSERT INTO workflow_runs (id, user_id, key_id, workflow_id, version, template_id, name, spec, inputs, status, reserved_micros, rerun_of, share_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'running', $10, $11, $12) RETURNING *`,
      [r.id, r.user_id, r.key_id, r.workflow_id, r.version, r.template_id, r.name, JSON.stringify(r.spec), JSON.stringify(r.inputs), r.reserved_micros, r.rerun_of, r.share_id],
    );
    const inserted = await tx.query<StepRow>(
      `INSERT INTO workflow_run_steps (run_id, step_id, position, job_type, state, job_id, signature, planned_micros, expected_runtime_sec, result_artifact_id, message)
       SELECT $1, t.step_id, t.position, t.job_type, t.state, t.job_id, t.signature, t.planned, t.expected, t.artifact, t.message
         FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::int8[], $9::float8[], $10::uuid[], $11::text[])
           AS t(step_id, position, job_type, state, job_id, signature, planned, expected, artifact, message)
       RETURNING *`,
      [
        r.id,
        steps.map((s) => s.step_id),
        steps.map((s) => s.position),
        steps.map((s) => s.job_type),
        steps.map((s) => s.state),
        steps.map((s) => s.job_id),
        steps.map((s) => s.signature),
        steps.map((s) => s.planned_micros),
        steps.map((s) => s.expected_runtime_sec),
        steps.map((s) => s.result_artifact_id),
        steps.map((s) => s.message ?? ''),
      ],
    );
    return { run: firstRow(run.rows, 'the run insert'), steps: inserted.rows.sort((a, b) => a.position - b.position) };
  },

  /** Locks the run of a step job and returns it (null for other jobs). */
  async lockRunOfJob(tx: Queryable, jobId: string): Promise<RunRow | null> {
    const { rows } = await tx.query<RunRow>(`SELECT * FROM workflow_runs WHERE id = (SELECT workflow_run_id FROM jobs WHERE id = $1) FOR UPDATE`, [jobId]);
    return rows[0] ?? null;
  },

  /**
   * lockRunOfJob as a common table expression `locked_run` of another statement (the job's end,
   * jobsStore.finish), for a run known by id: `row` is it as jsonb, `locked` turns that back
   * into the row (its timestamps as dates).
   */
  lockRunWrite(runId: string, firstParam: number) {
    return {
      ctes: `locked_run AS (SELECT * FROM workflow_runs WHERE id = $${firstParam}::uuid FOR UPDATE)`,
      params: [runId],
      first: '(SELECT count(*) FROM locked_run) >= 0',
      row: '(SELECT to_jsonb(l) FROM locked_run l)',
      locked(value: unknown): RunRow | null {
        if (value === null || value === undefined) return null;
        const r = value as RunRow & { created_at: string; finished_at: string | null };
        return { ...r, created_at: new Date(r.created_at), finished_at: r.finished_at === null ? null : new Date(r.finished_at) };
      },
    };
  },

  async getRun(q: Queryable, userId: string | null, id: string, forUpdate = false): Promise<(RunRow & { presented_status: string }) | null> {
    const { rows } = await q.query<RunRow & { presented_status: string }>(
      `SELECT r.*, ${PRESENTED_STATUS} AS presented_status FROM workflow_runs r WHERE r.id = $1 AND ($2::uuid IS NULL OR r.user_id = $2)${forUpdate ? ' FOR UPDATE OF r' : ''}`,
      [id, userId],
    );
    return rows[0] ?? null;
  },

  async steps(q: Queryable, runId: string): Promise<StepRow[]> {
    const { rows } = await q.query<StepRow>('SELECT * FROM workflow_run_steps WHERE run_id = $1 ORDER BY position', [runId]);
    return rows;
  },

  async stepViews(q: Queryable, runId: string): Promise<StepView[]> {
    const { rows } = await q.query<StepView>(
      `SELECT s.*, j.status AS job_status, j.progress AS job_progress, j.message AS job_message,
              CASE WHEN j.finished_at IS NOT NULL THEN j.runtime_seconds
                   WHEN j.started_at IS NOT NULL THEN greatest(0, extract(epoch FROM now() - j.started_at)::float8) END AS job_runtime_seconds
         FROM workflow_run_steps s LEFT JOIN jobs j ON j.id = s.job_id AND s.state <> 'reused'
        WHERE s.run_id = $1 ORDER BY s.position`,
      [runId],
    );
    return rows;
  },

  /** A pending step marked started with its job, as a common table expression of the job's insert (parameters from `first`). */
  startStepWrite(runId: string, stepId: string, jobId: string, first: number): { ctes: string; params: unknown[] } {
    return {
      ctes: `step_started AS (UPDATE workflow_run_steps SET state = 'started', job_id = $${first + 2}::uuid WHERE run_id = $${first}::uuid AND step_id = $${first + 1}::text AND state = 'pending')`,
      params: [runId, stepId, jobId],
    };
  },

  async endStep(
    tx: Queryable,
    runId: string,
    stepId: string,
    e: { state: StepRowState; resultArtifactId?: string | null; chargedMicros?: number; message: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE workflow_run_steps SET state = $3, result_artifact_id = coalesce($4, result_artifact_id), charged_micros = charged_micros + $5, message = $6
        WHERE run_id = $1 AND step_id = $2`,
      [runId, stepId, e.state, e.resultArtifactId ?? null, e.chargedMicros ?? 0, e.message],
    );
  },

  /**
   * Ends the step a job ran (not a reused one) and adds its charge to the step and the run, in
   * one statement; returns every step of the run as it is after that (null: no step ran this job).
   */
  async endStepOfJob(
    tx: Queryable,
    runId: string,
    jobId: string,
    e: { state: StepRowState; resultArtifactId: string | null; chargedMicros: number; message: string },
  ): Promise<{ step: StepRow; steps: StepRow[] } | null> {
    const { rows } = await tx.query<StepRow & { ended: boolean }>(
      `WITH s AS (
         UPDATE workflow_run_steps SET state = $3, result_artifact_id = coalesce($4, result_artifact_id), charged_micros = charged_micros + $5, message = $6
          WHERE run_id = $1 AND job_id = $2 AND state <> 'reused'
         RETURNING *
       ), r AS (
         UPDATE workflow_runs SET charged_micros = charged_micros + $5 WHERE id = $1 AND $5 > 0 AND EXISTS (SELECT 1 FROM s) RETURNING id
       )
       SELECT s.*, true AS ended FROM s
       UNION ALL
       SELECT t.*, false AS ended FROM workflow_run_steps t WHERE t.run_id = $1 AND EXISTS (SELECT 1 FROM s) AND NOT EXISTS (SELECT 1 FROM s WHERE s.step_id = t.step_id)
       ORDER BY position`,
      [runId, jobId, e.state, e.resultArtifactId, e.chargedMicros, e.message],
    );
    const steps = rows.map(({ ended: _, ...row }) => row as StepRow);
    const i = rows.findIndex((r) => r.ended);
    return i < 0 ? null : { step: steps[i]!, steps };
  },

  /** Moves a running run to a terminal status (false: it already ended). */
  async end(tx: Queryable, runId: string, status: Exclude<RunStatus, 'running'>, message: string): Promise<boolean> {
    const { rows } = await tx.query(`UPDATE workflow_runs SET status = $2, message = $3, finished_at = now() WHERE id = $1 AND status = 'running' RETURNING id`, [
      runId,
      status,
      message,
    ]);
    return rows.length > 0;
  },

  async list(q: Queryable, userId: string, f: RunListFilter): Promise<{ rows: (RunRow & { presented_status: string; steps_done: number })[]; total: number }> {
    const where = ['user_id = $1'];
    const params: unknown[] = [userId];
    if (f.statuses) {
      params.push(f.statuses);
      where.push(`presented_status = ANY($${params.length}::text[])`);
    }
    if (f.workflowId) {
      params.push(f.workflowId);
      where.push(`workflow_id::text = $${params.length}`);
    }
    if (f.text) {
      params.push(`%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(name ILIKE $${params.length} OR id::text ILIKE $${params.length})`);
    }
    const base = `SELECT r.*, ${PRESENTED_STATUS} AS presented_status,
        (SELECT count(*)::int FROM workflow_run_steps s WHERE s.run_id = r.id AND s.state NOT IN ('pending', 'started')) AS steps_done
      FROM workflow_runs r WHERE r.user_id = $1`;
    const cond = where.join(' AND ');
    const [items, count] = await Promise.all([
      q.query<RunRow & { presented_status: string; steps_done: number }>(
        `SELECT * FROM (${base}) x WHERE ${cond} ORDER BY ${f.order}, id LIMIT ${f.limit} OFFSET ${f.offset}`,
        params,
      ),
      q.query<{ total: number }>(`SELECT count(*)::int AS total FROM (${base}) x WHERE ${cond}`, params),
    ]);
    return { rows: items.rows, total: count.rows[0]?.total ?? 0 };
  },

  /** The latest completed-or-reused step of each signature among a user's earlier run (for rerun with reuse_completed). */
  async reusable(q: Queryable, userId: string, runId: string): Promise<StepRow[]> {
    const { rows } = await q.query<StepRow>(
      `SELECT s.* FROM workflow_run_steps s JOIN workflow_runs r ON r.id = s.run_id
         JOIN artifacts a ON a.id = s.result_artifact_id AND a.user_id = r.user_id
        WHERE r.id = $1 AND r.user_id = $2 AND s.state IN ('completed', 'reused')`,
      [runId, userId],
    );
    return rows;
  },

  /** Job ids a run started itself (not reused ones), for deleting it. */
  async ownJobIds(q: Queryable, runId: string): Promise<string[]> {
    const { rows } = await q.query<{ job_id: string }>(`SELECT job_id FROM workflow_run_steps WHERE run_id = $1 AND job_id IS NOT NULL AND state <> 'reused'`, [runId]);
    return rows.map((r) => r.job_id);
  },

  async deleteRun(tx: Queryable, userId: string, runId: string): Promise<void> {
    await tx.query('DELETE FROM workflow_runs WHERE id = $1 AND user_id = $2', [runId, userId]);
  },
};
