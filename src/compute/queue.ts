// The job queue: pg-boss 10 on the same database as everything else. A queue message
// carries only the job id; the jobs table is the truth. Submit enqueues inside its own
// transaction, so a job row never exists without its message.
//
// Round trips: pg-boss's own statements (its insert, its fetch) are captured rather than run
// (`statement()`: pg-boss is given a `db` that records the SQL) and run as a CTE of one of
// ours: the message insert, the job row and the NOTIFY are one statement; the fetch of a
// worker's messages and the claim of their jobs are one statement (store.ts). Messages are
// completed after the claim, in batches (completeLater): the jobs table carries the state from
// the claim on, and a message left active by a crash only expires (docs/jobs.md).
import crypto from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Database, Queryable } from '../db/database.js';

export const JOB_QUEUE = 'crucible-jobs';
/** NOTIFY channel that wakes idle workers when a job is enqueued; the payload is the job's lane. */
export const JOBS_CHANNEL = 'crucible_jobs';

const MESSAGE_EXPIRY_SEC = 60;
/** Claimed messages are completed at most this long after their claim (one statement per lane). */
const COMPLETE_BATCH_MS = 100;

/** A statement pg-boss would run, captured to run inside one of ours (as a CTE). */
export interface QueueStatement {
  text: string;
  values: unknown[];
}

/** A pg-boss `db` that records the one statement pg-boss runs instead of running it. */
function capture(rows: unknown[]): { db: PgBoss.Db; statement(): QueueStatement } {
  let captured: QueueStatement | null = null;
  return {
    db: {
      executeSql(text: string, values: unknown[]) {
        if (captured) throw new Error('pg-boss ran a second statement where one was expected');
        captured = { text, values: values.map((v) => (v === undefined ? null : v)) };
        return Promise.resolve({ rows });
      },
    },
    statement() {
      if (!captured) throw new Error('pg-boss ran no statement');
      return captured;
    },
  };
}

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
    await this.flushCompletes();
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }

  /**
   * pg-boss's insert of the message announcing `jobId` (its id chosen here), not yet run: the
   * caller runs it as a CTE of the statement that writes the job row (jobsStore.insertQueued),
   * in the submit's transaction. A message is completed soon after a worker claims its job, so
   * it only needs to outlive the fetch-to-claim moment; one a worker fetched and then died with
   * expires and is re-sent by the sweep.
   */
  async sendStatement(jobId: string, lane = ''): Promise<{ messageId: string; statement: QueueStatement }> {
    const messageId = crypto.randomUUID();
    const c = capture([{ id: messageId }]);
    const id = await this.boss.send(queueOf(lane), { jobId }, { db: c.db, id: messageId, retryLimit: 0, expireInSeconds: MESSAGE_EXPIRY_SEC });
    if (id !== messageId) throw new Error('the queue refused the job');
    return { messageId, statement: c.statement() };
  }

  /** Enqueues inside the caller's transaction (one statement: the message and the NOTIFY naming its lane); returns the message id. */
  async send(tx: Queryable, jobId: string, lane = ''): Promise<string> {
    const { messageId, statement } = await this.sendStatement(jobId, lane);
    const n = statement.values.length;
    const { rows } = await tx.query<{ id: string }>(`WITH m AS (${statement.text}) SELECT m.id, pg_notify($${n + 1}, $${n + 2}) FROM m`, [...statement.values, JOBS_CHANNEL, lane]);
    if (rows[0]?.id !== messageId) throw new Error('the queue refused the job');
    return messageId;
  }

  /**
   * pg-boss's fetch of up to `max` messages of a lane, not yet run: the runtime runs it as a CTE
   * of the statement that claims their jobs (jobsStore.claimFetched). Its rows carry `id` (the
   * message id) and `data` ({ jobId }).
   */
  async fetchStatement(max: number, lane = ''): Promise<QueueStatement> {
    const c = capture([]);
    await this.boss.fetch(queueOf(lane), { batchSize: max, db: c.db });
    return c.statement();
  }

  /** Whether a message can still be delivered (waiting, or fetched and not yet expired). */
  async pending(messageId: string, lane = ''): Promise<boolean> {
    const job = await this.boss.getJobById(queueOf(lane), messageId);
    return job !== null && (job.state === 'created' || job.state === 'retry' || job.state === 'active');
  }

  async complete(messageId: string, lane = ''): Promise<void> {
    await this.boss.complete(queueOf(lane), messageId).catch(() => undefined);
  }

  private readonly toComplete = new Map<string, string[]>();
  private completeTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  /**
   * Completes a fetched message soon, batched with the others of its lane (one statement per
   * lane every COMPLETE_BATCH_MS). Its job was claimed (or found no longer queued) in the
   * statement that fetched it: the jobs table carries the state from there on, so a message a
   * crash leaves active only expires (pg-boss marks it failed; nothing reads it again).
   */
  completeLater(messageId: string, lane = ''): void {
    const ids = this.toComplete.get(lane);
    if (ids) ids.push(messageId);
    else this.toComplete.set(lane, [messageId]);
    this.completeTimer ??= setTimeout(() => void this.flushCompletes(), COMPLETE_BATCH_MS).unref();
  }

  /** Completes every message completeLater holds (at stop; and on its timer). */
  flushCompletes(): Promise<void> {
    if (this.completeTimer) clearTimeout(this.completeTimer);
    this.completeTimer = null;
    const batches = [...this.toComplete];
    this.toComplete.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [lane, ids] of batches) await this.boss.complete(queueOf(lane), ids).catch(() => undefined);
    });
    return this.flushing;
  }
}
