// POST /workflows/runs/:run_id/rerun (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { RerunRequest, WorkflowRun } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const rerunWorkflowRun = route.idempotent('POST /workflows/runs/:run_id/rerun', 'rerunWorkflowRun', {
  summary: 'A new run of the same spec and inputs (charges your wallet); reuse_completed reuses outputs of unchanged completed steps',
  params: RunIdParams,
  body: Type.Ref(RerunRequest),
  response: created(WorkflowRun, 'The new run, started: its estimate is reserved'),
  handler: async ({ workflowRuns }, request, reply) =>
    reply.code(201).send(await workflowRuns.rerun(principalOf(request), request.params.run_id, request.body ?? {}, pinReply(request, 201))),
});
