// Artifact objects in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2, ...),
// through the official AWS SDK. Object `<2 hex>/<uuid>` lives at `<prefix>objects/<2 hex>/<uuid>`.
// put() streams the source through a hash into lib-storage's Upload: one PutObject for a small
// object, else a multipart upload of 8 MiB parts (two in flight) committed at the end, so an
// object is visible only complete. Memory is bounded by the parts in flight, never the object.
// A multipart upload left by a crash is a temp write: list() reports it as
// `upload:<2 hex>/<uuid>:<upload id>` and deleteTemporary() aborts it, for the orphan sweep.
import crypto from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type ListMultipartUploadsCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.js';
import { asStorageError, StorageError, type ArtifactStorage, type ByteRange, type ObjectInfo, type PutOptions, type PutResult } from './storage.js';

const KEY_RE = /^[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UPLOAD_RE = /^upload:([0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(.+)$/s;
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** The S3 settings of the configuration (CRUCIBLE_S3_*, src/config.ts); the prefix may be left out. */
export type S3StorageOptions = Omit<S3Config, 'prefix'> & { prefix?: string };

interface SdkError {
  name?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(err: unknown): number | undefined {
  return (err as SdkError | null)?.$metadata?.httpStatusCode;
}

function nameOf(err: unknown): string | undefined {
  const n = (err as SdkError | null)?.name;
  return typeof n === 'string' ? n : undefined;
}

/** An SDK failure as a StorageError: a missing object is ENOENT, other service errors keep their S3 name as code. */
function s3Error(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const name = nameOf(err);
  const status = statusOf(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (name === 'NoSuchKey' || name === 'NotFound' || (status === 404 && name !== 'NoSuchBucket' && name !== 'NoSuchUpload'))
    return new StorageError(`${what}: no such object`, 'ENOENT', { cause: err });
  // A service answer (it has $metadata); otherwise a network fault, which keeps its errno code.
  // The store's own failures are classified as a disk's would be: full (507, MinIO's
  // XMinioStorageFull) is ENOSPC, any other 5xx (InternalError, SlowDown, ServiceUnavailable) EIO.
  if (status === 507 || name === 'XMinioStorageFull') return new StorageError(`${what}: ${name ?? 'S3 error'} (HTTP ${status}): ${msg}`, 'ENOSPC', { cause: err });
  if (status !== undefined && status >= 500) return new StorageError(`${what}: ${name ?? 'S3 error'} (HTTP ${status}): ${msg}`, 'EIO', { cause: err });
  if (status !== undefined) return new StorageError(`${what}: ${name ?? 'S3 error'} (HTTP ${status}): ${msg}`, name ?? `HTTP_${status}`, { cause: err });
  return asStorageError(err, what);
}

/** The first and last byte of a `Content-Range: bytes a-b/size` answer. */
function contentRange(v: string | undefined): { start: number; end: number } | null {
  const m = v ? /^bytes (\d+)-(\d+)\//.exec(v) : null;
  return m ? { start: Number(m[1]), end: Number(m[2]) } : null;
}

/** Bytes skip .. skip+take-1 of `body`, which is then closed: for a store that answers a range with more than was asked. */
function window(body: Readable, skip: number, take: number): Readable {
  const stop = skip + take;
  async function* bytes() {
    let pos = 0;
    try {
      for await (const c of body) {
        const chunk = c as Buffer;
        const from = Math.max(0, skip - pos);
        const to = Math.min(chunk.length, stop - pos);
        pos += chunk.length;
        if (to > from) yield chunk.subarray(from, to);
        if (pos >= stop) return;
      }
    } finally {
      body.destroy();
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}

function checkKey(key: string): void {
  if (!KEY_RE.test(key)) throw new StorageError(`invalid storage key "${key}"`, 'EINVAL');
}

export class S3Storage implements ArtifactStorage {
  readonly description: string;
  readonly bucket: string;
  /** `<prefix>objects/`: every object name starts with it. */
  private readonly base: string;
  private readonly client: S3Client;

  constructor(opts: S3StorageOptions) {
    if ((opts.accessKeyId === undefined) !== (opts.secretAccessKey === undefined)) throw new Error('S3 storage: give both accessKeyId and secretAccessKey, or neither');
    let prefix = (opts.prefix ?? '').replace(/^\/+/, '');
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    this.bucket = opts.bucket;
    this.base = `${prefix}objects/`;
    this.description = `s3://${opts.bucket}/${prefix}`;
    // The SDK warns on stderr, once per process, that its releases from 2027 need Node 22; the
    // version locked in package-lock.json runs on Node 20, which this project targets. An
    // operator who sets the variable keeps their choice.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.accessKeyId !== undefined && opts.secretAccessKey !== undefined ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {}),
    });
  }

  private nameOf(key: string): string {
    checkKey(key);
    return this.base + key;
  }

  /** Closes the client's idle connections. */
  close(): void {
    this.client.destroy();
  }

  async put(source: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const id = crypto.randomUUID();
    const key = `${id.slice(0, 2)}/${id}`;
    const name = this.base + key;
    const hash = opts.sha256 ? null : crypto.createHash('sha256');
    let size = 0;
    let sourceError = null as Error | null; // set by the listener (a plain `= null` would be narrowed to null)
    source.once('error', (err: Error) => {
      sourceError ??= err;
    });
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash?.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    // The pipe's own failure is the source's (recorded above) or our teardown below.
    const piping = pipeline(source, hashing).catch(() => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: name, Body: hashing, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
      await piping;
      return { key, size, sha256: hash ? hash.digest('hex') : opts.sha256!() };
    } catch (err) {
      if (!source.destroyed) source.destroy();
      if (!hashing.destroyed) hashing.destroy();
      await piping;
      // Upload aborts its multipart upload itself; make sure, and remove an object whose commit
      // succeeded but whose answer was lost. Both best effort: the sweep finds what remains.
      if (upload.uploadId) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: name, UploadId: upload.uploadId })).catch(() => undefined);
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name })).catch(() => undefined);
      // The source's own failure passes through unchanged (Upload may report its abort's error instead).
      if (sourceError) throw sourceError;
      throw s3Error(err, 'artifact storage write failed');
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const name = this.nameOf(key);
    if (range && (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start))
      throw new StorageError(`invalid byte range ${range.start}-${range.end}`, 'EINVAL');
    const what = `artifact object ${key} cannot be read`;
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: name, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      const body = r.Body;
      if (body === undefined) return Readable.from([], { objectMode: false });
      if (!(body instanceof Readable)) throw new StorageError(`${what}: the SDK returned no Node stream`, 'EIO');
      if (!range) return body;
      // Some stores answer a range with more (s3rver sends the whole object for bytes=0-0, a store
      // without range support answers 200 with all of it): cut the asked bytes out of the answer.
      const got = contentRange(r.ContentRange) ?? { start: 0, end: Infinity };
      if (got.start === range.start && got.end <= range.end) return body;
      if (got.start > range.start) {
        body.destroy();
        throw new StorageError(`${what}: asked for bytes ${range.start}-${range.end}, the store answered ${r.ContentRange}`, 'EIO');
      }
      return window(body, range.start - got.start, range.end - range.start + 1);
    } catch (err) {
      // A range that starts past the end (S3 answers 416): nothing to read, as from a file.
      if (range && (nameOf(err) === 'InvalidRange' || statusOf(err) === 416)) return Readable.from([], { objectMode: false });
      throw s3Error(err, what);
    }
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    const name = this.nameOf(key);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: name }));
      return { size: r.ContentLength ?? 0, modifiedAt: r.LastModified ?? new Date(0) };
    } catch (err) {
      const e = s3Error(err, `artifact object ${key} cannot be examined`);
      if (e.code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<boolean> {
    // S3 deletes a missing object without complaint: ask first, to answer whether one was removed.
    if (!(await this.stat(key))) return false;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.nameOf(key) }));
      return true;
    } catch (err) {
      throw s3Error(err, `artifact object ${key} cannot be deleted`);
    }
  }

  async deleteTemporary(key: string): Promise<void> {
    const m = UPLOAD_RE.exec(key);
    if (!m?.[1] || !m[2]) throw new StorageError(`not a temporary key: "${key}"`, 'EINVAL');
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.base + m[1], UploadId: m[2] }));
    } catch (err) {
      if (nameOf(err) === 'NoSuchUpload') return; // finished or aborted meanwhile
      throw s3Error(err, `multipart upload ${key} cannot be aborted`);
    }
  }

  async *list(): AsyncIterable<ObjectInfo> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.base, ...(token ? { ContinuationToken: token } : {}) }));
      } catch (err) {
        throw s3Error(err, 'artifact storage cannot be listed');
      }
      for (const o of page.Contents ?? []) {
        const key = o.Key?.slice(this.base.length);
        if (!key || !o.Key?.startsWith(this.base) || !KEY_RE.test(key)) continue; // not one of ours
        yield { key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0), temporary: false };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    yield* this.listUploads();
  }

  /**
   * Multipart uploads in progress under the prefix (an upload abandoned by a crash keeps its
   * parts, billed, until aborted). Their modifiedAt is when they began: a live upload older than
   * the sweep's age limit would be aborted, so uploads must take less than that (an hour).
   * Some S3 stand-ins (s3rver) answer NotImplemented: then there is nothing to list.
   */
  private async *listUploads(): AsyncIterable<ObjectInfo> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.base,
            ...(keyMarker !== undefined ? { KeyMarker: keyMarker } : {}),
            ...(uploadIdMarker !== undefined ? { UploadIdMarker: uploadIdMarker } : {}),
          }),
        );
      } catch (err) {
        if (nameOf(err) === 'NotImplemented' || statusOf(err) === 501) return;
        throw s3Error(err, 'multipart uploads cannot be listed');
      }
      for (const u of page.Uploads ?? []) {
        const key = u.Key?.slice(this.base.length);
        if (!key || !u.Key?.startsWith(this.base) || !KEY_RE.test(key) || !u.UploadId) continue;
        yield { key: `upload:${key}:${u.UploadId}`, size: 0, modifiedAt: u.Initiated ?? new Date(0), temporary: true };
      }
      if (!page.IsTruncated || (page.NextKeyMarker === undefined && page.NextUploadIdMarker === undefined)) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }
}
