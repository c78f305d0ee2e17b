// SQL of the event feed. See 004_events.sql and docs/events.md for why the feed is gap-free.
import { firstRow, type Queryable, type StatementTail } from '../../db/database.js';

export const EVENTS_CHANNEL = 'crucible_events';

export type EventKind = 'job' | 'workflow_run';

export interface EventRow {
  event_id: number;
  kind: EventKind;
  subject_id: string;
  status: string;
  workflow_run_id: string | null;
  occurred_at: Date;
}

export interface Page {
  /** Highest committed event id of the account when the page was read (0: none yet). */
  head: number;
  /** Every event id <= this was removed by retention. */
  purgedThrough: number;
  rows: EventRow[];
}

/** The payload of the NOTIFY sent with each event: enough to filter wake-ups without a query. */
export interface EventNotice {
  u: string;
  i: number;
  k: EventKind;
  s: string;
}

// One statement: bump (and thereby row-lock until commit) the account's counter, insert the
// event under the new id, and queue a NOTIFY that PostgreSQL delivers only on commit.
// clock_timestamp() is taken after the lock is granted, so occurred_at grows with event_id.
// `p(i)` numbers the parameters (user, kind, subject, status, run); `gate`: a subquery the
// counter's bump waits for (another statement's work written before it, StatementTail).
function appendSql(p: (i: number) => string, gate: string | null): { ctes: string; select: string } {
  return {
    ctes: `c AS (
  INSERT INTO event_counters AS c (user_id, last_id) ${gate === null ? `VALUES (${p(1)}::uuid, 1)` : `SELECT ${p(1)}::uuid, 1 FROM ${gate} AS gate`}
  ON CONFLICT (user_id) DO UPDATE SET last_id = c.last_id + 1
  RETURNING c.last_id
), ins AS (
  INSERT INTO events (user_id, event_id, kind, subject_id, status, workflow_run_id, occurred_at)
  SELECT ${p(1)}::uuid, c.last_id, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text, ${p(5)}::text, clock_timestamp() FROM c
  RETURNING event_id
)`,
    select: `SELECT event_id, pg_notify('${EVENTS_CHANNEL}', json_build_object('u', ${p(1)}::text, 'i', event_id, 'k', ${p(2)}::text, 's', ${p(3)}::text)::text) AS notified
  FROM ins`,
  };
}

const APPEND = appendSql((i) => `$${i}`, null);
const APPEND_SQL = `WITH ${APPEND.ctes}
${APPEND.select}`;

// The purge deletes the oldest events first, a batch at a time, and raises each account's
// purged_through watermark in the same statement (cursors below it are expired).
const PURGE_SQL = `
WITH old AS (
  SELECT user_id, event_id FROM events
   WHERE occurred_at < now() - ($1::float8 * interval '1 day')
   ORDER BY occurred_at
   LIMIT $2
), d AS (
  DELETE FROM events e USING old
   WHERE e.user_id = old.user_id AND e.event_id = old.event_id
  RETURNING e.user_id, e.event_id
), u AS (
  UPDATE event_counters c SET purged_through = greatest(c.purged_through, m.max_id)
    FROM (SELECT user_id, max(event_id) AS max_id FROM d GROUP BY user_id) m
   WHERE c.user_id = m.user_id
  RETURNING 1
)
SELECT (SELECT count(*) FROM d)::int AS n, (SELECT count(*) FROM u)::int AS accounts`;

export const eventsStore = {
  async append(tx: Queryable, e: { userId: string; kind: EventKind; subjectId: string; status: string; workflowRunId: string | null }): Promise<number> {
    const { rows } = await tx.query<{ event_id: number | string }>(APPEND_SQL, [e.userId, e.kind, e.subjectId, e.status, e.workflowRunId]);
    return Number(firstRow(rows, 'the event append').event_id);
  },

  /** append as the tail of another statement (the wallet's move, which locks the wallet first). */
  appendTail(e: { userId: string; kind: EventKind; subjectId: string; status: string; workflowRunId: string | null }): StatementTail {
    return (first, gate) => ({ ...appendSql((i) => `$${first + i - 1}`, gate), params: [e.userId, e.kind, e.subjectId, e.status, e.workflowRunId] });
  },

  /**
   * One page after position `after`, read in a single statement (one snapshot): the account's
   * head and watermark, and up to `limit` matching events with after < id <= head.
   */
  async page(db: Queryable, userId: string, after: number, limit: number, filter: { kind?: EventKind; subjectId?: string }): Promise<Page> {
    const params: unknown[] = [userId, after, limit];
    let where = '';
    if (filter.kind) {
      params.push(filter.kind);
      where += ` AND kind = $${params.length}`;
    }
    if (filter.subjectId !== undefined) {
      params.push(filter.subjectId);
      where += ` AND subject_id = $${params.length}`;
    }
    const { rows } = await db.query<{
      last_id: number | string;
      purged_through: number | string;
      event_id: number | string | null;
      kind: EventKind;
      subject_id: string;
      status: string;
      workflow_run_id: string | null;
      occurred_at: Date;
    }>(
      `SELECT h.last_id, h.purged_through, e.event_id, e.kind, e.subject_id, e.status, e.workflow_run_id, e.occurred_at
         FROM (SELECT last_id, purged_through FROM event_counters WHERE user_id = $1) h
         LEFT JOIN LATERAL (
           SELECT event_id, kind, subject_id, status, workflow_run_id, occurred_at
             FROM events
            WHERE user_id = $1 AND event_id > greatest($2, h.purged_through) AND event_id <= h.last_id${where}
            ORDER BY event_id
            LIMIT $3
         ) e ON true
        ORDER BY e.event_id`,
      params,
    );
    const [counter] = rows;
    if (!counter) return { head: 0, purgedThrough: 0, rows: [] };
    const head = Number(counter.last_id);
    const purgedThrough = Number(counter.purged_through);
    const events: EventRow[] = [];
    for (const r of rows) {
      if (r.event_id === null) continue;
      events.push({
        event_id: Number(r.event_id),
        kind: r.kind,
        subject_id: r.subject_id,
        status: r.status,
        workflow_run_id: r.workflow_run_id,
        occurred_at: r.occurred_at instanceof Date ? r.occurred_at : new Date(r.occurred_at),
      });
    }
    return { head, purgedThrough, rows: events };
  },

  /** Heads of several accounts (the safety-net poll of waiting long polls). */
  async heads(db: Queryable, userIds: string[]): Promise<Map<string, number>> {
    const { rows } = await db.query<{ user_id: string; last_id: number | string }>('SELECT user_id, last_id FROM event_counters WHERE user_id = ANY($1::uuid[])', [userIds]);
    return new Map(rows.map((r) => [r.user_id, Number(r.last_id)]));
  },

  async purgeBatch(tx: Queryable, days: number, batch: number): Promise<number> {
    const { rows } = await tx.query<{ n: number }>(PURGE_SQL, [days, batch]);
    return Number(firstRow(rows, 'the event purge').n);
  },
};
