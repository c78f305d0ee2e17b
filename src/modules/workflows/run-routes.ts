// Workflow runs over HTTP (docs/workflows.md): start (charges your wallet: reserves the
// estimate), list, read, status, one step, outputs, cancel, rerun, delete and the graph.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { JOB_TYPES } from '../../compute/registry.js';
import { notFound } from '../../errors.js';
import { buildGraph, graphMermaid, graphSvg } from '../../workflows/graph.js';
import { outputPortsOf, type WorkflowSpec } from '../../workflows/spec.js';
import { SPEC_BODY_LIMIT } from './routes.js';
import type { RunView } from './runs-view.js';
import {
  GraphQuery,
  ListRunsQuery,
  RerunRequest,
  RunStartRequest,
  WorkflowRun,
  WorkflowRunGraph,
  WorkflowRunList,
  WorkflowRunOutputs,
  WorkflowRunStatus,
  WorkflowRunStep,
} from './schemas.js';

const tags = ['workflows'];
const RunIdParams = Type.Object({ run_id: Type.String({ maxLength: 100 }) });

export const runRoutes: RoutePlugin = async (app, { services }) => {
  const runs = services.workflowRuns;

  app.post(
    '/workflows/runs',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      config: { idempotency: true },
      schema: {
        operationId: 'startWorkflowRun',
        tags,
        summary: 'Start a run of a saved definition, a share link, a template or an inline spec: reserves its estimate (charges your wallet at the steps\u2019 runtime)',
        body: Type.Ref(RunStartRequest),
        response: { 201: Type.Ref(WorkflowRun, { description: 'The run, started: its estimate is reserved' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      const v = await runs.start(principalOf(request), request.body, (tx, view) => idem?.saveInTx(tx, 201, view) ?? Promise.resolve());
      return reply.code(201).send(v);
    },
  );

  app.get(
    '/workflows/runs',
    {
      schema: {
        operationId: 'listWorkflowRuns',
        tags,
        summary: 'Your runs',
        querystring: ListRunsQuery,
        response: { 200: Type.Ref(WorkflowRunList, { description: 'A page of your runs' }) },
      },
    },
    async (request) => runs.list(principalOf(request).userId, request.query),
  );

  app.get(
    '/workflows/runs/:run_id',
    {
      schema: {
        operationId: 'getWorkflowRun',
        tags,
        summary: "A run with every step's state, job, progress and cost so far, and its outputs",
        params: RunIdParams,
        response: { 200: Type.Ref(WorkflowRun, { description: 'The run with its steps and outputs' }) },
      },
    },
    async (request) => runs.get(principalOf(request).userId, request.params.run_id),
  );

  app.get(
    '/workflows/runs/:run_id/status',
    {
      schema: {
        operationId: 'getWorkflowRunStatus',
        tags,
        summary: 'Light status: state, steps done of total, progress, cost so far',
        params: RunIdParams,
        response: { 200: Type.Ref(WorkflowRunStatus, { description: "The run's state and progress" }) },
      },
    },
    async (request) => {
      const v = await runs.get(principalOf(request).userId, request.params.run_id);
      return {
        run_id: v.run_id,
        status: v.status,
        steps_done: v.steps_done,
        steps_total: v.steps_total,
        progress: v.progress,
        cost_so_far_usd: v.cost_so_far_usd,
        steps: (v.steps ?? []).map((s) => ({ step_id: s.step_id, state: s.state, progress: s.progress })),
      };
    },
  );

  app.get(
    '/workflows/runs/:run_id/steps/:step_id',
    {
      schema: {
        operationId: 'getWorkflowRunStep',
        tags,
        summary: 'One step: its job, its outputs once completed, its error',
        params: Type.Object({ run_id: Type.String({ maxLength: 100 }), step_id: Type.String({ maxLength: 100 }) }),
        response: { 200: Type.Ref(WorkflowRunStep, { description: 'The step: its job, outputs and error' }) },
      },
    },
    async (request) => {
      const v = await runs.get(principalOf(request).userId, request.params.run_id);
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
  );

  app.get(
    '/workflows/runs/:run_id/outputs',
    {
      schema: {
        operationId: 'getWorkflowRunOutputs',
        tags,
        summary: "The run's outputs as artifacts (download with GET /artifacts/{artifact_id}/download?port=...)",
        params: RunIdParams,
        response: { 200: Type.Ref(WorkflowRunOutputs, { description: "The run's outputs as artifacts" }) },
      },
    },
    async (request) => {
      const v = await runs.get(principalOf(request).userId, request.params.run_id);
      return { run_id: v.run_id, status: v.status, outputs: v.outputs ?? {} };
    },
  );

  app.post(
    '/workflows/runs/:run_id/cancel',
    {
      schema: {
        operationId: 'cancelWorkflowRun',
        tags,
        summary: 'Cancel the queued and running steps (their runtime is charged) and end the run; the rest of the reservation is released',
        params: RunIdParams,
        response: { 200: Type.Ref(WorkflowRun, { description: 'The run, cancelled; the runtime used is charged' }) },
      },
    },
    async (request) => runs.cancel(principalOf(request).userId, request.params.run_id),
  );

  app.post(
    '/workflows/runs/:run_id/rerun',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'rerunWorkflowRun',
        tags,
        summary: 'A new run of the same spec and inputs (charges your wallet); reuse_completed reuses outputs of unchanged completed steps',
        params: RunIdParams,
        body: Type.Ref(RerunRequest),
        response: { 201: Type.Ref(WorkflowRun, { description: 'The new run, started: its estimate is reserved' }) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      const v = await runs.rerun(principalOf(request), request.params.run_id, request.body ?? {}, (tx, view) => idem?.saveInTx(tx, 201, view) ?? Promise.resolve());
      return reply.code(201).send(v);
    },
  );

  app.delete(
    '/workflows/runs/:run_id',
    {
      schema: {
        operationId: 'deleteWorkflowRun',
        tags,
        summary: 'Delete a finished run with the jobs and artifacts it made',
        params: RunIdParams,
        response: { 200: Type.Ref('MessageResponse', { description: 'The run and its artifacts are deleted' }) },
      },
    },
    async (request) => {
      await runs.delete(principalOf(request).userId, request.params.run_id);
      return { message: `workflow run ${request.params.run_id} deleted` };
    },
  );

  app.get(
    '/workflows/runs/:run_id/graph',
    {
      schema: {
        operationId: 'getWorkflowRunGraph',
        tags,
        summary: 'The DAG with step states: SVG (default), JSON or Mermaid',
        params: RunIdParams,
        querystring: GraphQuery,
        response: {
          200: {
            description: 'image/svg+xml, application/json (WorkflowRunGraph) or text/plain (Mermaid)',
            content: {
              'image/svg+xml': { schema: Type.String() },
              'application/json': { schema: Type.Ref(WorkflowRunGraph) },
              'text/plain': { schema: Type.String() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const run = await runs.get(principalOf(request).userId, request.params.run_id);
      const g = graphOf(run, await runs.specOf(principalOf(request).userId, run.run_id));
      const format = request.query.format ?? 'svg';
      if (format === 'json') return reply.type('application/json; charset=utf-8').send(g);
      if (format === 'mermaid') return reply.type('text/plain; charset=utf-8').send(graphMermaid(g));
      return reply.type('image/svg+xml').send(graphSvg(g));
    },
  );
};

function graphOf(run: RunView, spec: WorkflowSpec) {
  const graph = buildGraph({
    runId: run.run_id,
    name: run.name,
    status: run.status,
    inputs: Object.keys(spec.inputs ?? {}),
    steps: spec.steps.map((s) => {
      const v = run.steps?.find((x) => x.step_id === s.id);
      return { id: s.id, job_type: s.job_type, state: v?.state ?? 'pending', progress: v?.state === 'running' ? v.progress : null, inputs: s.inputs ?? {}, params: s.params ?? {} };
    }),
    outputs: spec.outputs ?? {},
  });
  return { ...graph, status: run.status };
}
