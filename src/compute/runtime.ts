// The worker runtime: claims queued jobs, runs them with heartbeats, cancel checks and the
// runtime limit, writes the result file and then, in one transaction, the result artifact row
// and the job's end through finishJob (docs/jobs.md). Runs inside
// `crucible serve` (CRUCIBLE_WORKERS slots) and in `crucible worker` processes; any number
// of them share one database. Its sweep (run by the scheduler) returns the jobs of dead
// workers to the queue.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/database.js';
import type { Scheduler } from '../scheduler.js';
import { discoverEngines, type Engines } from '../engines/discovery.js';
import { sweepScratch } from '../engines/scratch.js';
import { JobAborted, JobInputError, runtimeLimitSec, type JobDeps, type JobType } from './job-type.js';
import { allLanes, DEFAULT_LANE, lanesFor } from './lanes.js';
import type { ComputePorts } from './ports.js';
import { JOBS_CHANNEL, type JobQueue, type QueueMessage } from './queue.js';
import { RUNNABLE_TYPES } from './registry.js';
import { RESOURCES } from './resources.js';
import { jobsStore, type JobRow } from './store.js';
import { CANCEL_CHANNEL, finishJob, type Finish } from './transitions.js';
import { workersStore } from './workers-store.js';

export const MAX_ATTEMPTS = 3;

