// GET /workflows/runs/:run_id/graph (docs/workflows.md).
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../../api/route.js';
import { buildGraph, graphMermaid, graphSvg } from '../../../workflows/graph.js';
import type { WorkflowSpec } from '../../../workflows/spec.js';
import type { RunView } from '../runs-view.js';
import { GraphQuery, WorkflowRunGraph } from '../schemas.js';
import { route, RunIdParams } from './shared.js';

export const getWorkflowRunGraph = route('GET /workflows/runs/:run_id/graph', 'getWorkflowRunGraph', {
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
  handler: async ({ workflowRuns: runs }, request, reply) => {
    const run = await runs.get(principalOf(request).userId, request.params.run_id);
    const g = graphOf(run, await runs.specOf(principalOf(request).userId, run.run_id));
    const format = request.query.format ?? 'svg';
    if (format === 'json') return reply.type('application/json; charset=utf-8').send(g);
    if (format === 'mermaid') return reply.type('text/plain; charset=utf-8').send(graphMermaid(g));
    return reply.type('image/svg+xml').send(graphSvg(g));
  },
});

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
