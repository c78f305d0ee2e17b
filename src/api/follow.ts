// Waiting for a job or a workflow run to end, the one way the server does it (docs/mcp.md,
// "Waiting"; docs/events.md): read the subject's status; while it has not ended, long-poll the
// events feed for its end (the feed holds only ends, so any event of the subject means it
// ended), at most POLL_SEC a poll, and read the status again, until it ends, the timeout passes
// or the signal aborts. The caller says how it reads the status and the feed (MCP: as the caller,
// through the API), so the rule of when a wait is over is written once.
import { TERMINAL } from '../compute/store.js';
import { RUN_TERMINAL } from '../workflows/runs-store.js';

/** What can be waited for: the kinds of the events feed. */
export type Followed = 'job' | 'workflow_run';

/** The statuses a job or a run ends with: the stores' own. */
export const ENDS: Record<Followed, ReadonlySet<string>> = { job: TERMINAL, workflow_run: RUN_TERMINAL };

/** Longest single long poll: the status is read again (and reported) after it. */
export const POLL_SEC = 10;

export interface Follow<S> {
  kind: Followed;
  /** The subject's light status (GET /jobs/status, GET /workflows/runs/{id}/status). */
  status(): Promise<S>;
  /**
   * Waits up to `waitSec` seconds for an event of the subject after the cursor `after` (GET
   * /events with `kind`, `subject_id` and `wait`); answers the cursor to wait after next.
   */
  nextEvent(waitSec: number, after: string | undefined): Promise<string | undefined>;
  /** Each status read, before the next wait (progress notifications). */
  onStatus?(status: S): Promise<void>;
  /** How long to wait at most, in seconds (0: read the status once). */
  timeoutSec: number;
  /** Ends the wait with the status so far (a client that cancelled, a shutdown). */
  signal: AbortSignal;
}

/** The subject's status once it ended, or the status so far when the time ran out or the wait was aborted. */
export async function followToEnd<S extends { status?: unknown }>(f: Follow<S>): Promise<{ status: S; ended: boolean }> {
  const deadline = Date.now() + f.timeoutSec * 1000;
  const ends = ENDS[f.kind];
  let after: string | undefined;
  for (;;) {
    const s = await f.status();
    const ended = ends.has(String(s.status));
    await f.onStatus?.(s);
    const left = deadline - Date.now();
    if (ended || left <= 0 || f.signal.aborted) return { status: s, ended };
    try {
      after = (await f.nextEvent(Math.max(1, Math.min(POLL_SEC, Math.ceil(left / 1000))), after)) ?? after;
    } catch (err) {
      // Aborted while polling: the status so far.
      if (f.signal.aborted) return { status: s, ended: false };
      throw err;
    }
  }
}
