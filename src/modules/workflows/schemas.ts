// Request and response schemas of the workflow endpoints (docs/workflows.md), in the OpenAPI
// document. A spec is taken as any JSON value and validated by the workflow service against
// WorkflowSpec (every problem located; POST /workflows/validate reports them rather than
// refusing), so the document publishes it as WorkflowSpec (publishedAs).
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { commaListParam, componentRef, Nullable, publishedAs, pageSchema } from '../../api/schemas.js';
import { JOB_TYPE_NAMES } from '../../compute/registry.js';
import { RESOURCE_NAMES } from '../../compute/resources.js';
import { MAX_STEPS, NAME_PATTERN, WorkflowSpec } from '../../workflows/spec.js';
import { DEFINITION_SORT_FIELDS } from './definitions.js';
import { RUN_SORT_FIELDS } from './runs.js';

/** A job type name in an answer. */
const JobTypeName = Type.Unsafe<string>({ type: 'string', enum: JOB_TYPE_NAMES });
const ResourceName = Type.Unsafe<string>({ type: 'string', enum: RESOURCE_NAMES });
/** A spec, taken as it comes and checked by the service with WorkflowSpec; published as WorkflowSpec. */
const specField = (description: string) => publishedAs(Type.Unknown({ description }), componentRef('WorkflowSpec', { description }));
/** `sort`: a field, optionally prefixed with - (descending). */
const sortParam = (fields: readonly string[], description: string) =>
  publishedAs(Type.String({ maxLength: 40, description }), { type: 'string', enum: [...fields, ...fields.map((f) => `-${f}`)] });

const Issue = Type.Object(
  { type: Type.String(), loc: Type.Array(Type.Union([Type.String(), Type.Integer()])), msg: Type.String(), input: Type.Unknown() },
  { additionalProperties: false },
);
export const WorkflowValidation = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(Issue, { description: 'Every problem, located relative to the request (["spec", "steps", 2, "inputs", "molecules"])' }),
    warnings: Type.Array(Issue),
    step_order: Type.Array(Type.String(), { description: 'An order in which every step comes after the steps it reads from (empty when there is a cycle)' }),
  },
  { $id: 'WorkflowValidation', additionalProperties: false },
);
export const WorkflowEstimate = Type.Object(
  {
    cost: Type.Number({ description: 'USD a run reserves at start' }),
    expected_runtime_sec: Type.Number({ description: 'The longest chain of steps' }),
    steps: Type.Array(
      Type.Object(
        {
          step_id: Type.String(),
          job_type: JobTypeName,
          resource: ResourceName,
          expected_runtime_sec: Type.Number(),
          cost: Type.Number(),
          assumptions: Type.Record(Type.String(), Type.Unknown()),
        },
        { additionalProperties: false },
      ),
    ),
    assumptions: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'WorkflowEstimate', additionalProperties: false },
);
export const ValidateRequest = Type.Object(
  { spec: specField('A workflow spec; validated here, every problem reported at once') },
  { $id: 'WorkflowValidateRequest', additionalProperties: false },
);
/** The values of a workflow's inputs, by name, as a run start and an estimate take them. */
const runInputs = (description: string) => Type.Record(Type.String({ pattern: NAME_PATTERN }), Type.Unknown(), { additionalProperties: false, description });
const INPUTS_DOC = "Values of the workflow's inputs (a molecules input: an artifact id or a list of SMILES); defaults fill the rest";
export const EstimateRequest = Type.Object(
  {
    spec: Type.Optional(specField('A workflow spec; validated here, every problem reported at once. Exactly one of spec and template_id')),
    template_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'A built-in template (GET /workflows/templates), priced as POST /workflows/runs with this template_id would reserve. Exactly one of spec and template_id',
      }),
    ),
    inputs: Type.Optional(
      runInputs(`${INPUTS_DOC}. The estimate reads them as a run start does (a molecule set is counted); without them a bound set is assumed to hold 1,000 molecules`),
    ),
  },
  { $id: 'WorkflowEstimateRequest', additionalProperties: false, description: 'Exactly one of spec and template_id, and the inputs of the run if known' },
);

