// Workflow runs (docs/workflows.md): start (from a saved definition, a share link, a template or
// an inline spec), rerun, cancel, delete and read. The start validates the spec with the run's
// real inputs, prices every step, and in ONE transaction reserves the total, writes the run and
// its steps and starts the steps that need nothing else (src/workflows/engine.ts moves it from
// there). A failed start leaves nothing: no hold, no run, no job.
import crypto from 'node:crypto';
import type { Database, Queryable } from '../../db/database.js';
import { AppError, invalid, invalidInput, notFound } from '../../errors.js';
import { roundSec } from '../../api/rounding.js';
import { RESOURCES } from '../../compute/resources.js';
import type { JobService, Submitter } from '../../compute/service.js';
import { stepSignatures, type WorkflowEngine } from '../../workflows/engine.js';
import { runsStore, RUN_TERMINAL, type NewStep, type RunRow } from '../../workflows/runs-store.js';
import type { StepPlan, Validation, WorkflowSpec } from '../../workflows/spec.js';
import { templateById } from '../../workflows/templates.js';
import type { ArtifactService } from '../artifacts/service.js';
import type { DefinitionService } from './definitions.js';
import { atInputs, resolveInputs, withValues } from './inputs.js';
import { runView, type RunView } from './runs-view.js';
import { isUuid } from '../../validation.js';
import { commaValues, sortOrder } from '../../db/list-query.js';

export interface RunStartBody {
  workflow_id?: string;
  version?: number;
  template_id?: string;
  share_token?: string;
  spec?: unknown;
  inputs?: Record<string, unknown>;
  name?: string;
}

/** Validates a spec for a user, pricing each bound molecule set at `assumed` molecules. */
export type SpecValidator = (userId: string, spec: unknown, plans: StepPlan[], assumed: number) => Promise<Validation>;

/** Molecules assumed behind a step's output when no workflow input says how many flow in. */
export const ASSUMED_MOLECULES = 1000;

/** The steps a step reads from (`$steps.<id>.` in its inputs or params). */
function upstreamOf(step: WorkflowSpec['steps'][number]): string[] {
  const text = JSON.stringify([step.inputs ?? {}, step.params ?? {}]);
  return [...new Set([...text.matchAll(/\$steps\.([A-Za-z0-9_-]+)\./g)].map((m) => m[1]!))];
}

const SORTS: Record<string, string> = { created_at: 'created_at', status: 'presented_status', name: 'name', charged_amount: 'charged_micros' };
export const RUN_SORT_FIELDS = Object.keys(SORTS);
const STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

interface Source {
  spec: unknown;
  workflowId: string | null;
  version: number | null;
  templateId: string | null;
  /** The link share it came through. */
  shareId: string | null;
}

export class RunService {
  constructor(
    private readonly db: Database,
    private readonly deps: { jobs: JobService; artifacts: ArtifactService; definitions: DefinitionService; engine: WorkflowEngine; validate: SpecValidator },
  ) {}

  /** Where the spec comes from: exactly one of workflow_id (owner or `run` share), share_token (`run` link), template_id, spec. */
  private async source(userId: string, b: RunStartBody): Promise<Source> {
    const given = (['workflow_id', 'share_token', 'template_id', 'spec'] as const).filter((k) => b[k] !== undefined);
    if (given.length !== 1)
      throw invalid(
        given.length ? [given[1]!] : ['workflow_id'],
        'Give exactly one of workflow_id, share_token, template_id and spec',
        null,
        given.length ? 'value_error' : 'missing',
      );
    if (b.version !== undefined && b.workflow_id === undefined) throw invalid(['version'], 'version goes with workflow_id', b.version);
    if (b.workflow_id !== undefined) {
      const d = await this.deps.definitions.get(userId, b.workflow_id, b.version);
      // Without a run share, someone else's definition does not exist for this caller.
      if (d.row.access === 'view') throw notFound(`workflow ${b.workflow_id}`);
      return { spec: d.version.spec, workflowId: d.row.id, version: d.version.version, templateId: null, shareId: null };
    }
    if (b.share_token !== undefined) {
      const s = await this.deps.definitions.byToken(b.share_token);
      if (s.permission !== 'run') throw notFound('shared workflow');
      return { spec: s.view.spec, workflowId: s.view.workflow_id, version: s.view.version, templateId: null, shareId: s.shareId };
    }
    if (b.template_id !== undefined) {
      const t = templateById(b.template_id);
      if (!t) throw invalid(['template_id'], 'unknown template; GET /workflows/templates lists them', b.template_id, 'enum');
      return { spec: t.spec, workflowId: null, version: null, templateId: t.template_id, shareId: null };
    }
    return { spec: b.spec, workflowId: null, version: null, templateId: null, shareId: null };
  }

