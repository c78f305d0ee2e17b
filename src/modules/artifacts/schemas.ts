import { Type } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

/** Largest `offset` accepted: far inside the database's bigint, so a huge offset is a 422 at its loc, never a database error. */
const MAX_OFFSET = 1_000_000_000;

const ManifestRecordSchema = Type.Object(
  {
    id: Type.String(),
    files: Type.Record(Type.String(), Type.String(), { description: 'Role -> member path inside the archive; `primary` is always present' }),
    metrics: Type.Optional(Type.Record(Type.String(), Type.Number())),
    content_types: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Role -> media type of the member (else guessed from its extension)' })),
    name: Type.Optional(Type.String({ description: 'Molecule name, for molecule sets' })),
  },
  { additionalProperties: true },
);

const ManifestPortSchema = Type.Object(
  {
    format: Type.String({ description: 'e.g. smiles, sdf, json, svg, csv' }),
    kind: Type.String({ description: 'e.g. molecules, properties, depictions, file' }),
    record_count: Type.Integer(),
    records: Type.Array(ManifestRecordSchema),
    bundle: Type.Optional(Type.String({ description: 'Molecule sets written by Crucible: a JSON-lines member with every record ({id, smiles, name, molblock})' })),
  },
  { additionalProperties: true },
);

export const ArtifactManifest = Type.Object(
  {
    job_type: Type.String({ description: '`upload` for uploads of mode file and molecules' }),
    manifest_version: Type.Integer(),
    ports: Type.Record(Type.String(), ManifestPortSchema),
    warnings: Type.Array(Type.Unknown(), { description: 'Entries skipped or noted while building the artifact (e.g. unparseable molecules with their line)' }),
  },
  { $id: 'ArtifactManifest', additionalProperties: true },
);

export const ArtifactResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ description: 'An upload: the `name` it was given, else its file name; a job result: its job type and output ports (docs/artifacts.md, "Names")' }),
    origin: Type.Union([Type.Literal('upload'), Type.Literal('job')], { description: 'upload: POST /artifacts; job: written by a job (or a utility request)' }),
    content_type: Type.String({ default: 'application/octet-stream', description: 'Media type of the stored archive: application/zip' }),
    size_bytes: Type.Integer({ default: 0 }),
    created_at: Nullable(Type.String({ format: 'date-time' })),
    expires_at: Nullable(Type.String({ format: 'date-time' }), { description: 'null: kept until deleted' }),
    job_id: Nullable(Type.String()),
    manifest: Type.Ref(ArtifactManifest),
  },
  { $id: 'ArtifactResponse', additionalProperties: false },
);

export const ArtifactListItem = Type.Object(
  {
    artifact_id: Type.String(),
    name: Type.String({
      description: 'The artifact’s name. An upload: the `name` it was given, else its file name; a job result: its job type and output ports (docs/artifacts.md, "Names")',
    }),
    origin: Type.Union([Type.Literal('upload'), Type.Literal('job')], { description: 'upload: POST /artifacts; job: written by a job (or a utility request)' }),
    data_format: Type.String(),
    data_kind: Type.String(),
    port: Type.String({ description: 'The port this item lists; `*` for the virtual whole-archive item (include_archive=true)' }),
    created_at: Nullable(Type.String({ format: 'date-time' })),
    expires_at: Nullable(Type.String({ format: 'date-time' })),
    job_id: Nullable(Type.String()),
    job_name: Nullable(Type.String()),
    job_type: Nullable(Type.String()),
    run_id: Nullable(Type.String()),
    run_name: Nullable(Type.String()),
    step_id: Nullable(Type.String()),
    is_virtual: Type.Boolean({ default: false, description: 'true for the whole-archive item (data_kind archive, data_format zip, port *)' }),
    record_count: Type.Integer({ default: 0 }),
    size_bytes: Type.Integer({ default: 0, description: 'Size of the whole archive the port belongs to' }),
  },
  { $id: 'ArtifactListItem', additionalProperties: false },
);

export const ArtifactListResponse = Type.Object(
  {
    items: Type.Array(Type.Ref(ArtifactListItem)),
    has_more: Type.Boolean({ default: false }),
    next_offset: Nullable(Type.Integer()),
  },
  { $id: 'ArtifactListResponse', additionalProperties: false },
);

export const ArtifactUsage = Type.Object(
  {
    artifact_count: Type.Integer(),
    quota_bytes: Type.Integer(),
    tier: Type.Integer(),
    tier_name: Type.String({ description: 'free, pro, team or enterprise (additive)' }),
    used_bytes: Type.Integer(),
  },
  { $id: 'ArtifactUsage', additionalProperties: false },
);

export const ArtifactListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
    data_kind: Type.Optional(Type.String({ maxLength: 100 })),
    data_format: Type.Optional(Type.String({ maxLength: 100 })),
    run_id: Type.Optional(Type.String({ maxLength: 100 })),
    include_archive: Type.Optional(
      Type.Boolean({ default: false, description: 'Also list each archive as a whole: one virtual item (port *, data_kind archive, data_format zip) per artifact' }),
    ),
  },
  { additionalProperties: false },
);

export const ArtifactIdParams = Type.Object({ artifact_id: Type.String({ format: 'uuid' }) });

export const DownloadQuery = Type.Object(
  {
    record: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Serve this record’s primary member instead of the whole zip' })),
    port: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'With record: the port of the record (needed when the record id repeats across ports). Alone: that port, as its one record’s primary file, or a zip of its records (manifest.json with that port alone)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Documentation of the multipart body (validated by the upload hook, not by Ajv). */
export const UploadBodyDoc = Type.Object({
  file: Type.String({ format: 'binary', description: 'The file (required). Up to 512 MiB.' }),
  mode: Type.Union([Type.Literal('file'), Type.Literal('molecules'), Type.Literal('archive')], {
    description:
      'file: stored as a one-record artifact (port `file`); molecules: a .smi, .csv/.tsv (with a `smiles` column) or .sdf parsed into a molecule set (port `molecules`, one record per molecule, unparseable entries in manifest.warnings); archive: a zip with a manifest.json, validated and stored as sent',
  }),
  name: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 200,
        description: 'The artifact’s name, shown in lists: 1 to 200 characters, no control characters (default: the file’s name; an empty value counts as absent)',
      }),
    ),
  ),
  data_kind: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'mode=file: the port kind (default `file`); mode=molecules: only `molecules`; mode=archive: not allowed' })),
  ),
  data_format: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 100,
        description:
          'mode=file: the port format (default: the file extension); mode=molecules: the input format (smi, csv, tsv, sdf) when the name does not tell; mode=archive: not allowed',
      }),
    ),
  ),
});

export const ARTIFACT_SCHEMAS = [ArtifactManifest, ArtifactResponse, ArtifactListItem, ArtifactListResponse, ArtifactUsage];
