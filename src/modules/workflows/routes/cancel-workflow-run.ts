// POST /workflows/runs/:run_id/cancel (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { WorkflowRun } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const cancelWorkflowRun = route('POST /workflows/runs/:run_id/cancel', 'cancelWorkflowRun', {
  summary: 'Cancel the queued and running steps (their runtime is charged) and end the run; the rest of the reservation is released',
  params: RunIdParams,
  response: ok(WorkflowRun, 'The run, cancelled; the runtime used is charged'),
  handler: async ({ workflowRuns }, request) => workflowRuns.cancel(principalOf(request).userId, request.params.run_id),
});
