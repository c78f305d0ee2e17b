// POST /workflows/:workflow_id/restore (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { RestoreRequest, WorkflowDefinition } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const restoreWorkflow = route.idempotent('POST /workflows/:workflow_id/restore', 'restoreWorkflow', {
  summary: 'Undelete a definition, or with {version} make an old version the latest (as a new version)',
  params: WorkflowIdParams,
  body: Type.Ref(RestoreRequest),
  response: ok(WorkflowDefinition, 'The definition, undeleted or at a new version copied from the old one'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.restore(principalOf(request).userId, request.params.workflow_id, request.body ?? {}, pinReply(request, 200)),
});
