// `file` uploads written into the store while the body is read (src/modules/artifacts/file-upload.ts):
// no scratch file, the fields after the file still in the manifest, and nothing left in the store
// when the request is refused after the bytes went in (422, a replayed idempotent answer).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, download, storedObjects, upload } from './helpers.js';

type Part = { field: string; value: string } | { file: string; type: string; content: Buffer };

/** POSTs a multipart body whose parts come in exactly this order. */
async function post(h: Harness, token: string, parts: Part[], headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const boundary = `----streamed${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('field' in p) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"\r\n\r\n${p.value}\r\n`));
    else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${p.file}"\r\nContent-Type: ${p.type}\r\n\r\n`));
      chunks.push(p.content, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const r = await fetch(`${h.base}/api/v1/artifacts`, {
    method: 'POST',
    body: Buffer.concat(chunks),
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
  });
  const text = await r.text();
  return { status: r.status, body: JSON.parse(text) };
}

async function members(zip: Buffer): Promise<{ name: string; method: number; crc: number; content: Buffer }[]> {
  const z = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out: { name: string; method: number; crc: number; content: Buffer }[] = [];
  for await (const e of z.eachEntry()) {
    const parts: Buffer[] = [];
    for await (const c of await z.openReadStreamPromise(e)) parts.push(c as Buffer);
    out.push({ name: e.fileName, method: e.compressionMethod, crc: e.crc32, content: Buffer.concat(parts) });
  }
  return out;
}

