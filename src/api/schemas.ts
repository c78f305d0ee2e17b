// Schemas shared by every API area (registered once with app.addSchema, referenced by $id).
import { Type, type TSchema } from '@sinclair/typebox';

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

export const SHARED_SCHEMAS = [MessageResponse, ValidationIssueSchema, ProblemSchema];

/** ISO 8601 timestamp or null, as the API prints them. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Integer micro-dollars to a USD number at the API edge. */
export const usd = (micros: number | null | undefined): number | null => (micros === null || micros === undefined ? null : micros / 1_000_000);
export const micros = (usdAmount: number): number => Math.round(usdAmount * 1_000_000);
