// DELETE /workflows/:workflow_id (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { route, WorkflowIdParams } from './shared.js';

export const deleteWorkflow = route('DELETE /workflows/:workflow_id', 'deleteWorkflow', {
  summary: 'Delete a definition (restorable for 30 days)',
  params: WorkflowIdParams,
  response: ok('MessageResponse', 'The definition is deleted (restorable for 30 days)'),
  handler: async ({ workflowDefinitions: defs }, request) => {
    await defs.delete(principalOf(request).userId, request.params.workflow_id);
    return { message: `workflow ${request.params.workflow_id} deleted; restorable for 30 days` };
  },
});
