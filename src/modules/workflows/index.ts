// Workflows (docs/workflows.md): DAGs of jobs. This first part validates specs; definitions,
// runs, sharing and templates come next (the issue is in progress).
import { Type } from '@sinclair/typebox';
import type { Module, RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { RESOURCES } from '../../compute/resources.js';
import { invalidInput } from '../../errors.js';
import { MAX_SPEC_BYTES, STAND_IN_ARTIFACT, validateSpec, WorkflowSpec, type StepPlan } from '../../workflows/spec.js';
import type { Services } from '../../services.js';

/** Molecules assumed behind a bound input port when estimating a step. */
export const ASSUMED_MOLECULES = 1000;

const Issue = Type.Object(
  { type: Type.String(), loc: Type.Array(Type.Union([Type.String(), Type.Integer()])), msg: Type.String(), input: Type.Unknown() },
  { additionalProperties: false },
);
export const WorkflowValidation = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(Issue, { description: 'Every problem, located relative to the request (["spec", "steps", 2, "inputs", "molecules"])' }),
    warnings: Type.Array(Issue),
    step_order: Type.Array(Type.String(), { description: 'An order in which every step comes after the steps it reads from (empty when there is a cycle)' }),
  },
  { $id: 'WorkflowValidation', additionalProperties: false },
);
export const WorkflowEstimate = Type.Object(
  {
    cost: Type.Number({ description: 'USD a run reserves at start' }),
    expected_runtime_sec: Type.Number({ description: 'The longest chain of steps' }),
    steps: Type.Array(
      Type.Object(
        {
          step_id: Type.String(),
          job_type: Type.String(),
          resource: Type.String(),
          expected_runtime_sec: Type.Number(),
          cost: Type.Number(),
          assumptions: Type.Record(Type.String(), Type.Unknown()),
        },
        { additionalProperties: false },
      ),
    ),
    assumptions: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'WorkflowEstimate', additionalProperties: false },
);
const ValidateRequest = Type.Object(
  { spec: Type.Unknown({ description: 'A workflow spec (WorkflowSpec); validated here, every problem reported at once' }) },
  { $id: 'WorkflowValidateRequest', additionalProperties: false },
);

/** Validates a spec for a user: each step's own rules run with the user's models and artifacts. */
export function validateFor(s: Services, userId: string, spec: unknown, plans: StepPlan[] = []) {
  return validateSpec(
    spec,
    (type, payload) =>
      type.estimate(payload, {
        userId,
        resource: RESOURCES.default,
        countMolecules: (id, port) => (id === STAND_IN_ARTIFACT ? Promise.resolve(ASSUMED_MOLECULES) : s.artifacts.countMolecules(userId, id, port)),
        models: s.models.jobPort(),
      }),
    plans,
  );
}

/** The cost of a valid spec: each step's job estimate at its resource's rate; the runtime of the critical path. */
export async function estimateFor(s: Services, userId: string, spec: unknown) {
  const plans: StepPlan[] = [];
  const v = await validateFor(s, userId, spec, plans);
  if (!v.valid) throw invalidInput(v.errors);
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
    cost: total / 1_000_000,
    expected_runtime_sec: Math.max(0, ...finish.values()),
    steps: steps.map(({ cost_micros, after: _after, ...x }) => ({ ...x, cost: cost_micros / 1_000_000 })),
    assumptions: {
      molecules_per_bound_input: ASSUMED_MOLECULES,
      runtime: 'the longest chain of steps; independent steps run in parallel',
      cost: "the sum of the steps' job estimates, reserved when a run starts",
    },
  };
}

const routes: RoutePlugin = async (app, { services }) => {
  app.post(
    '/workflows/validate',
    {
      bodyLimit: MAX_SPEC_BYTES + 1024,
      config: { scope: 'read' },
      schema: {
        tags: ['workflows'],
        summary: 'Validate a workflow spec (charges nothing): every problem with its location, and an order of the steps',
        body: Type.Ref(ValidateRequest),
        response: { 200: Type.Ref(WorkflowValidation) },
      },
    },
    async (request) => validateFor(services, principalOf(request).userId, (request.body as { spec: unknown }).spec),
  );

  app.post(
    '/workflows/estimate',
    {
      bodyLimit: MAX_SPEC_BYTES + 1024,
      config: { scope: 'read' },
      schema: {
        tags: ['workflows'],
        summary: 'Estimate a workflow run (charges nothing): total and per-step cost and runtime; 422 with every problem of an invalid spec',
        body: Type.Ref(ValidateRequest),
        response: { 200: Type.Ref(WorkflowEstimate) },
      },
    },
    async (request) => estimateFor(services, principalOf(request).userId, (request.body as { spec: unknown }).spec),
  );
};

export const workflowsModule: Module = {
  name: 'workflows',
  schemas: [WorkflowSpec, WorkflowValidation, WorkflowEstimate, ValidateRequest],
  routes,
};
