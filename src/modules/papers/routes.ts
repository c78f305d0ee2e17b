// GET /papers, GET /papers/{paper_id}, GET /papers/cite (docs/papers.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import { invalid } from '../../errors.js';
import type { Services } from '../../services.js';
import { CiteQuery, CiteResponse, PaperDetail, PaperIdParams, PaperList, PaperListQuery } from './schemas.js';

export const paperRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['papers'];

  app.get(
    '/papers',
    { schema: { tags, summary: "The references behind Crucible's methods and data", querystring: PaperListQuery, response: { 200: Type.Ref(PaperList) } } },
    async (request) => services.papers.list(request.query),
  );

  // A static path: the router prefers it to /papers/:paper_id, so "cite" is never taken for an id.
  app.get(
    '/papers/cite',
    {
      schema: {
        tags,
        summary: 'What to cite for a job, a workflow run, or both: the papers of the methods they ran, with a BibTeX bundle',
        querystring: CiteQuery,
        response: { 200: Type.Ref(CiteResponse) },
      },
    },
    async (request) => {
      const userId = principalOf(request).userId;
      const { process_id: processId, workflow_run_id: runId } = request.query;
      if (processId === undefined && runId === undefined) throw invalid(['process_id'], 'Give process_id (a job) or workflow_run_id (a workflow run), or both', null, 'missing');
      // A run is its steps' jobs: the job types of every step, in the order of the spec; with both, the job's first.
      const jobTypes: string[] = [];
      const asked: { process_id?: string; workflow_run_id?: string } = {};
      if (processId !== undefined) {
        const job = await services.jobs.get(userId, processId);
        jobTypes.push(job.job_type);
        asked.process_id = job.id;
      }
      if (runId !== undefined) {
        const spec = await services.workflowRuns.specOf(userId, runId);
        jobTypes.push(...spec.steps.map((s) => s.job_type));
        asked.workflow_run_id = runId;
      }
      const types = [...new Set(jobTypes)];
      return { ...asked, job_types: types, ...services.papers.cite(types) };
    },
  );

  app.get(
    '/papers/:paper_id',
    { schema: { tags, summary: 'One reference, with its citation, BibTeX and RIS', params: PaperIdParams, response: { 200: Type.Ref(PaperDetail) } } },
    async (request) => services.papers.get(request.params.paper_id),
  );
};