const SpecRef = specField(`A workflow spec (at most 256 KiB and ${MAX_STEPS} steps); validated, every problem reported at once`);
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 5000 });
const Access = Type.Union([Type.Literal('owner'), Type.Literal('run'), Type.Literal('view')], { description: 'Your access: owner, or a share with run or view permission' });
const ForkedFrom = Nullable(Type.Record(Type.String(), Type.Unknown()), { description: '{workflow_id, version} or {template_id} of the source of a fork' });

export const WorkflowSaveRequest = Type.Object(
  { spec: SpecRef, name: Type.Optional(Name), description: Type.Optional(Description) },
  { $id: 'WorkflowSaveRequest', additionalProperties: false },
);
export const WorkflowUpdateRequest = Type.Object(
  {
    spec: SpecRef,
    base_version: Type.Integer({ minimum: 1, description: 'The version this edit starts from: it must be the latest, else 409 version-conflict' }),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
  },
  { $id: 'WorkflowUpdateRequest', additionalProperties: false },
);
export const WorkflowDefinition = Type.Object(
  {
    workflow_id: Type.String(),
    version: Type.Integer(),
    latest_version: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    spec: specField('The spec of this version'),
    access: Access,
    forked_from: ForkedFrom,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    version_created_at: Type.String({ format: 'date-time' }),
    deleted_at: Nullable(Type.String({ format: 'date-time' })),
    restorable_until: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'WorkflowDefinition', additionalProperties: false },
);
/** A definition as lists show it: without its spec and versions (WorkflowDefinition has them). */
export const WorkflowSummary = Type.Object(
  {
    workflow_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    latest_version: Type.Integer(),
    access: Access,
    forked_from: ForkedFrom,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    deleted_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'WorkflowSummary', additionalProperties: false },
);
export const WorkflowList = Type.Object(
  {
    workflows: Type.Array(Type.Ref(WorkflowSummary)),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  },
  { $id: 'WorkflowList', additionalProperties: false },
);
export const ListWorkflowsQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive match on name, description or id' })),
    sort: Type.Optional(sortParam(DEFINITION_SORT_FIELDS, 'updated_at (default, newest first), created_at or name; prefix - for descending')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    deleted: Type.Optional(Type.Boolean({ description: 'true: your deleted definitions (restorable for 30 days) instead' })),
  },
  { additionalProperties: false },
);
export const VersionQuery = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })) }, { additionalProperties: false });
export const RestoreRequest = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Make this version the latest (saved as a new version)' })) },
  { $id: 'WorkflowRestoreRequest', additionalProperties: false },
);
export const ForkRequest = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), name: Type.Optional(Name) },
  { $id: 'WorkflowForkRequest', additionalProperties: false },
);
export const WorkflowVersions = Type.Object(
  {
    workflow_id: Type.String(),
    latest_version: Type.Integer(),
    versions: Type.Array(
      Type.Object(
        { version: Type.Integer(), created_at: Type.String({ format: 'date-time' }), restored_from: Nullable(Type.Integer()), name: Type.String(), steps: Type.Integer() },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'WorkflowVersions', additionalProperties: false },
);
export const ShareRequest = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, description: "The user's account email (or give link: true)" })),
    link: Type.Optional(Type.Boolean({ description: 'true: create a link token (shown once) that any signed-in holder can use' })),
    permission: Type.Union([Type.Literal('view'), Type.Literal('run')], { description: 'view: read and fork; run: also start runs (charged to the runner)' }),
  },
  { $id: 'WorkflowShareRequest', additionalProperties: false },
);
export const WorkflowShare = Type.Object(
  {
    share_id: Type.String(),
    workflow_id: Type.String(),
    kind: Type.Union([Type.Literal('user'), Type.Literal('link')]),
    email: Nullable(Type.String()),
    permission: Type.Union([Type.Literal('view'), Type.Literal('run')]),
    created_at: Type.String({ format: 'date-time' }),
    token: Type.Optional(Type.String({ description: 'The link token: shown only in the answer that creates it' })),
    url: Type.Optional(Type.String()),
  },
  { $id: 'WorkflowShare', additionalProperties: false },
);
export const WorkflowShares = Type.Object({ shares: Type.Array(Type.Ref(WorkflowShare)) }, { $id: 'WorkflowShares', additionalProperties: false });
export const WorkflowTemplates = Type.Object(
  {
    templates: Type.Array(
      Type.Object({ template_id: Type.String(), name: Type.String(), description: Type.String(), spec: Type.Ref(WorkflowSpec) }, { additionalProperties: false }),
    ),
  },
  { $id: 'WorkflowTemplates', additionalProperties: false },
);

