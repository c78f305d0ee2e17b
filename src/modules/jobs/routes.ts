// Jobs over HTTP: the routes adapt requests to the compute engine's JobService (src/compute)
// and its results to the reference's response shapes.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import type { JobRequest } from '../../compute/service.js';
import { cancelledMessage, jobEstimate, jobInfo, jobListItem, jobStatus } from './present.js';
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

export const jobRoutes: RoutePlugin = async (app, { services }) => {
  const { jobs } = services;
  const tags = ['jobs'];

  app.post(
    '/jobs/estimate',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'Estimate the cost of a job (charges nothing)', body: Type.Ref(JobEstimateRequest), response: { 200: Type.Ref(JobEstimateResponse) } },
    },
    async (request) => {
      const p = principalOf(request);
      return jobEstimate(await jobs.estimate(p, request.body), p.tier);
    },
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
      const idem = request.idempotency;
      // The idempotency record commits with the job: a retry can never make a second one.
      const id = await jobs.submitOne(principalOf(request), request.body, {
        inTransaction: (tx, ids) => idem?.saveInTx(tx, 200, { process_id: ids[0] }) ?? Promise.resolve(),
      });
      return { process_id: id };
    },
  );

  app.post(
    '/jobs/submit-multiple',
    {
      config: { idempotency: true, input: ['body', 'jobs'] },
      schema: {
        tags,
        summary: 'Submit several jobs, all or nothing',
        body: Type.Ref(JobSubmitMultipleRequest),
        response: { 200: Type.Object({ process_ids: Type.Array(Type.String(), { default: [] }) }, { additionalProperties: false }) },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      const body = request.body as { jobs: JobRequest[] };
      const ids = await jobs.submit(principalOf(request), body.jobs, { inTransaction: (tx, made) => idem?.saveInTx(tx, 200, { process_ids: made }) ?? Promise.resolve() });
      return { process_ids: ids };
    },
  );

  app.get('/jobs/list', { schema: { tags, summary: 'List your jobs', querystring: ListJobsQuery, response: { 200: Type.Ref(ListJobsResponse) } } }, async (request) => {
    const page = await jobs.list(principalOf(request).userId, request.query);
    return { items: page.rows.map(jobListItem), job_names: page.names, job_pids: page.pids, limit: page.limit, offset: page.offset, total: page.total };
  });

  app.get('/jobs/info', { schema: { tags, summary: 'A job in detail', querystring: ProcessIdQuery, response: { 200: Type.Ref(JobInfoResponse) } } }, async (request) => {
    const j = await jobs.get(principalOf(request).userId, request.query.process_id);
    return jobInfo(j, jobs.runtimeLimitSec(j.expected_runtime_sec));
  });

  app.get(
    '/jobs/status',
    { schema: { tags, summary: "A job's status and progress", querystring: ProcessIdQuery, response: { 200: Type.Ref(JobStatusResponse) } } },
    async (request) => jobStatus(await jobs.get(principalOf(request).userId, request.query.process_id)),
  );

  app.get('/jobs/result', { schema: { tags, summary: 'The result of a completed job (409 job-not-finished before)', querystring: ProcessIdQuery } }, async (request) =>
    jobs.result(principalOf(request).userId, request.query.process_id),
  );

  app.get(
    '/jobs/result-multiple',
    { schema: { tags, summary: 'Results of up to 50 jobs: each id maps to its result or to a problem', querystring: ProcessIdsQuery } },
    async (request) => {
      const out: Record<string, unknown> = {};
      for (const [id, r] of await jobs.resultMultiple(principalOf(request).userId, request.query.process_ids)) out[id] = 'result' in r ? r.result : request.renderProblem(r.error);
      return out;
    },
  );

  app.delete(
    '/jobs/cancel',
    { schema: { tags, summary: 'Cancel a job; charges the runtime used', querystring: ProcessIdQuery, response: { 200: Type.Ref('MessageResponse') } } },
    async (request) => ({ message: cancelledMessage(request.query.process_id, await jobs.cancel(principalOf(request).userId, request.query.process_id)) }),
  );

  app.delete(
    '/jobs/delete',
    { schema: { tags, summary: 'Delete a finished job and its result artifact', querystring: ProcessIdQuery, response: { 200: Type.Ref('MessageResponse') } } },
    async (request) => {
      await jobs.delete(principalOf(request).userId, request.query.process_id);
      return { message: `job ${request.query.process_id} and its result deleted` };
    },
  );
};
