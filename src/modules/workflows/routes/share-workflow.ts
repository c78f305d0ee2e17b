// POST /workflows/:workflow_id/share (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { ShareRequest, WorkflowShare } from '../schemas.js';
import { route, WorkflowIdParams } from './shared.js';

export const shareWorkflow = route.idempotent('POST /workflows/:workflow_id/share', 'shareWorkflow', {
  summary: 'Share with a user by email (view or run), or create a link token (shown once)',
  params: WorkflowIdParams,
  body: Type.Ref(ShareRequest),
  response: created(WorkflowShare, 'The share (a link share carries its token, shown this once)'),
  handler: async ({ workflowDefinitions: defs }, request, reply) => {
    const idem = request.idempotency;
    // A replay answers the share without its token: the token is shown once.
    const v = await defs.share(principalOf(request).userId, request.params.workflow_id, request.body, (tx, share) => {
      const { token: _token, url: _url, ...kept } = share;
      return idem?.saveInTx(tx, 201, kept, { redacted: true }) ?? Promise.resolve();
    });
    return reply.code(201).send(v);
  },
});
