// The service API the job engine uses: createFromRecords, readMolecules/countMolecules,
// readPrimaryJson, deleteForJob; store failures leave nothing visible; the orphan sweep.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { jobArtifactsFrom } from '../../src/modules/artifacts/job-results.js';
import { ArtifactService } from '../../src/modules/artifacts/service.js';
import type { ArtifactRecordInput } from '../../src/modules/artifacts/types.js';
import { LocalFileStorage } from '../../src/storage/local.js';
import { RoutedStorage } from '../../src/storage/routed.js';
import { asStorageError, StorageError, type ArtifactStorage } from '../../src/storage/storage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, TEST_STORAGE, type Harness } from '../helpers/harness.js';
import { countRows, download, readZip, storageKeyOf, storedObjects, upload } from './helpers.js';
import { firstRow } from '../../src/db/database.js';
import { Scheduler } from '../../src/scheduler.js';

/** A store that fails like a full disk after `failAfter` bytes of a write (test only). */
class FailingStorage implements ArtifactStorage {
  readonly description = 'failing';
  writes = 0;
  constructor(
    readonly inner: ArtifactStorage,
    readonly failAfter: number,
    readonly code = 'ENOSPC',
  ) {}
  put(source: Readable) {
    this.writes++;
    let seen = 0;
    const { failAfter, code } = this;
    // The bytes pass until `failAfter`, then the write fails as a full store reports it: a
    // StorageError with the errno code. A generator rather than a Transform: its error reaches
    // only the store that pulls from it, never an 'error' event left for nobody to hear.
    async function* gated() {
      for await (const chunk of source) {
        seen += (chunk as Buffer).length;
        if (seen > failAfter) throw new StorageError(`${code}: no space left on device, write`, code);
        yield chunk as Buffer;
      }
    }
    return this.inner.put(Readable.from(gated(), { objectMode: false })).catch((e: unknown) => {
      throw asStorageError(e, 'artifact storage write failed');
    });
  }
  get(key: string, range?: { start: number; end: number }) {
    return this.inner.get(key, range);
  }
  stat(key: string) {
    return this.inner.stat(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  list() {
    return this.inner.list();
  }
  deleteTemporary(key: string) {
    return this.inner.deleteTemporary(key);
  }
}

const svgRecord = (i: number): ArtifactRecordInput => ({
  id: `mol-${i}`,
  files: {
    svg: { name: `mol-${i}.svg`, content: `<svg xmlns="http://www.w3.org/2000/svg"><text>${i}</text>${' '.repeat(600)}</svg>`, contentType: 'image/svg+xml' },
    data: { name: 'props.json', content: Buffer.from(JSON.stringify({ i })) },
  },
  primary: 'svg',
  metrics: { mw: 100 + i },
});

for (const backend of BACKENDS) {
  describe(`artifact service [${backend.name}]`, () => {
    let h: Harness;
    let svc: ArtifactService;
    before(async () => {
      h = await startHarness(backend);
      svc = h.services.artifacts;
      h.services.scheduler.remove('artifact-sweep'); // the sweep test runs the sweep itself
    });
    after(async () => h?.close());

    it('createFromRecords streams records (sync and async iterables) into one artifact with a manifest', async () => {
      const u = await h.user();
      async function* asyncRecords() {
        for (let i = 1; i <= 3; i++) {
          await new Promise((r) => setImmediate(r));
          yield svgRecord(i);
        }
      }
      const jobId = crypto.randomUUID();
      const out = await svc.createFromRecords({
        userId: u.userId,
        jobId,
        jobType: 'depict',
        ports: {
          depictions: { format: 'svg', kind: 'depictions', records: asyncRecords() },
          summary: { format: 'json', kind: 'result', records: [{ id: 'all', files: { primary: { name: 'summary.json', content: '{"n":3}' } } }] },
        },
        warnings: [{ type: 'note', msg: 'x' }],
      });
      assert.ok(out.sizeBytes > 0);
      const r = await h.req('GET', `/api/v1/artifacts/${out.artifactId}`, { token: u.token });
      assert.equal(r.status, 200);
      assert.equal(r.body.job_id, jobId);
      assert.equal(r.body.size_bytes, out.sizeBytes);
      const m = r.body.manifest;
      assert.equal(m.job_type, 'depict');
      assert.equal(m.manifest_version, 1);
      assert.deepEqual(m.warnings, [{ type: 'note', msg: 'x' }]);
      assert.equal(m.ports.depictions.record_count, 3);
      assert.deepEqual(m.ports.depictions.records[0], {
        id: 'mol-1',
        files: { primary: 'depictions/1/mol-1.svg', data: 'depictions/1/props.json' },
        metrics: { mw: 101 },
        content_types: { primary: 'image/svg+xml' },
      });
      const zip = await readZip((await download(h, u, out.artifactId)).body);
      assert.deepEqual([...zip.keys()].sort(), [
        'depictions/1/mol-1.svg',
        'depictions/1/props.json',
        'depictions/2/mol-2.svg',
        'depictions/2/props.json',
        'depictions/3/mol-3.svg',
        'depictions/3/props.json',
        'manifest.json',
        'summary/1/summary.json',
      ]);
      assert.deepEqual(JSON.parse(zip.get('manifest.json')!.toString()), m);
      const svg = await download(h, u, out.artifactId, '?record=mol-2');
      assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
      assert.match(svg.body.toString(), /<text>2<\/text>/);
      assert.deepEqual(await svc.readPrimaryJson(u.userId, out.artifactId, 'summary', 'all'), { n: 3 });
      // The list shows the job's ports.
      const list = await h.req('GET', '/api/v1/artifacts', { token: u.token });
      assert.deepEqual(
        list.body.items.map((i: any) => [i.port, i.job_id, i.job_type]),
        [
          ['depictions', jobId, 'depict'],
          ['summary', jobId, 'depict'],
        ],
      );
      // Deleting the job's artifacts (as job delete does): the rows in a transaction, then the files.
      const key = await storageKeyOf(h, out.artifactId);
      const keys = await h.services.db.transaction((tx) => svc.deleteRowsForJob(tx, u.userId, jobId));
      assert.deepEqual(keys, [key]);
      await svc.removeObjects(keys);
      assert.equal(await svc.storage.stat(key), null);
      assert.equal((await h.req('GET', `/api/v1/artifacts/${out.artifactId}`, { token: u.token })).status, 404);
    });

    it('jobArtifactsFrom: the job result document round-trips as JSON; missing results are 404', async () => {
      const u = await h.user();
      const ja = jobArtifactsFrom(svc);
      const result = { items: [{ smiles: 'CCO', mw: 46.07 }], note: 'ünïcödé' };
      const finish = async (_tx: unknown, artifactId: string) => artifactId;
      const id = (await ja.writeResult({
        userId: u.userId,
        jobId: crypto.randomUUID(),
        jobType: 'properties',
        output: { result, ports: { svgs: { format: 'svg', kind: 'depictions', records: [svgRecord(1)] } } },
        finish,
      }))!;
      assert.deepEqual(await ja.readResult(u.userId, id), result);
      const other = await h.user();
      await assert.rejects(ja.readResult(other.userId, id), (e: any) => e.code === 'not-found');
      await assert.rejects(
        ja.writeResult({
          userId: u.userId,
          jobId: crypto.randomUUID(),
          jobType: 'x',
          output: { result: 1, ports: { result: { format: 'json', kind: 'x', records: [] } } },
          finish,
        }),
        /must not be named "result"/,
      );
    });

    it('jobArtifactsFrom: the row commits with finish(tx); a finish that loses (null) or fails leaves no row and no file', async () => {
      const u = await h.user();
      const ja = jobArtifactsFrom(svc);
      const before = await storedObjects(h);
      const jobId = crypto.randomUUID();
      // finish sees the row inside its transaction, under the id it is handed.
      let seenInTx = 0;
      const kept = await ja.writeResult({
        userId: u.userId,
        jobId,
        jobType: 'wait',
        output: { result: { ok: true } },
        finish: async (tx, artifactId) => {
          seenInTx = firstRow((await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM artifacts WHERE id = $1', [artifactId])).rows, 'the count').n;
          return { artifactId };
        },
      });
      assert.equal(seenInTx, 1);
      assert.equal((await h.req('GET', `/api/v1/artifacts/${kept!.artifactId}`, { token: u.token })).status, 200);
      // A second attempt of the same job that lost it: nothing of it stays, the first result is untouched.
      let lostId = '';
      const lost = await ja.writeResult({
        userId: u.userId,
        jobId,
        jobType: 'wait',
        output: { result: { ok: false } },
        finish: async (_tx, artifactId) => ((lostId = artifactId), null),
      });
      assert.equal(lost, null);
      assert.equal((await h.req('GET', `/api/v1/artifacts/${lostId}`, { token: u.token })).status, 404);
      await assert.rejects(
        ja.writeResult({ userId: u.userId, jobId, jobType: 'wait', output: { result: 3 }, finish: async () => Promise.reject(new Error('settlement failed')) }),
        /settlement failed/,
      );
      const rows = await h.services.db.query<{ id: string }>('SELECT id FROM artifacts WHERE job_id = $1', [jobId]);
      assert.deepEqual(
        rows.rows.map((r) => r.id),
        [kept!.artifactId],
        'only the winning result row',
      );
      assert.equal((await storedObjects(h)).length, before.length + 1, 'only the winning result file (no temp files either)');
      assert.deepEqual(await ja.readResult(u.userId, kept!.artifactId), { ok: true });
    });

    it('countMolecules and readMolecules: 404 for a missing artifact, 422 for a port that is not a molecule set', async () => {
      const u = await h.user();
      const file = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'a.txt', content: 'x' } });
      await assert.rejects(svc.countMolecules(u.userId, crypto.randomUUID()), (e: any) => e.code === 'not-found');
      await assert.rejects(
        svc.countMolecules(u.userId, file.body.id),
        (e: any) => e.code === 'invalid' && /holds no molecule set/.test(e.message) && e.issues[0].loc.join('.') === 'input_artifact_id',
      );
      await assert.rejects(svc.countMolecules(u.userId, file.body.id, 'file'), (e: any) => e.code === 'invalid' && /not a molecule set \(its kind is "file"\)/.test(e.message));
      await assert.rejects(svc.countMolecules(u.userId, file.body.id, 'nope'), (e: any) => e.code === 'invalid' && /has no port "nope"/.test(e.message));
      const it = svc.readMolecules(u.userId, file.body.id)[Symbol.asyncIterator]();
      await assert.rejects(it.next(), (e: any) => e.code === 'invalid');
    });

    it('a producer failure mid-way leaves no row, no file and no temp file', async () => {
      const u = await h.user();
      const before = await storedObjects(h);
      async function* failing() {
        yield svgRecord(1);
        yield svgRecord(2);
        throw new Error('chemistry worker died');
      }
      await assert.rejects(
        svc.createFromRecords({ userId: u.userId, jobId: null, jobType: 'depict', ports: { d: { format: 'svg', kind: 'depictions', records: failing() } } }),
        /chemistry worker died/,
      );
      await assert.rejects(
        svc.createFromRecords({ userId: u.userId, jobId: null, jobType: 'depict', ports: { d: { format: 'svg', kind: 'depictions', records: [svgRecord(1), svgRecord(1)] } } }),
        /record id "mol-1" repeats/,
      );
      // The insert itself fails (no such account): the written file is removed.
      await assert.rejects(
        svc.createFromRecords({ userId: crypto.randomUUID(), jobId: null, jobType: 'depict', ports: { d: { format: 'svg', kind: 'depictions', records: [svgRecord(1)] } } }),
      );
      assert.equal(await countRows(h, u.userId), 0);
      assert.deepEqual(await storedObjects(h), before);
    });

    it('a store that fails (disk full) surfaces a StorageError, and nothing half-written is visible', async () => {
      const u = await h.user();
      const real = svc.storage;
      const before = await storedObjects(h);
      const failing = new FailingStorage(real, 50_000);
      svc.storage = failing;
      try {
        const big = (i: number): ArtifactRecordInput => ({ id: `r${i}`, files: { primary: { name: `r${i}.bin`, content: crypto.randomBytes(20_000) } } });
        const err = await svc
          .createFromRecords({
            userId: u.userId,
            jobId: crypto.randomUUID(),
            jobType: 'x',
            ports: { p: { format: 'bin', kind: 'blob', records: Array.from({ length: 10 }, (_, i) => big(i)) } },
          })
          .then(
            () => null,
            (e) => e,
          );
        assert.ok(err instanceof StorageError, String(err));
        assert.equal(err.code, 'ENOSPC');
        assert.equal(err.isCapacityOrIo, true);
        assert.equal(await countRows(h, u.userId), 0);
        assert.deepEqual(await storedObjects(h), before, 'no object and no temp file');
        // Through HTTP: 503 with retry upstream, nothing stored.
        const r = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'b.bin', content: crypto.randomBytes(80_000) } });
        assert.equal(r.status, 503);
        assert.equal(r.body.retry, 'upstream');
        assert.match(r.body.detail, /nothing was stored/);
        assert.doesNotMatch(JSON.stringify(r.body), /ENOSPC|\/tmp/);
        assert.equal(failing.writes, 2);
        assert.equal(await countRows(h, u.userId), 0);
        assert.deepEqual(await storedObjects(h), before);
      } finally {
        svc.storage = real;
      }
    });

