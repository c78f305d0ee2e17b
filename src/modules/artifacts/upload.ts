// Multipart upload intake: the `file` part goes straight to a scratch file on local disk
// while it is hashed and counted (never buffered whole); the text fields are collected. A part
// that a sink takes (a `file` upload whose `mode` came first: its archive is written into the
// store as it arrives, file-upload.ts) is hashed and counted the same way, with no scratch file.
// This runs in the route's preValidation hook, before the shared idempotency preHandler,
// so the request fingerprint can cover the uploaded content (request.idempotencyBodyHash).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from '../../errors.js';
import { StorageError } from '../../storage/storage.js';

export const UPLOAD_FIELDS = ['mode', 'name', 'data_kind', 'data_format'] as const;
const MAX_FIELD_BYTES = 1024;
/** Multipart framing around the file (boundaries, part headers, the text fields). */
const FRAMING_ALLOWANCE = 64 * 1024;

/** Takes the file part's bytes somewhere other than a scratch file (iterating `data` once). */
export interface FileSink {
  /** Resolves when `data` has ended, to the hex SHA-256 of hashPrefix(filename) and the bytes; rejects with its error or the sink's own (a StorageError). */
  write(data: AsyncIterable<Buffer>): Promise<string>;
  /** Gives the bytes up (the request failed or was refused); a no-op once the sink's owner has finished it. */
  abort(reason?: unknown): Promise<void>;
}

/** Offers the file part to a sink once its name and type are known; null: spool it. `fields`: the text fields sent before it. */
export type OpenSink<S extends FileSink> = (file: { filename: string; mimetype: string }, fields: SpooledUpload['fields']) => S | null;

export interface SpooledFile<S extends FileSink = FileSink> {
  /** The scratch file; null when a sink took the bytes. */
  path: string | null;
  sink: S | null;
  size: number;
  sha256: string;
  filename: string;
  mimetype: string;
}

export interface SpooledUpload<S extends FileSink = FileSink> {
  fields: Partial<Record<(typeof UPLOAD_FIELDS)[number], string>>;
  file: SpooledFile<S> | null;
}

interface MultipartPart {
  type: 'file' | 'field';
  fieldname: string;
  value?: unknown;
  valueTruncated?: boolean;
  filename?: string;
  mimetype?: string;
  file?: NodeJS.ReadableStream & { truncated?: boolean; destroy(err?: Error): void };
}

type MultipartRequest = FastifyRequest & {
  isMultipart(): boolean;
  parts(opts?: object): AsyncIterableIterator<MultipartPart>;
};

const tooLarge = (limit: number) =>
  new AppError('payload-too-large', `the uploaded file is larger than the limit of ${limit} bytes (${Math.round(limit / 1024 / 1024)} MiB); nothing was stored`);

/**
 * Reads the multipart body: fields into memory (each at most 1 KiB), the one file part into
 * `dir`. Throws problems for a body that is not multipart (415), too large (413, checked on
 * Content-Length first and then while streaming), malformed (400) or carrying parts other
 * than `file`, `mode`, `name`, `data_kind`, `data_format` (422). On any failure the scratch file is removed
 * (or the sink aborted); a sink's StorageError passes through unchanged.
 */
