// The worker runtime: claims queued jobs, runs them with heartbeats, cancel checks and the
// runtime limit, writes the result file and then, in one transaction, the result artifact row
// and the job's end through finishJob (docs/jobs.md). Runs inside
// `crucible serve` (CRUCIBLE_WORKERS slots) and in `crucible worker` processes; any number
// of them share one database. A sweeper returns the jobs of dead workers to the queue.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/database.js';
import type { JobRow } from '../modules/jobs/store.js';
import { JobAborted, JobInputError, runtimeLimitSec, type JobType } from './job-type.js';
import type { JobArtifacts } from './ports.js';
import { JOBS_CHANNEL, type JobQueue, type QueueMessage } from './queue.js';
import { JOB_TYPES } from './registry.js';
import { RESOURCES } from './resources.js';
import { finishJob, type TransitionDeps } from './transitions.js';

export const MAX_ATTEMPTS = 3;

export interface RuntimeOptions {
  slots: number;
  /** A running job whose heartbeat is older than this is presumed dead. */
  staleAfterMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  sweepMs?: number;
  /** The + in the runtime limit (3 x expected + grace). */
  runtimeGraceSec?: number;
  /** Services handed to job types (the chemistry pool and others). */
  services: unknown;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

interface Running {
  controller: AbortController;
  promise: Promise<void>;
}

export class JobRuntime {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private readonly running = new Map<string, Running>();
  private stopped = true;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly o: Required<Omit<RuntimeOptions, 'log'>> & Pick<RuntimeOptions, 'log'>;

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly artifacts: JobArtifacts,
    private readonly transitions: TransitionDeps,
    opts: RuntimeOptions,
  ) {
    this.o = { staleAfterMs: 15_000, heartbeatMs: 1_000, pollMs: 1_000, sweepMs: 5_000, runtimeGraceSec: 60, ...opts };
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten = await this.db.listen(JOBS_CHANNEL, () => this.wake?.());
    if (this.o.slots > 0) this.loop = this.fetchLoop();
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.o.log?.error({ err }, 'job sweep failed')), this.o.sweepMs);
    this.sweepTimer.unref();
  }

  /** Stops fetching; running jobs are aborted and return to the queue for another worker. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.wake?.();
    await this.loop;
    for (const r of this.running.values()) r.controller.abort(new JobAborted('shutdown'));
    await Promise.allSettled([...this.running.values()].map((r) => r.promise));
    await this.unlisten?.();
  }

  get busy(): number {
    return this.running.size;
  }

  private async fetchLoop(): Promise<void> {
    while (!this.stopped) {
      const free = this.o.slots - this.running.size;
      let got: QueueMessage[] = [];
      if (free > 0) {
        try {
          got = await this.queue.fetch(free);
        } catch (err) {
          this.o.log?.warn({ err }, 'queue fetch failed');
        }
        for (const m of got) this.launch(m);
      }
      if (got.length === 0 || this.running.size >= this.o.slots) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.o.pollMs);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  private launch(m: QueueMessage): void {
    const controller = new AbortController();
    const promise = this.execute(m, controller)
      .catch((err) => this.o.log?.error({ err, jobId: m.jobId }, 'job execution failed'))
      .finally(() => {
        this.running.delete(m.jobId);
        this.wake?.();
      });
    this.running.set(m.jobId, { controller, promise });
  }

  /** Claims the job for this worker if the message is still its current one. */
  private async claim(m: QueueMessage): Promise<JobRow | null> {
    const { rows } = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'dispatched', worker_id = $3, attempts = attempts + 1, dispatched_at = now(), heartbeat_at = now()
        WHERE id = $1 AND queue_job_id = $2 AND status = 'queued'
        RETURNING *`,
      [m.jobId, m.id, this.workerId],
    );
    return rows[0] ?? null;
  }

  private async execute(m: QueueMessage, controller: AbortController): Promise<void> {
    const claimed = await this.claim(m);
    await this.queue.complete(m.id); // the jobs table carries the state from here on
    if (!claimed) return;
    const attempt = claimed.attempts;
    const { rows } = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'running', started_at = now(), heartbeat_at = now()
        WHERE id = $1 AND worker_id = $2 AND attempts = $3 AND status = 'dispatched' RETURNING *`,
      [claimed.id, this.workerId, attempt],
    );
    const job = rows[0];
    if (!job) return;
    const worker = { id: this.workerId, attempt };
    const type = JOB_TYPES.get(job.job_type);
    if (!type) {
      await this.finish(job.id, { status: 'error', message: `unknown job type ${job.job_type}`, chargeable: false, worker });
      return;
    }

    let progress = job.progress;
    let message = '';
    let lastBeat = Date.now(); // the UPDATE to running above set heartbeat_at
    const limitMs = runtimeLimitSec(job.expected_runtime_sec, this.o.runtimeGraceSec) * 1000;
    const limitTimer = setTimeout(() => controller.abort(new JobAborted('runtime-limit')), limitMs);
    const beat = async () => {
      lastBeat = Date.now();
      const r = await this.db.query<{ status: string }>(
        `UPDATE jobs SET heartbeat_at = now(), progress = $4, message = CASE WHEN $5 = '' THEN message ELSE $5 END
          WHERE id = $1 AND worker_id = $2 AND attempts = $3 RETURNING status`,
        [job.id, this.workerId, attempt, progress, message],
      );
      // Cancelled (or taken away by a sweep): stop working on it.
      if (r.rows[0]?.status !== 'running') controller.abort(new JobAborted('cancelled'));
    };
    const heartbeat = setInterval(() => void beat().catch(() => undefined), this.o.heartbeatMs);

    let outcome: Parameters<JobRuntime['finish']>[1];
    try {
      const output = await this.runType(type, job, controller.signal, (f, msg) => {
        progress = Math.max(0, Math.min(1, f));
        if (msg) message = msg;
        if (Date.now() - lastBeat > this.o.heartbeatMs) void beat().catch(() => undefined);
      });
      if (controller.signal.aborted) throw controller.signal.reason;
      // The result row and the job's end (settlement, event) commit together; an attempt that
      // lost the job meanwhile (cancel, sweep) rolls back and removes only its own file.
      try {
        await this.artifacts.writeResult({
          userId: job.user_id,
          jobId: job.id,
          jobType: job.job_type,
          output,
          finish: (tx, artifactId) => finishJob(tx, this.transitions, job.id, { status: 'completed', message: '', chargeable: true, resultArtifactId: artifactId, worker }),
        });
      } catch (err) {
        this.o.log?.error({ err, jobId: job.id }, 'writing the job result failed');
        outcome = { status: 'error', message: 'the result could not be stored (platform fault; not charged)', chargeable: false, worker };
        return;
      }
      outcome = undefined;
    } catch (err) {
      const reason = err instanceof JobAborted ? err : controller.signal.reason instanceof JobAborted ? (controller.signal.reason as JobAborted) : null;
      if (reason?.reason === 'cancelled') outcome = undefined; // the canceller already ended it
      else if (reason?.reason === 'shutdown') {
        outcome = undefined;
        await this.requeue(job.id, attempt).catch(() => undefined);
      } else if (reason?.reason === 'runtime-limit') {
        outcome = { status: 'error', message: `runtime limit exceeded (${Math.round(limitMs / 1000)} s = 3 x expected + ${this.o.runtimeGraceSec} s)`, chargeable: true, worker };
      } else if (err instanceof JobInputError) {
        outcome = { status: 'error', message: err.message, chargeable: true, worker };
      } else {
        this.o.log?.error({ err, jobId: job.id }, 'job failed');
        outcome = { status: 'error', message: 'the job failed on a platform fault (not charged)', chargeable: false, worker };
      }
    } finally {
      clearTimeout(limitTimer);
      clearInterval(heartbeat);
      if (outcome) await this.finish(job.id, outcome);
    }
  }

  private runType(type: JobType, job: JobRow, signal: AbortSignal, progress: (f: number, msg?: string) => void) {
    return type.run({
      jobId: job.id,
      userId: job.user_id,
      payload: job.payload,
      resource: RESOURCES[job.resource] ?? RESOURCES.default,
      signal,
      progress,
      readMolecules: (artifactId, port) => this.artifacts.readMolecules(job.user_id, artifactId, port),
      services: this.o.services,
    });
  }

  private async finish(jobId: string, f: Parameters<typeof finishJob>[3] | undefined): Promise<JobRow | null> {
    if (!f) return null;
    return this.db.transaction((tx) => finishJob(tx, this.transitions, jobId, f));
  }

  /** Returns this worker's claim to the queue (shutdown), keeping the attempt count. */
  private async requeue(jobId: string, attempt: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<JobRow>(
        `UPDATE jobs SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, attempts = attempts - 1
          WHERE id = $1 AND worker_id = $2 AND attempts = $3 AND status IN ('dispatched', 'running') RETURNING *`,
        [jobId, this.workerId, attempt],
      );
      if (rows[0]) await tx.query('UPDATE jobs SET queue_job_id = $2 WHERE id = $1', [jobId, await this.queue.send(tx, jobId)]);
    });
  }

  /**
   * Jobs whose worker stopped heart-beating go back to `queued` with a new queue message, or
   * end `error` (not charged) after MAX_ATTEMPTS. Safe to run from every process at once.
   */
  async sweep(): Promise<{ requeued: number; failed: number }> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM jobs WHERE status IN ('dispatched', 'running') AND heartbeat_at < now() - make_interval(secs => $1) LIMIT 100`,
      [this.o.staleAfterMs / 1000],
    );
    let requeued = 0;
    let failed = 0;
    for (const { id } of rows) {
      await this.db.transaction(async (tx) => {
        const { rows: locked } = await tx.query<JobRow>(
          `SELECT * FROM jobs WHERE id = $1 AND status IN ('dispatched', 'running') AND heartbeat_at < now() - make_interval(secs => $2) FOR UPDATE SKIP LOCKED`,
          [id, this.o.staleAfterMs / 1000],
        );
        const job = locked[0];
        if (!job) return;
        if (job.attempts >= MAX_ATTEMPTS) {
          await finishJob(tx, this.transitions, job.id, { status: 'error', message: `its worker was lost ${job.attempts} times (platform fault; not charged)`, chargeable: false });
          failed++;
          return;
        }
        await tx.query(`UPDATE jobs SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, message = 'requeued: its worker stopped responding' WHERE id = $1`, [job.id]);
        await tx.query('UPDATE jobs SET queue_job_id = $2 WHERE id = $1', [job.id, await this.queue.send(tx, job.id)]);
        requeued++;
      });
    }
    requeued += await this.resendLostMessages();
    return { requeued, failed };
  }

  /** Queued jobs whose queue message can no longer be delivered (a worker fetched it and died before claiming) get a new one. */
  private async resendLostMessages(): Promise<number> {
    const { rows } = await this.db.query<{ id: string; queue_job_id: string | null }>(
      `SELECT id, queue_job_id FROM jobs WHERE status = 'queued' AND created_at < now() - interval '90 seconds' ORDER BY created_at LIMIT 100`,
    );
    let n = 0;
    for (const j of rows) {
      if (j.queue_job_id && (await this.queue.pending(j.queue_job_id))) continue;
      await this.db.transaction(async (tx) => {
        const { rows: still } = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND status = 'queued' AND queue_job_id IS NOT DISTINCT FROM $2 FOR UPDATE SKIP LOCKED`, [j.id, j.queue_job_id]);
        if (!still[0]) return;
        await tx.query('UPDATE jobs SET queue_job_id = $2 WHERE id = $1', [j.id, await this.queue.send(tx, j.id)]);
        n++;
      });
    }
    return n;
  }
}