const START_FIELDS = {
  workflow_id: Type.String({ maxLength: 100, description: 'A saved definition (yours or shared with run permission)' }),
  version: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'With workflow_id: this version (default the latest)' }),
  template_id: Type.String({ maxLength: 100, description: 'A built-in template (GET /workflows/templates)' }),
  share_token: Type.String({ maxLength: 200, description: 'A link token with run permission' }),
  spec: SpecRef,
};
const START_COMMON = { inputs: Type.Optional(runInputs(INPUTS_DOC)), name: Type.Optional(Name) };
/** One source of the spec a run starts from, with the inputs and name every start takes. */
const startForm = ($id: string, source: TProperties, description: string): TSchema =>
  Type.Object({ ...source, ...START_COMMON }, { $id, additionalProperties: false, description });
/** The run-start body's forms: exactly one source of the spec (the service checks it on the flat body). */
const START_FORMS = [
  startForm('WorkflowRunFromDefinition', { workflow_id: START_FIELDS.workflow_id, version: Type.Optional(START_FIELDS.version) }, 'Run a saved definition'),
  startForm('WorkflowRunFromShareLink', { share_token: START_FIELDS.share_token }, 'Run a definition shared by link with run permission'),
  startForm('WorkflowRunFromTemplate', { template_id: START_FIELDS.template_id }, 'Run a built-in template'),
  startForm('WorkflowRunFromSpec', { spec: START_FIELDS.spec }, 'Run an inline spec'),
];
export const RunStartRequest = publishedAs(
  Type.Object(
    { ...Object.fromEntries(Object.entries(START_FIELDS).map(([k, v]) => [k, Type.Optional(v)])), ...START_COMMON },
    { $id: 'WorkflowRunStartRequest', additionalProperties: false },
  ),
  { oneOf: START_FORMS.map((f) => componentRef(f.$id!)), description: 'Exactly one source of the spec (workflow_id, share_token, template_id or spec), and the inputs' },
);
export const RerunRequest = Type.Object(
  { reuse_completed: Type.Optional(Type.Boolean({ default: false, description: 'Reuse the outputs of steps whose job type, params and inputs are unchanged' })) },
  { $id: 'WorkflowRerunRequest', additionalProperties: false },
);
const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
const StepStateSchema = Type.Union(
  ['pending', 'queued', 'running', 'completed', 'failed', 'cancelled', 'skipped', 'reused'].map((s) => Type.Literal(s)),
  { description: 'pending: waiting for its inputs; queued/running: its job; skipped: a step it reads from did not complete; reused: outputs of an earlier run' },
);
const RunStep = Type.Object(
  {
    step_id: Type.String(),
    job_type: JobTypeName,
    state: StepStateSchema,
    job_id: Nullable(Type.String()),
    progress: Type.Number(),
    runtime_seconds: Nullable(Type.Number()),
    cost_usd: Type.Number({ description: 'Charged, or for a running step its runtime so far at its rate' }),
    planned_usd: Type.Number({ description: "The step's share of the run's reservation (the most it can be charged)" }),
    result_artifact_id: Nullable(Type.String()),
    message: Type.String(),
  },
  { additionalProperties: false },
);
const RunOutput = Type.Object({ step_id: Type.String(), port: Type.String(), artifact_id: Nullable(Type.String()), ready: Type.Boolean() }, { additionalProperties: false });
const runFields = {
  run_id: Type.String(),
  name: Type.String(),
  status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
  message: Type.String(),
  workflow_id: Nullable(Type.String()),
  version: Nullable(Type.Integer()),
  template_id: Nullable(Type.String()),
  rerun_of: Nullable(Type.String()),
  inputs: Type.Record(Type.String(), Type.Unknown()),
  reserved_usd: Type.Number({ description: 'Reserved at start: the most the run can be charged' }),
  charged_usd: Type.Number({ description: 'Charged so far by ended steps' }),
  cost_so_far_usd: Type.Number(),
  steps_done: Type.Integer(),
  steps_total: Type.Integer(),
  progress: Type.Number(),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
};
/** A run as lists show it: without its steps and outputs (WorkflowRun has them). */
export const WorkflowRunSummary = Type.Object(runFields, { $id: 'WorkflowRunSummary', additionalProperties: false });
export const WorkflowRun = Type.Object(
  { ...runFields, steps: Type.Array(RunStep), outputs: Type.Record(Type.String(), RunOutput) },
  { $id: 'WorkflowRun', additionalProperties: false },
);
export const WorkflowRunList = pageSchema('runs', WorkflowRunSummary, 'WorkflowRunList');
export const WorkflowRunStatus = Type.Object(
  {
    run_id: Type.String(),
    status: runFields.status,
    steps_done: Type.Integer(),
    steps_total: Type.Integer(),
    progress: Type.Number(),
    cost_so_far_usd: Type.Number(),
    steps: Type.Array(Type.Object({ step_id: Type.String(), state: StepStateSchema, progress: Type.Number() }, { additionalProperties: false })),
  },
  { $id: 'WorkflowRunStatus', additionalProperties: false },
);
export const WorkflowRunStep = Type.Object(
  {
    run_id: Type.String(),
    ...RunStep.properties,
    outputs: Type.Record(Type.String(), Type.Object({ artifact_id: Type.String(), port: Type.String() }, { additionalProperties: false }), {
      description: "The step's output ports (and `result`, its result document) once it has completed",
    }),
    error: Nullable(Type.String()),
  },
  { $id: 'WorkflowRunStep', additionalProperties: false },
);
export const WorkflowRunOutputs = Type.Object(
  { run_id: Type.String(), status: runFields.status, outputs: Type.Record(Type.String(), RunOutput) },
  { $id: 'WorkflowRunOutputs', additionalProperties: false },
);
export const ListRunsQuery = Type.Object(
  {
    status: Type.Optional(commaListParam(RUN_STATUSES, { maxLength: 100, description: 'Comma-separated: queued, running, completed, failed, cancelled' })),
    workflow_id: Type.Optional(Type.String({ maxLength: 100 })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive match on the run name or id' })),
    sort: Type.Optional(sortParam(RUN_SORT_FIELDS, 'created_at (default, newest first), status, name or charged_amount; prefix - for descending')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export const GraphQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('svg'), Type.Literal('json'), Type.Literal('mermaid')], { default: 'svg' })) },
  { additionalProperties: false },
);
export const WorkflowRunGraph = Type.Object(
  {
    run_id: Type.String(),
    name: Type.String({ description: "The run's name (the title of the SVG and Mermaid pictures)" }),
    status: runFields.status,
    nodes: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          kind: Type.Union([Type.Literal('input'), Type.Literal('step'), Type.Literal('output')]),
          label: Type.String(),
          job_type: Nullable(JobTypeName),
          state: Nullable(StepStateSchema),
          progress: Nullable(Type.Number()),
        },
        { additionalProperties: false },
      ),
    ),
    edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), label: Type.String() }, { additionalProperties: false })),
  },
  { $id: 'WorkflowRunGraph', additionalProperties: false },
);

export const WORKFLOW_SCHEMAS = [
  WorkflowSpec,
  WorkflowValidation,
  WorkflowEstimate,
  ValidateRequest,
  EstimateRequest,
  WorkflowSaveRequest,
  WorkflowUpdateRequest,
  WorkflowDefinition,
  WorkflowSummary,
  WorkflowList,
  RestoreRequest,
  ForkRequest,
  WorkflowVersions,
  ShareRequest,
  WorkflowShare,
  WorkflowShares,
  WorkflowTemplates,
  RunStartRequest,
  ...START_FORMS,
  RerunRequest,
  WorkflowRunSummary,
  WorkflowRun,
  WorkflowRunList,
  WorkflowRunStatus,
  WorkflowRunStep,
  WorkflowRunOutputs,
  WorkflowRunGraph,
];
