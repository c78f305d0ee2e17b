// An S3 stand-in for the tests: s3rver (the real S3 REST protocol, objects in a temp dir) on
// loopback, with one bucket; it stands for AWS S3, MinIO, Ceph RGW or R2 (docs/artifacts.md,
// "Storage and crash safety"). s3rver 3.7 implements multipart uploads (create, upload part,
// complete) but answers ListMultipartUploads with NotImplemented and AbortMultipartUpload with
// MethodNotAllowed; unless `multipartListing: false`, the stand-in adds those two operations
// (over s3rver's own upload directories), so the storage's sweep of abandoned uploads is
// exercised as it would run against a full S3. The additions skip request-signature checks.
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface S3StandIn {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** The directory s3rver keeps the bucket in (to look at what is stored). */
  directory: string;
  close(): Promise<void>;
}

/** What the tests use of s3rver (it ships no type declarations). */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: Record<string, unknown>) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function xmlError(ctx: KoaContext, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
}

/** ListMultipartUploads and AbortMultipartUpload over s3rver's upload directories (<bucket>/._S3rver_uploads/<id>/key). */
function multipartOperations(server: S3rverInstance, bucket: string): Middleware {
  const uploadsDir = () => server.store.getResourcePath(bucket, undefined, 'uploads');
  const one = (q: string | string[] | undefined) => (Array.isArray(q) ? q[0] : q);
  return async (ctx, next) => {
    const parts = ctx.path.split('/').slice(1);
    if (parts[0] !== bucket) return next();
    const objectKey = parts.slice(1).map(decodeURIComponent).join('/');
    if (ctx.method === 'GET' && objectKey === '' && 'uploads' in ctx.query) {
      const prefix = one(ctx.query.prefix) ?? '';
      const uploads: { key: string; id: string; initiated: Date }[] = [];
      for (const id of await fsp.readdir(uploadsDir()).catch(() => [] as string[])) {
        const keyFile = path.join(uploadsDir(), id, 'key');
        const key = await fsp.readFile(keyFile, 'utf8').catch(() => null);
        if (key === null || !key.startsWith(prefix)) continue;
        uploads.push({ key, id, initiated: (await fsp.stat(keyFile)).mtime });
      }
      uploads.sort((a, b) => (a.key === b.key ? a.id.localeCompare(b.id) : a.key < b.key ? -1 : 1));
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
        `<Bucket>${xmlEscape(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><Prefix>${xmlEscape(prefix)}</Prefix>` +
        `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
        uploads
          .map(
            (u) =>
              `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${xmlEscape(u.id)}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
          )
          .join('') +
        `</ListMultipartUploadsResult>`;
      return;
    }
    const uploadId = one(ctx.query.uploadId);
    if (ctx.method === 'DELETE' && objectKey !== '' && uploadId !== undefined) {
      const dir = path.join(uploadsDir(), path.basename(uploadId));
      const key = await fsp.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
      if (key !== objectKey) return xmlError(ctx, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      await fsp.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    return next();
  };
}

export async function startS3StandIn(opts: { bucket?: string; multipartListing?: boolean } = {}): Promise<S3StandIn> {
  const bucket = opts.bucket ?? `crucible-${crypto.randomBytes(4).toString('hex')}`;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  if (opts.multipartListing !== false) server.middleware.unshift(multipartOperations(server, bucket));
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (err) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    directory,
    async close() {
      await server.close().catch(() => undefined);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The same stand-in in a child process (test/helpers/s3-child.ts): its memory and CPU are not this process's. */
export async function startS3StandInProcess(): Promise<S3StandIn> {
  const child = fork(path.join(import.meta.dirname, 's3-child.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<Omit<S3StandIn, 'close'>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the S3 stand-in process exited (${code}) before it was ready`)));
    child.once('message', (m: Omit<S3StandIn, 'close'>) => resolve(m));
  });
  return {
    ...ready,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

/** The CRUCIBLE_* settings that point Crucible's S3 storage at a stand-in. */
export function s3Env(s3: Omit<S3StandIn, 'close'>): Record<string, string> {
  return {
    CRUCIBLE_STORAGE: 's3',
    CRUCIBLE_S3_ENDPOINT: s3.endpoint,
    CRUCIBLE_S3_BUCKET: s3.bucket,
    CRUCIBLE_S3_REGION: s3.region,
    CRUCIBLE_S3_ACCESS_KEY_ID: s3.accessKeyId,
    CRUCIBLE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    CRUCIBLE_S3_FORCE_PATH_STYLE: '1',
  };
}
