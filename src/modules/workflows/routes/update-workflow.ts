// PUT /workflows/:workflow_id (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { WorkflowDefinition, WorkflowUpdateRequest } from '../schemas.js';
import { route, WorkflowIdParams, SPEC_BODY_LIMIT } from './shared.js';

export const updateWorkflow = route('PUT /workflows/:workflow_id', 'updateWorkflow', {
  bodyLimit: SPEC_BODY_LIMIT,
  summary: 'Save a new version; base_version must be the latest (else 409 version-conflict)',
  params: WorkflowIdParams,
  body: Type.Ref(WorkflowUpdateRequest),
  response: ok(WorkflowDefinition, 'The definition at its new version'),
  handler: async ({ workflowDefinitions: defs }, request) => defs.update(principalOf(request).userId, request.params.workflow_id, request.body),
});
