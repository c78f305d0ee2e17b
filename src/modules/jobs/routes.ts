// Jobs over HTTP: the routes adapt requests to the compute engine's JobService (src/compute)
// and its results to the reference's response shapes.
import { Type } from '@sinclair/typebox';
import { componentRef, publishedAs } from '../../api/schemas.js';
import { ok, problem, routeFactory } from '../../api/declare-route.js';
import { routeSequence } from '../../api/module.js';
import { pinReply, principalOf } from '../../api/route.js';
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

const route = routeFactory({ tags: ['jobs'] });

export const jobRoutes = routeSequence(
  route('POST /jobs/estimate', 'estimateJob', {
    config: { scope: 'read' },
    summary: 'Estimate the cost of a job (charges nothing)',
    body: Type.Ref(JobEstimateRequest),
    response: ok(JobEstimateResponse, 'The cost a submit would reserve, its expected runtime and the assumptions behind it'),
    handler: async ({ jobs }, request) => {
      const p = principalOf(request);
      return jobEstimate(await jobs.estimate(p, request.body), p.tier);
    },
  }),
  route.idempotent('POST /jobs/submit', 'submitJob', {
    summary: 'Submit a job: reserves its estimated cost (charges your wallet at the actual runtime)',
    body: Type.Ref(JobSubmitRequest),
    response: {
      200: Type.Object({ process_id: Type.String() }, { additionalProperties: false, description: 'The job is queued: its process id' }),
      402: problem('Problem insufficient-funds: the wallet cannot cover the estimate'),
    },
    // The idempotency record commits with the job: a retry can never make a second one.
    handler: async ({ jobs }, request) => ({
      process_id: await jobs.submitOne(principalOf(request), request.body, { inTransaction: pinReply(request, 200, (ids: string[]) => ({ process_id: ids[0] })) }),
    }),
  }),
  route.idempotent('POST /jobs/submit-multiple', 'submitJobs', {
    config: { input: ['body', 'jobs'] },
    summary: 'Submit several jobs, all or nothing',
    body: Type.Ref(JobSubmitMultipleRequest),
    response: {
      200: Type.Object(
        { process_ids: Type.Array(Type.String(), { default: [] }) },
        { additionalProperties: false, description: 'Every job is queued: their process ids, in request order' },
      ),
      402: problem('Problem insufficient-funds: the wallet cannot cover the estimates'),
    },
    handler: async ({ jobs }, request) => {
      const body = request.body as { jobs: JobRequest[] };
      return { process_ids: await jobs.submit(principalOf(request), body.jobs, { inTransaction: pinReply(request, 200, (made: string[]) => ({ process_ids: made })) }) };
    },
  }),
  route('GET /jobs/list', 'listJobs', {
    summary: 'List your jobs',
    querystring: ListJobsQuery,
    response: ok(ListJobsResponse, 'A page of your jobs, newest first unless sorted otherwise'),
    handler: async ({ jobs }, request) => {
      const page = await jobs.list(principalOf(request).userId, request.query);
      return { items: page.rows.map(jobListItem), job_names: page.names, job_pids: page.pids, limit: page.limit, offset: page.offset, total: page.total };
    },
  }),
  route('GET /jobs/info', 'getJobInfo', {
    summary: 'A job in detail',
    querystring: ProcessIdQuery,
    response: ok(JobInfoResponse, 'The job: its request, state, times, costs and limits'),
    handler: async ({ jobs }, request) => {
      const j = await jobs.get(principalOf(request).userId, request.query.process_id);
      return jobInfo(j, jobs.runtimeLimitSec(j.expected_runtime_sec));
    },
  }),
  route('GET /jobs/status', 'getJobStatus', {
    summary: "A job's status and progress",
    querystring: ProcessIdQuery,
    response: ok(JobStatusResponse, 'Its status, message and progress'),
    handler: async ({ jobs }, request) => jobStatus(await jobs.get(principalOf(request).userId, request.query.process_id)),
  }),
  route('GET /jobs/result', 'getJobResult', {
    summary: 'The result of a completed job (409 job-not-finished before)',
    querystring: ProcessIdQuery,
    response: {
      // Answered as stored (the result artifact's result.json); its schema is the job type's <Type>Result.
      200: publishedAs(Type.Unknown({ description: "The job's result document, as its job type gives it" }), componentRef('JobResult')),
      409: problem('Problem job-not-finished: the job is queued, dispatched or running (wait for its event); or http-409: it ended in error or was cancelled and has no result'),
    },
    handler: async ({ jobs }, request) => jobs.result(principalOf(request).userId, request.query.process_id),
  }),
  route('GET /jobs/result-multiple', 'getJobResults', {
    summary: 'Results of up to 50 jobs: each id maps to its result or to a problem',
    querystring: ProcessIdsQuery,
    response: {
      200: publishedAs(Type.Record(Type.String(), Type.Unknown(), { description: 'Each process id to its result document, or to the problem GET /jobs/result would answer' }), {
        type: 'object',
        additionalProperties: { oneOf: [componentRef('JobResult'), componentRef('Problem')] },
      }),
    },
    handler: async ({ jobs }, request) => {
      const out: Record<string, unknown> = {};
      for (const [id, r] of await jobs.resultMultiple(principalOf(request).userId, request.query.process_ids)) out[id] = 'result' in r ? r.result : request.renderProblem(r.error);
      return out;
    },
  }),
  route('DELETE /jobs/cancel', 'cancelJob', {
    summary: 'Cancel a job; charges the runtime used',
    querystring: ProcessIdQuery,
    response: { ...ok('MessageResponse', 'The job is cancelled'), 409: problem('Problem job-already-finished: the job had ended') },
    handler: async ({ jobs }, request) => ({
      message: cancelledMessage(request.query.process_id, await jobs.cancel(principalOf(request).userId, request.query.process_id)),
    }),
  }),
  route('DELETE /jobs/delete', 'deleteJob', {
    summary: 'Delete a finished job and its result artifact',
    querystring: ProcessIdQuery,
    response: { ...ok('MessageResponse', 'The job and its result are deleted'), 409: problem('Problem job-active: the job has not ended (cancel it first)') },
    handler: async ({ jobs }, request) => {
      await jobs.delete(principalOf(request).userId, request.query.process_id);
      return { message: `job ${request.query.process_id} and its result deleted` };
    },
  }),
);