    it('a real full disk (1 MiB tmpfs) gives ENOSPC and leaves the store empty', async (t) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-enospc-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
      } catch {
        fs.rmSync(dir, { recursive: true, force: true });
        t.skip('cannot mount a tmpfs here (needs root)');
        return;
      }
      const real = svc.storage;
      try {
        const u = await h.user();
        const small = new LocalFileStorage(dir);
        svc.storage = small;
        const err = await svc
          .createFromRecords({
            userId: u.userId,
            jobId: null,
            jobType: 'x',
            ports: { p: { format: 'bin', kind: 'blob', records: [{ id: 'a', files: { primary: { name: 'a.bin', content: crypto.randomBytes(2 * 1024 * 1024) } } }] } },
          })
          .then(
            () => null,
            (e) => e,
          );
        assert.ok(err instanceof StorageError, String(err));
        assert.equal(err.code, 'ENOSPC');
        assert.equal(await countRows(h, u.userId), 0);
        const left: string[] = [];
        for await (const o of small.list()) left.push(o.key);
        assert.deepEqual(left, []);
        // Once there is room again, writes work.
        const ok = await svc.createFromRecords({
          userId: u.userId,
          jobId: null,
          jobType: 'x',
          ports: { p: { format: 'txt', kind: 'text', records: [{ id: 'a', files: { primary: { name: 'a.txt', content: 'fits' } } }] } },
        });
        assert.ok(ok.sizeBytes > 0);
        await svc.delete(u.userId, ok.artifactId);
      } finally {
        svc.storage = real;
        execFileSync('umount', [dir], { stdio: 'ignore' });
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it(
      'sweepOrphans removes old files without a row, old temp and scratch files, and expired artifacts; keeps the rest',
      { skip: TEST_STORAGE !== 'local' && 'file ages, temp and scratch files of the local store (other stores: the next test and test/storage/backends.test.ts)' },
      async () => {
        const u = await h.user();
        const storage = (svc.storage as RoutedStorage).backend('local') as LocalFileStorage;
        const old = new Date(Date.now() - 2 * 3600_000);
        const age = (p: string) => fs.utimesSync(p, old, old);
        const kept = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'kept.txt', content: 'keep me' } });
        const keptKey = await storageKeyOf(h, kept.body.id);
        age(path.join(storage.root, keptKey));
        // A crash between file and row: the file exists, the row does not.
        const orphanOld = await storage.put(fsReadable('orphan old'));
        age(path.join(storage.root, orphanOld.key));
        const orphanNew = await storage.put(fsReadable('orphan new')); // may still be getting its row
        const shard = path.join(storage.root, 'ab');
        fs.mkdirSync(shard, { recursive: true });
        const tmp = path.join(shard, `.tmp-${crypto.randomUUID()}`);
        fs.writeFileSync(tmp, 'half-written');
        age(tmp);
        fs.mkdirSync(svc.scratchDir, { recursive: true });
        const scratch = path.join(svc.scratchDir, 'upload-stale');
        fs.writeFileSync(scratch, 'x');
        age(scratch);
        const expired = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'old.txt', content: 'expired' } });
        const expiredKey = firstRow(
          (
            await h.services.db.query<{ storage_key: string }>("UPDATE artifacts SET expires_at = now() - interval '1 minute' WHERE id = $1 RETURNING storage_key", [
              expired.body.id,
            ])
          ).rows,
          'the expiry update',
        ).storage_key;
        assert.equal((await h.req('GET', `/api/v1/artifacts/${expired.body.id}`, { token: u.token })).status, 404, 'expired artifacts are hidden at once');

        const removed = await svc.sweepOrphans();
        assert.equal(removed, 4, 'old orphan, temp file, scratch file, expired artifact');
        assert.equal(await storage.stat(orphanOld.key), null);
        assert.ok(await storage.stat(orphanNew.key), 'a fresh orphan is left for later');
        assert.ok(!fs.existsSync(tmp));
        assert.ok(!fs.existsSync(scratch));
        assert.equal(await storage.stat(expiredKey), null);
        assert.equal((await h.services.db.query('SELECT 1 FROM artifacts WHERE id = $1', [expired.body.id])).rows.length, 0);
        assert.ok(await storage.stat(keptKey), 'an old file with its row stays');
        assert.equal((await download(h, u, kept.body.id, '?record=kept.txt')).body.toString(), 'keep me');
        // With no age threshold the fresh orphan goes too.
        assert.equal(await svc.sweepOrphans({ minAgeMs: 0 }), 1);
        assert.equal(await storage.stat(orphanNew.key), null);
        assert.ok(await storage.stat(keptKey));
      },
    );

    it(
      'the periodic sweeper removes an old orphan on its own, and stops',
      { skip: TEST_STORAGE !== 'local' && 'file ages, temp and scratch files of the local store (other stores: the next test and test/storage/backends.test.ts)' },
      async () => {
        const storage = (svc.storage as RoutedStorage).backend('local') as LocalFileStorage;
        const orphan = await storage.put(fsReadable('periodic'));
        const old = new Date(Date.now() - 2 * 3600_000);
        fs.utimesSync(path.join(storage.root, orphan.key), old, old);
        const scheduler = new Scheduler({ error: () => undefined });
        scheduler.add(svc.sweepTask(50, 10));
        try {
          const until = Date.now() + 10_000;
          while ((await storage.stat(orphan.key)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
          assert.equal(await storage.stat(orphan.key), null);
        } finally {
          await scheduler.stop();
        }
        const later = await storage.put(fsReadable('after stop'));
        fs.utimesSync(path.join(storage.root, later.key), old, old);
        await new Promise((r) => setTimeout(r, 200));
        assert.ok(await storage.stat(later.key), 'no sweep after stopSweeper');
        await storage.delete(later.key);
      },
    );

    it('on every store: the sweep removes an object without a row and an expired artifact, keeps one with its row', async () => {
      const u = await h.user();
      const kept = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'kept.txt', content: 'keep me' } });
      const keptKey = await storageKeyOf(h, kept.body.id);
      const orphan = await svc.storage.put(fsReadable('orphan'));
      const expired = await upload(h, { token: u.token }, { mode: 'file', file: { name: 'old.txt', content: 'expired' } });
      const expiredKey = await storageKeyOf(h, expired.body.id);
      await h.services.db.query("UPDATE artifacts SET expires_at = now() - interval '1 minute' WHERE id = $1", [expired.body.id]);
      if (TEST_STORAGE !== 'local') assert.ok(keptKey.startsWith(`${TEST_STORAGE}:`) && orphan.key.startsWith(`${TEST_STORAGE}:`), `keys name the store: ${keptKey}`);
      assert.ok(await svc.storage.stat(orphan.key));
      const removed = await svc.sweepOrphans({ minAgeMs: 0 });
      assert.ok(removed >= 2, `removed ${removed}`);
      assert.equal(await svc.storage.stat(orphan.key), null);
      assert.equal(await svc.storage.stat(expiredKey), null);
      assert.ok(await svc.storage.stat(keptKey), 'an object with its row stays');
      assert.equal((await download(h, u, kept.body.id, '?record=kept.txt')).body.toString(), 'keep me');
    });

    it('handles sets of 20,000 molecules and records in reasonable time', async (ctx) => {
      const u = await h.user();
      const n = 20_000;
      const smi = Array.from({ length: n }, (_, i) => `C${'C'.repeat(i % 20)}O mol${i}`).join('\n') + '\n';
      let t = Date.now();
      const up = await upload(h, { token: u.token }, { mode: 'molecules', file: { name: 'big.smi', content: smi } });
      assert.equal(up.status, 201);
      const uploadMs = Date.now() - t;
      assert.equal(up.body.manifest.ports.molecules.record_count, n);
      t = Date.now();
      let count = 0;
      let last;
      for await (const m of svc.readMolecules(u.userId, up.body.id)) {
        count++;
        last = m;
      }
      const readMs = Date.now() - t;
      assert.equal(count, n);
      assert.deepEqual(last, { id: String(n), smiles: `C${'C'.repeat((n - 1) % 20)}O`, name: `mol${n - 1}` });
      t = Date.now();
      const rec = await download(h, u, up.body.id, `?record=${n}`);
      const recordMs = Date.now() - t;
      assert.equal(rec.body.toString(), `C${'C'.repeat((n - 1) % 20)}O\tmol${n - 1}\n`);
      t = Date.now();
      const created = await svc.createFromRecords({
        userId: u.userId,
        jobId: null,
        jobType: 'properties',
        ports: {
          props: {
            format: 'json',
            kind: 'properties',
            records: (function* () {
              for (let i = 0; i < n; i++) yield { id: `m${i}`, files: { primary: { name: 'p.json', content: `{"i":${i}}` } }, metrics: { i } };
            })(),
          },
        },
      });
      const createMs = Date.now() - t;
      assert.ok(created.sizeBytes > 0);
      assert.deepEqual(await svc.readPrimaryJson(u.userId, created.artifactId, 'props', `m${n - 1}`), { i: n - 1 });
      const budget = 60_000; // generous for loaded CI machines; typically a few seconds each
      for (const [what, ms] of [
        ['upload', uploadMs],
        ['read', readMs],
        ['record download', recordMs],
        ['create', createMs],
      ] as const) {
        ctx.diagnostic(`${what} of ${n}: ${ms} ms`);
        assert.ok(ms < budget, `${what} of ${n} took ${ms} ms`);
      }
    });
  });
}

function fsReadable(text: string): Readable {
  const p = path.join(os.tmpdir(), `crucible-src-${crypto.randomUUID()}`);
  fs.writeFileSync(p, text);
  const s = fs.createReadStream(p);
  s.on('close', () => fs.rmSync(p, { force: true }));
  return s;
}
