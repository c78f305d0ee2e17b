import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

import { JOB_TYPES } from '../../compute/registry.js';
import { JOB_SORT_FIELDS, MAX_RESULT_MULTIPLE } from '../../compute/service.js';
import { ENGINE_RESULT_SCHEMAS } from '../../compute/types/engine/results.js';

/** Largest `offset` accepted: far inside the database's bigint, so a huge offset is a 422 at its loc, never a database error. */
const MAX_OFFSET = 1_000_000_000;

const JobTypeField = Type.String({ minLength: 1, maxLength: 100, description: `One of: ${[...JOB_TYPES.keys()].join(', ')}` });
const ResourceField = Type.String({ minLength: 1, maxLength: 40, default: 'default', description: 'default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)' });
const PayloadField = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "Shape depends on job_type: the components <JobType>Payload (e.g. OptimizePayload) give each, and the engine types' results are <JobType>Result",
  },
);

export const JobEstimateRequest = Type.Object(
  { job_type: JobTypeField, payload: PayloadField, resource: Type.Optional(ResourceField) },
  { $id: 'JobEstimateRequest', additionalProperties: false },
);

export const JobEstimateResponse = Type.Object(
  {
    cost: Type.Number({ description: 'USD reserved at submit' }),
    expected_runtime_sec: Type.Number(),
    job_type: Type.String(),
    rate_per_sec: Type.Number({ description: 'USD per second of runtime' }),
    resource: Type.String(),
    tier: Type.Integer({ description: "The account's tier number" }),
    tier_name: Type.String({ description: 'free, pro, team or enterprise (additive)' }),
    assumptions: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  },
  { $id: 'JobEstimateResponse', additionalProperties: false },
);

export const JobSubmitRequest = Type.Object(
  { job_name: Type.String({ minLength: 1, maxLength: 200 }), job_type: JobTypeField, payload: PayloadField, resource: Type.Optional(ResourceField) },
  { $id: 'JobSubmitRequest', additionalProperties: false },
);

export const JobSubmitMultipleRequest = Type.Object(
  { jobs: Type.Array(Type.Ref(JobSubmitRequest), { minItems: 1, maxItems: 100 }) },
  { $id: 'JobSubmitMultipleRequest', additionalProperties: false },
);

export const JobListItem = Type.Object(
  {
    process_id: Type.String(),
    job_name: Type.String(),
    job_type: Type.String(),
    resource: Type.String(),
    status: Type.String({ description: 'queued, dispatched, running, completed, error or cancelled' }),
    message: Type.String({ default: '' }),
    runtime_seconds: Type.Number({ default: 0 }),
    charged_amount: Nullable(Type.Number(), { description: 'USD charged; null until the job ends' }),
    expected_billing_cost: Nullable(Type.Number(), { description: 'USD reserved at submit' }),
    created_at: Nullable(Type.String({ format: 'date-time' })),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    result_artifact_id: Nullable(Type.String()),
  },
  { $id: 'JobListItem', additionalProperties: false },
);

export const ListJobsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
    status: Type.Optional(Type.String({ maxLength: 200, description: 'Comma-separated statuses' })),
    job_type: Type.Optional(Type.String({ maxLength: 100 })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Matches job name or process id, case-insensitive' })),
    sort: Type.Optional(Type.String({ maxLength: 40, description: `A field with optional - prefix: ${JOB_SORT_FIELDS.join(', ')} (default -created_at)` })),
  },
  { additionalProperties: false },
);

export const ListJobsResponse = Type.Object(
  {
    items: Type.Array(Type.Ref(JobListItem), { default: [] }),
    job_names: Type.Array(Type.String(), { description: 'Distinct names of all matching jobs (first 1,000)' }),
    job_pids: Type.Array(Type.String(), { description: 'Process ids of all matching jobs (first 1,000)' }),
    limit: Type.Integer({ default: 100 }),
    offset: Type.Integer({ default: 0 }),
    total: Type.Integer({ default: 0 }),
  },
  { $id: 'ListJobsResponse', additionalProperties: false },
);

export const ProcessIdQuery = Type.Object({ process_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const ProcessIdsQuery = Type.Object(
  { process_ids: Type.String({ minLength: 1, maxLength: MAX_RESULT_MULTIPLE * 40, description: `Comma-separated process ids, at most ${MAX_RESULT_MULTIPLE}` }) },
  { additionalProperties: false },
);

export const JobStatusResponse = Type.Object(
  {
    process_id: Type.String(),
    status: Type.String(),
    message: Nullable(Type.String()),
    progress: Nullable(
      Type.Object(
        { fraction: Type.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: true, description: 'The fraction done and what the job type reports (e.g. epoch, epochs, train_loss, val_metric)' },
      ),
    ),
    result_artifact_id: Nullable(Type.String()),
  },
  { $id: 'JobStatusResponse', additionalProperties: false },
);

export const JobInfoResponse = Type.Object(
  { process_id: Type.String(), info: Type.Record(Type.String(), Type.Unknown()) },
  { $id: 'JobInfoResponse', additionalProperties: false },
);

/** `job_type` to a component name: mpnn_train -> MpnnTrain. */
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/**
 * Each job type's payload as a component (<Type>Payload, the schema /jobs/submit validates the
 * payload with), and the engine job types' result documents (<Type>Result).
 */
export const JOB_PAYLOAD_SCHEMAS: TSchema[] = [...JOB_TYPES.values()].map((t) => ({
  ...t.payload,
  $id: `${pascal(t.name)}Payload`,
  title: `${t.name} payload`,
  description: t.summary,
}));

export const JOB_SCHEMAS = [
  JobEstimateRequest,
  JobEstimateResponse,
  JobSubmitRequest,
  JobSubmitMultipleRequest,
  JobListItem,
  ListJobsResponse,
  JobStatusResponse,
  JobInfoResponse,
  ...JOB_PAYLOAD_SCHEMAS,
  ...ENGINE_RESULT_SCHEMAS,
];
