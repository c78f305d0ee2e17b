// GET /workflows/runs/:run_id/steps/:step_id (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { principalOf } from '../../../api/route.js';
import { JOB_TYPES } from '../../../compute/registry.js';
import { notFound } from '../../../errors.js';
import { outputPortsOf } from '../../../workflows/spec.js';
import { WorkflowRunStep } from '../schemas.js';
import { route } from './shared.js';

export const getWorkflowRunStep = route('GET /workflows/runs/:run_id/steps/:step_id', 'getWorkflowRunStep', {
  summary: 'One step: its job, its outputs once completed, its error',
  params: Type.Object({ run_id: Type.String({ maxLength: 100 }), step_id: Type.String({ maxLength: 100 }) }),
  response: ok(WorkflowRunStep, 'The step: its job, outputs and error'),
  handler: async ({ workflowRuns }, request) => {
    const v = await workflowRuns.get(principalOf(request).userId, request.params.run_id);
    const s = v.steps?.find((x) => x.step_id === request.params.step_id);
    if (!s) throw notFound(`step ${request.params.step_id} of run ${v.run_id}`);
    const done = (s.state === 'completed' || s.state === 'reused') && s.result_artifact_id;
    const ports = done ? Object.keys(outputPortsOf(JOB_TYPES.get(s.job_type))) : [];
    return {
      run_id: v.run_id,
      ...s,
      outputs: Object.fromEntries(ports.map((port) => [port, { artifact_id: s.result_artifact_id!, port }])),
      error: s.state === 'failed' || s.state === 'cancelled' || s.state === 'skipped' ? s.message || s.state : null,
    };
  },
});
