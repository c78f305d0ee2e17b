// A 200 MB upload and download streamed end to end: the process never holds the file.
// Client and server share this process, so its resident memory bounds both sides.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, TEST_STORAGE, type Harness } from '../helpers/harness.js';
import { memorySampler } from '../helpers/memory.js';
import { multipartChunks, postStream, randomChunks } from './helpers.js';

const SIZE = 200 * 1024 * 1024;
/**
 * Peak growth of live memory (test/helpers/memory.ts) allowed while moving SIZE bytes: well below
 * the file. Client and server together, with two other test files running, measured: local +39,
 * postgres +43, S3 +72 MiB (lib-storage's parts in flight and being filled, their requests).
 */
const MAX_GROWTH = 128 * 1024 * 1024;

// With the artifacts in the database, the database must be another process (PostgreSQL) for
// this process's memory to bound the transfer: an in-process PGlite holds the 200 MB itself.
const backend = TEST_STORAGE === 'postgres' ? BACKENDS.find((b) => b.name === 'postgres') : BACKENDS[0];

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

describe(
  `a 200 MB artifact, streamed${TEST_STORAGE === 'local' ? '' : ` (${TEST_STORAGE} storage)`}`,
  { skip: !backend && 'artifacts in the database: needs PostgreSQL (an in-process PGlite would hold them in this memory)' },
  () => {
    let h: Harness;
    let token: string;
    let artifactId: string;
    const data = randomChunks(SIZE, 'large-test');
    before(async () => {
      h = await startHarness(backend ?? BACKENDS[0]);
      token = (await h.user()).token;
    });
    after(async () => h?.close());

    it('uploads 200 MB as a stream with bounded memory', async (t) => {
      const mp = multipartChunks({ mode: 'file' }, { name: 'big.bin', type: 'application/octet-stream', chunks: data.stream });
      const s = memorySampler(200);
      const started = Date.now();
      const r = await postStream(`${h.base}/api/v1/artifacts`, { 'content-type': mp.contentType, authorization: `Bearer ${token}` }, mp.chunks);
      const body = r.body as { id: string; size_bytes: number; manifest: any };
      const m = s.stop();
      t.diagnostic(`upload: ${Date.now() - started} ms, live memory +${mb(m.live)}, rss +${mb(m.rss)}`);
      assert.equal(r.status, 201, JSON.stringify(body));
      artifactId = body.id;
      assert.ok(body.size_bytes > SIZE && body.size_bytes < SIZE + 4096, `stored uncompressed in the zip: ${body.size_bytes}`);
      assert.equal(body.manifest.ports.file.records[0].id, 'big.bin');
      assert.ok(m.live < MAX_GROWTH, `live memory grew by ${mb(m.live)} while uploading ${mb(SIZE)}`);
    });

    it('downloads the record (and the whole zip) as streams with bounded memory, bytes intact', async (t) => {
      assert.ok(artifactId, 'the upload test ran');
      const expected = data.sha256();
      for (const q of ['?record=big.bin', '']) {
        const s = memorySampler(200);
        const started = Date.now();
        const r = await fetch(`${h.base}/api/v1/artifacts/${artifactId}/download${q}`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(r.status, 200);
        const hash = crypto.createHash('sha256');
        let n = 0;
        for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
          hash.update(chunk);
          n += chunk.length;
        }
        const m = s.stop();
        t.diagnostic(`download${q || ' (zip)'}: ${Date.now() - started} ms, ${n} bytes, live memory +${mb(m.live)}, rss +${mb(m.rss)}`);
        if (q) {
          assert.equal(n, SIZE);
          assert.equal(hash.digest('hex'), expected, 'the record is the uploaded file');
        } else {
          assert.equal(String(n), r.headers.get('content-length'));
        }
        assert.ok(m.live < MAX_GROWTH, `live memory grew by ${mb(m.live)} while downloading`);
      }
      // A range deep inside the member.
      const r = await fetch(`${h.base}/api/v1/artifacts/${artifactId}/download?record=big.bin`, { headers: { authorization: `Bearer ${token}`, range: `bytes=${SIZE - 100}-` } });
      assert.equal(r.status, 206);
      assert.equal(Buffer.from(await r.arrayBuffer()).length, 100);
    });
  },
);
