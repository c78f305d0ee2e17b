// The database backends the suite runs against: PGlite always, PostgreSQL when the test
// runner found a server (scripts/run-tests.mjs sets CRUCIBLE_TEST_PG_URL).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { listMigrations, migrate } from '../../src/db/migrate.js';
import { allLanes } from '../../src/compute/lanes.js';
import { JobQueue } from '../../src/compute/queue.js';
import { openPglite } from '../../src/db/pglite.js';
import { openPostgres } from '../../src/db/postgres.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /**
   * A fresh, empty database; `drop` removes it (a plain function: callers destructure it).
   * `migrated`: with every migration already applied (the harness's start; quicker).
   */
  create(o?: { migrated?: boolean }): Promise<{ db: Database; url: string | null; drop: () => Promise<void> }>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pgAdminUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = process.env.CRUCIBLE_TEST_RUN_ID ?? `r${Date.now().toString(36)}`;

/**
 * Our migrations and pg-boss's own schema and queues, as `crucible serve`'s first start makes
 * them (src/instance.ts): a harness's job queue then finds them instead of creating them
 * (about 1.5 s of CPU on PGlite).
 */
async function prepare(db: Database, url: string | null): Promise<void> {
  await migrate(db);
  const queue = new JobQueue(db, url, allLanes());
  await queue.start();
  await queue.stop();
}

/**
 * A migrated, empty PGlite data directory, made once per migration set and PGlite version and
 * kept in the OS temp directory: a harness copies it (40 MB of files, milliseconds) and opens the
 * copy, instead of running initdb and every migration (seconds) or unpacking a dump into memory
 * (about 1 s of CPU more than opening a directory; README, "Test it").
 */
let migratedDir: Promise<string> | null = null;
function migratedPgliteDir(): Promise<string> {
  migratedDir ??= (async () => {
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
    const boss = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/pg-boss/package.json'), 'utf8')) as { version: string }).version;
    const key = crypto
      .createHash('sha256')
      .update(version)
      .update(boss)
      .update(JSON.stringify([listMigrations(), allLanes()]))
      .digest('hex')
      .slice(0, 16);
    const dir = path.join(os.tmpdir(), 'crucible-test-pglite', key);
    if (fs.existsSync(dir)) return dir;
    // Made beside it and renamed into place: two test files may make it at once.
    const part = `${dir}.${process.pid}`;
    fs.rmSync(part, { recursive: true, force: true });
    const db = await openPglite(part);
    await prepare(db, null);
    await db.close();
    try {
      fs.renameSync(part, dir);
    } catch (err) {
      if (!fs.existsSync(dir)) throw err;
      fs.rmSync(part, { recursive: true, force: true });
    }
    return dir;
  })();
  return migratedDir;
}

const pglite: Backend = {
  name: 'pglite',
  async create(o = {}) {
    if (!o.migrated) {
      const db = await openPglite(null);
      return { db, url: null, drop: async () => db.close().catch(() => undefined) };
    }
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-test-db-'));
    fs.cpSync(await migratedPgliteDir(), copy, { recursive: true });
    const db = await openPglite(copy);
    return {
      db,
      url: null,
      async drop() {
        await db.close().catch(() => undefined);
        fs.rmSync(copy, { recursive: true, force: true });
      },
    };
  },
};

const dbUrl = (name: string) => {
  const u = new URL(pgAdminUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * Under scripts/run-tests.mjs (which names the run and drops its databases at the end), a migrated
 * template database made once per run: a harness's database is a copy of it (CREATE DATABASE ...
 * TEMPLATE), not a fresh one migrated step by step. Made under an advisory lock, as two test files
 * run at once.
 */
let templateMade = false;
async function migratedTemplate(admin: pg.Client): Promise<string | null> {
  if (!process.env.CRUCIBLE_TEST_RUN_ID) return null;
  const name = `crucible_t_${runId}_template`;
  if (templateMade) return name;
  await admin.query('SELECT pg_advisory_lock(774201099)');
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}_part" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}_part"`);
      const db = await openPostgres(dbUrl(`${name}_part`));
      await prepare(db, dbUrl(`${name}_part`));
      await db.close();
      await admin.query(`ALTER DATABASE "${name}_part" RENAME TO "${name}"`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(774201099)');
  }
  templateMade = true;
  return name;
}

const postgres: Backend = {
  name: 'postgres',
  async create(o = {}) {
    const name = `crucible_t_${runId}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    const template = o.migrated ? await migratedTemplate(admin) : null;
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
    await admin.end();
    const url = dbUrl(name);
    const db = await openPostgres(url);
    // Outside scripts/run-tests.mjs there is no template: migrated here.
    if (o.migrated && !template) await migrate(db);
    return {
      db,
      url,
      async drop() {
        await db.close().catch(() => undefined);
        const c = new pg.Client({ connectionString: pgAdminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  },
};

const found: [Backend, ...Backend[]] = process.env.CRUCIBLE_TEST_PG_URL === '' ? [pglite] : [pglite, postgres];
/** CRUCIBLE_TEST_BACKENDS=postgres narrows a run to the named backends (the S3 rerun of scripts/run-tests.mjs). */
const wanted = process.env.CRUCIBLE_TEST_BACKENDS?.split(',').filter(Boolean) ?? [];
const narrowed = found.filter((b) => wanted.includes(b.name));

/**
 * PostgreSQL is in the list when the runner found a server (or when run by hand with the variable unset).
 * PGlite is first unless narrowed away: `BACKENDS[0]` is the backend of the tests that need only one.
 */
export const BACKENDS: [Backend, ...Backend[]] = narrowed.length ? (narrowed as [Backend, ...Backend[]]) : found;

/**
 * The backend of a test file whose subject is not the database (engine numbers, the SDKs, the
 * Assistant's planner, MCP's transport): it runs once, on the backend it names, or on PGlite when
 * no PostgreSQL server was found. Such files are spread over both backends, so each database still
 * carries engine jobs, SDK calls and Assistant turns end to end, while the files about the
 * database itself (jobs, wallet, events, artifacts, auth...) run on both (README, "Test it").
 */
export function onlyOn(name: Backend['name']): [Backend] {
  return [BACKENDS.find((b) => b.name === name) ?? BACKENDS[0]];
}
