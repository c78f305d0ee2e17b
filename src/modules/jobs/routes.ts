// Jobs over HTTP: the routes adapt requests to the compute engine's JobService (src/compute)
// and its results to the reference's response shapes.
import { Type } from '@sinclair/typebox';
import { componentRef, publishedAs } from '../../api/schemas.js';
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
      schema: {
        operationId: 'estimateJob',
        tags,
        summary: 'Estimate the cost of a job (charges nothing)',
        body: Type.Ref(JobEstimateRequest),
        response: { 200: Type.Ref(JobEstimateResponse, { description: 'The cost a submit would reserve, its expected runtime and the assumptions behind it' }) },
      },
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
        operationId: 'submitJob',
        tags,
        summary: 'Submit a job: reserves its estimated cost (charges your wallet at the actual runtime)',
        body: Type.Ref(JobSubmitRequest),
        response: {
          200: Type.Object({ process_id: Type.String() }, { additionalProperties: false, description: 'The job is queued: its process id' }),
          402: { description: 'Problem insufficient-funds: the wallet cannot cover the estimate', $ref: 'Problem#' },
        },
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
        operationId: 'submitJobs',
        tags,
        summary: 'Submit several jobs, all or nothing',
        body: Type.Ref(JobSubmitMultipleRequest),
        response: {
          200: Type.Object(
            { process_ids: Type.Array(Type.String(), { default: [] }) },
            { additionalProperties: false, description: 'Every job is queued: their process ids, in request order' },
          ),
          402: { description: 'Problem insufficient-funds: the wallet cannot cover the estimates', $ref: 'Problem#' },
        },
      },
    },
    async (request) => {
      const idem = request.idempotency;
      const body = request.body as { jobs: JobRequest[] };
      const ids = await jobs.submit(principalOf(request), body.jobs, { inTransaction: (tx, made) => idem?.saveInTx(tx, 200, { process_ids: made }) ?? Promise.resolve() });
      return { process_ids: ids };
    },
  );

  app.get(
    '/jobs/list',
    {
      schema: {
        operationId: 'listJobs',
        tags,
        summary: 'List your jobs',
        querystring: ListJobsQuery,
        response: { 200: Type.Ref(ListJobsResponse, { description: 'A page of your jobs, newest first unless sorted otherwise' }) },
      },
    },
    async (request) => {
      const page = await jobs.list(principalOf(request).userId, request.query);
      return { items: page.rows.map(jobListItem), job_names: page.names, job_pids: page.pids, limit: page.limit, offset: page.offset, total: page.total };
    },
  );

  app.get(
    '/jobs/info',
    {
      schema: {
        operationId: 'getJobInfo',
        tags,
        summary: 'A job in detail',
        querystring: ProcessIdQuery,
        response: { 200: Type.Ref(JobInfoResponse, { description: 'The job: its request, state, times, costs and limits' }) },
      },
    },
    async (request) => {
      const j = await jobs.get(principalOf(request).userId, request.query.process_id);
      return jobInfo(j, jobs.runtimeLimitSec(j.expected_runtime_sec));
    },
  );

  app.get(
    '/jobs/status',
    {
      schema: {
        operationId: 'getJobStatus',
        tags,
        summary: "A job's status and progress",
        querystring: ProcessIdQuery,
        response: { 200: Type.Ref(JobStatusResponse, { description: 'Its status, message and progress' }) },
      },
    },
    async (request) => jobStatus(await jobs.get(principalOf(request).userId, request.query.process_id)),
  );

  app.get(
    '/jobs/result',
    {
      schema: {
        operationId: 'getJobResult',
        tags,
        summary: 'The result of a completed job (409 job-not-finished before)',
        querystring: ProcessIdQuery,
        response: {
          // Answered as stored (the result artifact's result.json); its schema is the job type's <Type>Result.
          200: publishedAs(Type.Unknown({ description: "The job's result document, as its job type gives it" }), componentRef('JobResult')),
          409: {
            description:
              'Problem job-not-finished: the job is queued, dispatched or running (wait for its event); or http-409: it ended in error or was cancelled and has no result',
            $ref: 'Problem#',
          },
        },
      },
    },
    async (request) => jobs.result(principalOf(request).userId, request.query.process_id),
  );

  app.get(
    '/jobs/result-multiple',
    {
      schema: {
        operationId: 'getJobResults',
        tags,
        summary: 'Results of up to 50 jobs: each id maps to its result or to a problem',
        querystring: ProcessIdsQuery,
        response: {
          200: publishedAs(Type.Record(Type.String(), Type.Unknown(), { description: 'Each process id to its result document, or to the problem GET /jobs/result would answer' }), {
            type: 'object',
            additionalProperties: { oneOf: [componentRef('JobResult'), componentRef('Problem')] },
          }),
        },
      },
    },
    async (request) => {
      const out: Record<string, unknown> = {};
      for (const [id, r] of await jobs.resultMultiple(principalOf(request).userId, request.query.process_ids)) out[id] = 'result' in r ? r.result : request.renderProblem(r.error);
      return out;
    },
  );

  app.delete(
    '/jobs/cancel',
    {
      schema: {
        operationId: 'cancelJob',
        tags,
        summary: 'Cancel a job; charges the runtime used',
        querystring: ProcessIdQuery,
        response: {
          200: Type.Ref('MessageResponse', { description: 'The job is cancelled' }),
          409: { description: 'Problem job-already-finished: the job had ended', $ref: 'Problem#' },
        },
      },
    },
    async (request) => ({ message: cancelledMessage(request.query.process_id, await jobs.cancel(principalOf(request).userId, request.query.process_id)) }),
  );

  app.delete(
    '/jobs/delete',
    {
      schema: {
        operationId: 'deleteJob',
        tags,
        summary: 'Delete a finished job and its result artifact',
        querystring: ProcessIdQuery,
        response: {
          200: Type.Ref('MessageResponse', { description: 'The job and its result are deleted' }),
          409: { description: 'Problem job-active: the job has not ended (cancel it first)', $ref: 'Problem#' },
        },
      },
    },
    async (request) => {
      await jobs.delete(principalOf(request).userId, request.query.process_id);
      return { message: `job ${request.query.process_id} and its result deleted` };
    },
  );
};
