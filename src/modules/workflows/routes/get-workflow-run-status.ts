// GET /workflows/runs/:run_id/status (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { runStatus } from '../runs-view.js';
import { WorkflowRunStatus } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const getWorkflowRunStatus = route('GET /workflows/runs/:run_id/status', 'getWorkflowRunStatus', {
  summary: 'Light status: state, steps done of total, progress, cost so far',
  params: RunIdParams,
  response: ok(WorkflowRunStatus, "The run's state and progress"),
  handler: async ({ workflowRuns }, request) => runStatus(await workflowRuns.get(principalOf(request).userId, request.params.run_id)),
});
