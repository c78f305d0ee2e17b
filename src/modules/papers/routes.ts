// GET /papers, GET /papers/{paper_id}, GET /papers/cite (docs/papers.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import { invalid } from '../../errors.js';
import type { Services } from '../../services.js';
import type { WorkflowSpec } from '../../workflows/spec.js';
import type { CitedJob } from './service.js';
import { CiteQuery, CiteResponse, PaperDetail, PaperIdParams, PaperList, PaperListQuery } from './schemas.js';

/** The model a job predicted with (`mpnn_predict`'s payload.model), if any. */
function modelOf(payload: unknown): string[] {
  const model = (payload as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? [model] : [];
}

/** A step's params with each `$inputs.<name>` replaced by the run's input (a step not started yet). */
function resolveParams(params: Record<string, unknown> | undefined, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) out[k] = typeof v === 'string' && v.startsWith('$inputs.') ? inputs[v.slice('$inputs.'.length)] : v;
  return out;
}

/**
 * What a workflow run's steps ran (docs/papers.md): each started step's job (its type and
 * payload); a step not started yet, while the run goes on, its type and params (as given or from
 * the run's inputs, `$inputs.<name>`); a step the ended run never started ran nothing.
 */
async function runJobs(services: Services, userId: string, runId: string, spec: WorkflowSpec): Promise<CitedJob[]> {
  const run = await services.workflowRuns.get(userId, runId);
  const ended = !['queued', 'running'].includes(run.status);
  const out: CitedJob[] = [];
  for (const step of spec.steps) {
    const started = run.steps?.find((s) => s.step_id === step.id)?.job_id;
    if (started) {
      const job = await services.jobs.get(userId, started);
      out.push({ job_type: job.job_type, payload: job.payload });
    } else if (!ended) {
      out.push({ job_type: step.job_type, payload: resolveParams(step.params as Record<string, unknown> | undefined, run.inputs) });
    }
  }
  return out;
}

export const paperRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['papers'];

  app.get(
    '/papers',
    {
      schema: {
        operationId: 'listPapers',
        tags,
        summary: "The references behind Crucible's methods and data",
        querystring: PaperListQuery,
        response: { 200: Type.Ref(PaperList, { description: 'The matching references' }) },
      },
    },
    async (request) => services.papers.list(request.query),
  );

  // A static path: the router prefers it to /papers/:paper_id, so "cite" is never taken for an id.
  app.get(
    '/papers/cite',
    {
      schema: {
        operationId: 'citeResult',
        tags,
        summary: 'What to cite for a job, a workflow run, or both: the papers of the methods they ran, with a BibTeX bundle',
        querystring: CiteQuery,
        response: { 200: Type.Ref(CiteResponse, { description: 'The references behind the result, with a BibTeX bundle' }) },
      },
    },
    async (request) => {
      const userId = principalOf(request).userId;
      const { process_id: processId, workflow_run_id: runId } = request.query;
      if (processId === undefined && runId === undefined) throw invalid(['process_id'], 'Give process_id (a job) or workflow_run_id (a workflow run), or both', null, 'missing');
      // A run is its steps' jobs: what each step ran, in the order of the spec; with both, the job's first.
      const jobs: CitedJob[] = [];
      const asked: { process_id?: string; workflow_run_id?: string } = {};
      if (processId !== undefined) {
        // A job, or an asynchronous inference request (its request_id is a job of origin `inference`).
        const job = await services.jobs.get(userId, processId).catch(async (err: unknown) => {
          const request = await services.jobs.get(userId, processId, 'inference').catch(() => null);
          if (!request) throw err;
          return request;
        });
        jobs.push({ job_type: job.job_type, payload: job.payload });
        asked.process_id = job.id;
      }
      if (runId !== undefined) {
        const spec = await services.workflowRuns.specOf(userId, runId);
        jobs.push(...(await runJobs(services, userId, runId, spec)));
        asked.workflow_run_id = runId;
      }
      const types = [...new Set(jobs.map((j) => j.job_type))];
      const used = [...new Set(jobs.flatMap((j) => modelOf(j.payload)))].filter((m) => m.startsWith('public/'));
      return { ...asked, job_types: types, ...(used.length ? { models: used } : {}), ...services.papers.cite(jobs, used) };
    },
  );

  app.get(
    '/papers/:paper_id',
    {
      schema: {
        operationId: 'getPaper',
        tags,
        summary: 'One reference, with its citation, BibTeX and RIS',
        params: PaperIdParams,
        response: { 200: Type.Ref(PaperDetail, { description: 'The reference with BibTeX, RIS and a formatted citation' }) },
      },
    },
    async (request) => services.papers.get(request.params.paper_id),
  );
};
