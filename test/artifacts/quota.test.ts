// Storage quota per tier, usage figures, the upload size cap.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, makeZip, multipartChunks, multipartStream, storedObjects, upload } from './helpers.js';

const QUOTA = 300_000;

for (const backend of BACKENDS) {
  describe(`artifact quota and limits [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_TIER_FREE_STORAGE_BYTES: String(QUOTA), CRUCIBLE_UPLOAD_LIMIT_BYTES: String(1024 * 1024) });
    });
    after(async () => h?.close());

    const usage = async (token: string) => (await h.req('GET', '/api/v1/artifacts/usage', { token })).body;
    const scratchFiles = () => (fs.existsSync(h.services.artifacts.scratchDir) ? fs.readdirSync(h.services.artifacts.scratchDir) : []);

    it('usage reports count, bytes, the tier and its quota', async () => {
      const u = await h.user({ tier: 'free' });
      assert.deepEqual(await usage(u.token), { artifact_count: 0, quota_bytes: QUOTA, tier: 0, tier_name: 'free', used_bytes: 0 });
      const a = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'a.bin', content: crypto.randomBytes(1000) } });
      const b = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'b.smi', content: 'CCO\nCCN\n' } });
      assert.deepEqual(await usage(u.token), { artifact_count: 2, quota_bytes: QUOTA, tier: 0, tier_name: 'free', used_bytes: a.body.size_bytes + b.body.size_bytes });
      const pro = await h.user({ tier: 'pro' });
      assert.deepEqual(await usage(pro.token), { artifact_count: 0, quota_bytes: 50 * 1024 ** 3, tier: 1, tier_name: 'pro', used_bytes: 0 });
    });

    it('an upload that would pass the quota is 403 storage-quota-exceeded and stores nothing', async () => {
      const u = await h.user({ tier: 'free' });
      const first = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'a.bin', content: crypto.randomBytes(200_000) } });
      assert.equal(first.status, 201);
      const objectsBefore = await storedObjects(h);
      // The zipped size is known only after streaming: refused at the insert, the file is removed.
      const second = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'b.bin', content: crypto.randomBytes(150_000) } });
      assert.equal(second.status, 403);
      assert.equal(second.body.type, '/api/v1/problems/storage-quota-exceeded');
      assert.equal(second.body.retry, 'quota');
      assert.match(second.body.detail, new RegExp(`would pass the artifact storage quota of ${QUOTA} bytes \\(${first.body.size_bytes} bytes stored\\)`));
      assert.equal(await countRows(h, u.userId), 1);
      assert.deepEqual(await storedObjects(h), objectsBefore, 'no file left behind');
      assert.deepEqual(scratchFiles(), []);
      // archive mode (stored as sent): refused before any work.
      const zip = await makeZip({
        'manifest.json': JSON.stringify({ ports: { p: { format: 'bin', kind: 'x', records: [{ id: 'a', files: { primary: 'a' } }] } } }),
        a: crypto.randomBytes(150_000),
      });
      const arch = await upload(h, { token: u.token }, { mode: 'archive', file: { name: 'x.zip', content: zip } });
      assert.equal(arch.status, 403);
      assert.equal(arch.body.type, '/api/v1/problems/storage-quota-exceeded');
      // What fits still goes in.
      const small = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'c.txt', content: 'small' } });
      assert.equal(small.status, 201);
      assert.deepEqual(await storedObjects(h).then((o) => o.length), objectsBefore.length + 1);
      // After deleting, room again.
      assert.equal((await h.req('DELETE', `/api/v1/artifacts/${first.body.id}`, { token: u.token })).status, 200);
      assert.equal((await upload(h, { token: u.token }, { mode: 'file', file: { name: 'b.bin', content: crypto.randomBytes(150_000) } })).status, 201);
    });

    it('concurrent uploads never pass the quota together (checked under a per-account lock)', async () => {
      const u = await h.user({ tier: 'free' });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => upload(h, { token: u.token }, { mode: 'file', file: { name: `f${i}.bin`, content: crypto.randomBytes(90_000) } })),
      );
      const ok = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 403);
      assert.equal(ok.length + refused.length, 6, results.map((r) => r.status).join(','));
      assert.equal(ok.length, 3, 'three 90 kB files fit in 300 kB, a fourth does not');
      const use = await usage(u.token);
      assert.ok(use.used_bytes <= QUOTA, `${use.used_bytes} <= ${QUOTA}`);
      assert.equal(use.artifact_count, 3);
      assert.equal(await countRows(h, u.userId), 3);
    });

    it('a file over the upload cap is 413 payload-too-large (declared or streamed), nothing stored', async () => {
      const u = await h.user({ tier: 'pro' });
      const objects = await storedObjects(h);
      const big = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'big.bin', content: crypto.randomBytes(1024 * 1024 + 1) } });
      assert.equal(big.status, 413);
      assert.equal(big.body.type, '/api/v1/problems/payload-too-large');
      assert.match(big.body.detail, /larger than the limit of 1048576 bytes/);
      // Chunked (no Content-Length): cut while streaming.
      const chunks = async function* () {
        for (let i = 0; i < 3; i++) yield crypto.randomBytes(512 * 1024);
      };
      const mp = multipartStream({ mode: 'file' }, { name: 'big.bin', type: 'application/octet-stream', chunks });
      const r = await fetch(`${h.base}/api/v1/artifacts`, {
        method: 'POST',
        body: mp.body,
        headers: { 'content-type': mp.contentType, authorization: `Bearer ${u.token}` },
        duplex: 'half',
      });
      assert.equal(r.status, 413);
      assert.equal(((await r.json()) as { type: string }).type, '/api/v1/problems/payload-too-large');
      // Exactly at the cap is fine.
      const atCap = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'cap.bin', content: crypto.randomBytes(1024 * 1024) } });
      assert.equal(atCap.status, 201);
      assert.equal(await countRows(h, u.userId), 1);
      assert.equal((await storedObjects(h)).length, objects.length + 1);
      assert.deepEqual(scratchFiles(), []);
    });

    it('an upload cut off mid-way leaves no scratch file, no object and no row', async () => {
      const u = await h.user({ tier: 'pro' });
      const objects = await storedObjects(h);
      // A `file` upload with its mode first is written into the store as it is read (a temp
      // object there), any other is spooled (a scratch file): either shows it under way.
      // (A store may show nothing while it gathers a first part, as S3's does: its write is counted.)
      const svc = h.services.artifacts;
      const real = svc.storage;
      let writing = 0;
      svc.storage = new Proxy(real, {
        get(target, prop) {
          if (prop === 'put')
            return (...args: Parameters<typeof real.put>) => {
              writing++;
              return target.put(...args).finally(() => writing--);
            };
          const v: unknown = Reflect.get(target, prop);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const underWay = async () => writing > 0 || scratchFiles().length > 0 || (await storedObjects(h)).some((o) => o.temporary);
      let sawScratch = false;
      const mp = multipartChunks(
        { mode: 'file' },
        {
          name: 'cut.bin',
          type: 'application/octet-stream',
          chunks: async function* () {
            yield crypto.randomBytes(300_000);
          },
        },
      );
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`${h.base}/api/v1/artifacts`, {
          method: 'POST',
          headers: { 'content-type': mp.contentType, 'content-length': '900000', authorization: `Bearer ${u.token}` },
        });
        req.on('error', () => resolve());
        req.on('response', (res) => {
          res.resume();
          resolve();
        });
        (async () => {
          let i = 0;
          for await (const c of mp.chunks()) if (i++ < 3) req.write(c);
          // Wait until the server is spooling the file, then cut the connection.
          const deadline = Date.now() + 15_000;
          while (!(sawScratch = await underWay()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          req.destroy();
        })().catch(reject);
      });
      const until = Date.now() + 5000;
      while ((await underWay()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      svc.storage = real;
      assert.ok(sawScratch, 'the partial upload was being spooled or streamed into the store');
      assert.deepEqual(scratchFiles(), []);
      assert.equal(await countRows(h, u.userId), 0);
      assert.deepEqual(await storedObjects(h), objects);
    });

    it('HEAD on a download gives the headers without a body', async () => {
      const u = await h.user({ tier: 'pro' });
      const up = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'h.txt', content: 'head test' } });
      const r = await fetch(`${h.base}/api/v1/artifacts/${up.body.id}/download?record=h.txt`, { method: 'HEAD', headers: { authorization: `Bearer ${u.token}` } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-length'), '9');
      assert.equal(r.headers.get('accept-ranges'), 'bytes');
      assert.equal((await r.arrayBuffer()).byteLength, 0);
    });
  });
}
