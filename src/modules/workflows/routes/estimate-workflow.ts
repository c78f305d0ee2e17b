// POST /workflows/estimate (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { estimatedSpec, estimateFor } from '../check.js';
import { EstimateRequest, WorkflowEstimate } from '../schemas.js';
import { route, SPEC_BODY_LIMIT } from './shared.js';

export const estimateWorkflow = route('POST /workflows/estimate', 'estimateWorkflow', {
  bodyLimit: SPEC_BODY_LIMIT,
  config: { scope: 'read' },
  summary:
    'Estimate a workflow run of a spec or a built-in template (charges nothing): total and per-step cost and runtime, with the run\u2019s inputs if given; 422 with every problem of an invalid spec',
  body: Type.Ref(EstimateRequest),
  response: ok(WorkflowEstimate, "The run's cost and runtime, per step and in total"),
  handler: async (services, request) => {
    const body = request.body as { spec?: unknown; template_id?: string; inputs?: Record<string, unknown> };
    return estimateFor(services, principalOf(request).userId, estimatedSpec(body), body.inputs);
  },
});