export async function spoolUpload<S extends FileSink = FileSink>(
  request: FastifyRequest,
  dir: string,
  maxFileBytes: number,
  opts: { openSink?: OpenSink<S>; hashPrefix?: (filename: string) => Buffer } = {},
): Promise<SpooledUpload<S>> {
  const { openSink, hashPrefix } = opts;
  const req = request as MultipartRequest;
  if (typeof req.isMultipart !== 'function' || !req.isMultipart()) {
    throw new AppError(
      'unsupported-media-type',
      `content type "${request.headers['content-type'] ?? ''}" is not accepted here; send multipart/form-data with a "file" part and a "mode" field`,
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxFileBytes + FRAMING_ALLOWANCE) throw tooLarge(maxFileBytes);

  const out: SpooledUpload<S> = { fields: {}, file: null };
  let scratch: string | null = null;
  let sink: S | null = null;
  try {
    const parts = req.parts({
      limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: MAX_FIELD_BYTES, parts: 12, fieldNameSize: 100, headerPairs: 100 },
      throwFileSizeLimit: false,
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file?.resume();
          throw invalid([part.fieldname], `unexpected file part "${part.fieldname}": the upload goes in the part named "file"`, part.filename ?? null, 'extra_forbidden');
        }
        if (out.file) throw invalid(['file'], 'send one file per upload', part.filename ?? null, 'too_long');
        const filename = part.filename ?? '';
        const mimetype = part.mimetype ?? 'application/octet-stream';
        sink = openSink?.({ filename, mimetype }, { ...out.fields }) ?? null;
        if (sink) {
          // The sink hashes as it writes (hashPrefix and the bytes, one pass).
          let size = 0;
          const file = part.file!;
          const counted = (async function* () {
            for await (const chunk of file as AsyncIterable<Buffer>) {
              size += chunk.length;
              yield chunk;
            }
            if (file.truncated) throw tooLarge(maxFileBytes);
          })();
          let sha256: string;
          try {
            sha256 = await sink.write(counted);
          } catch (err) {
            throw bodyError(err);
          }
          out.file = { path: null, sink, size, sha256, filename, mimetype };
          continue;
        }
        await fsp.mkdir(dir, { recursive: true });
        scratch = path.join(dir, `upload-${crypto.randomUUID()}`);
        const hash = crypto.createHash('sha256');
        if (hashPrefix) hash.update(hashPrefix(filename));
        let size = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            hash.update(chunk);
            size += chunk.length;
            cb(null, chunk);
          },
        });
        try {
          await pipeline(part.file!, counter, fs.createWriteStream(scratch, { flags: 'wx', mode: 0o600, highWaterMark: 1024 * 1024 }));
        } catch (err) {
          throw bodyError(err);
        }
        if (part.file!.truncated) throw tooLarge(maxFileBytes);
        out.file = { path: scratch, sink: null, size, sha256: hash.digest('hex'), filename, mimetype };
        continue;
      }
      const name = part.fieldname;
      if (name === 'file') throw invalid(['file'], 'file must be a file part (Content-Disposition with a filename), not a text field', clip(part.value), 'value_error');
      if (!(UPLOAD_FIELDS as readonly string[]).includes(name)) {
        throw invalid([name], `unexpected field "${name}"; the upload takes file, mode, name, data_kind and data_format`, clip(part.value), 'extra_forbidden');
      }
      if (part.valueTruncated) throw invalid([name], `${name} is longer than ${MAX_FIELD_BYTES} bytes`, clip(part.value), 'string_too_long');
      if (out.fields[name as keyof SpooledUpload['fields']] !== undefined) throw invalid([name], `${name} is sent more than once`, clip(part.value), 'value_error');
      out.fields[name as keyof SpooledUpload['fields']] = fieldText(part.value);
    }
    return out;
  } catch (err) {
    if (scratch) await fsp.unlink(scratch).catch(() => undefined);
    await sink?.abort(err);
    throw bodyError(err);
  }
}

/** A text field's value: a string from @fastify/multipart, unless a JSON part parsed to another value (kept as JSON text). */
function fieldText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function clip(v: unknown): unknown {
  return typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v;
}

/** A failure while reading the body: the client's fault (malformed or cut short) unless it is a disk fault. */
function bodyError(err: unknown): AppError | Error {
  if (err instanceof AppError || err instanceof StorageError) return err;
  const e = err as NodeJS.ErrnoException & { statusCode?: number };
  if (e?.code && ['ENOSPC', 'EIO', 'EDQUOT', 'EROFS'].includes(e.code)) {
    return new AppError('unavailable', 'the server cannot store uploads right now (scratch disk unavailable); retry later', { retry: 'upstream' });
  }
  if (e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FIELDS_LIMIT' || e?.code === 'FST_FILES_LIMIT') {
    return invalid([], 'too many parts: the upload takes one file part and the fields mode, name, data_kind and data_format', null, 'too_long');
  }
  return new AppError('bad-request', `the multipart body could not be read: ${e?.message ?? String(err)}`);
}

/** The idempotency fingerprint of an upload: its fields and the file's name, type, size and SHA-256. */
export function uploadFingerprint(u: SpooledUpload<FileSink>): string {
  const fields = Object.keys(u.fields)
    .sort()
    .map((k) => `${k}=${JSON.stringify(u.fields[k as keyof SpooledUpload['fields']])}`)
    .join('&');
  const file = u.file ? `${JSON.stringify(u.file.filename)};${JSON.stringify(u.file.mimetype)};${u.file.size};${u.file.sha256}` : 'none';
  return `multipart:${fields}|file:${file}`;
}
