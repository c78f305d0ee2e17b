// POST /workflows/:workflow_id/fork (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { ForkRequest, WorkflowDefinition } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const forkWorkflow = route.idempotent('POST /workflows/:workflow_id/fork', 'forkWorkflow', {
  summary: 'Copy a definition (yours, shared with you, or a template by its template_id) into a new one of yours',
  params: WorkflowIdParams,
  body: Type.Ref(ForkRequest),
  response: created(WorkflowDefinition, 'The new definition, forked from the source'),
  handler: async ({ workflowDefinitions: defs }, request, reply) =>
    reply.code(201).send(await defs.fork(principalOf(request).userId, request.params.workflow_id, request.body ?? {}, pinReply(request, 201))),
});
