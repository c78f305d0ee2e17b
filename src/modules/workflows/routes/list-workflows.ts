// GET /workflows (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { ListWorkflowsQuery, WorkflowList } from '../schemas.js';
import { route } from './shared.js';

export const listWorkflows = route('GET /workflows', 'listWorkflows', {
  summary: 'Your definitions and those shared with you (or, with deleted=true, your deleted ones)',
  querystring: ListWorkflowsQuery,
  response: ok(WorkflowList, 'A page of the definitions you own or that are shared with you'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.list(principalOf(request).userId, request.query),
});
