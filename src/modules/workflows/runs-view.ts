// How a workflow run reads (GET /workflows/runs/..., docs/workflows.md): its steps' states
// (pending, queued, running from their jobs, then completed, failed, cancelled, skipped or
// reused), the cost so far (charged steps, plus the runtime of running ones at their rate,
// never past their share of the hold) and the outputs.
import { usd } from '../../api/schemas.js';
import { RESOURCES } from '../../compute/resources.js';
import type { StepState } from '../../workflows/graph.js';
import type { RunRow, StepView } from '../../workflows/runs-store.js';
import { parseRef, type WorkflowSpec } from '../../workflows/spec.js';

export interface RunStepView {
  step_id: string;
  job_type: string;
  state: StepState;
  job_id: string | null;
  progress: number;
  runtime_seconds: number | null;
  cost_usd: number;
  planned_usd: number;
  result_artifact_id: string | null;
  message: string;
}

export interface RunOutput {
  step_id: string;
  port: string;
  artifact_id: string | null;
  ready: boolean;
}

/** A run's status as answered: `queued` until its first step starts. */
export type RunState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A run as lists show it (WorkflowRunSummary). */
export interface RunSummaryView {
  run_id: string;
  name: string;
  status: RunState;
  message: string;
  workflow_id: string | null;
  version: number | null;
  template_id: string | null;
  rerun_of: string | null;
  inputs: Record<string, unknown>;
  reserved_usd: number;
  charged_usd: number;
  cost_so_far_usd: number;
  steps_done: number;
  steps_total: number;
  progress: number;
  created_at: string;
  finished_at: string | null;
}

/** A run with its steps and outputs (WorkflowRun). */
export interface RunView extends RunSummaryView {
  steps: RunStepView[];
  outputs: Record<string, RunOutput>;
}

export function stepState(s: StepView): StepState {
  if (s.state !== 'started') return s.state;
  if (s.job_status === 'running') return 'running';
  return 'queued';
}

function stepCost(run: RunRow, s: StepView): number {
  if (s.state !== 'started' || s.job_runtime_seconds === null) return s.charged_micros;
  const step = (run.spec as WorkflowSpec).steps.find((x) => x.id === s.step_id);
  const rate = (RESOURCES[step?.resource ?? 'default'] ?? RESOURCES.default).rateMicrosPerSec;
  return Math.min(s.planned_micros, Math.round(s.job_runtime_seconds * rate));
}

type PresentedRun = RunRow & { presented_status: string; steps_done?: number };

/** The run; with its steps when given (lists show the run alone). */
export function runView(run: PresentedRun, steps: null): RunSummaryView;
export function runView(run: PresentedRun, steps: StepView[]): RunView;
export function runView(run: PresentedRun, steps: StepView[] | null): RunSummaryView | RunView {
  const base = {
    run_id: run.id,
    name: run.name,
    status: run.presented_status as RunState,
    message: run.message,
    workflow_id: run.workflow_id,
    version: run.version,
    template_id: run.template_id,
    rerun_of: run.rerun_of,
    inputs: run.inputs,
    reserved_usd: usd(run.reserved_micros)!,
    charged_usd: usd(run.charged_micros)!,
    created_at: run.created_at.toISOString(),
    finished_at: run.finished_at?.toISOString() ?? null,
  };
  const total = (run.spec as WorkflowSpec).steps.length;
  if (!steps) {
    // A list: ended steps over all (running steps' progress is in the run itself).
    const done = run.steps_done ?? (run.status === 'running' ? 0 : total);
    return { ...base, cost_so_far_usd: usd(run.charged_micros)!, steps_done: done, steps_total: total, progress: total ? done / total : 1 };
  }
  const views: RunStepView[] = steps.map((s) => {
    const state = stepState(s);
    return {
      step_id: s.step_id,
      job_type: s.job_type,
      state,
      job_id: s.job_id,
      progress: state === 'completed' || state === 'reused' ? 1 : state === 'running' ? (s.job_progress ?? 0) : 0,
      runtime_seconds: s.job_runtime_seconds,
      cost_usd: usd(stepCost(run, s))!,
      planned_usd: usd(s.planned_micros)!,
      result_artifact_id: s.result_artifact_id,
      message: s.message || s.job_message || '',
    };
  });
  const done = views.filter((s) => !['pending', 'queued', 'running'].includes(s.state)).length;
  const outputs: Record<string, RunOutput> = {};
  for (const [name, refText] of Object.entries((run.spec as WorkflowSpec).outputs ?? {})) {
    const ref = parseRef(refText);
    if (ref?.kind !== 'step') continue;
    const s = views.find((x) => x.step_id === ref.step);
    const ready = s?.state === 'completed' || s?.state === 'reused';
    outputs[name] = { step_id: ref.step, port: ref.port, artifact_id: ready ? s.result_artifact_id : null, ready };
  }
  return {
    ...base,
    cost_so_far_usd: usd(steps.reduce((sum, s) => sum + stepCost(run, s), 0))!,
    steps_done: done,
    steps_total: total,
    progress: total ? views.reduce((sum, s) => sum + (['pending', 'queued', 'running'].includes(s.state) ? s.progress : 1), 0) / total : 1,
    steps: views,
    outputs,
  };
}

/** The run's light status (GET /workflows/runs/{run_id}/status). */
export function runStatus(v: RunView) {
  return {
    run_id: v.run_id,
    status: v.status,
    steps_done: v.steps_done,
    steps_total: v.steps_total,
    progress: v.progress,
    cost_so_far_usd: v.cost_so_far_usd,
    steps: (v.steps ?? []).map((s) => ({ step_id: s.step_id, state: s.state, progress: s.progress })),
  };
}

/** The run's outputs as artifacts (GET /workflows/runs/{run_id}/outputs). */
export function runOutputs(v: RunView) {
  return { run_id: v.run_id, status: v.status, outputs: v.outputs ?? {} };
}
