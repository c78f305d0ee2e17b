// OpenAPI schemas of the utilities (docs/utilities.md): the request (a oneOf tagged by `tool`,
// each branch with its tool's input schema from src/chem/utilities/schemas.ts), each tool's
// result, the catalog and the asynchronous requests. An answer that carries a result is a oneOf
// tagged by `tool` too (Utility<Tool>RunResponse, Utility<Tool>Request), so that a generated
// client narrows the result on the tool.
import { Type, type TSchema } from '@sinclair/typebox';
import { commaListParam, Nullable, pageSchema } from '../../api/schemas.js';
import { TOOL_CALLS, TOOL_INPUTS, TOOL_NAMES, toolRequestSchema, type ToolName } from '../../chem/utilities/schemas.js';

export const UtilityRunRequest = toolRequestSchema('UtilityRunRequest', `A tool and its input; tool is one of ${TOOL_NAMES.join(', ')}`);
export const UtilitySubmitRequest = toolRequestSchema('UtilitySubmitRequest', 'A tool and its input, for an asynchronous request (up to 100,000 molecules, or an uploaded set)');

const ItemError = {
  error: Nullable(Type.Union([Type.Literal('unparseable'), Type.Literal('too_large'), Type.Literal('unsupported_format'), Type.Literal('failed')]), {
    description: 'Why this molecule has no result (null when it has one)',
  }),
  detail: Nullable(Type.String(), { description: 'The reason in words, e.g. RDKit\'s "unclosed ring"' }),
};
const Index = Type.Integer({ minimum: 0, description: 'Position in the input' });
/** A molecule of an uploaded set (input_artifact_id, library_artifact_id): its record id and name (docs/utilities.md, "Inputs"). */
const Label = {
  id: Type.Optional(Type.String({ description: 'From an uploaded set: the record id' })),
  name: Type.Optional(Nullable(Type.String(), { description: 'From an uploaded set: the record name (null when it has none)' })),
};
const Counts = Type.Object({ molecules: Type.Integer(), ok: Type.Integer(), failed: Type.Integer() }, { additionalProperties: false });
const FpInfo = Type.Object({ type: Type.String(), radius: Type.Optional(Type.Integer()), n_bits: Type.Integer() }, { additionalProperties: false });
const obj = (props: Record<string, TSchema>, $id: string, description: string) => Type.Object(props, { $id, description, additionalProperties: false });

export const ConvertResult = obj(
  {
    outputs: Type.Array(Type.String()),
    items: Type.Array(
      Type.Object(
        {
          index: Index,
          ...Label,
          smiles: Type.Optional(Nullable(Type.String())),
          cxsmiles: Type.Optional(Nullable(Type.String())),
          kekule_smiles: Type.Optional(Nullable(Type.String())),
          molblock: Type.Optional(Nullable(Type.String())),
          molblock_v3000: Type.Optional(Nullable(Type.String())),
          inchi: Type.Optional(Nullable(Type.String())),
          inchikey: Type.Optional(Nullable(Type.String())),
          formula: Type.Optional(Nullable(Type.String())),
          json: Type.Optional(Type.Unknown({ description: "RDKit's CommonChem JSON of the molecule" })),
          ...ItemError,
        },
        { additionalProperties: false },
      ),
    ),
    counts: Counts,
  },
  'UtilityConvertResult',
  'convert: the requested outputs of each molecule',
);

export const FingerprintsResult = obj(
  {
    fingerprint: FpInfo,
    format: Type.String(),
    items: Type.Array(
      Type.Object(
        {
          index: Index,
          ...Label,
          fingerprint: Nullable(Type.Union([Type.Array(Type.Integer()), Type.String()]), { description: 'On-bit indices (format bits) or the packed vector as hex or base64' }),
          on_bits: Nullable(Type.Integer()),
          ...ItemError,
        },
        { additionalProperties: false },
      ),
    ),
    counts: Counts,
  },
  'UtilityFingerprintsResult',
  'fingerprints: one per molecule',
);

