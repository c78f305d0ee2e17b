// GET /workflows/runs/:run_id/outputs (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { runOutputs } from '../runs-view.js';
import { WorkflowRunOutputs } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const getWorkflowRunOutputs = route('GET /workflows/runs/:run_id/outputs', 'getWorkflowRunOutputs', {
  summary: "The run's outputs as artifacts (download with GET /artifacts/{artifact_id}/download?port=...)",
  params: RunIdParams,
  response: ok(WorkflowRunOutputs, "The run's outputs as artifacts"),
  handler: async ({ workflowRuns }, request) => runOutputs(await workflowRuns.get(principalOf(request).userId, request.params.run_id)),
});
