// DELETE /workflows/runs/:run_id (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { route, RunIdParams } from './shared.js';

export const deleteWorkflowRun = route('DELETE /workflows/runs/:run_id', 'deleteWorkflowRun', {
  summary: 'Delete a finished run with the jobs and artifacts it made',
  params: RunIdParams,
  response: ok('MessageResponse', 'The run and its artifacts are deleted'),
  handler: async ({ workflowRuns }, request) => {
    await workflowRuns.delete(principalOf(request).userId, request.params.run_id);
    return { message: `workflow run ${request.params.run_id} deleted` };
  },
});
