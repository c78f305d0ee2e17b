// GET /workflows/:workflow_id/versions (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { WorkflowVersions } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const listWorkflowVersions = route('GET /workflows/:workflow_id/versions', 'listWorkflowVersions', {
  summary: 'Version history, newest first',
  params: WorkflowIdParams,
  response: ok(WorkflowVersions, 'The version history'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.versions(principalOf(request).userId, request.params.workflow_id),
});
