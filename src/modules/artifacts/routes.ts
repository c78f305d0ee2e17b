import fsp from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../api/route.js';
import { AppError, invalidInput, type Issue } from '../../errors.js';
import type { Services } from '../../services.js';
import { unstorableFields } from '../../validation.js';
import { StorageError } from '../../storage/storage.js';
import { contentDisposition, parseRange } from './range.js';
import { artifactNameIssue } from './names.js';
import { ARTIFACT_SCHEMAS, ArtifactIdParams, ArtifactListQuery, DownloadQuery, UploadBodyDoc } from './schemas.js';
import type { UploadMode } from './types.js';
import { uploadHashPrefix, type StreamedFileUpload } from './file-upload.js';
import { spoolUpload, uploadFingerprint, type SpooledUpload } from './upload.js';

const MODES: UploadMode[] = ['file', 'molecules', 'archive'];

type UploadRequest = FastifyRequest & { artifactUpload?: SpooledUpload<StreamedFileUpload>; idempotencyBodyHash?: string };

/** What is left of an upload once its request is over: the scratch file, or a streamed write not finished (removed). */
async function discardUpload(f: SpooledUpload<StreamedFileUpload>['file'] | undefined): Promise<void> {
  if (f?.path) await fsp.unlink(f.path).catch(() => undefined);
  await f?.sink?.abort();
}

/** Store faults become 503 (disk full, I/O error: retry later); anything else stays a 500. */
function storageFault(err: unknown): unknown {
  if (err instanceof StorageError && err.isCapacityOrIo) {
    return new AppError('unavailable', 'the artifact store cannot take writes right now (it is full or failing); nothing was stored; retry later', { retry: 'upstream' });
  }
  return err;
}

function fieldValue(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.trim();
  return t === '' || t === 'null' ? null : t;
}

