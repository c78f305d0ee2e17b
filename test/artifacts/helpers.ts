// Helpers for the artifact tests: multipart uploads over real HTTP, real zip files.
import crypto from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { firstRow } from '../../src/db/database.js';
import type { Harness } from '../helpers/harness.js';

export interface Auth {
  token?: string;
  key?: string;
}

export interface UploadOpts {
  mode?: string;
  file?: { name: string; content: string | Buffer; type?: string };
  fields?: Record<string, string>;
  idempotencyKey?: string;
}

function authHeaders(a: Auth): Record<string, string> {
  const h: Record<string, string> = {};
  if (a.token) h.authorization = `Bearer ${a.token}`;
  if (a.key) h['x-api-key'] = a.key;
  return h;
}

export async function upload(h: Harness, auth: Auth, o: UploadOpts): Promise<{ status: number; body: any; headers: Headers }> {
  const form = new FormData();
  if (o.mode !== undefined) form.append('mode', o.mode);
  for (const [k, v] of Object.entries(o.fields ?? {})) form.append(k, v);
  if (o.file) form.append('file', new Blob([o.file.content], { type: o.file.type ?? 'application/octet-stream' }), o.file.name);
  const headers = authHeaders(auth);
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers });
  const text = await r.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body, headers: r.headers };
}

export async function download(
  h: Harness,
  auth: Auth,
  id: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: Headers; json: any }> {
  const r = await fetch(`${h.base}/api/v1/artifacts/${id}/download${query}`, { headers: { ...authHeaders(auth), ...headers } });
  const body = Buffer.from(await r.arrayBuffer());
  let json: any = null;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    /* binary */
  }
  return { status: r.status, body, headers: r.headers, json };
}

/** A real zip built with yazl. */
export async function makeZip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) z.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream as unknown as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Every member of a zip, read with yauzl. */
export async function readZip(buf: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const e of zip.eachEntry()) {
    const s = await zip.openReadStreamPromise(e);
    const parts: Buffer[] = [];
    for await (const c of s) parts.push(c as Buffer);
    out.set(e.fileName, Buffer.concat(parts));
  }
  return out;
}

/** Pseudo-random bytes (incompressible), reproducible from a seed, generated chunk by chunk. */
export function randomChunks(total: number, seed = 'seed', chunkSize = 1024 * 1024): { stream: () => AsyncGenerator<Buffer>; sha256: () => string } {
  const gen = async function* () {
    let counter = 0;
    let sent = 0;
    while (sent < total) {
      const n = Math.min(chunkSize, total - sent);
      // AES-CTR keystream of zeros: fast, deterministic, incompressible.
      const key = crypto.createHash('sha256').update(`${seed}:${counter++}`).digest();
      const c = crypto.createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
      yield c.update(Buffer.alloc(n));
      sent += n;
    }
  };
  return {
    stream: gen,
    sha256: () => {
      const h = crypto.createHash('sha256');
      let counter = 0;
      let sent = 0;
      while (sent < total) {
        const n = Math.min(chunkSize, total - sent);
        const key = crypto.createHash('sha256').update(`${seed}:${counter++}`).digest();
        h.update(crypto.createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(n)));
        sent += n;
      }
      return h.digest('hex');
    },
  };
}

/** A multipart/form-data body made chunk by chunk from fields and a generated file (never whole in memory). */
export function multipartChunks(
  fields: Record<string, string>,
  file: { name: string; type: string; chunks: () => AsyncGenerator<Buffer> },
): { chunks: () => AsyncGenerator<Buffer>; contentType: string } {
  const boundary = `----crucible${crypto.randomBytes(12).toString('hex')}`;
  const chunks = async function* () {
    for (const [k, v] of Object.entries(fields)) yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
    yield* file.chunks();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  };
  return { chunks, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The same as a web stream for fetch (chunked transfer, no Content-Length). */
export function multipartStream(
  fields: Record<string, string>,
  file: { name: string; type: string; chunks: () => AsyncGenerator<Buffer> },
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const mp = multipartChunks(fields, file);
  const it = mp.chunks();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await it.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await it.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, contentType: mp.contentType };
}

/**
 * POSTs a streamed body with node:http (fetch keeps every chunk of a streamed request body
 * alive until the request ends, which would make memory measurements meaningless).
 */
export function postStream(url: string, headers: Record<string, string>, chunks: () => AsyncGenerator<Buffer>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    pipeline(Readable.from(chunks()), req).catch(reject);
  });
}

export async function countRows(h: Harness, userId: string): Promise<number> {
  const { rows } = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM artifacts WHERE user_id = $1', [userId]);
  return firstRow(rows, 'the artifact count').n;
}

/** The storage key of an artifact (its row must exist). */
export async function storageKeyOf(h: Harness, artifactId: string): Promise<string> {
  const { rows } = await h.services.db.query<{ storage_key: string }>('SELECT storage_key FROM artifacts WHERE id = $1', [artifactId]);
  return firstRow(rows, `the row of artifact ${artifactId}`).storage_key;
}

/** Files in the artifact store (objects and temp writes). */
export async function storedObjects(h: Harness): Promise<{ key: string; temporary: boolean; size: number }[]> {
  const out: { key: string; temporary: boolean; size: number }[] = [];
  for await (const o of h.services.artifacts.storage.list()) out.push({ key: o.key, temporary: o.temporary, size: o.size });
  return out;
}
