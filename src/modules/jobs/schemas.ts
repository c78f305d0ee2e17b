// Request and response schemas of the job endpoints (docs/jobs.md). A job request is taken
// loosely (job_type a string, payload an object) and checked by the job service against its
// type's payload schema, every problem located; the OpenAPI document publishes the same
// schemas as a oneOf over the registry's job types, discriminated by job_type (publishedAs).
import { Type, type TSchema } from '@sinclair/typebox';
import { commaListParam, componentRef, Nullable, publishedAs } from '../../api/schemas.js';

import { JOB_TYPE_NAMES, JOB_TYPES } from '../../compute/registry.js';
import { RESOURCE_NAMES } from '../../compute/resources.js';
import { JOB_SORT_FIELDS, MAX_RESULT_MULTIPLE } from '../../compute/service.js';
import { JOB_STATUSES } from '../../compute/store.js';

/** Largest `offset` accepted: far inside the database's bigint, so a huge offset is a 422 at its loc, never a database error. */
const MAX_OFFSET = 1_000_000_000;

/** `job_type` to a component name: mpnn_train -> MpnnTrain. */
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

const JobTypeField = Type.String({ minLength: 1, maxLength: 100, description: `One of: ${JOB_TYPE_NAMES.join(', ')}` });
const RESOURCE_DOC = 'default (1 vCPU, $0.0002/s) or cpu-4 (4 vCPU, $0.0008/s)';
const ResourceField = Type.String({ minLength: 1, maxLength: 40, default: 'default', description: RESOURCE_DOC });
const PayloadField = Type.Object({}, { additionalProperties: true, description: 'Its shape depends on job_type: <JobType>Payload (e.g. OptimizePayload)' });
/** A job type name in an answer. */
const JobTypeName = Type.Unsafe<string>({ type: 'string', enum: JOB_TYPE_NAMES });
const JobStatus = Type.Unsafe<string>({
  type: 'string',
  enum: [...JOB_STATUSES],
  description: 'queued -> dispatched (a worker claimed it) -> running -> completed | error; or cancelled',
});

/**
 * A request of one job type, as the job service checks it: `job_type` that type, `payload` its
 * payload schema, `resource` a known one (<Type>JobRequest, or <Type>JobEstimateRequest without job_name).
 */
function typedRequest(name: string, withName: boolean): TSchema {
  return Type.Object(
    {
      ...(withName ? { job_name: Type.String({ minLength: 1, maxLength: 200 }) } : {}),
      job_type: Type.Literal(name),
      payload: Type.Ref(`${pascal(name)}Payload`),
      resource: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: RESOURCE_NAMES, default: 'default', description: RESOURCE_DOC })),
    },
    { $id: `${pascal(name)}Job${withName ? '' : 'Estimate'}Request`, additionalProperties: false, description: JOB_TYPES.get(name)?.summary },
  );
}
const SUBMIT_BRANCHES = JOB_TYPE_NAMES.map((n) => typedRequest(n, true));
const ESTIMATE_BRANCHES = JOB_TYPE_NAMES.map((n) => typedRequest(n, false));
const oneOfJobType = (branches: TSchema[], description: string) => ({
  oneOf: branches.map((b) => componentRef(b.$id!)),
  discriminator: { propertyName: 'job_type' },
  description,
});

export const JobEstimateRequest = publishedAs(
  Type.Object({ job_type: JobTypeField, payload: PayloadField, resource: Type.Optional(ResourceField) }, { $id: 'JobEstimateRequest', additionalProperties: false }),
  oneOfJobType(ESTIMATE_BRANCHES, 'A job type, its payload and a resource'),
);

export const JobEstimateResponse = Type.Object(
  {
    cost: Type.Number({ description: 'USD reserved at submit' }),
    expected_runtime_sec: Type.Number(),
    job_type: JobTypeName,
    rate_per_sec: Type.Number({ description: 'USD per second of runtime' }),
    resource: Type.Unsafe<string>({ type: 'string', enum: RESOURCE_NAMES }),
    tier: Type.Integer({ description: "The account's tier number" }),
    tier_name: Type.String({ description: 'free, pro, team or enterprise (additive)' }),
    assumptions: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  },
  { $id: 'JobEstimateResponse', additionalProperties: false },
);

export const JobSubmitRequest = publishedAs(
  Type.Object(
    { job_name: Type.String({ minLength: 1, maxLength: 200 }), job_type: JobTypeField, payload: PayloadField, resource: Type.Optional(ResourceField) },
    { $id: 'JobSubmitRequest', additionalProperties: false },
  ),
  oneOfJobType(SUBMIT_BRANCHES, 'A job: its name, type, payload and resource'),
);

export const JobSubmitMultipleRequest = Type.Object(
  { jobs: Type.Array(Type.Ref(JobSubmitRequest), { minItems: 1, maxItems: 100 }) },
  { $id: 'JobSubmitMultipleRequest', additionalProperties: false },
);

export const JobListItem = Type.Object(
  {
    process_id: Type.String(),
    job_name: Type.String(),
    job_type: JobTypeName,
    resource: Type.Unsafe<string>({ type: 'string', enum: RESOURCE_NAMES }),
    status: JobStatus,
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
    status: Type.Optional(commaListParam(JOB_STATUSES, { maxLength: 200, description: 'Comma-separated statuses' })),
    job_type: Type.Optional(Type.String({ maxLength: 100, description: `Only jobs of this type (${JOB_TYPE_NAMES.join(', ')})` })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Matches job name or process id, case-insensitive' })),
    sort: Type.Optional(
      publishedAs(Type.String({ maxLength: 40, description: `A field with optional - prefix: ${JOB_SORT_FIELDS.join(', ')} (default -created_at)` }), {
        type: 'string',
        enum: [...JOB_SORT_FIELDS, ...JOB_SORT_FIELDS.map((f) => `-${f}`)],
      }),
    ),
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
    status: JobStatus,
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

/**
 * Each job type's payload as a component (<Type>Payload, the schema /jobs/submit validates the
 * payload with) and its result document (<Type>Result), and the typed requests.
 */
export const JOB_PAYLOAD_SCHEMAS: TSchema[] = [...JOB_TYPES.values()].map((t) => ({
  ...t.payload,
  $id: `${pascal(t.name)}Payload`,
  title: `${t.name} payload`,
  description: t.summary,
}));
export const JOB_RESULT_SCHEMAS: TSchema[] = [...JOB_TYPES.values()].flatMap((t) => (t.result ? [{ ...t.result, $id: `${pascal(t.name)}Result` }] : []));

/** GET /jobs/result: one of the job types' result documents, discriminated by job_type. */
export const JobResult = Type.Unsafe({
  $id: 'JobResult',
  description: "The result document of a completed job: its job type's <Type>Result",
  oneOf: JOB_RESULT_SCHEMAS.map((r) => Type.Ref(r.$id!)),
  discriminator: { propertyName: 'job_type' },
});

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
  ...JOB_RESULT_SCHEMAS,
  JobResult,
  ...SUBMIT_BRANCHES,
  ...ESTIMATE_BRANCHES,
];
