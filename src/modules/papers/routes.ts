// GET /papers, GET /papers/{paper_id}, GET /papers/cite (docs/papers.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
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
        summary: 'What to cite for a job: the papers of the methods it ran, with a BibTeX bundle',
        querystring: CiteQuery,
        response: { 200: Type.Ref(CiteResponse) },
      },
    },
    async (request) => {
      const job = await services.jobs.get(principalOf(request).userId, request.query.process_id);
      return { process_id: job.id, job_types: [job.job_type], ...services.papers.cite([job.job_type]) };
    },
  );

  app.get(
    '/papers/:paper_id',
    { schema: { tags, summary: 'One reference, with its citation, BibTeX and RIS', params: PaperIdParams, response: { 200: Type.Ref(PaperDetail) } } },
    async (request) => services.papers.get(request.params.paper_id),
  );
};
