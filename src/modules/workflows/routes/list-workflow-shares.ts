// GET /workflows/:workflow_id/shares (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { WorkflowShares } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const listWorkflowShares = route('GET /workflows/:workflow_id/shares', 'listWorkflowShares', {
  summary: "A definition's active shares (owner only)",
  params: WorkflowIdParams,
  response: ok(WorkflowShares, 'The shares of the definition'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.shares(principalOf(request).userId, request.params.workflow_id),
});
