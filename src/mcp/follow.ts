// The tools that start charged work and follow it (docs/mcp.md, "Money" and "Waiting"): a
// submit answers the cost it reserved; a wait reads the status, then long-polls the events feed
// for the job's or run's end (one request per 10 s at most; followToEnd, src/api/follow.ts), with
// progress notifications, and answers the status it has when its timeout comes (the model calls
// it again).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { followToEnd, type Followed } from '../api/follow.js';
import { DEFAULT_WAIT_SEC } from '../catalogue/tools.js';
import { text } from './api.js';
import { callRoute, jsonResult, type Args, type ToolContext, type ToolDef } from './tool-kit.js';

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

/** How a wait reads its subject through the API, and what it reports as progress. */
interface Subject {
  kind: Followed;
  id: string;
  /** The light status (GET /jobs/status, GET /workflows/runs/{id}/status). */
  status(): Promise<Record<string, unknown>>;
  fraction(s: Record<string, unknown>): number;
  message(s: Record<string, unknown>): string;
}

/** followToEnd as the caller: statuses and the events feed through the API, each status a progress notification. */
async function follow(ctx: ToolContext, subject: Subject, timeoutSec: number): Promise<{ status: Record<string, unknown>; ended: boolean }> {
  let last = 0;
  return followToEnd({
    kind: subject.kind,
    status: () => subject.status(),
    async onStatus(s) {
      // Progress must grow with each notification: the fraction done in percent, or one more.
      last = Math.max(last + 1, Math.round(subject.fraction(s) * 100));
      await ctx.progress(last, undefined, subject.message(s));
    },
    async nextEvent(wait, after) {
      const page = await ctx.api.get<{ next_cursor: string | null }>('/events', { kind: subject.kind, subject_id: subject.id, wait, ...(after ? { after } : {}) }, ctx.signal);
      return page.next_cursor ?? undefined;
    },
    timeoutSec,
    signal: ctx.signal,
  });
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
