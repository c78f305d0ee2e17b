// Schemas shared by every API area (registered once with app.addSchema, referenced by $id).
import { Type, type TArray, type TRefUnsafe, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T, opts: Record<string, unknown> = {}) => Type.Union([t, Type.Null()], opts);

export const MessageResponse = Type.Object({ message: Type.String() }, { $id: 'MessageResponse', additionalProperties: false });

export const ValidationIssueSchema = Type.Object(
  {
    type: Type.String({ description: 'Machine-readable kind, e.g. missing, string_too_long, too_long, greater_than_equal, enum' }),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Path to the offending input, e.g. ["body","smiles",3] or ["query","limit"]' }),
    msg: Type.String(),
    input: Type.Unknown(),
  },
  { $id: 'ValidationIssue' },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: '/api/v1/problems/<slug>, or /api/v1/problems/http-<status> for generic cases' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path' }),
    request_id: Type.String({ description: 'Quote it to support; also in the X-Request-Id header' }),
    retry: Type.Union(
      ['validation', 'auth', 'quota', 'conflict', 'upstream', 'timeout', 'terminal'].map((v) => Type.Literal(v)),
      { description: 'Retryability hint: retry upstream and timeout with backoff; fix the request for validation; wait or top up for quota' },
    ),
    errors: Type.Optional(Type.Array(Type.Ref('ValidationIssue'), { description: 'Present on 422' })),
  },
  { $id: 'Problem', additionalProperties: true },
);

/** A page of a list (limit and offset paging): `key` holds the page's items, `total` counts them all. */
export function pageSchema<K extends string, T extends TSchema>(key: K, item: T, $id: string) {
  const items = { [key]: Type.Array(Type.Ref(item)) } as Record<K, TArray<TRefUnsafe<T>>>;
  return Type.Object({ ...items, total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }, { $id, additionalProperties: false });
}

export const SHARED_SCHEMAS = [MessageResponse, ValidationIssueSchema, ProblemSchema];

/** The key under which a schema carries the form the OpenAPI document publishes in its place (publishedAs). */
export const PUBLISHED_AS = 'x-published-as';

/** A reference to a component of the OpenAPI document, as publishedAs writes them. */
export const componentRef = (name: string, extra: Record<string, unknown> = {}) => ({ $ref: `#/components/schemas/${name}`, ...extra });

/**
 * A schema the route takes (or answers) loosely, published in the OpenAPI document as
 * `published` (docs/api-decisions.md, "The OpenAPI document"). For values a service validates in
 * full with that same schema, where a route-level check would answer worse (a job payload
 * checked per job type with every problem located, a workflow spec that POST /workflows/validate
 * reports on rather than refuses), and for results the serializer passes through as they are
 * stored (a job's result document). `published` refers to components with componentRef.
 */
export function publishedAs<T extends TSchema>(schema: T, published: Record<string, unknown>): T {
  return { ...schema, [PUBLISHED_AS]: published };
}

/** How a query parameter publishedAs an array is written (moved onto the parameter by src/http/openapi-document.ts). */
export const PARAMETER_STYLE = 'x-parameter-style';

/**
 * A query parameter holding a comma-separated list of `values` (e.g. job statuses): taken as
 * text (the service checks each value, locating the bad one), published as an array of the enum
 * written `form` without explode (`status=queued,running`).
 */
export function commaListParam(values: readonly string[], opts: { maxLength: number; description: string }) {
  return publishedAs(Type.String({ maxLength: opts.maxLength, description: opts.description }), {
    type: 'array',
    items: { type: 'string', enum: [...values] },
    minItems: 1,
    [PARAMETER_STYLE]: { style: 'form', explode: false },
  });
}

/** ISO 8601 timestamp or null, as the API prints them. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Integer micro-dollars to a USD number at the API edge. */
export const usd = (micros: number | null | undefined): number | null => (micros === null || micros === undefined ? null : micros / 1_000_000);
export const micros = (usdAmount: number): number => Math.round(usdAmount * 1_000_000);
