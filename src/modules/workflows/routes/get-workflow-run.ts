// GET /workflows/runs/:run_id (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { WorkflowRun } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const getWorkflowRun = route('GET /workflows/runs/:run_id', 'getWorkflowRun', {
  summary: "A run with every step's state, job, progress and cost so far, and its outputs",
  params: RunIdParams,
  response: ok(WorkflowRun, 'The run with its steps and outputs'),
  handler: async ({ workflowRuns }, request) => workflowRuns.get(principalOf(request).userId, request.params.run_id),
});
