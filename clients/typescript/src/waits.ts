// waitForJob and waitForRun (README, "Waiting"): on the events feed's long poll
// (docs/events.md), never by polling the status in a loop. An event appears once its subject
// has ended, whatever the status it ended with (even one this SDK does not know), so:
//   1. read the subject's events from the start of the retained feed: if its event is there, it
//      has ended; if not, the answer's `next_cursor` is the feed's head;
//   2. read the subject: a status known to be final ends the wait (this covers a subject that
//      ended so long ago that its event has left the feed);
//   3. long-poll from the head for the subject's event: anything that ends after step 1 is
//      after the head, so nothing is missed between the reads.
// The answer is the subject read after its event: the job's status, the whole run.
import type { Crucible } from './client.js';
import { WaitTimeoutError } from './errors.js';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export interface WaitOptions {
  /** Give up (WaitTimeoutError) after this long; no limit when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The longest long poll the API takes, in seconds. */
const LONG_POLL_SEC = 25;

const JOB_FINAL = new Set(['completed', 'error', 'cancelled']);
const RUN_FINAL = new Set(['completed', 'failed', 'cancelled']);

async function waitFor<T extends { status: string }>(
  client: Crucible,
  kind: 'job' | 'workflow_run',
  subjectId: string,
  read: () => Promise<T>,
  final: Set<string>,
  options: WaitOptions,
): Promise<T> {
  const { timeoutMs, signal } = options;
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  const init = signal ? { signal } : {};
  let after: string | undefined;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0 && after !== undefined) throw new WaitTimeoutError(kind, subjectId, timeoutMs ?? 0);
    const wait = after === undefined ? 0 : Math.max(1, Math.min(LONG_POLL_SEC, Math.ceil(left / 1000)));
    const page = await client.get('/api/v1/events', {
      params: { query: { kind, subject_id: subjectId, limit: 1, wait, ...(after !== undefined && { after }) } },
      ...init,
    });
    if (page.events.length > 0) return read();
    if (after === undefined) {
      const now = await read();
      if (final.has(now.status)) return now;
    }
    after = page.next_cursor ?? after ?? '';
  }
}

export function waitForJob(client: Crucible, processId: string, options: WaitOptions): Promise<Schemas['JobStatusResponse']> {
  const init = options.signal ? { signal: options.signal } : {};
  return waitFor(client, 'job', processId, () => client.get('/api/v1/jobs/status', { params: { query: { process_id: processId } }, ...init }), JOB_FINAL, options);
}

export function waitForRun(client: Crucible, runId: string, options: WaitOptions): Promise<Schemas['WorkflowRun']> {
  const init = options.signal ? { signal: options.signal } : {};
  return waitFor(client, 'workflow_run', runId, () => client.get('/api/v1/workflows/runs/{run_id}', { params: { path: { run_id: runId } }, ...init }), RUN_FINAL, options);
}