export interface RuntimeOptions {
  slots: number;
  /** A running job whose heartbeat is older than this is presumed dead. */
  staleAfterMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  /** How often the sweep runs on the scheduler (default 5 s). */
  sweepMs?: number;
  /** Runs the sweep periodically while the runtime is started (without one, call sweep() yourself). */
  scheduler?: Scheduler;
  /** The + in the runtime limit (3 x expected + grace). */
  runtimeGraceSec?: number;
  /** What job types may use (the chemistry pool). */
  deps: JobDeps;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

interface Running {
  jobId: string;
  controller: AbortController;
  promise: Promise<void>;
}

export class JobRuntime {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  /**
   * The attempts this worker runs, by their queue message: a job swept from this worker (its
   * heartbeat late) and claimed by it again runs twice here until the stale attempt notices, and
   * each attempt must stay reachable for cancel and stop (keyed by job id, the second hid the first,
   * which then ran on past stop, and the first's end freed the second's slot).
   */
  private readonly running = new Map<QueueMessage, Running>();
  /**
   * Attempts still computing (not yet storing their result): a slot is one of these. An
   * attempt that has computed its output frees its slot while its result is stored and its end
   * commits (file, fsync, transaction: waits on I/O, not on a core), so the next job starts
   * meanwhile; at most `slots` more attempts may be storing at once (docs/jobs.md).
   */
  private computing = 0;
  private stopped = true;
  private wake: (() => void) | null = null;
  /** Set by poke(): something may be fetchable (a NOTIFY, a freed slot) since the fetch loop last looked. */
  private poked = false;
  /**
   * The lanes that may hold messages: a submit's NOTIFY names its lane, a fetch that filled its
   * request leaves its lane here, and each poll interval marks every lane (re-sent messages, a
   * missed NOTIFY). The fetch loop asks pg-boss only about these: asking every lane at each
   * wake-up was 8 fetches per job in bench:jobs, most of them empty (docs/jobs.md, "Fetching").
   */
  private readonly pending = new Set<string>();
  /** Every lane a job can be in: a NOTIFY payload that is none of them comes from an instance that sends the job id. */
  private knownLanes: Set<string> | null = null;
  private loop: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private unlistenCancel: (() => Promise<void>) | null = null;
  /** What this process found at start (docs/engines.md), and the lanes it therefore serves. */
  private engines: Engines | null = null;
  private lanes: string[] = [DEFAULT_LANE];
  private nextLane = 0;
  private readonly o: Required<Omit<RuntimeOptions, 'log' | 'scheduler'>> & Pick<RuntimeOptions, 'log' | 'scheduler'>;

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly ports: ComputePorts,
    opts: RuntimeOptions,
  ) {
    this.o = { staleAfterMs: 15_000, heartbeatMs: 1_000, pollMs: 1_000, sweepMs: 5_000, runtimeGraceSec: 60, ...opts };
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.o.slots > 0) {
      // Engines are looked for once, at start; a worker then claims only what it can run.
      this.engines = await discoverEngines();
      this.lanes = lanesFor(this.engines);
      sweepScratch();
      await workersStore.register(this.db, { workerId: this.workerId, hostname: os.hostname(), pid: process.pid, slots: this.o.slots, engines: this.engines });
    }
    this.markEveryLane();
    this.unlisten = await this.db.listen(JOBS_CHANNEL, (lane) => this.announced(lane));
    // A cancelled job this worker runs stops now, not at its next heartbeat.
    if (this.o.slots > 0)
      this.unlistenCancel = await this.db.listen(CANCEL_CHANNEL, (jobId) => this.attemptsOf(jobId).forEach((r) => r.controller.abort(new JobAborted('cancelled'))));
    if (this.o.slots > 0) this.loop = this.fetchLoop();
    this.o.scheduler?.add({ name: this.sweepTaskName, everyMs: this.o.sweepMs, run: () => this.sweep() });
  }

  private get sweepTaskName(): string {
    return `job-sweep:${this.workerId}`;
  }

  /** A NOTIFY of the jobs channel: its payload is the lane of a new message (one this worker does not serve: ignored; no lane at all: look at every lane). */
  private announced(lane: string): void {
    if (this.lanes.includes(lane)) this.pending.add(lane);
    else if ((this.knownLanes ??= new Set(allLanes())).has(lane))
      return; // a lane of engines this worker lacks
    else this.markEveryLane();
    this.poke();
  }

  private markEveryLane(): void {
    for (const lane of this.lanes) this.pending.add(lane);
  }

  /** Wakes the fetch loop, or (when it is fetching) makes it look again before it waits. */
  private poke(): void {
    this.poked = true;
    this.wake?.();
  }

  /** Stops fetching; running jobs are aborted and return to the queue for another worker. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.o.scheduler?.remove(this.sweepTaskName);
    // poke, not just wake: a loop that is fetching now would otherwise go on to wait a whole poll interval.
    this.poke();
    await this.loop;
    for (const r of this.running.values()) r.controller.abort(new JobAborted('shutdown'));
    await Promise.allSettled([...this.running.values()].map((r) => r.promise));
    await this.unlisten?.();
    await this.unlistenCancel?.();
    if (this.o.slots > 0) await workersStore.remove(this.db, this.workerId).catch(() => undefined);
  }

  /** What this worker found at start (null before start and for a runtime without slots). */
  get foundEngines(): Engines | null {
    return this.engines;
  }

  get busy(): number {
    return this.running.size;
  }

  private async fetchLoop(): Promise<void> {
    let lookedEverywhere = Date.now();
    while (!this.stopped) {
      this.poked = false;
      // Every poll interval, busy or not, every lane is looked at once.
      if (Date.now() - lookedEverywhere >= this.o.pollMs) {
        lookedEverywhere = Date.now();
        this.markEveryLane();
      }
      const free = Math.min(this.o.slots - this.computing, 2 * this.o.slots - this.running.size);
      let got = 0;
      if (free > 0) {
        try {
          // The lanes in turn, each fetch starting from the next one, so that no lane waits behind another.
          const start = this.nextLane++ % this.lanes.length;
          got = await this.claim(free, [...this.lanes.slice(start), ...this.lanes.slice(0, start)]);
        } catch (err) {
          this.o.log?.warn({ err }, 'queue fetch failed');
          this.markEveryLane(); // the failed lane was taken off
        }
      }
      // A wake-up that came while this turn was fetching (its NOTIFY raced the fetch) is not lost: look again at once.
      if ((got === 0 || this.computing >= this.o.slots || this.running.size >= 2 * this.o.slots) && !this.poked) {
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

  /**
   * Fetches up to `max` messages from those of `lanes` that may hold some (`pending`; the first
   * lane first) and claims their jobs, one statement per lane (jobsStore.claimFetched), and
   * starts each claimed job; returns how many
   * messages it fetched. Every fetched message is completed, batched (JobQueue.completeLater):
   * its job was claimed here or had moved on (cancelled, re-sent).
   */
  private async claim(max: number, lanes: readonly string[]): Promise<number> {
    let fetched = 0;
    for (const lane of lanes) {
      if (fetched >= max) break;
      if (!this.pending.has(lane)) continue;
      // Taken off before the fetch: a NOTIFY that arrives during it puts the lane back.
      this.pending.delete(lane);
      const asked = max - fetched;
      const rows = await jobsStore.claimFetched(this.db, await this.queue.fetchStatement(asked, lane), this.workerId);
      if (rows.length >= asked) this.pending.add(lane); // full: there may be more
      fetched += rows.length;
      for (const r of rows) {
        this.queue.completeLater(r.messageId, lane);
        if (r.job) this.launch({ id: r.messageId, jobId: r.jobId, lane }, r.job);
      }
    }
    return fetched;
  }

  private launch(m: QueueMessage, job: JobRow): void {
    const controller = new AbortController();
    this.computing++;
    let computed = false;
    const freeSlot = () => {
      if (computed) return;
      computed = true;
      this.computing--;
      this.poke();
    };
    const promise = this.execute(job, controller, freeSlot)
      .catch((err: unknown) => this.o.log?.error({ err, jobId: m.jobId }, 'job execution failed'))
      .finally(() => {
        this.running.delete(m);
        freeSlot();
        this.poke();
      });
    this.running.set(m, { jobId: m.jobId, controller, promise });
  }

  private attemptsOf(jobId: string): Running[] {
    return [...this.running.values()].filter((r) => r.jobId === jobId);
  }

  /** Runs a job this worker has claimed (status running, `attempts` this attempt's number); `computed()` frees its slot once its output is computed. */
  private async execute(job: JobRow, controller: AbortController, computed: () => void): Promise<void> {
    const attempt = job.attempts;
    const worker = { id: this.workerId, attempt };
    const type = RUNNABLE_TYPES.get(job.job_type);
    if (!type) {
      await this.finish(job, { status: 'error', message: `unknown job type ${job.job_type}`, chargeable: false, worker });
      return;
    }

    let progress = job.progress;
    let message = '';
    let detail: Record<string, unknown> | null = null;
    let lastBeat = Date.now(); // the claim set heartbeat_at
    const limitMs = runtimeLimitSec(job.expected_runtime_sec, this.o.runtimeGraceSec) * 1000;
    const limitTimer = setTimeout(() => controller.abort(new JobAborted('runtime-limit')), limitMs);
    const beat = async () => {
      lastBeat = Date.now();
      const status = await jobsStore.heartbeat(this.db, job.id, this.workerId, attempt, { fraction: progress, message, detail });
      // Cancelled (or taken away by a sweep): stop working on it.
      if (status !== 'running') controller.abort(new JobAborted('cancelled'));
    };
    const heartbeat = setInterval(() => void beat().catch(() => undefined), this.o.heartbeatMs);
    let flush: NodeJS.Timeout | null = null;

    let outcome: Finish | undefined;
    try {
      const output = await this.runType(type, job, controller.signal, (f, msg, d, milestone) => {
        progress = Math.max(0, Math.min(1, f));
        if (msg) message = msg;
        if (d) detail = d;
        const since = Date.now() - lastBeat;
        if (since > this.o.heartbeatMs) void beat().catch(() => undefined);
        // A milestone (a training epoch ended) is written within a quarter second, other progress with the heartbeat.
        else if (milestone && !flush) flush = setTimeout(() => ((flush = null), void beat().catch(() => undefined)), Math.max(0, 250 - since));
      });
      if (controller.signal.aborted) throw controller.signal.reason;
      if (flush) {
        // The last milestone is written before the job ends.
        clearTimeout(flush);
        flush = null;
        await beat().catch(() => undefined);
      }
      computed();
      // The result row and the job's end (settlement, event) commit together; an attempt that
      // lost the job meanwhile (cancel, sweep) rolls back and removes only its own file.
      try {
        await this.ports.artifacts.writeResult({
          userId: job.user_id,
          jobId: job.id,
          jobType: job.job_type,
          output,
          finish: async (tx, artifactId) => {
            const done = await finishJob(tx, this.ports, job.id, { status: 'completed', message: '', chargeable: true, resultArtifactId: artifactId, worker }, job.workflow_run_id);
            if (done && output.inFinish) await output.inFinish(tx, artifactId);
            return done;
          },
        });
      } catch (err) {
        if (err instanceof JobInputError) {
          outcome = { status: 'error', message: err.message, chargeable: true, worker };
          return;
        }
        this.o.log?.error({ err, jobId: job.id }, 'writing the job result failed');
        outcome = { status: 'error', message: 'the result could not be stored (platform fault; not charged)', chargeable: false, worker };
        return;
      }
      outcome = undefined;
    } catch (err) {
      const reason = err instanceof JobAborted ? err : controller.signal.reason instanceof JobAborted ? controller.signal.reason : null;
      if (reason?.reason === 'cancelled')
        outcome = undefined; // the canceller already ended it
      else if (reason?.reason === 'shutdown') {
        outcome = undefined;
        await this.requeue(job.id, attempt, job.lane).catch(() => undefined);
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
      if (flush) clearTimeout(flush);
      if (outcome) await this.finish(job, outcome);
    }
  }

  private runType(type: JobType, job: JobRow, signal: AbortSignal, progress: (f: number, msg?: string, detail?: Record<string, unknown>, milestone?: boolean) => void) {
    return type.run({
      jobId: job.id,
      userId: job.user_id,
      payload: job.payload,
      resource: (Object.hasOwn(RESOURCES, job.resource) && RESOURCES[job.resource]) || RESOURCES.default,
      signal,
      progress,
      readMolecules: (artifactId, port) => this.ports.artifacts.readMolecules(job.user_id, artifactId, port),
      readFile: (artifactId, maxBytes) => {
        if (!this.ports.artifacts.readFile) throw new Error('this instance cannot read uploaded files');
        return this.ports.artifacts.readFile(job.user_id, artifactId, maxBytes);
      },
      readResult: (artifactId) => this.ports.artifacts.readResult(job.user_id, artifactId),
      deps: { ...this.o.deps, engines: this.engines ?? undefined },
    });
  }

  private async finish(job: JobRow, f: Finish): Promise<JobRow | null> {
    return this.db.transaction((tx) => finishJob(tx, this.ports, job.id, f, job.workflow_run_id));
  }

  /** Returns this worker's claim to the queue (shutdown), keeping the attempt count. */
  private async requeue(jobId: string, attempt: number, lane: string): Promise<void> {
    await this.db.transaction((tx) => jobsStore.requeueOwn(tx, jobId, this.workerId, attempt, () => this.queue.send(tx, jobId, lane)));
  }

  /**
   * Jobs whose worker stopped heart-beating go back to `queued` with a new queue message, or
   * end `error` (not charged) after MAX_ATTEMPTS. Safe to run from every process at once.
   */
  async sweep(): Promise<{ requeued: number; failed: number }> {
    const staleSec = this.o.staleAfterMs / 1000;
    let requeued = 0;
    let failed = 0;
    for (const id of await jobsStore.staleIds(this.db, staleSec)) {
      await this.db.transaction(async (tx) => {
        await this.ports.workflows?.lockRunOf(tx, id); // the lock order of every writer: run, job, wallet
        const job = await jobsStore.lockStale(tx, id, staleSec);
        if (!job) return;
        if (job.attempts >= MAX_ATTEMPTS) {
          await finishJob(tx, this.ports, job.id, { status: 'error', message: `its worker was lost ${job.attempts} times (platform fault; not charged)`, chargeable: false });
          failed++;
          return;
        }
        await jobsStore.requeueLost(tx, job.id, await this.queue.send(tx, job.id, job.lane));
        requeued++;
      });
    }
    requeued += await this.resendLostMessages();
    if (this.o.slots > 0 && !this.stopped) await workersStore.touch(this.db, this.workerId);
    await workersStore.removeOld(this.db);
    return { requeued, failed };
  }

  /** Queued jobs whose queue message can no longer be delivered (a worker fetched it and died before claiming) get a new one. */
  private async resendLostMessages(): Promise<number> {
    let n = 0;
    for (const j of await jobsStore.longQueued(this.db)) {
      if (j.queue_job_id && (await this.queue.pending(j.queue_job_id, j.lane))) continue;
      if (await this.db.transaction((tx) => jobsStore.resend(tx, j.id, j.queue_job_id, () => this.queue.send(tx, j.id, j.lane)))) n++;
    }
    return n;
  }
}
