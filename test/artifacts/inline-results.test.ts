// Small job results kept in the database with their row (CRUCIBLE_INLINE_RESULT_BYTES,
// docs/architecture.md "Artifact storage"): written in the transaction that ends the job, read
// and deleted like any other object; larger results, and every result with the setting at 0, go
// to the configured store as before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { download, readZip, storageKeyOf } from './helpers.js';

/** Files under the local store's directory (objects and temp writes). */
const localFiles = (h: Harness) =>
  fs.existsSync(h.config.artifactsDir) ? fs.readdirSync(h.config.artifactsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;

async function objectRow(h: Harness, key: string) {
  const { rows } = await h.services.db.query<{ size: string; sha256: string; complete: boolean; chunks: number }>(
    `SELECT o.size::text AS size, o.sha256, o.complete, (SELECT count(*)::int FROM storage_chunks c WHERE c.key = o.key) AS chunks FROM storage_objects o WHERE o.key = $1`,
    [key.replace(/^postgres:/, '')],
  );
  return rows[0] ?? null;
}

async function propertiesJob(h: Harness, token: string, smiles: string[]) {
  const pid = (await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'inline', job_type: 'properties', payload: { smiles } } })).body.process_id as string;
  const done = await h.waitForJob(token, pid, ['completed']);
  return { pid, artifactId: done.result_artifact_id as string };
}

for (const backend of BACKENDS) {
  describe(`small job results in the database [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      // The local store, whatever the storage rerun: what is asserted is where each result goes.
      h = await startHarness(backend, { CRUCIBLE_STORAGE: 'local', CRUCIBLE_INLINE_RESULT_BYTES: '8192' }, { workers: 1 });
    });
    after(async () => h?.close());

    it('a small result is an object of the database store, whole, with the row; read and deleted as any other', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const filesBefore = localFiles(h);
      const { pid, artifactId } = await propertiesJob(h, u.token, ['CCO']);
      const key = await storageKeyOf(h, artifactId);
      assert.match(key, /^postgres:[0-9a-f]{2}\/[0-9a-f-]{36}$/);
      const { rows } = await h.services.db.query<{ size_bytes: string; sha256: string }>('SELECT size_bytes::text, sha256 FROM artifacts WHERE id = $1', [artifactId]);
      const obj = await objectRow(h, key);
      assert.deepEqual(obj, { size: rows[0]!.size_bytes, sha256: rows[0]!.sha256, complete: true, chunks: 1 });
      assert.ok(Number(obj.size) <= 8192 && Number(obj.size) > 0);
      assert.equal(localFiles(h), filesBefore, 'no file written');

      const result = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
      assert.equal(result.status, 200, result.text);
      assert.deepEqual(result.body.summary, { molecules: 1, described: 1, unparseable: 0, too_large: 0, failed: 0 });
      const whole = await download(h, u, artifactId);
      assert.equal(whole.status, 200);
      assert.equal(whole.body.length, Number(obj.size));
      assert.ok((await readZip(whole.body)).has('manifest.json'));
      // A byte range of the one chunk.
      const part = await download(h, u, artifactId, '', { range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.deepEqual(part.body, whole.body.subarray(10, 20));

      const del = await h.req('DELETE', `/api/v1/jobs/delete?process_id=${pid}`, { token: u.token });
      assert.equal(del.status, 200, del.text);
      assert.equal(await objectRow(h, key), null, 'the object went with the job');
    });

    it('a result over the limit goes to the configured store (a file here)', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const filesBefore = localFiles(h);
      // Forty molecules: a result archive well over 8 KiB.
      const smiles = Array.from({ length: 40 }, (_, i) => `C${'C'.repeat(i)}O`);
      const { artifactId } = await propertiesJob(h, u.token, smiles);
      const key = await storageKeyOf(h, artifactId);
      assert.doesNotMatch(key, /^(postgres|s3):/);
      const { rows } = await h.services.db.query<{ size_bytes: string }>('SELECT size_bytes::text FROM artifacts WHERE id = $1', [artifactId]);
      assert.ok(Number(rows[0]!.size_bytes) > 8192, `${rows[0]!.size_bytes} bytes`);
      assert.equal(localFiles(h), filesBefore + 1);
      assert.equal((await download(h, u, artifactId)).body.length, Number(rows[0]!.size_bytes));
    });

    it('a result whose job end rolls back leaves no object', async () => {
      const u = await h.user();
      const before = (await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM storage_objects')).rows[0]!.n;
      await assert.rejects(
        h.services.artifacts.createFromRecords({
          userId: u.userId,
          jobId: null,
          jobType: 'properties',
          ports: {
            summary: { format: 'json', kind: 'result', records: [{ id: 'all', files: { primary: { name: 'a.json', content: '{"n":1}', contentType: 'application/json' } } }] },
          },
          inTx: async () => {
            throw new Error('the job was lost');
          },
        }),
        /the job was lost/,
      );
      const now = (await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM storage_objects')).rows[0]!.n;
      assert.equal(now, before);
    });
  });
}

describe('CRUCIBLE_INLINE_RESULT_BYTES=0: every result in the configured store', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0]!, { CRUCIBLE_STORAGE: 'local', CRUCIBLE_INLINE_RESULT_BYTES: '0' }, { workers: 1 });
  });
  after(async () => h?.close());

  it('a one-molecule result is a file', async () => {
    const u = await h.user();
    await h.credit(u.userId, 5);
    const { artifactId } = await propertiesJob(h, u.token, ['CCO']);
    assert.doesNotMatch(await storageKeyOf(h, artifactId), /^(postgres|s3):/);
    assert.equal(localFiles(h), 1);
  });

  it('a limit over 1 MiB is refused at start; the default is 64 KiB, and off on S3', () => {
    assert.throws(() => loadConfig({ CRUCIBLE_INLINE_RESULT_BYTES: String(2 * 1024 * 1024) }), /CRUCIBLE_INLINE_RESULT_BYTES must be at most 1048576/);
    assert.throws(() => loadConfig({ CRUCIBLE_INLINE_RESULT_BYTES: '-1' }), /CRUCIBLE_INLINE_RESULT_BYTES must be an integer >= 0/);
    assert.equal(loadConfig({}).storage.inlineResultBytes, 65536);
    assert.equal(loadConfig({ CRUCIBLE_STORAGE: 'postgres' }).storage.inlineResultBytes, 65536);
    // On S3 only when asked for: the operator keeps bytes out of the database.
    assert.equal(loadConfig({ CRUCIBLE_STORAGE: 's3', CRUCIBLE_S3_BUCKET: 'b' }).storage.inlineResultBytes, 0);
    assert.equal(loadConfig({ CRUCIBLE_STORAGE: 's3', CRUCIBLE_S3_BUCKET: 'b', CRUCIBLE_INLINE_RESULT_BYTES: '4096' }).storage.inlineResultBytes, 4096);
  });
});