for (const backend of BACKENDS) {
  describe(`file uploads written into the store as they are read [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    let userId: string;
    before(async () => {
      h = await startHarness(backend);
      ({ token, userId } = await h.user());
    });
    after(async () => h?.close());

    it('mode before the file: stored without a scratch file (none can be made), fields after the file in the manifest, the file member first', async () => {
      // A file where the scratch directory would be: any upload that spools fails.
      const scratch = h.services.artifacts.scratchDir;
      const hadDir = fs.existsSync(scratch);
      if (hadDir) fs.renameSync(scratch, `${scratch}.away`);
      fs.mkdirSync(path.dirname(scratch), { recursive: true });
      fs.writeFileSync(scratch, 'not a directory');
      try {
        const content = crypto.randomBytes(700_001);
        const r = await post(h, token, [
          { field: 'mode', value: 'file' },
          { file: 'dir/pose.bin', type: 'application/octet-stream', content },
          { field: 'data_kind', value: 'poses' },
          { field: 'data_format', value: 'raw' },
        ]);
        assert.equal(r.status, 201, JSON.stringify(r.body));
        assert.deepEqual(r.body.manifest.ports.file, {
          format: 'raw',
          kind: 'poses',
          record_count: 1,
          records: [{ id: 'pose.bin', files: { primary: 'file/pose.bin' }, content_types: { primary: 'application/octet-stream' } }],
        });
        const zip = await download(h, { token }, r.body.id);
        assert.equal(zip.body.length, r.body.size_bytes);
        // The archive's SHA-256 (the whole zip's ETag) was taken by the writer, not the store: right all the same.
        assert.equal(zip.headers.get('etag'), `"${crypto.createHash('sha256').update(zip.body).digest('hex')}"`);
        const m = await members(zip.body);
        assert.deepEqual(
          m.map((x) => [x.name, x.method]),
          [
            ['file/pose.bin', 0],
            ['manifest.json', 8],
          ],
        );
        assert.ok(m[0]!.content.equals(content));
        assert.equal(m[0]!.crc, zlib.crc32(content));
        assert.deepEqual(JSON.parse(m[1]!.content.toString('utf8')).ports.file.kind, 'poses');
        const record = await download(h, { token }, r.body.id, '?record=pose.bin', { range: 'bytes=100-199' });
        assert.equal(record.status, 206);
        assert.ok(record.body.equals(content.subarray(100, 200)));
        // With the mode after the file, the same upload needs the scratch file: refused here.
        const spooled = await post(h, token, [
          { file: 'late.bin', type: 'application/octet-stream', content: crypto.randomBytes(1000) },
          { field: 'mode', value: 'file' },
        ]);
        assert.ok(spooled.status >= 400, `a spooled upload cannot succeed without its scratch directory (${spooled.status})`);
      } finally {
        fs.rmSync(scratch, { force: true });
        if (hadDir) fs.renameSync(`${scratch}.away`, scratch);
      }
    });

    it('mode after the file (spooled) and a text file (deflated): the same archive shape', async () => {
      const bin = crypto.randomBytes(5000);
      // Posts the parts; the stored archive's members (name, method) must be `expected`, the file's bytes `content`.
      const stored = async (parts: Parameters<typeof post>[2], expected: [string, number][], content: Buffer) => {
        const r = await post(h, token, parts);
        assert.equal(r.status, 201, JSON.stringify(r.body));
        const m = await members((await download(h, { token }, r.body.id)).body);
        assert.deepEqual(
          m.map((x) => [x.name, x.method]),
          expected,
        );
        assert.ok(m[0]!.content.equals(content));
        return r;
      };
      await stored(
        [
          { file: 'late.bin', type: 'application/octet-stream', content: bin },
          { field: 'mode', value: 'file' },
        ],
        [
          ['file/late.bin', 0],
          ['manifest.json', 8],
        ],
        bin,
      );
      const text = Buffer.from('id,smiles\n' + Array.from({ length: 500 }, (_, i) => `m${i},CCO`).join('\n'));
      const csv = await stored(
        [
          { field: 'mode', value: 'file' },
          { file: 'table.csv', type: 'text/csv', content: text },
        ],
        [
          ['file/table.csv', 8],
          ['manifest.json', 8],
        ],
        text,
      );
      assert.ok(csv.body.size_bytes < text.length);
    });

    it('refused after the bytes went in (422 on a field after the file): nothing left in the store', async () => {
      const objects = await storedObjects(h);
      const rows = await countRows(h, userId);
      const r = await post(h, token, [
        { field: 'mode', value: 'file' },
        { file: 'a.bin', type: 'application/octet-stream', content: crypto.randomBytes(300_000) },
        { field: 'data_kind', value: 'k'.repeat(101) },
      ]);
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.errors[0].loc, ['body', 'data_kind']);
      assert.deepEqual(await storedObjects(h), objects, 'no object and no temp write');
      assert.equal(await countRows(h, userId), rows);
    });

    it('an idempotent retry of a streamed upload answers the first artifact and leaves no second object', async () => {
      const content = crypto.randomBytes(200_000);
      const opts = { mode: 'file', file: { name: 'once.bin', content }, idempotencyKey: `k-${crypto.randomUUID()}` };
      const first = await upload(h, { token }, opts);
      assert.equal(first.status, 201);
      const objects = await storedObjects(h);
      const again = await upload(h, { token }, opts);
      assert.equal(again.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.deepEqual(await storedObjects(h), objects, 'the retry’s bytes were not kept');
      // The same key with the fields after the file (so spooled): the same content hash, the same answer.
      const spooled = await post(
        h,
        token,
        [
          { file: 'once.bin', type: 'application/octet-stream', content },
          { field: 'mode', value: 'file' },
        ],
        { 'idempotency-key': opts.idempotencyKey },
      );
      assert.equal(spooled.status, 201, JSON.stringify(spooled.body));
      assert.equal(spooled.body.id, first.body.id);
      // The same key with other bytes (same size and name): refused, nothing kept either.
      const other = await upload(h, { token }, { ...opts, file: { name: 'once.bin', content: crypto.randomBytes(200_000) } });
      assert.equal(other.status, 409);
      assert.equal(other.body.type, '/api/v1/problems/idempotency-key-reused');
      assert.deepEqual(await storedObjects(h), objects);
    });
  });
}
