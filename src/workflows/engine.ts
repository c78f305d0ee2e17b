// The workflow run engine (docs/workflows.md). A run is rows (workflow_runs and one
// workflow_run_steps row per step) and ordinary jobs; the engine keeps no state in memory.
// It moves a run only inside transactions that hold the run's row lock:
// - the start (src/modules/workflows/runs.ts) inserts the run and starts the steps with no
//   pending inputs;
// - the end of a step job (compute/transitions.ts -> stepFinished) records the step, charges it
//   against the run's hold, and starts the steps it made ready, or ends the run;
// - cancel ends the run's jobs and the run.
// So a crash anywhere leaves either the state before a transition or after it: the job
// runtime's own recovery (requeue, attempts) carries a step job on, and its end, whichever
// process sees it, moves the run.
import crypto from 'node:crypto';
import type { Queryable, StatementTail } from '../db/database.js';
import type { ComputePorts, JobWorkflows } from '../compute/ports.js';
import { laneOf } from '../compute/lanes.js';
import type { JobQueue } from '../compute/queue.js';
import { JOB_TYPES } from '../compute/registry.js';
import { RESOURCES } from '../compute/resources.js';
import { jobsStore, type JobRow } from '../compute/store.js';
import { finishJob } from '../compute/transitions.js';
import { runsStore, STEP_DONE, type RunRow, type StepRow } from './runs-store.js';
import { own, parseRef, putOwn, type WorkflowSpec } from './spec.js';

type SpecStep = WorkflowSpec['steps'][number];

/** The steps a step reads from. */
export function upstreamOf(step: SpecStep): string[] {
  const out = new Set<string>();
  for (const ref of Object.values(step.inputs ?? {})) {
    const r = parseRef(ref);
    if (r?.kind === 'step') out.add(r.step);
  }
  return [...out];
}

/** A step's params with "$inputs.NAME" replaced by the run's input values. */
export function resolveParams(step: SpecStep, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(step.params ?? {})) {
    const ref = typeof v === 'string' ? parseRef(v) : null;
    putOwn(out, k, ref?.kind === 'input' ? own(inputs, ref.name) : v);
  }
  return out;
}

/**
 * A step job's payload: its resolved params, and each bound input port as the payload field the
 * job type names: an upstream step's result artifact (with its port), a molecules input's
 * artifact id, or a molecules input given as a SMILES list inline.
 */
export function stepPayload(step: SpecStep, inputs: Record<string, unknown>, artifactOf: (stepId: string) => string | null): Record<string, unknown> {
  const payload = resolveParams(step, inputs);
  const ports = JOB_TYPES.get(step.job_type)?.ports?.inputs ?? {};
  for (const [port, refText] of Object.entries(step.inputs ?? {})) {
    const p = own(ports, port);
    const ref = parseRef(refText);
    if (!p || !ref) continue;
    if (ref.kind === 'step') {
      putOwn(payload, p.field, artifactOf(ref.step));
      if (p.portField) putOwn(payload, p.portField, ref.port);
    } else {
      const value = own(inputs, ref.name);
      if (Array.isArray(value) && p.inline) putOwn(payload, p.inline, value);
      else putOwn(payload, p.field, value);
    }
  }
  return payload;
}

/** A step's identity for reuse: job type, resource, resolved params and what it reads (inputs' values, upstream signatures). */
export function stepSignatures(spec: WorkflowSpec, inputs: Record<string, unknown>, order: string[]): Map<string, string> {
  const sigs = new Map<string, string>();
  const byId = new Map(spec.steps.map((s) => [s.id, s]));
  for (const id of order) {
    const step = byId.get(id)!;
    const reads: Record<string, unknown> = {};
    for (const [port, refText] of Object.entries(step.inputs ?? {})) {
      const ref = parseRef(refText);
      if (ref?.kind === 'step') reads[port] = { step: sigs.get(ref.step), port: ref.port };
      else if (ref?.kind === 'input') reads[port] = { input: own(inputs, ref.name) };
    }
    const doc = { job_type: step.job_type, resource: step.resource ?? 'default', params: resolveParams(step, inputs), reads };
    sigs.set(id, crypto.createHash('sha256').update(canonical(doc)).digest('hex'));
  }
  return sigs;
}

