// Checking and pricing workflow specs for a user (docs/workflows.md): the spec rules of
// src/workflows/spec.ts with each step's estimate run against the user's artifacts and models.
import { roundSec, roundUsd } from '../../api/rounding.js';
import { RESOURCES } from '../../compute/resources.js';
import { invalid, invalidInput } from '../../errors.js';
import type { Services } from '../../services.js';
import { STAND_IN_ARTIFACT, validateSpec, type StepPlan, type WorkflowSpec } from '../../workflows/spec.js';
import { templateById } from '../../workflows/templates.js';
import { atInputs, resolveInputs, withValues } from './inputs.js';
import { ASSUMED_MOLECULES } from './runs.js';
import { runRdkitHere } from '../../engines/rdkit/program.js';

/** Validates a spec for a user: each step's own rules run with the user's models and artifacts. */
export function validateFor(s: Pick<Services, 'artifacts' | 'models' | 'jobs'>, userId: string, spec: unknown, plans: StepPlan[] = [], assumed = ASSUMED_MOLECULES) {
  return validateSpec(
    spec,
    (type, payload) =>
      type.estimate(payload, {
        userId,
        resource: RESOURCES.default,
        countMolecules: (id, port) => (id === STAND_IN_ARTIFACT ? Promise.resolve(assumed) : s.artifacts.countMolecules(userId, id, port)),
        models: s.models.jobPort(),
        // Inline structures read with RDKit as POST /jobs/estimate reads them (docs/workflows.md, "Estimate").
        structureInfo: (inputs, options) => s.jobs.structureInfo(inputs, options),
        rdkit: (request) => runRdkitHere(request),
      }),
    plans,
  );
}

/** The spec an estimate prices: the one given, or a built-in template's (exactly one of spec and template_id, as a run start takes them). */
export function estimatedSpec(body: { spec?: unknown; template_id?: string }): unknown {
  const given = (['spec', 'template_id'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1) throw invalid(given.length ? ['template_id'] : ['spec'], 'Give exactly one of spec and template_id', null, given.length ? 'value_error' : 'missing');
  if (body.template_id === undefined) return body.spec;
  const t = templateById(body.template_id);
  if (!t) throw invalid(['template_id'], 'unknown template; GET /workflows/templates lists them', body.template_id, 'enum');
  return t.spec;
}

/**
 * The cost of a valid spec: each step's job estimate at its resource's rate; the runtime of the
 * critical path. With `inputs`, they are read as a run start reads them (a molecule set counted,
 * a value checked by the steps it goes to), so the estimate is what that run would reserve.
 */
export async function estimateFor(s: Pick<Services, 'artifacts' | 'models' | 'jobs'>, userId: string, spec: unknown, inputs?: Record<string, unknown>) {
  let priced = spec;
  let assumed = ASSUMED_MOLECULES;
  if (inputs !== undefined) {
    const shape = await validateFor(s, userId, spec);
    if (!shape.valid) throw invalidInput(shape.errors);
    const r = await resolveInputs(s.artifacts, userId, spec as WorkflowSpec, inputs);
    priced = withValues(spec as WorkflowSpec, r.values);
    if (r.molecules.length) assumed = Math.max(...r.molecules);
  }
  const plans: StepPlan[] = [];
  const v = await validateFor(s, userId, priced, plans, assumed);
  if (!v.valid) throw invalidInput(inputs === undefined ? v.errors : atInputs(spec as WorkflowSpec, v.errors, inputs));
  // A step whose params wait for an input without a default cannot be priced before a run gives it.
  const unpriced = v.step_order.filter((id) => !plans.find((p) => p.id === id)?.estimate);
  if (unpriced.length) {
    const at = (spec as WorkflowSpec).steps.findIndex((x) => x.id === unpriced[0]);
    throw invalid(
      ['spec', 'steps', at, 'params'],
      `step ${unpriced[0]} cannot be priced until a run gives the inputs its params take (give them defaults, or the inputs, to estimate here)`,
      null,
      'needs_input',
    );
  }
  const steps = plans.map((p) => {
    const resource = RESOURCES[p.resource] ?? RESOURCES.default;
    const expected = Math.max(0.001, p.estimate!.expectedRuntimeSec);
    return {
      step_id: p.id,
      job_type: p.jobType,
      resource: resource.name,
      expected_runtime_sec: expected,
      cost_micros: Math.max(1, Math.ceil(expected * resource.rateMicrosPerSec)),
      assumptions: p.estimate!.assumptions,
      after: p.after,
    };
  });
  const finish = new Map<string, number>();
  for (const id of v.step_order) {
    const st = steps.find((x) => x.step_id === id)!;
    finish.set(id, Math.max(0, ...st.after.map((a) => finish.get(a) ?? 0)) + st.expected_runtime_sec);
  }
  const total = steps.reduce((sum, x) => sum + x.cost_micros, 0);
  return {
    cost: roundUsd(total / 1_000_000),
    expected_runtime_sec: roundSec(Math.max(0, ...finish.values())),
    steps: steps.map(({ cost_micros, after: _after, expected_runtime_sec, ...x }) => ({
      ...x,
      expected_runtime_sec: roundSec(expected_runtime_sec),
      cost: roundUsd(cost_micros / 1_000_000),
    })),
    assumptions: {
      molecules_per_bound_input: assumed,
      runtime: 'the longest chain of steps; independent steps run in parallel',
      cost: "the sum of the steps' job estimates, reserved when a run starts",
    },
  };
}