  async start(who: Submitter, body: RunStartBody, pin?: (tx: Queryable, v: RunView) => Promise<void>): Promise<RunView> {
    const src = await this.source(who.userId, body);
    return this.launch(who, src, body.inputs ?? {}, { name: body.name, rerunOf: null, reuse: [] }, pin);
  }

  /**
   * What starting a run with this body would reserve, step by step, and how long its longest
   * chain of steps should take (nothing written; the Assistant's estimates and plan cards).
   */
  async quote(
    who: Submitter,
    body: RunStartBody,
  ): Promise<{ totalMicros: number; expectedRuntimeSec: number; steps: { step_id: string; job_type: string; cost_micros: number; expected_runtime_sec: number }[] }> {
    const src = await this.source(who.userId, body);
    const { spec, steps, total } = await this.prepare(who, src, body.inputs ?? {}, { rerunOf: null, reuse: [] });
    const finish = new Map<string, number>();
    // Steps are in a valid spec's order of declaration; a step waits for the steps it names.
    const pending = [...spec.steps];
    while (pending.length) {
      const i = pending.findIndex((st) => upstreamOf(st).every((u) => finish.has(u)));
      const st = pending.splice(i < 0 ? 0 : i, 1)[0]!;
      const own = steps.find((x) => x.step_id === st.id)!.expected_runtime_sec;
      finish.set(st.id, Math.max(0, ...upstreamOf(st).map((u) => finish.get(u) ?? 0)) + own);
    }
    return {
      totalMicros: total,
      expectedRuntimeSec: roundSec(Math.max(0, ...finish.values())),
      steps: steps.map((x) => ({ step_id: x.step_id, job_type: x.job_type, cost_micros: x.planned_micros, expected_runtime_sec: roundSec(x.expected_runtime_sec) })),
    };
  }

  /**
   * A new run of a run's spec and inputs; with reuse_completed, steps whose signature is unchanged
   * keep their outputs. A run of a saved definition reruns only while the caller may still run it
   * (not deleted; owned, or a run share, or the link it came through still active): else 404.
   */
  async rerun(who: Submitter, runId: string, body: { reuse_completed?: boolean }, pin?: (tx: Queryable, v: RunView) => Promise<void>): Promise<RunView> {
    const old = await this.own(who.userId, runId);
    const { workflow_id: workflowId, share_id: shareId } = old;
    // Checked first (nothing is priced for a caller who may not run it), and again in the transaction that starts the run.
    const mayRun = async (q: Queryable) => {
      if (workflowId !== null && !(await this.deps.definitions.mayRun(who.userId, workflowId, shareId, q))) throw notFound(`workflow ${workflowId}`);
    };
    await mayRun(this.db);
    const reuse = body.reuse_completed ? await runsStore.reusable(this.db, who.userId, old.id) : [];
    const src: Source = { spec: old.spec, workflowId, version: old.version, templateId: old.template_id, shareId };
    return this.launch(who, src, old.inputs, { name: old.name, rerunOf: old.id, reuse, recheck: mayRun }, pin);
  }

  /** Validates, resolves the inputs and prices every step (nothing written). */
  private async prepare(
    who: Submitter,
    src: Source,
    given: Record<string, unknown>,
    o: { rerunOf: string | null; reuse: { step_id: string; signature: string; job_id: string | null; result_artifact_id: string | null }[] },
  ): Promise<{ spec: WorkflowSpec; values: Record<string, unknown>; steps: NewStep[]; total: number }> {
    // The spec's own shape first, so that inputs are read against a well-formed spec.
    const shape = await this.deps.validate(who.userId, src.spec, [], ASSUMED_MOLECULES);
    if (!shape.valid) throw invalidInput(shape.errors);
    const spec = src.spec as WorkflowSpec;
    const { values, molecules } = await resolveInputs(this.deps.artifacts, who.userId, spec, given);
    // Again with the run's values in place of defaults: each step's rules see what it will run with
    // (a value that fails a step's rules is reported where it was sent, at ["inputs", NAME]).
    const plans: StepPlan[] = [];
    const assumed = molecules.length ? Math.max(...molecules) : ASSUMED_MOLECULES;
    const v = await this.deps.validate(who.userId, withValues(spec, values), plans, assumed);
    if (!v.valid) throw invalidInput(atInputs(spec, v.errors, given));
    const sigs = stepSignatures(spec, values, v.step_order);
    const reusable = new Map(o.reuse.map((r) => [r.signature, r]));
    const steps: NewStep[] = spec.steps.map((s, position) => {
      const plan = plans.find((p) => p.id === s.id);
      // Params taken from a molecules input (no value to price with) leave a step unpriced.
      if (!plan?.estimate) throw invalid(['spec', 'steps', position, 'params'], `step ${s.id} cannot be priced with these inputs`, s.params ?? null, 'needs_input');
      const signature = sigs.get(s.id)!;
      const old = reusable.get(signature);
      const expected = Math.max(0.001, plan.estimate.expectedRuntimeSec);
      const rate = (RESOURCES[plan.resource] ?? RESOURCES.default).rateMicrosPerSec;
      if (old)
        return {
          step_id: s.id,
          position,
          job_type: s.job_type,
          state: 'reused',
          job_id: old.job_id,
          signature,
          planned_micros: 0,
          expected_runtime_sec: expected,
          result_artifact_id: old.result_artifact_id,
          message: `reused from run ${o.rerunOf}`,
        };
      return {
        step_id: s.id,
        position,
        job_type: s.job_type,
        state: 'pending',
        job_id: null,
        signature,
        planned_micros: Math.max(1, Math.ceil(expected * rate)),
        expected_runtime_sec: expected,
        result_artifact_id: null,
      };
    });
    return { spec, values, steps, total: steps.reduce((sum, s) => sum + s.planned_micros, 0) };
  }

