// POST /workflows/runs (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { pinReply, principalOf } from '../../../api/route.js';
import { RunStartRequest, WorkflowRun } from '../schemas.js';
import { route, SPEC_BODY_LIMIT } from './shared.js';

export const startWorkflowRun = route.idempotent('POST /workflows/runs', 'startWorkflowRun', {
  bodyLimit: SPEC_BODY_LIMIT,
  summary: 'Start a run of a saved definition, a share link, a template or an inline spec: reserves its estimate (charges your wallet at the steps\u2019 runtime)',
  body: Type.Ref(RunStartRequest),
  response: created(WorkflowRun, 'The run, started: its estimate is reserved'),
  handler: async ({ workflowRuns }, request, reply) => reply.code(201).send(await workflowRuns.start(principalOf(request), request.body, pinReply(request, 201))),
});
