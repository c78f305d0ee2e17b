// `crucible storage migrate --to <backend>`: every artifact copied, checked (size, SHA-256)
// and repointed, the originals deleted; readable through the API throughout; an interrupted
// run loses nothing and a second run finishes; a copy that does not match is refused.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { migrateStorage } from '../../src/modules/artifacts/storage-migrate.js';
import { LocalFileStorage } from '../../src/storage/local.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { RoutedStorage } from '../../src/storage/routed.js';
import type { ArtifactStorage, PutResult } from '../../src/storage/storage.js';
import { download, upload } from '../artifacts/helpers.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in.js';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The database's store, failing on its `failOn`-th write (an interrupted migration). */
class FlakyStore extends PostgresStorage {
  writes = 0;
  constructor(
    db: ConstructorParameters<typeof PostgresStorage>[0],
    readonly failOn: number,
  ) {
    super(db);
  }
  override async put(source: Readable): Promise<PutResult> {
    if (++this.writes === this.failOn) {
      source.resume();
      throw new Error('connection lost');
    }
    return super.put(source);
  }
}

for (const backend of BACKENDS) {
  describe(`storage migrate [${backend.name}]`, () => {
    let h: Harness;
    let s3: S3StandIn;
    let u: Awaited<ReturnType<Harness['user']>>;
    const files = new Map<string, Buffer>();
    before(async () => {
      s3 = await startS3StandIn();
      h = await startHarness(backend, {
        CRUCIBLE_STORAGE: 'local',
        CRUCIBLE_S3_ENDPOINT: s3.endpoint,
        CRUCIBLE_S3_BUCKET: s3.bucket,
        CRUCIBLE_S3_ACCESS_KEY_ID: s3.accessKeyId,
        CRUCIBLE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        CRUCIBLE_S3_FORCE_PATH_STYLE: '1',
      });
      u = await h.user();
      for (let i = 0; i < 5; i++) {
        const content = crypto.randomBytes(50_000 + i * 70_000);
        const r = await upload(h, { token: u.token }, { mode: 'file', file: { name: `f${i}.bin`, content } });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        files.set(r.body.id, content);
      }
    });
    after(async () => {
      await h?.close();
      await s3?.close();
    });

    const keys = async () => (await h.services.db.query<{ id: string; storage_key: string }>('SELECT id, storage_key FROM artifacts ORDER BY id')).rows;
    const allReadable = async () => {
      for (const [id, content] of files) {
        const i = [...files.keys()].indexOf(id);
        const r = await download(h, u, id, `?record=f${i}.bin`);
        assert.equal(r.status, 200);
        assert.ok(Buffer.compare(r.body, content) === 0, `artifact ${id} reads back intact`);
      }
    };
    const localFiles = () => fs.readdirSync(h.config.artifactsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

    it('an interrupted run moves what it could and loses nothing; a second run finishes; originals are deleted', async () => {
      assert.equal(localFiles(), 5);
      const flaky = new FlakyStore(h.services.db, 3);
      const backends = new Map<'local' | 'postgres', ArtifactStorage>([
        ['local', new LocalFileStorage(h.config.artifactsDir)],
        ['postgres', flaky],
      ]);
      const first = await migrateStorage(h.services.db, new RoutedStorage('local', backends), 'postgres');
      assert.equal(first.moved, 4);
      assert.deepEqual(
        first.failed.map((f) => f.error),
        ['connection lost'],
      );
      assert.equal((await keys()).filter((k) => k.storage_key.startsWith('postgres:')).length, 4);
      assert.equal(localFiles(), 1, 'the original of each moved artifact is deleted');
      await allReadable();

      const second = await migrateStorage(h.services.db, h.services.artifacts.storage as RoutedStorage, 'postgres');
      assert.deepEqual([second.moved, second.failed.length], [1, 0]);
      assert.ok((await keys()).every((k) => k.storage_key.startsWith('postgres:')));
      assert.equal(localFiles(), 0);
      await allReadable();
      const again = await migrateStorage(h.services.db, h.services.artifacts.storage as RoutedStorage, 'postgres');
      assert.deepEqual([again.moved, again.failed.length], [0, 0], 'nothing left to move');
    });

    it('on to S3, and a copy that does not match its row is refused and removed', async () => {
      // Corrupt one artifact's recorded checksum: its copy cannot match, so it must stay where it is.
      const [victim] = await keys();
      await h.services.db.query("UPDATE artifacts SET sha256 = repeat('0', 64) WHERE id = $1", [victim!.id]);
      const storage = h.services.artifacts.storage as RoutedStorage;
      const r = await migrateStorage(h.services.db, storage, 's3');
      assert.equal(r.moved, 4);
      assert.equal(r.failed.length, 1);
      assert.match(r.failed[0]!.error, /does not match/);
      const now = await keys();
      assert.equal(now.find((k) => k.id === victim!.id)?.storage_key, victim!.storage_key, 'the refused artifact still points at its original');
      assert.equal(now.filter((k) => k.storage_key.startsWith('s3:')).length, 4);
      const s3Objects: string[] = [];
      for await (const o of storage.list()) if (o.key.startsWith('s3:')) s3Objects.push(o.key);
      assert.equal(s3Objects.length, 4, 'no copy is left behind for the refused one');
      await allReadable();
    });

    it(
      'the command line: crucible storage migrate --to local (back from S3; the corrupted one stays in the database)',
      { skip: backend.name === 'pglite' && 'the embedded database of a harness lives in this process' },
      async () => {
        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: h.dbUrl!, CRUCIBLE_DATA_DIR: h.config.dataDir, CRUCIBLE_STORAGE: 'local', LOG_LEVEL: 'silent' };
        for (const k of Object.keys(env)) if (k.startsWith('CRUCIBLE_S3_') || k === 'NODE_TEST_CONTEXT') delete env[k];
        Object.assign(env, {
          CRUCIBLE_S3_ENDPOINT: s3.endpoint,
          CRUCIBLE_S3_BUCKET: s3.bucket,
          CRUCIBLE_S3_ACCESS_KEY_ID: s3.accessKeyId,
          CRUCIBLE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
          CRUCIBLE_S3_FORCE_PATH_STYLE: '1',
        });
        // Asynchronously: the S3 stand-in the command reads from answers from this process.
        const crucible = (...args: string[]) =>
          new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
            execFile(process.execPath, crucibleArgv(args), { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) =>
              resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
            );
          });
        const run = await crucible('storage', 'migrate', '--to', 'local');
        // The artifact whose checksum was corrupted above cannot move: exit 1, the others moved.
        assert.equal(run.status, 1, run.stderr);
        const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'), run.stdout.lastIndexOf('}') + 1)) as { moved: number; failed: unknown[]; remaining: number };
        assert.deepEqual([report.moved, report.failed.length, report.remaining], [4, 1, 1]);
        assert.match(run.stderr, /^crucible: 1 artifacts could not be moved/);
        const bad = await crucible('storage', 'migrate', '--to', 'ftp');
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /needs --to postgres, --to s3 or --to local/);
      },
    );
  });
}
