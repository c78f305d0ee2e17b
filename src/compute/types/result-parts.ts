// What the result documents of the chemistry job types share (GET /jobs/result; docs/jobs.md),
// as JSON schemas: the input summary, the per-item error list and a molecule's label. Each job
// type's `result` schema is built from them; the OpenAPI document publishes them as
// <Type>Result and test/openapi/job-results.test.ts checks real results against them.
import { Type, type TProperties } from '@sinclair/typebox';

const Str = Type.String();
const Int = Type.Integer({ minimum: 0 });

/** Where the molecules came from (inputSummary in molecule-jobs.ts). */
export const InputSummary = Type.Object(
  {
    source: Type.Union([Type.Literal('smiles'), Type.Literal('artifact')]),
    artifact_id: Type.Optional(Type.String({ description: 'The uploaded set (source artifact)' })),
    port: Type.Optional(Type.String()),
    molecules: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** A molecule of the input: its place, its record id (or the index) and name, and its SMILES. */
export const labelFields = {
  index: Type.Integer({ minimum: 0, description: 'Position in the input (0-based)' }),
  id: Type.String({ description: 'The record id of an uploaded set, else the index' }),
  name: Type.Optional(Type.String({ description: 'The record name of an uploaded set, when it has one' })),
  smiles: Type.String(),
};

/** The per-item errors (ErrorLog.toJSON in molecule-jobs.ts): the first 1,000 listed, all counted. */
export const errorFields = {
  errors: Type.Array(
    Type.Object(
      {
        index: Int,
        id: Str,
        smiles: Type.String({ description: 'The input, clipped to 200 characters' }),
        error: Type.String({ description: 'A code: unparseable, too_large, timeout, failed, ...' }),
        message: Type.Optional(Str),
      },
      { additionalProperties: false },
    ),
  ),
  errors_listed: Int,
  errors_total: Int,
};

export const MorganFingerprint = Type.Object(
  { type: Type.Literal('morgan'), radius: Type.Integer(), n_bits: Type.Integer() },
  { additionalProperties: false, description: 'Morgan (ECFP-like) bit vectors: radius 2, 2048 bits' },
);

/** A result document: `job_type` first (the discriminator of JobResult), then the fields. */
export function resultSchema(jobType: string, fields: TProperties, description: string) {
  return Type.Object({ job_type: Type.Literal(jobType), ...fields }, { additionalProperties: false, description });
}

/** The `ports` field: each port of the result artifact and what it holds. */
export const portsField = (names: string[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Type.String()])), { additionalProperties: false, description: "The result artifact's ports and what each holds" });
