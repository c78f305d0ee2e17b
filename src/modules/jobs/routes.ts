import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import type { Services } from '../../services.js';
import {
  JobEstimateRequest,
  JobEstimateResponse,
  JobInfoResponse,
  JobStatusResponse,
  JobSubmitMultipleRequest,
  JobSubmitRequest,
  ListJobsQuery,
  ListJobsResponse,
  ProcessIdQuery,
  ProcessIdsQuery,
} from './schemas.js';

export const jobRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { jobs } = services;
  const tags = ['jobs'];

  app.post(
    '/jobs/estimate',
    { config: { scope: 'read' }, schema: { tags, summary: 'Estimate the cost of a job (charges nothing)', body: Type.Ref(JobEstimateRequest), response: { 200: Type.Ref(JobEstimateResponse) } } },
    async (request) => jobs.estimate(principalOf(request), request.body as never),
  );

  app.post(
    '/jobs/submit',
    {
      config: { idempotency: true },
      schema: {
        tags,
        summary: 'Submit a job: reserves its estimated cost (charges your wallet at the actual runtime)',
        body: Type.Ref(JobSubmitRequest),
        response: { 200: Type.Object({ process_id: Type.String() }, { additionalProperties: false }) },
      },
    },
    async (request) => {
      const body = request.body as never as Parameters<typeof jobs.submit>[1][number];
      return jobs.submit(principalOf(request), [body], () => ['body'], request.idempotency, (ids) => ({ process_id: ids[0] }));
    },
  );

  app.post(
    '/jobs/submit-multiple',
    {
      config: { idempotency: true },
      schema: {
        tags,
        summary: 'Submit several jobs, all or nothing',
        body: Type.Ref(JobSubmitMultipleRequest),
        response: { 200: Type.Object({ process_ids: Type.Array(Type.String(), { default: [] }) }, { additionalProperties: false }) },
      },
    },
    async (request) => {
      const body = request.body as { jobs: Parameters<typeof jobs.submit>[1] };
      return jobs.submit(principalOf(request), body.jobs, (i) => ['body', 'jobs', i], request.idempotency, (ids) => ({ process_ids: ids }));
    },
  );

  app.get(
    '/jobs/list',
    { schema: { tags, summary: 'List your jobs', querystring: ListJobsQuery, response: { 200: Type.Ref(ListJobsResponse) } } },
    async (request) => jobs.list(principalOf(request).userId, request.query),
  );

  app.get(
    '/jobs/info',
    { schema: { tags, summary: 'A job in detail', querystring: ProcessIdQuery, response: { 200: Type.Ref(JobInfoResponse) } } },
    async (request) => jobs.info(principalOf(request).userId, request.query.process_id),
  );

  app.get(
    '/jobs/status',
    { schema: { tags, summary: "A job's status", querystring: ProcessIdQuery, response: { 200: Type.Ref(JobStatusResponse) } } },
    async (request) => jobs.status(principalOf(request).userId, request.query.process_id),
  );

  app.get(
    '/jobs/result',
    { schema: { tags, summary: 'The result of a completed job (409 job-not-finished before)', querystring: ProcessIdQuery } },
    async (request) => jobs.result(principalOf(request).userId, request.query.process_id),
  );

  app.get(
    '/jobs/result-multiple',
    { schema: { tags, summary: 'Results of up to 50 jobs: each id maps to its result or to a problem', querystring: ProcessIdsQuery } },
    async (request) => jobs.resultMultiple(principalOf(request).userId, request.query.process_ids, request.url.split('?')[0], String(request.id)),
  );

  app.delete(
    '/jobs/cancel',
    { schema: { tags, summary: 'Cancel a job; charges the runtime used', querystring: ProcessIdQuery, response: { 200: Type.Ref('MessageResponse') } } },
    async (request) => jobs.cancel(principalOf(request).userId, request.query.process_id),
  );

  app.delete(
    '/jobs/delete',
    { schema: { tags, summary: 'Delete a finished job and its result artifact', querystring: ProcessIdQuery, response: { 200: Type.Ref('MessageResponse') } } },
    async (request) => jobs.delete(principalOf(request).userId, request.query.process_id),
  );
};
