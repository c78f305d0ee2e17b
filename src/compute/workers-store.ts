// The compute_workers table (migration 018): each job runtime's row, written at start, touched
// by its sweep and removed at stop; this file is its only writer. A row not seen for
// LIVE_SEC is a worker that is gone (SIGKILLed workers leave theirs: the sweep removes old ones).
import type { Queryable } from '../db/database.js';
import type { Engines } from '../engines/discovery.js';

export const LIVE_SEC = 30;

export interface WorkerRow {
  worker_id: string;
  hostname: string;
  pid: number;
  slots: number;
  engines: Engines;
  seen_at: Date;
}

export const workersStore = {
  async register(q: Queryable, w: { workerId: string; hostname: string; pid: number; slots: number; engines: Engines }): Promise<void> {
    await q.query(
      `INSERT INTO compute_workers (worker_id, hostname, pid, slots, engines) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (worker_id) DO UPDATE SET engines = EXCLUDED.engines, slots = EXCLUDED.slots, seen_at = now()`,
      [w.workerId, w.hostname, w.pid, w.slots, JSON.stringify(w.engines)],
    );
  },

  async touch(q: Queryable, workerId: string): Promise<void> {
    await q.query('UPDATE compute_workers SET seen_at = now() WHERE worker_id = $1', [workerId]);
  },

  async remove(q: Queryable, workerId: string): Promise<void> {
    await q.query('DELETE FROM compute_workers WHERE worker_id = $1', [workerId]);
  },

  /** Rows of workers gone for an hour. */
  async removeOld(q: Queryable): Promise<void> {
    await q.query(`DELETE FROM compute_workers WHERE seen_at < now() - interval '1 hour'`);
  },

  async live(q: Queryable): Promise<WorkerRow[]> {
    const { rows } = await q.query<WorkerRow>(`SELECT * FROM compute_workers WHERE seen_at > now() - make_interval(secs => $1) ORDER BY started_at`, [LIVE_SEC]);
    return rows;
  },
};