function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

export class WorkflowEngine implements JobWorkflows {
  private ports: ComputePorts | null = null;

  constructor(private readonly queue: JobQueue) {}

  /** The job engine's ports (they hold this engine: set once both exist). */
  attach(ports: ComputePorts): void {
    this.ports = ports;
  }

  private get p(): ComputePorts {
    if (!this.ports) throw new Error('WorkflowEngine used before attach()');
    return this.ports;
  }

  lockRunOf(tx: Queryable, jobId: string): Promise<RunRow | null> {
    return runsStore.lockRunOfJob(tx, jobId);
  }

  lockRunWrite(runId: string, firstParam: number) {
    return runsStore.lockRunWrite(runId, firstParam);
  }

  /** `locked`: the run as lockRunOf returned it in this transaction (read again when absent). */
  async stepFinished(tx: Queryable, job: JobRow, locked: unknown, announce: { append(): Promise<void>; tail: StatementTail }): Promise<void> {
    // The job's event needs the wallet locked first (run -> job -> wallet -> events): it is the
    // tail of the hold charge's statement, which locks it; without a charge, after an explicit
    // lock (docs/reliability.md).
    const announceLocked = async () => {
      await this.p.wallet.lock(tx, job.user_id);
      await announce.append();
    };
    const run = (locked as RunRow | null | undefined) ?? (await runsStore.getRun(tx, null, job.workflow_run_id!));
    if (!run) return announceLocked(); // deleted (only finished runs can be): nothing to move
    const charged = job.charged_micros ?? 0;
    const state = job.status === 'completed' ? 'completed' : job.status === 'error' ? 'failed' : 'cancelled';
    // The step's end, its charge on the step and on the run, and the run's steps after it: one statement.
    const ended = await runsStore.endStepOfJob(tx, run.id, job.id, { state, resultArtifactId: job.result_artifact_id, chargedMicros: charged, message: job.message });
    if (!ended) return announceLocked();
    const { step } = ended;
    const hold = { userId: run.user_id, holdId: run.id, jobId: job.id, keyId: run.key_id, chargeMicros: charged, note: `workflow run step ${step.step_id}` };
    if (!(await this.p.wallet.chargeHold(tx, hold, announce.tail))) await announceLocked();
    // A run being cancelled or failed ends its own jobs and then itself.
    if (run.status !== 'running') return;
    const spec = run.spec as WorkflowSpec;
    const specStep = spec.steps.find((s) => s.id === step.step_id);
    if (state !== 'completed' && !specStep?.continue_on_error) {
      await this.stop(tx, run, 'failed', `step ${step.step_id} ${state === 'failed' ? 'failed' : 'was cancelled'}${job.message ? `: ${job.message}` : ''}`);
      return;
    }
    await this.advance(tx, run, ended.steps);
  }

