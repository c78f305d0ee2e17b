// The monthly allowance's counters (table usage_months, migration 011): this file is their one
// writer. Months are calendar months in UTC, named by their first day. Also the month's paid
// work by subject, read from the ledger (written by src/modules/wallet/store.ts).
import type { Queryable } from '../../db/database.js';
import { LEDGER_SUBJECT_SQL as SUBJECT } from '../wallet/store.js';

export type CallKind = 'utilities' | 'inference';

export interface MonthCounts {
  utilities: number;
  inference: number;
}

/** The column of a kind (a fixed identifier, never user input). */
const COLUMN: Record<CallKind, string> = { utilities: 'utilities', inference: 'inference' };

/** Work started since a date and the micro-dollars charged for it since then. */
export interface SubjectActivity {
  count: number;
  charged_micros: number;
}

export interface MonthActivity {
  jobs: SubjectActivity;
  workflow_runs: SubjectActivity;
  assistant_turns: SubjectActivity;
}

export const usageStore = {
  /**
   * Adds `units` calls of `kind` to the account's row of the month `month` (YYYY-MM-01) if the
   * month's total stays within `allowance` (null: unlimited); the new counts, or null when the
   * calls would pass it (nothing is added). One statement: the upsert's row lock serialises
   * concurrent calls of one account, on any instance.
   */
  async add(q: Queryable, userId: string, month: string, kind: CallKind, units: number, allowance: number | null): Promise<MonthCounts | null> {
    const col = COLUMN[kind];
    // The month's row exists after its first call: a plain UPDATE (a third cheaper than the
    // upsert on PGlite, where every statement runs on the main thread). No row back means no
    // row yet or not within the allowance: the upsert then decides (and creates the row).
    const existing = await q.query<MonthCounts>(
      `UPDATE usage_months AS u SET ${col} = u.${col} + $3::int
         WHERE u.user_id = $1::uuid AND u.month = $2::date AND ($4::int8 IS NULL OR u.utilities::int8 + u.inference + $3::int8 <= $4::int8)
       RETURNING utilities, inference`,
      [userId, month, units, allowance],
    );
    if (existing.rows[0]) return existing.rows[0];
    const { rows } = await q.query<MonthCounts>(
      `INSERT INTO usage_months AS u (user_id, month, ${col})
         SELECT $1::uuid, $2::date, $3::int WHERE $4::int8 IS NULL OR $3::int8 <= $4::int8
       ON CONFLICT (user_id, month) DO UPDATE SET ${col} = u.${col} + EXCLUDED.${col}
         WHERE $4::int8 IS NULL OR u.utilities::int8 + u.inference + EXCLUDED.${col} <= $4::int8
       RETURNING utilities, inference`,
      [userId, month, units, allowance],
    );
    return rows[0] ?? null;
  },

  /**
   * Takes `units` calls of `kind` back off the account's row of the month `month` (YYYY-MM-01):
   * a request that failed gives back what it counted (docs/usage.md). Never below zero. The new
   * counts, or null when the month has no row (nothing to give back).
   */
  async refund(q: Queryable, userId: string, month: string, kind: CallKind, units: number): Promise<MonthCounts | null> {
    const col = COLUMN[kind];
    const { rows } = await q.query<MonthCounts>(
      `UPDATE usage_months SET ${col} = greatest(0, ${col} - $3::int) WHERE user_id = $1 AND month = $2::date RETURNING utilities, inference`,
      [userId, month, units],
    );
    return rows[0] ?? null;
  },

  async month(q: Queryable, userId: string, month: string): Promise<MonthCounts> {
    const { rows } = await q.query<MonthCounts>('SELECT utilities, inference FROM usage_months WHERE user_id = $1 AND month = $2::date', [userId, month]);
    return rows[0] ?? { utilities: 0, inference: 0 };
  },

  async allTime(q: Queryable, userId: string): Promise<MonthCounts> {
    const { rows } = await q.query<MonthCounts>(
      'SELECT coalesce(sum(utilities), 0)::int8::float8 AS utilities, coalesce(sum(inference), 0)::int8::float8 AS inference FROM usage_months WHERE user_id = $1',
      [userId],
    );
    return rows[0] ?? { utilities: 0, inference: 0 };
  },

  /**
   * Jobs, workflow runs and Assistant turns started since `since` (their holds in the ledger),
   * and what was charged for each kind since then. The ledger outlives deleted jobs, runs and
   * sessions; a workflow run whose estimate was zero reserved nothing, so runs are also counted
   * from their table (the union of both, by id).
   */
  async activitySince(q: Queryable, userId: string, since: Date): Promise<MonthActivity> {
    const { rows } = await q.query<{ subject: string; count: number; charged_micros: number }>(
      `WITH l AS (
         SELECT ${SUBJECT} AS subject, l.kind, l.job_id, l.amount_micros
           FROM ledger l
          WHERE l.user_id = $1 AND l.created_at >= $2 AND l.job_id IS NOT NULL AND l.kind IN ('reserve', 'charge')
       )
       SELECT subject, count(DISTINCT job_id) FILTER (WHERE kind = 'reserve')::int AS count,
              coalesce(-sum(amount_micros) FILTER (WHERE kind = 'charge'), 0)::int8 AS charged_micros
         FROM l GROUP BY subject
       UNION ALL
       SELECT 'runs_started', count(*)::int, 0::int8 FROM (
         SELECT id FROM workflow_runs WHERE user_id = $1 AND created_at >= $2
         UNION
         SELECT l.job_id FROM ledger l WHERE l.user_id = $1 AND l.created_at >= $2 AND l.kind = 'reserve' AND l.note = 'workflow run start'
       ) r`,
      [userId, since.toISOString()],
    );
    const of = (s: string): SubjectActivity => {
      const r = rows.find((x) => x.subject === s);
      return { count: r?.count ?? 0, charged_micros: Number(r?.charged_micros ?? 0) };
    };
    const runs = of('workflow_runs');
    return { jobs: of('jobs'), workflow_runs: { count: of('runs_started').count, charged_micros: runs.charged_micros }, assistant_turns: of('assistant_turns') };
  },
};
