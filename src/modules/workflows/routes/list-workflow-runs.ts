// GET /workflows/runs (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { ListRunsQuery, WorkflowRunList } from '../schemas.js';
import { route } from './shared.js';

export const listWorkflowRuns = route('GET /workflows/runs', 'listWorkflowRuns', {
  summary: 'Your runs',
  querystring: ListRunsQuery,
  response: ok(WorkflowRunList, 'A page of your runs'),
  handler: async ({ workflowRuns }, request) => workflowRuns.list(principalOf(request).userId, request.query),
});