  /**
   * Starts every pending step whose inputs are ready, skips those that can no longer run (a
   * step they read from did not complete), and ends the run when no step is left. Call with
   * the run locked; `steps`: its steps as read under that lock (read here when absent).
   */
  async advance(tx: Queryable, run: RunRow, steps?: StepRow[]): Promise<void> {
    const spec = run.spec as WorkflowSpec;
    const rows = new Map((steps ?? (await runsStore.steps(tx, run.id))).map((s) => [s.step_id, s]));
    let moved = true;
    while (moved) {
      moved = false;
      for (const step of spec.steps) {
        const row = rows.get(step.id);
        if (row?.state !== 'pending') continue;
        const ups = upstreamOf(step).map((u) => rows.get(u));
        if (ups.some((u) => u && !STEP_DONE.has(u.state) && u.state !== 'pending' && u.state !== 'started')) {
          await runsStore.endStep(tx, run.id, step.id, { state: 'skipped', message: 'a step it reads from did not complete' });
          row.state = 'skipped';
          moved = true;
        } else if (ups.every((u) => u && STEP_DONE.has(u.state))) {
          const jobId = await this.startStep(tx, run, step, row, (id) => rows.get(id)?.result_artifact_id ?? null);
          row.state = 'started';
          row.job_id = jobId;
        }
      }
    }
    const left = [...rows.values()].filter((r) => r.state === 'pending' || r.state === 'started');
    if (left.length === 0) {
      const failed = [...rows.values()].filter((r) => !STEP_DONE.has(r.state));
      await this.finish(tx, run, 'completed', failed.length ? `completed; did not complete (continue_on_error): ${failed.map((f) => `${f.step_id} (${f.state})`).join(', ')}` : '');
    }
  }

  private async startStep(tx: Queryable, run: RunRow, step: SpecStep, row: StepRow, artifactOf: (id: string) => string | null): Promise<string> {
    const id = crypto.randomUUID();
    const resource = RESOURCES[step.resource ?? 'default'] ?? RESOURCES.default;
    const payload = stepPayload(step, run.inputs, artifactOf);
    const lane = laneOf(step.job_type, payload);
    const message = await this.queue.sendStatement(id, lane);
    await jobsStore.insert(
      tx,
      {
        id,
        origin: 'job',
        userId: run.user_id,
        keyId: run.key_id,
        name: `${run.name} / ${step.id}`.slice(0, 200),
        type: step.job_type,
        resource: resource.name,
        payload,
        expectedRuntimeSec: row.expected_runtime_sec,
        rateMicrosPerSec: resource.rateMicrosPerSec,
        reservedMicros: row.planned_micros,
        info: { workflow_run_id: run.id, step_id: step.id },
        lane,
        workflowRunId: run.id,
      },
      message,
      (first) => runsStore.startStepWrite(run.id, step.id, id, first),
    );
    return id;
  }

  /** Ends the run's started jobs (charging their runtime), marks what never started, and ends the run. Call with the run locked. */
  async stop(tx: Queryable, run: RunRow, status: 'failed' | 'cancelled', message: string): Promise<void> {
    if (!(await runsStore.end(tx, run.id, status, message))) return;
    for (const step of await runsStore.steps(tx, run.id)) {
      if (step.state === 'started' && step.job_id) {
        await finishJob(tx, this.p, step.job_id, {
          status: 'cancelled',
          message: `cancelled: the workflow run ${status === 'failed' ? 'failed' : 'was cancelled'}`,
          chargeable: true,
        });
      } else if (step.state === 'pending') {
        await runsStore.endStep(tx, run.id, step.step_id, { state: status === 'cancelled' ? 'cancelled' : 'skipped', message: `never started: the run ${status}` });
      }
    }
    await this.settle(tx, run.id, status);
  }

  private async finish(tx: Queryable, run: RunRow, status: 'completed', message: string): Promise<void> {
    if (!(await runsStore.end(tx, run.id, status, message))) return;
    await this.settle(tx, run.id, status);
  }

  /** Releases what is left of the hold and appends the run's one terminal event. */
  private async settle(tx: Queryable, runId: string, status: string): Promise<void> {
    const run = (await runsStore.getRun(tx, null, runId))!;
    await this.p.wallet.releaseHold(tx, {
      userId: run.user_id,
      holdId: run.id,
      keyId: run.key_id,
      amountMicros: Math.max(0, run.reserved_micros - run.charged_micros),
      note: `workflow run ${status}`,
    });
    await this.p.events.append(tx, { userId: run.user_id, kind: 'workflow_run', subjectId: run.id, status, workflowRunId: null });
  }
}
