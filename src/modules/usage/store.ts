// The monthly allowance's counters (table usage_months, migration 011): this file is their one
// writer. Months are calendar months in UTC, named by their first day.
import type { Queryable } from '../../db/database.js';

export type CallKind = 'utilities' | 'inference';

export interface MonthCounts {
  utilities: number;
  inference: number;
}

/** The column of a kind (a fixed identifier, never user input). */
const COLUMN: Record<CallKind, string> = { utilities: 'utilities', inference: 'inference' };

export const usageStore = {
  /**
   * Adds `units` calls of `kind` to the account's row of the month `month` (YYYY-MM-01) if the
   * month's total stays within `allowance` (null: unlimited); the new counts, or null when the
   * calls would pass it (nothing is added). One statement: the upsert's row lock serialises
   * concurrent calls of one account, on any instance.
   */
  async add(q: Queryable, userId: string, month: string, kind: CallKind, units: number, allowance: number | null): Promise<MonthCounts | null> {
    const col = COLUMN[kind];
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
};