export const artifactRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { config } = services;
  const tags = ['artifacts'];
  // Scoped to this plugin: multipart bodies are accepted by the upload route only.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    '/artifacts',
    {
      schema: {
        operationId: 'listArtifacts',
        tags,
        summary: 'List your artifacts: one item per port (plus one per archive with include_archive), newest first',
        querystring: ArtifactListQuery,
        response: { 200: Type.Ref('ArtifactListResponse', { description: 'A page of your artifacts' }) },
      },
    },
    async (request) => {
      const q = request.query;
      return services.artifacts.list(principalOf(request).userId, {
        limit: q.limit ?? 100,
        offset: q.offset ?? 0,
        dataKind: q.data_kind,
        dataFormat: q.data_format,
        runId: q.run_id,
        includeArchive: q.include_archive ?? false,
      });
    },
  );

  app.post(
    '/artifacts',
    {
      config: { idempotency: true },
      schema: {
        operationId: 'uploadArtifact',
        tags,
        summary: 'Upload a file, a molecule set (.smi, .csv, .sdf) or an artifact zip (multipart/form-data)',
        consumes: ['multipart/form-data'],
        body: UploadBodyDoc,
        response: { 201: Type.Ref('ArtifactResponse', { description: 'The stored artifact and its manifest' }) },
      },
      // The multipart body is read and checked by the preValidation hook below, not by Ajv.
      validatorCompiler: () => (value: unknown) => ({ value }),
      preValidation: async (request: UploadRequest) => {
        // A `file` upload whose mode came before the file is written into the store as it is
        // read (file-upload.ts); the handler finishes it, and onResponse removes it otherwise.
        const up = await spoolUpload(request, services.artifacts.scratchDir, config.uploadLimitBytes, {
          openSink: (file, fields) => (fields.mode === 'file' ? services.artifacts.openStreamedFile(file, config.uploadLimitBytes) : null),
          hashPrefix: uploadHashPrefix,
        }).catch((err: unknown) => {
          throw storageFault(err);
        });
        request.artifactUpload = up;
        const issues: Issue[] = [];
        const mode = up.fields.mode;
        if (!up.file) issues.push({ type: 'missing', loc: ['file'], msg: 'Field required: a file part named "file"', input: null });
        if (mode === undefined) issues.push({ type: 'missing', loc: ['mode'], msg: 'Field required: mode (file, molecules or archive)', input: null });
        else if (!MODES.includes(mode as UploadMode)) issues.push({ type: 'enum', loc: ['mode'], msg: 'Input should be "file", "molecules" or "archive"', input: mode });
        for (const f of ['data_kind', 'data_format'] as const) {
          const v = fieldValue(up.fields[f]);
          if (v !== null && v.length > 100) issues.push({ type: 'string_too_long', loc: [f], msg: 'String should have at most 100 characters', input: `${v.slice(0, 100)}…` });
        }
        const unstorable = unstorableFields(up.fields, []);
        issues.push(...unstorable);
        const name = fieldValue(up.fields.name);
        const nameIssue = name === null || unstorable.some((i) => i.loc[0] === 'name') ? null : artifactNameIssue(name, ['name']);
        if (nameIssue) issues.push(nameIssue);
        if (issues.length) {
          await discardUpload(up.file); // before the answer: a refused upload leaves nothing in the store
          throw invalidInput(issues);
        }
        // The idempotency fingerprint covers the uploaded bytes, not just the (absent) JSON body.
        request.idempotencyBodyHash = uploadFingerprint(up);
      },
      // An answer the handler did not give (a replayed idempotent response, a refused key) leaves
      // nothing behind either; onResponse catches whatever is left (a failed send).
      onSend: async (request: UploadRequest, _reply, payload) => {
        await discardUpload(request.artifactUpload?.file);
        return payload;
      },
      onResponse: async (request: UploadRequest) => discardUpload(request.artifactUpload?.file),
    },
    async (request: UploadRequest, reply) => {
      const up = request.artifactUpload!;
      const file = up.file!;
      const p = principalOf(request);
      const idem = request.idempotency;
      try {
        const body = await services.artifacts.storeUpload({
          userId: p.userId,
          mode: up.fields.mode as UploadMode,
          spoolPath: file.path,
          streamed: file.sink,
          size: file.size,
          filename: file.filename,
          mimetype: file.mimetype,
          name: fieldValue(up.fields.name),
          dataKind: fieldValue(up.fields.data_kind),
          dataFormat: fieldValue(up.fields.data_format),
          onCommit: idem ? (tx, response) => idem.saveInTx(tx, 201, response) : undefined,
        });
        reply.code(201);
        return body;
      } catch (err) {
        throw storageFault(err);
      } finally {
        await discardUpload(file);
      }
    },
  );

  app.get(
    '/artifacts/usage',
    {
      schema: {
        operationId: 'getArtifactUsage',
        tags,
        summary: 'Artifact storage used and the quota of your tier',
        response: { 200: Type.Ref('ArtifactUsage', { description: 'Storage used and the quota' }) },
      },
    },
    async (request) => services.artifacts.usage(principalOf(request).userId),
  );

  app.get(
    '/artifacts/:artifact_id',
    {
      schema: {
        operationId: 'getArtifact',
        tags,
        summary: 'One artifact with its manifest',
        params: ArtifactIdParams,
        response: { 200: Type.Ref('ArtifactResponse', { description: 'The artifact and its manifest' }) },
      },
    },
    async (request) => services.artifacts.get(principalOf(request).userId, request.params.artifact_id),
  );

  app.delete(
    '/artifacts/:artifact_id',
    {
      schema: {
        operationId: 'deleteArtifact',
        tags,
        summary: 'Delete an artifact (its row, then its file)',
        params: ArtifactIdParams,
        response: {
          200: Type.Ref('MessageResponse', { description: 'The artifact is deleted' }),
          409: { description: 'Problem: the artifact holds the weights of one of your models (delete the model with DELETE /user-models/mpnn)', $ref: 'Problem#' },
        },
      },
    },
    async (request) => {
      await services.artifacts.delete(principalOf(request).userId, request.params.artifact_id);
      return { message: `artifact ${request.params.artifact_id} deleted` };
    },
  );

  app.get(
    '/artifacts/:artifact_id/download',
    {
      schema: {
        operationId: 'downloadArtifact',
        tags,
        summary:
          'Download the whole zip, with record (and port) one record’s primary file, or with port alone that port (its one record’s file, or a zip of its records); Range requests work',
        params: ArtifactIdParams,
        querystring: DownloadQuery,
        headers: Type.Object({ range: Type.Optional(Type.String({ description: 'bytes=start-end, bytes=start- or bytes=-suffix' })) }),
        response: {
          200: {
            description: 'A zip (application/zip) or a record member with its own media type',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          206: { description: 'The requested byte range (Content-Range)', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          416: { description: 'Range not satisfiable (Content-Range: bytes */size)', $ref: 'Problem#' },
        },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const dl = await services.artifacts.download(p.userId, request.params.artifact_id, request.query).catch((err) => {
        throw storageFault(err);
      });
      const rangeHeader = request.headers.range;
      const ifRange = request.headers['if-range'];
      const r = parseRange(rangeHeader, dl.size, typeof ifRange === 'string' ? ifRange : undefined, dl.etag, dl.lastModified);
      reply.header('accept-ranges', 'bytes');
      if (r.kind === 'unsatisfiable') {
        dl.close();
        throw new AppError(
          'range-not-satisfiable',
          `the range "${rangeHeader}" is outside the ${dl.size} bytes of this ${request.query.record === undefined ? 'archive' : 'record'}`,
          {
            rangeSize: dl.size,
          },
        );
      }
      reply.header('etag', dl.etag);
      reply.header('last-modified', dl.lastModified.toUTCString());
      reply.header('content-disposition', contentDisposition(dl.filename));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      try {
        if (r.kind === 'partial') {
          const { start, end } = r.range;
          const stream = await dl.open(r.range);
          reply.code(206).type(dl.contentType);
          reply.header('content-range', `bytes ${start}-${end}/${dl.size}`);
          reply.header('content-length', String(end - start + 1));
          return reply.send(stream);
        }
        const stream = await dl.open();
        reply.code(200).type(dl.contentType);
        reply.header('content-length', String(dl.size));
        return reply.send(stream);
      } catch (err) {
        dl.close();
        throw storageFault(err);
      }
    },
  );
};

export { ARTIFACT_SCHEMAS };