  private async launch(
    who: Submitter,
    src: Source,
    given: Record<string, unknown>,
    o: {
      name?: string;
      rerunOf: string | null;
      reuse: { step_id: string; signature: string; job_id: string | null; result_artifact_id: string | null }[];
      /** Access checked again inside the transaction (a rerun). */
      recheck?: (tx: Queryable) => Promise<void>;
    },
    pin?: (tx: Queryable, v: RunView) => Promise<void>,
  ): Promise<RunView> {
    const { spec, values, steps, total } = await this.prepare(who, src, given, o);
    const id = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      await o.recheck?.(tx);
      if (total > 0) await this.deps.jobs.reserveHold(tx, who, id, total, 'workflow run start');
      const inserted = await runsStore.insertRun(
        tx,
        {
          id,
          user_id: who.userId,
          key_id: who.keyId,
          workflow_id: src.workflowId,
          version: src.version,
          template_id: src.templateId,
          name: (o.name ?? spec.name).slice(0, 200),
          spec,
          inputs: values,
          reserved_micros: total,
          rerun_of: o.rerunOf,
          share_id: src.shareId,
        },
        steps,
      );
      // The rows as inserted: advance reads neither again.
      await this.deps.engine.advance(tx, inserted.run, inserted.steps);
      const view = await this.view(tx, who.userId, id);
      await pin?.(tx, view);
      return view;
    });
  }

  /** The caller's run (404 for anyone else's). */
  private async own(userId: string, runId: string, q: Queryable = this.db, forUpdate = false): Promise<RunRow & { presented_status: string }> {
    const run = isUuid(runId) ? await runsStore.getRun(q, userId, runId, forUpdate) : null;
    if (!run) throw notFound(`workflow run ${runId}`);
    return run;
  }

  async view(q: Queryable, userId: string, runId: string): Promise<RunView> {
    const run = await this.own(userId, runId, q);
    return runView(run, await runsStore.stepViews(q, run.id));
  }

  /** The spec a run ran (a copy taken at its start). */
  async specOf(userId: string, runId: string): Promise<WorkflowSpec> {
    return (await this.own(userId, runId)).spec as WorkflowSpec;
  }

  get(userId: string, runId: string): Promise<RunView> {
    return this.view(this.db, userId, runId);
  }

  async cancel(userId: string, runId: string): Promise<RunView> {
    return this.db.transaction(async (tx) => {
      const run = await this.own(userId, runId, tx, true);
      if (RUN_TERMINAL.has(run.status)) throw new AppError('conflict', `workflow run ${runId} already ended with status ${run.status}`, { retry: 'terminal' });
      await this.deps.engine.stop(tx, run, 'cancelled', 'cancelled by the user');
      return this.view(tx, userId, runId);
    });
  }

  /** Deletes a finished run with the jobs and artifacts it made (outputs it reused stay with their own run). */
  async delete(userId: string, runId: string): Promise<void> {
    const keys = await this.db.transaction(async (tx) => {
      const run = await this.own(userId, runId, tx, true);
      if (!RUN_TERMINAL.has(run.status)) throw new AppError('conflict', `workflow run ${runId} is ${run.presented_status}; cancel it before deleting it`, { retry: 'conflict' });
      const removed = await this.deps.jobs.deleteFinishedInTx(tx, userId, await runsStore.ownJobIds(tx, run.id));
      await runsStore.deleteRun(tx, userId, run.id);
      return removed;
    });
    await this.deps.jobs.removeObjects(keys);
  }

  async list(userId: string, q: { status?: string; workflow_id?: string; q?: string; sort?: string; limit?: number; offset?: number }) {
    const statuses = commaValues(q.status, STATUSES, 'status');
    const order = sortOrder(q.sort, SORTS, 'created_at DESC');
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const page = await runsStore.list(this.db, userId, { statuses, workflowId: q.workflow_id, text: q.q, order, limit, offset });
    return { runs: page.rows.map((r) => runView(r, null)), total: page.total, limit, offset };
  }
}
