// The tools that start charged work and follow it (docs/mcp.md, "Money" and "Waiting"): a
// submit answers the cost it reserved; a wait reads the status, then long-polls the events feed
// for the job's or run's end (one request per 10 s at most), with progress notifications, and
// answers the status it has when its timeout comes (the model calls it again).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { text } from './api.js';
import { callRoute, jsonResult, type Args, type ToolContext, type ToolDef } from './tool-kit.js';
import type { JsonSchema } from './schemas.js';

const JOB_ENDS = new Set(['completed', 'error', 'cancelled']);
const RUN_ENDS = new Set(['completed', 'failed', 'cancelled']);
/** Longest single long poll: the status (and a progress notification) is read again after it. */
const POLL_SEC = 10;
export const DEFAULT_WAIT_SEC = 50;
export const MAX_WAIT_SEC = 600;

export const TIMEOUT_ARG: Record<string, JsonSchema> = {
  timeout_seconds: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_WAIT_SEC,
    default: DEFAULT_WAIT_SEC,
    description: `How long to wait for the end, in seconds (0: answer the status now; default ${DEFAULT_WAIT_SEC}). When it passes, the answer is the status so far: call again to keep waiting.`,
  },
};

/** submit_job: the job's id and what it reserved (the estimate), from its record. */
export async function submitJob(ctx: ToolContext, def: ToolDef, args: Args): Promise<CallToolResult> {
  const { process_id } = await callRoute<{ process_id: string }>(ctx, def, args);
  const info = await ctx.api.get<{ info: Record<string, unknown> }>('/jobs/info', { process_id });
  const i = info.info;
  return jsonResult({
    process_id,
    status: i.status,
    reserved_usd: i.reserved_usd,
    expected_runtime_sec: i.expected_runtime_sec,
    rate_per_sec: i.rate_per_sec,
    billing: 'charged runtime_seconds x rate_per_sec when it ends, never more than reserved_usd; the rest is released',
    next: 'wait_for_job, then get_job_result',
  });
}

/** start_workflow_run: the run as the API answers it, its reservation first. */
export async function startRun(ctx: ToolContext, def: ToolDef, args: Args): Promise<CallToolResult> {
  const run = await callRoute<Record<string, unknown>>(ctx, def, args);
  return jsonResult({ run_id: run.run_id, status: run.status, reserved_usd: run.reserved_usd, next: 'wait_for_workflow_run', run });
}

interface Subject {
  kind: 'job' | 'workflow_run';
  id: string;
  /** The light status (GET /jobs/status, GET /workflows/runs/{id}/status). */
  status(): Promise<Record<string, unknown>>;
  ends: Set<string>;
  fraction(s: Record<string, unknown>): number;
  message(s: Record<string, unknown>): string;
}

async function follow(ctx: ToolContext, subject: Subject, timeoutSec: number): Promise<{ status: Record<string, unknown>; ended: boolean }> {
  const deadline = Date.now() + timeoutSec * 1000;
  let after: string | undefined;
  let last = 0;
  for (;;) {
    const s = await subject.status();
    const ended = subject.ends.has(String(s.status));
    // Progress must grow with each notification: the fraction done in percent, or one more.
    last = Math.max(last + 1, Math.round(subject.fraction(s) * 100));
    await ctx.progress(last, undefined, subject.message(s));
    const left = deadline - Date.now();
    if (ended || left <= 0 || ctx.signal.aborted) return { status: s, ended };
    // The feed holds only ends: any event of this subject means it ended (docs/events.md).
    let page: { events: unknown[]; next_cursor: string | null };
    try {
      page = await ctx.api.get(
        '/events',
        { kind: subject.kind, subject_id: subject.id, wait: Math.max(1, Math.min(POLL_SEC, Math.ceil(left / 1000))), ...(after ? { after } : {}) },
        ctx.signal,
      );
    } catch (err) {
      // Cancelled by the client or ended by a shutdown while polling: the status so far.
      if (ctx.signal.aborted) return { status: s, ended: false };
      throw err;
    }
    after = page.next_cursor ?? after;
  }
}

const timeoutOf = (args: Args) => (typeof args.timeout_seconds === 'number' ? args.timeout_seconds : DEFAULT_WAIT_SEC);

export async function waitForJob(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  const id = String(args.process_id);
  const { status, ended } = await follow(
    ctx,
    {
      kind: 'job',
      id,
      status: () => ctx.api.get('/jobs/status', { process_id: id }, ctx.signal),
      ends: JOB_ENDS,
      fraction: (s) => Number((s.progress as { fraction?: number } | null)?.fraction ?? 0),
      message: (s) => `job ${String(s.status)}${s.message ? `: ${text(s.message)}` : ''}`,
    },
    timeoutOf(args),
  );
  const next = !ended
    ? 'still running: call wait_for_job again (or tell the user it is running)'
    : status.status === 'completed'
      ? 'get_job_result for the values; cite_papers for what to cite'
      : 'the job did not complete: message says why';
  return jsonResult({ ...status, ended, next });
}

export async function waitForRun(ctx: ToolContext, _def: ToolDef, args: Args): Promise<CallToolResult> {
  const id = String(args.run_id);
  const path = `/workflows/runs/${encodeURIComponent(id)}`;
  const { ended } = await follow(
    ctx,
    {
      kind: 'workflow_run',
      id,
      status: () => ctx.api.get(`${path}/status`, undefined, ctx.signal),
      ends: RUN_ENDS,
      fraction: (s) => Number(s.progress ?? 0),
      message: (s) => `run ${String(s.status)}: ${String(s.steps_done)} of ${String(s.steps_total)} steps done`,
    },
    timeoutOf(args),
  );
  const run = await ctx.api.get<Record<string, unknown>>(path, undefined, ctx.signal);
  const next = !ended
    ? 'still running: call wait_for_workflow_run again'
    : run.status === 'completed'
      ? 'read_artifact on the outputs; cite_papers with workflow_run_id for what to cite'
      : 'the run did not complete: its steps say why';
  return jsonResult({ ended, next, ...run });
}
