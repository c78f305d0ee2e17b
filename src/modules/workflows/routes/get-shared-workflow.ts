// GET /workflows/shared/:share_token (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { WorkflowDefinition } from '../schemas.js';
import { route } from './shared.js';

export const getSharedWorkflow = route('GET /workflows/shared/:share_token', 'getSharedWorkflow', {
  summary: 'A definition shared by link (any signed-in holder of the token)',
  params: Type.Object({ share_token: Type.String({ maxLength: 200 }) }),
  response: ok(WorkflowDefinition, 'The definition shared by the link'),
  handler: async ({ workflowDefinitions: defs }, request) => (await defs.byToken(request.params.share_token)).view,
});
