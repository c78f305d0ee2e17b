// DELETE /workflows/:workflow_id/shares/:share_id (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { route } from './shared.js';

export const revokeWorkflowShare = route('DELETE /workflows/:workflow_id/shares/:share_id', 'revokeWorkflowShare', {
  summary: 'Revoke a share at once',
  params: Type.Object({ workflow_id: Type.String({ maxLength: 100 }), share_id: Type.String({ maxLength: 100 }) }),
  response: ok('MessageResponse', 'The share is revoked at once'),
  handler: async ({ workflowDefinitions: defs }, request) => {
    await defs.revoke(principalOf(request).userId, request.params.workflow_id, request.params.share_id);
    return { message: `share ${request.params.share_id} revoked` };
  },
});