export const SimilarityResult = obj(
  {
    fingerprint: FpInfo,
    metric: Type.String(),
    threshold: Type.Number(),
    top_k: Type.Integer(),
    library_size: Type.Integer(),
    library_errors: Type.Array(Type.Object({ index: Index, ...Label, ...ItemError }, { additionalProperties: false }), {
      description: 'Library molecules RDKit could not read (left out of every search)',
    }),
    items: Type.Array(
      Type.Object(
        {
          index: Index,
          query: Type.String({ description: 'The query as given' }),
          hits: Nullable(
            Type.Array(
              Type.Object(
                {
                  index: Type.Integer({ description: 'Library position' }),
                  ...Label,
                  smiles: Type.String({ description: 'The library molecule as given (or as the uploaded set holds it)' }),
                  score: Type.Number(),
                },
                { additionalProperties: false },
              ),
            ),
            { description: 'Best first; ties in library order' },
          ),
          above_threshold: Nullable(Type.Integer({ description: 'Library molecules at or above the threshold (hits holds at most top_k)' })),
          ...ItemError,
        },
        { additionalProperties: false },
      ),
      { description: 'One per query' },
    ),
    counts: Counts,
  },
  'UtilitySimilarityResult',
  'similarity: the best library hits of each query',
);

export const SubstructureResult = obj(
  {
    query: Type.String(),
    query_format: Type.Unsafe<'smarts' | 'smiles'>({ type: 'string', enum: ['smarts', 'smiles'], description: 'How the query was read' }),
    matched: Type.Integer({ description: 'Molecules that contain the query' }),
    items: Type.Array(
      Type.Object(
        {
          index: Index,
          ...Label,
          matched: Type.Boolean(),
          matches: Nullable(Type.Array(Type.Array(Type.Integer())), { description: "Each match's atom indices, in the query's atom order" }),
          svg: Type.Optional(Nullable(Type.String())),
          ...ItemError,
        },
        { additionalProperties: false },
      ),
    ),
    counts: Counts,
  },
  'UtilitySubstructureResult',
  'substructure: the matches in each molecule',
);

export const McsResult = obj(
  {
    smarts: Nullable(Type.String(), { description: 'The maximum common substructure as SMARTS (null when fewer than 2 molecules could be read)' }),
    num_atoms: Type.Integer(),
    num_bonds: Type.Integer(),
    timed_out: Type.Boolean({ description: 'The timeout ran out: the best found so far' }),
    items: Type.Array(
      Type.Object({ index: Index, atoms: Nullable(Type.Array(Type.Integer()), { description: 'The MCS atoms in this molecule' }), ...ItemError }, { additionalProperties: false }),
    ),
    counts: Counts,
  },
  'UtilityMcsResult',
  'mcs: the maximum common substructure',
);

export const RGroupsResult = obj(
  {
    columns: Type.Array(Type.String(), { description: 'R-group labels found (R1, R2, ...)' }),
    items: Type.Array(
      Type.Object(
        { index: Index, matched: Type.Boolean(), core: Nullable(Type.String()), rgroups: Nullable(Type.Record(Type.String(), Type.String())), ...ItemError },
        { additionalProperties: false },
      ),
    ),
    unmatched: Type.Array(Type.Integer(), { description: 'Molecules read but not matching any core' }),
    counts: Counts,
  },
  'UtilityRGroupsResult',
  'rgroups: a row per molecule with its core and R groups',
);

const RESULT_OF: Record<ToolName, TSchema> = {
  convert: ConvertResult,
  fingerprints: FingerprintsResult,
  similarity: SimilarityResult,
  substructure: SubstructureResult,
  mcs: McsResult,
  rgroups: RGroupsResult,
};
const RESULTS = Object.values(RESULT_OF);
/** Utility<Tool>Result -> Utility<Tool><suffix>. */
const named = (tool: ToolName, suffix: string) => RESULT_OF[tool].$id!.replace(/Result$/, suffix);
const ToolName = Type.Unsafe<ToolName>({ type: 'string', enum: TOOL_NAMES });

/** A oneOf of `branches` tagged by `tool` (the OpenAPI document adds the mapping). */
const byTool = ($id: string, branches: TSchema[], description: string) =>
  Type.Unsafe({ $id, description, discriminator: { propertyName: 'tool' }, oneOf: branches.map((b) => Type.Ref(b.$id!)) });

