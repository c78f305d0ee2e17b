// The shared side of the request rate limiter (rate-limit.ts): the table rate_windows
// (migration 010), one row per credential and one-minute window, to which every API instance on
// the database adds the requests it admitted, reading back the totals that all instances reached
// (docs/architecture.md, "Decisions": rate limits across instances). This file is the table's one writer.
//
// `credential` is the limiter's id of the credential ('key:<API key id>' or 'session:<session
// id>'): identifiers, never a secret.
import type { Database } from '../db/database.js';

export interface WindowDelta {
  credential: string;
  /** The window's start, epoch milliseconds. */
  windowStart: number;
  /** Requests to add (at least 1). */
  delta: number;
}

export interface RateWindowStore {
  /** Adds each delta to its window's row in one statement; the rows' new totals, in the order given. */
  add(deltas: readonly WindowDelta[]): Promise<number[]>;
  /** Deletes the windows that ended long ago (none is read after its minute). */
  purge(): Promise<void>;
}

// Rows are locked in one order (credential, then window) by every instance, so two instances
// adding overlapping sets never deadlock. `n` maps each total back to its delta.
const ADD = `WITH input AS (
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[]) WITH ORDINALITY AS t(credential, window_start, delta, n)
), added AS (
  INSERT INTO rate_windows AS r (credential, window_start, count)
  SELECT credential, window_start, delta FROM input ORDER BY credential, window_start
  ON CONFLICT (credential, window_start) DO UPDATE SET count = r.count + EXCLUDED.count
  RETURNING r.credential, r.window_start, r.count
)
SELECT input.n::int AS n, added.count FROM added JOIN input USING (credential, window_start)`;

export function rateWindows(db: Database): RateWindowStore {
  return {
    async add(deltas) {
      if (!deltas.length) return [];
      const { rows } = await db.query<{ n: number; count: number }>(ADD, [
        deltas.map((d) => d.credential),
        deltas.map((d) => new Date(d.windowStart).toISOString()),
        deltas.map((d) => d.delta),
      ]);
      const totals = new Array<number>(deltas.length).fill(0);
      for (const r of rows) totals[r.n - 1] = r.count;
      return totals;
    },
    async purge() {
      await db.query(`DELETE FROM rate_windows WHERE window_start < now() - interval '2 minutes'`);
    },
  };
}
