// POST /workflows (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { WorkflowDefinition, WorkflowSaveRequest } from '../schemas.js';
import { route, SPEC_BODY_LIMIT } from './shared.js';

export const createWorkflow = route.idempotent('POST /workflows', 'createWorkflow', {
  bodyLimit: SPEC_BODY_LIMIT,
  summary: 'Save a definition (version 1); 422 with every problem of an invalid spec',
  body: Type.Ref(WorkflowSaveRequest),
  response: created(WorkflowDefinition, 'The saved definition (version 1)'),
  handler: async ({ workflowDefinitions: defs }, request, reply) => reply.code(201).send(await defs.create(principalOf(request).userId, request.body, pinReply(request, 201))),
});