const RUN_RESPONSES = TOOL_NAMES.map((tool) =>
  Type.Object(
    {
      tool: Type.Literal(tool),
      result: Nullable(Type.Ref(RESULT_OF[tool]), { description: 'The result, when its JSON is at most 1 MiB' }),
      result_artifact_id: Nullable(Type.String(), { description: 'An artifact holding the result (port result, record result) when it is larger' }),
      counted: Type.Integer({ description: 'Calls counted against the monthly allowance' }),
    },
    { $id: named(tool, 'RunResponse'), additionalProperties: false, description: `The ${tool} tool's answer` },
  ),
);

export const UtilityRunResponse = byTool('UtilityRunResponse', RUN_RESPONSES, "The tool's result (or the artifact holding it) and the calls counted");

const LIMITS = Type.Record(Type.String(), Type.Integer());
export const UtilityCatalog = Type.Object(
  {
    tools: Type.Array(
      Type.Object(
        {
          name: ToolName,
          summary: Type.String(),
          input_schema: Type.Unknown({ description: "JSON Schema of the tool's input" }),
          limits: Type.Object({ sync: LIMITS, async: LIMITS }, { additionalProperties: false }),
        },
        { additionalProperties: false },
      ),
    ),
    counting: Type.String(),
  },
  { $id: 'UtilityCatalog', additionalProperties: false },
);

export const UTILITY_STATUSES = ['queued', 'dispatched', 'running', 'completed', 'error', 'cancelled'] as const;

const RequestFields = {
  request_id: Type.String(),
  tool: ToolName,
  status: Type.Union(UTILITY_STATUSES.map((s) => Type.Literal(s))),
  message: Type.String(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  molecules: Type.Integer(),
  counted: Type.Integer({ description: 'Calls counted against the monthly allowance: ceil(molecules / 100)' }),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
};

export const UtilityRequestSummary = Type.Object(RequestFields, { $id: 'UtilityRequestSummary', additionalProperties: false });

const REQUESTS = TOOL_NAMES.map((tool) =>
  Type.Object(
    {
      ...RequestFields,
      tool: Type.Literal(tool),
      result: Nullable(Type.Ref(RESULT_OF[tool]), { description: 'Once completed, when its JSON is at most 1 MiB' }),
      result_artifact_id: Nullable(Type.String(), { description: 'Once completed: the artifact holding the result (port result, record result)' }),
      result_size_bytes: Nullable(Type.Integer()),
    },
    { $id: named(tool, 'Request'), additionalProperties: false, description: `An asynchronous request of the ${tool} tool` },
  ),
);

export const UtilityRequest = byTool('UtilityRequest', REQUESTS, 'An asynchronous request: its state, progress and, once completed, its result');

export const UtilityRequestList = pageSchema('items', UtilityRequestSummary, 'UtilityRequestList');

export const UtilityRequestsQuery = Type.Object(
  {
    status: Type.Optional(commaListParam(UTILITY_STATUSES, { maxLength: 200, description: `Comma-separated statuses (${UTILITY_STATUSES.join(', ')})` })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

/** An asynchronous request's body may hold up to 100,000 SMILES inline (POST /utilities/submit, POST /inference/submit). */
export const REQUEST_BODY_LIMIT = 32 * 1024 * 1024;

/** The answer of a submit: the queued request's id. */
export const RequestQueued = (description: string) => Type.Object({ request_id: Type.String() }, { additionalProperties: false, description });

/** The answer of DELETE on a request (utilities, inference). */
export const RequestRemoved = Type.Object(
  { request_id: Type.String(), status: Type.Union([Type.Literal('cancelled'), Type.Literal('deleted')]) },
  { additionalProperties: false, description: 'A running request is cancelled; an ended one is deleted with its result' },
);

export const UTILITY_SCHEMAS = [
  ...Object.values(TOOL_INPUTS),
  ...TOOL_CALLS,
  UtilityRunRequest,
  UtilitySubmitRequest,
  ...RESULTS,
  ...RUN_RESPONSES,
  UtilityRunResponse,
  UtilityCatalog,
  UtilityRequestSummary,
  ...REQUESTS,
  UtilityRequest,
  UtilityRequestList,
];
