// The job queue: pg-boss 10 on the same database as everything else. A queue message
// carries only the job id; the jobs table is the truth. Submit enqueues inside its own
// transaction (`send(..., { db: tx })`), so a job row never exists without its message.
import PgBoss from 'pg-boss';
import type { Database, Queryable } from '../db/database.js';

export const JOB_QUEUE = 'crucible-jobs';
/** NOTIFY channel that wakes idle workers when a job is enqueued. */
export const JOBS_CHANNEL = 'crucible_jobs';

const MESSAGE_EXPIRY_SEC = 60;

export interface QueueMessage {
  id: string; // pg-boss job id
  jobId: string;
  /** The lane it came from (src/compute/lanes.ts). */
  lane: string;
}

/** The pg-boss queue of a lane ('' is the default queue). */
export function queueOf(lane: string): string {
  return lane ? `${JOB_QUEUE}-${lane}` : JOB_QUEUE;
}

function adapter(q: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      if (!values || values.length === 0) {
        try {
          return await q.query(text);
        } catch (err) {
          // pg-boss sends multi-statement scripts (schema install) without parameters;
          // PGlite runs those only through exec.
          if ((err as { code?: string }).code !== '42601') throw err;
          await q.exec(text);
          return { rows: [] };
        }
      }
      return q.query(text, values);
    },
  };
}

export class JobQueue {
  private readonly boss: PgBoss;

  constructor(
    db: Database,
    databaseUrl: string | null,
    private readonly lanes: readonly string[] = [''],
  ) {
    const common = { schema: 'pgboss', schedule: false, supervise: true, migrate: true } as const;
    // On PostgreSQL pg-boss keeps a small pool of its own; on PGlite it shares the one connection.
    this.boss = databaseUrl ? new PgBoss({ ...common, connectionString: databaseUrl, max: 4 }) : new PgBoss({ ...common, db: adapter(db) });
    this.boss.on('error', () => {
      /* maintenance errors are retried by pg-boss; job state lives in our tables */
    });
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const lane of this.lanes) await this.ensureQueue(queueOf(lane));
  }

  /**
   * Creates the queue unless it exists. pg-boss's create_queue is not safe against a second
   * process creating the same queue at the same moment (it deadlocks or hits a unique key on
   * PostgreSQL), so a failed attempt is followed by a fresh look before trying again.
   */
  private async ensureQueue(name: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(name)) return;
      try {
        await this.boss.createQueue(name, { name, policy: 'standard', retryLimit: 0 });
        return;
      } catch (err) {
        const code = (err as { code?: string }).code;
        const raced = code === '40P01' || code === '23505' || code === '42P07';
        if (!raced || attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }

  /**
   * Enqueues inside the caller's transaction; returns the message id. A message is completed
   * as soon as a worker claims its job, so it only needs to outlive the fetch-to-claim moment;
   * one a worker fetched and then died with expires and is re-sent by the sweep.
   */
  async send(tx: Queryable, jobId: string, lane = ''): Promise<string> {
    const id = await this.boss.send(queueOf(lane), { jobId }, { db: adapter(tx), retryLimit: 0, expireInSeconds: MESSAGE_EXPIRY_SEC });
    if (!id) throw new Error('the queue refused the job');
    await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, jobId]);
    return id;
  }

  /** Up to `max` messages from `lanes`, the first lane first (the runtime rotates them). */
  async fetch(max: number, lanes: readonly string[] = ['']): Promise<QueueMessage[]> {
    const out: QueueMessage[] = [];
    for (const lane of lanes) {
      if (out.length >= max) break;
      const jobs = await this.boss.fetch<{ jobId: string }>(queueOf(lane), { batchSize: max - out.length });
      for (const j of jobs ?? []) out.push({ id: j.id, jobId: j.data.jobId, lane });
    }
    return out;
  }

  /** Whether a message can still be delivered (waiting, or fetched and not yet expired). */
  async pending(messageId: string, lane = ''): Promise<boolean> {
    const job = await this.boss.getJobById(queueOf(lane), messageId);
    return job !== null && (job.state === 'created' || job.state === 'retry' || job.state === 'active');
  }

  async complete(messageId: string, lane = ''): Promise<void> {
    await this.boss.complete(queueOf(lane), messageId).catch(() => undefined);
  }
}
