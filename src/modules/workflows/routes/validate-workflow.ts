// POST /workflows/validate (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { validateFor } from '../check.js';
import { ValidateRequest, WorkflowValidation } from '../schemas.js';
import { route, SPEC_BODY_LIMIT } from './shared.js';

export const validateWorkflow = route('POST /workflows/validate', 'validateWorkflow', {
  bodyLimit: SPEC_BODY_LIMIT,
  config: { scope: 'read' },
  summary: 'Validate a workflow spec (charges nothing): every problem with its location, and an order of the steps',
  body: Type.Ref(ValidateRequest),
  response: ok(WorkflowValidation, 'The verdict: every error and warning located in the spec, and a step order'),
  handler: async (services, request) => validateFor(services, principalOf(request).userId, (request.body as { spec: unknown }).spec),
});
