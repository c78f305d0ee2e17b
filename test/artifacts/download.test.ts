// Downloads (whole archive, one record, by port), HTTP Range, ownership, get and delete.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countRows, download, makeZip, readZip, storageKeyOf, storedObjects, upload } from './helpers.js';

for (const backend of BACKENDS) {
  describe(`artifact download, range, ownership [${backend.name}]`, () => {
    let h: Harness;
    let owner: { token: string; userId: string };
    let fileArtifact: string;
    let content: Buffer;
    let twoPorts: string;
    before(async () => {
      h = await startHarness(backend);
      owner = await h.user();
      content = crypto.randomBytes(100_000);
      const r = await upload(h, { token: owner.token }, { mode: 'file', file: { name: 'blob.bin', content } });
      assert.equal(r.status, 201);
      fileArtifact = r.body.id;
      // Two ports with the same record id.
      const zip = await makeZip({
        'manifest.json': JSON.stringify({
          job_type: 'x',
          ports: {
            a: { format: 'txt', kind: 'text', records: [{ id: 'r1', files: { primary: 'a/r1.txt' } }] },
            b: {
              format: 'csv',
              kind: 'table',
              records: [
                { id: 'r1', files: { primary: 'b/r1.csv' } },
                { id: 'only-b', files: { primary: 'b/x.csv' } },
              ],
            },
          },
        }),
        'a/r1.txt': 'from port a\n',
        'b/r1.csv': 'x,y\n1,2\n',
        'b/x.csv': 'z\n',
      });
      const t = await upload(h, { token: owner.token }, { mode: 'archive', file: { name: 'two.zip', content: zip } });
      assert.equal(t.status, 201, JSON.stringify(t.body));
      twoPorts = t.body.id;
    });
    after(async () => h?.close());

    it('GET /artifacts/{id} returns the ArtifactResponse', async () => {
      const r = await h.req('GET', `/api/v1/artifacts/${fileArtifact}`, { token: owner.token });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['content_type', 'created_at', 'expires_at', 'id', 'job_id', 'manifest', 'name', 'origin', 'size_bytes']);
      assert.equal(r.body.id, fileArtifact);
      assert.equal(r.body.job_id, null);
      assert.equal(r.body.expires_at, null);
      assert.ok(Date.parse(r.body.created_at) > Date.now() - 600_000);
    });

    it('downloads the whole zip with its length, type, ETag and Accept-Ranges', async () => {
      const r = await download(h, owner, fileArtifact);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/zip');
      assert.equal(r.headers.get('accept-ranges'), 'bytes');
      assert.equal(Number(r.headers.get('content-length')), r.body.length);
      const meta = await h.req('GET', `/api/v1/artifacts/${fileArtifact}`, { token: owner.token });
      assert.equal(r.body.length, meta.body.size_bytes);
      assert.equal(r.headers.get('etag'), `"${crypto.createHash('sha256').update(r.body).digest('hex')}"`);
      const zip = await readZip(r.body);
      assert.deepEqual([...zip.keys()].sort(), ['file/blob.bin', 'manifest.json']);
      assert.ok(zip.get('file/blob.bin')!.equals(content));
    });

    it('serves byte ranges of the zip: first bytes, open-ended, suffix; 416 outside', async () => {
      const whole = (await download(h, owner, fileArtifact)).body;
      const first = await download(h, owner, fileArtifact, '', { range: 'bytes=0-3' });
      assert.equal(first.status, 206);
      assert.deepEqual([...first.body], [0x50, 0x4b, 0x03, 0x04], 'a zip starts with PK\\3\\4');
      assert.equal(first.headers.get('content-range'), `bytes 0-3/${whole.length}`);
      assert.equal(first.headers.get('content-length'), '4');

      const mid = await download(h, owner, fileArtifact, '', { range: 'bytes=1000-' });
      assert.equal(mid.status, 206);
      assert.ok(mid.body.equals(whole.subarray(1000)));
      assert.equal(mid.headers.get('content-range'), `bytes 1000-${whole.length - 1}/${whole.length}`);

      const suffix = await download(h, owner, fileArtifact, '', { range: 'bytes=-22' });
      assert.equal(suffix.status, 206);
      assert.ok(suffix.body.equals(whole.subarray(whole.length - 22)));
      assert.equal(suffix.body.readUInt32LE(0), 0x06054b50, 'the end-of-central-directory record');

      const past = await download(h, owner, fileArtifact, '', { range: `bytes=${whole.length}-` });
      assert.equal(past.status, 416);
      assert.equal(past.headers.get('content-range'), `bytes */${whole.length}`);
      assert.equal(past.json.type, '/api/v1/problems/http-416');
      assert.match(past.json.detail, new RegExp(`outside the ${whole.length} bytes`));

      // A stale If-Range (another ETag) gets the whole body; a matching one gets the range.
      const stale = await download(h, owner, fileArtifact, '', { range: 'bytes=0-3', 'if-range': '"other"' });
      assert.equal(stale.status, 200);
      assert.equal(stale.body.length, whole.length);
      const fresh = await download(h, owner, fileArtifact, '', { range: 'bytes=0-3', 'if-range': first.headers.get('etag')! });
      assert.equal(fresh.status, 206);
      // Several ranges: served whole (allowed by RFC 9110).
      assert.equal((await download(h, owner, fileArtifact, '', { range: 'bytes=0-1,5-6' })).status, 200);
    });

    it('serves one record, and byte ranges of it', async () => {
      const r = await download(h, owner, fileArtifact, '?record=blob.bin');
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(content));
      assert.equal(r.headers.get('content-type'), 'application/octet-stream');
      assert.equal(r.headers.get('content-length'), String(content.length));
      const part = await download(h, owner, fileArtifact, '?record=blob.bin', { range: 'bytes=500-1499' });
      assert.equal(part.status, 206);
      assert.ok(part.body.equals(content.subarray(500, 1500)));
      assert.equal(part.headers.get('content-range'), `bytes 500-1499/${content.length}`);
      const tail = await download(h, owner, fileArtifact, '?record=blob.bin', { range: 'bytes=-10' });
      assert.ok(tail.body.equals(content.subarray(content.length - 10)));
      const out = await download(h, owner, fileArtifact, '?record=blob.bin', { range: `bytes=${content.length}-` });
      assert.equal(out.status, 416);
      assert.equal(out.headers.get('content-range'), `bytes */${content.length}`);
    });

    it('ranges of a compressed record member are of the decompressed bytes', async () => {
      const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
      const up = await upload(h, { token: owner.token }, { mode: 'file', file: { name: 'log.txt', content: text } });
      const zip = (await download(h, owner, up.body.id)).body;
      assert.ok(zip.length < text.length / 2, 'text is stored deflated');
      const r = await download(h, owner, up.body.id, '?record=log.txt', { range: 'bytes=100-199' });
      assert.equal(r.status, 206);
      assert.equal(r.body.toString(), text.slice(100, 200));
      assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
    });

    it('needs port when a record id repeats across ports', async () => {
      const amb = await download(h, owner, twoPorts, '?record=r1');
      assert.equal(amb.status, 422);
      assert.match(amb.json.detail, /record "r1" exists in more than one port .*: send port to choose/);
      assert.deepEqual(amb.json.errors[0].loc, ['query', 'port']);
      const a = await download(h, owner, twoPorts, '?record=r1&port=a');
      assert.equal(a.status, 200);
      assert.equal(a.body.toString(), 'from port a\n');
      assert.equal(a.headers.get('content-type'), 'text/plain; charset=utf-8');
      const b = await download(h, owner, twoPorts, '?record=r1&port=b');
      assert.equal(b.body.toString(), 'x,y\n1,2\n');
      assert.equal(b.headers.get('content-type'), 'text/csv; charset=utf-8');
      // Unique ids need no port.
      assert.equal((await download(h, owner, twoPorts, '?record=only-b')).body.toString(), 'z\n');
      assert.equal((await download(h, owner, twoPorts, '?record=nope')).status, 404);
      const noPort = await download(h, owner, twoPorts, '?record=r1&port=c');
      assert.equal(noPort.status, 404);
      assert.match(noPort.json.detail, /port "c"/);
      // port alone (docs/artifacts.md, "Downloads"): a one-record port is its record's file, any other a zip of the port.
      assert.equal((await download(h, owner, twoPorts, '?port=a')).body.toString(), 'from port a\n');
      const portB = await download(h, owner, twoPorts, '?port=b');
      assert.deepEqual([portB.status, portB.headers.get('content-type')], [200, 'application/zip']);
      const members = await readZip(portB.body);
      assert.deepEqual([...members.keys()], ['manifest.json', 'b/r1.csv', 'b/x.csv']);
      assert.deepEqual(Object.keys(JSON.parse(members.get('manifest.json')!.toString()).ports), ['b']);
      assert.equal((await download(h, owner, twoPorts, '?port=b', { range: 'bytes=0-3' })).body.toString('latin1'), 'PK\x03\x04');
      assert.equal((await download(h, owner, twoPorts, '?port=constructor')).status, 404);
    });

    it('an SDF port downloads as one multi-record SDF, each record with its title and data fields, not a zip (issue 32 point 8)', async () => {
      const mol = (title: string, symbol: string, field: string) =>
        `${title}\n  test\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 ${symbol.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0\nM  END\n>  <label>\n${field}\n\n$$$$\n`;
      const sdf = mol('water', 'O', 'first') + mol('methane', 'C', 'second') + mol('ammonia', 'N', 'third');
      const up = await upload(h, { token: owner.token }, { mode: 'molecules', file: { name: 'three.sdf', content: sdf } });
      assert.equal(up.status, 201, JSON.stringify(up.body));
      assert.equal(up.body.manifest.ports.molecules.format, 'sdf');
      const r = await download(h, owner, up.body.id, '?port=molecules');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'chemical/x-mdl-sdfile');
      assert.match(r.headers.get('content-disposition') ?? '', new RegExp(`filename="${up.body.id}-molecules\\.sdf"`));
      const text = r.body.toString('utf8');
      const records = text.split('$$$$\n').filter((x) => x.trim());
      assert.equal(records.length, 3, text);
      assert.ok(text.endsWith('$$$$\n'));
      assert.deepEqual(
        records.map((x) => x.trim().split('\n')[0]),
        ['water', 'methane', 'ammonia'],
      );
      assert.deepEqual(
        records.map((x) => /> {2}<label>\n(\w+)/.exec(x)?.[1]),
        ['first', 'second', 'third'],
      );
      assert.equal(Number(r.headers.get('content-length')), r.body.length);
      // The same bytes every time (ETag), and ranges of them.
      const again = await download(h, owner, up.body.id, '?port=molecules', { range: 'bytes=0-4' });
      assert.equal(again.status, 206);
      assert.equal(again.body.toString(), 'water');
      assert.equal(again.headers.get('etag'), r.headers.get('etag'));
    });

    it("another user's artifact is 404 (get, download, delete), never 403, and stays intact", async () => {
      const other = await h.user();
      const id = fileArtifact;
      for (const [m, p] of [
        ['GET', `/api/v1/artifacts/${id}`],
        ['GET', `/api/v1/artifacts/${id}/download`],
        ['GET', `/api/v1/artifacts/${id}/download?record=blob.bin`],
        ['DELETE', `/api/v1/artifacts/${id}`],
      ] as const) {
        const r = await h.req(m, p, { token: other.token });
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.equal(r.body.type, '/api/v1/problems/http-404');
        assert.equal(r.body.detail, `artifact ${id} not found`);
      }
      await assert.rejects(h.services.artifacts.countMolecules(other.userId, id), (e: any) => e.code === 'not-found');
      assert.equal((await h.req('GET', `/api/v1/artifacts/${id}`, { token: owner.token })).status, 200);
      const none = await h.req('GET', '/api/v1/artifacts/00000000-0000-4000-8000-000000000000', { token: owner.token });
      assert.equal(none.status, 404);
      const malformed = await h.req('GET', '/api/v1/artifacts/not-a-uuid', { token: owner.token });
      assert.equal(malformed.status, 422);
      assert.deepEqual(malformed.body.errors[0].loc, ['path', 'artifact_id']);
    });

    it('DELETE removes the row and the file; the artifact is gone everywhere', async () => {
      const u = await h.user();
      const up = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'a.txt', content: 'bye' } });
      const key = await storageKeyOf(h, up.body.id);
      assert.ok((await storedObjects(h)).some((o) => o.key === key));
      const del = await h.req('DELETE', `/api/v1/artifacts/${up.body.id}`, { token: u.token });
      assert.equal(del.status, 200);
      assert.deepEqual(del.body, { message: `artifact ${up.body.id} deleted` });
      assert.equal(await countRows(h, u.userId), 0);
      assert.ok(!(await storedObjects(h)).some((o) => o.key === key), 'file removed');
      assert.equal((await h.req('GET', `/api/v1/artifacts/${up.body.id}`, { token: u.token })).status, 404);
      assert.equal((await download(h, u, up.body.id)).status, 404);
      assert.equal((await h.req('DELETE', `/api/v1/artifacts/${up.body.id}`, { token: u.token })).status, 404);
      const usage = await h.req('GET', '/api/v1/artifacts/usage', { token: u.token });
      assert.deepEqual([usage.body.artifact_count, usage.body.used_bytes], [0, 0]);
    });

    it('works with an API key (read scope for GET, write for DELETE)', async () => {
      const ro = await h.key(owner.token, { scopes: ['read'] });
      const r = await download(h, { key: ro.secret }, fileArtifact, '?record=blob.bin');
      assert.equal(r.status, 200);
      const del = await h.req('DELETE', `/api/v1/artifacts/${fileArtifact}`, { key: ro.secret });
      assert.equal(del.status, 403);
      assert.equal(del.body.type, '/api/v1/problems/insufficient-scope');
    });
  });
}
