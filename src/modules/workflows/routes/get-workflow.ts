// GET /workflows/:workflow_id (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { VersionQuery, WorkflowDefinition } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const getWorkflow = route('GET /workflows/:workflow_id', 'getWorkflow', {
  summary: 'A definition: its latest version, or ?version=N',
  params: WorkflowIdParams,
  querystring: VersionQuery,
  response: ok(WorkflowDefinition, 'The definition (its latest version, or the one asked for)'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.read(principalOf(request).userId, request.params.workflow_id, request.query.version),
});
