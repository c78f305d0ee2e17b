// `npm test`: type-checks and lints, then runs every test file under node:test against PGlite and,
// when a PostgreSQL server answers, against PostgreSQL too. Under CI=true PostgreSQL is
// required: the run fails if it cannot connect.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildConsoleIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * @param {string} url
 * @returns {Promise<string | null>} null when the server answers, else why not
 */
async function pgReachable(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return null;
  } catch (err) {
    return (err instanceof Error && err.message) || String(err);
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * @param {string} dir
 * @returns {string[]} the *.test.ts files under `dir`, sorted
 */
function testFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
// The web console has its own settings (DOM, JSX, bundler resolution): web/tsconfig.json.
const tscWeb = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'web/tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0 || tscWeb.status !== 0) {
  console.error('type check failed');
  process.exit(1);
}

// Lint (ESLint, type-aware) and formatting (Prettier): `npm run lint`; skipped when running chosen files.
if (process.argv.length <= 2) {
  const lint = spawnSync('npm', ['run', '--silent', 'lint'], { cwd: root, stdio: 'inherit' });
  if (lint.status !== 0) {
    console.error('lint failed: npm run lint shows the findings (npm run format fixes formatting)');
    process.exit(1);
  }
}

const env = { ...process.env };
const pgError = await pgReachable(pgUrl);
if (pgError) {
  if (ci) {
    console.error(`CI=true but PostgreSQL is not reachable at ${pgUrl.replace(/:[^:@/]*@/, ':***@')}: ${pgError}`);
    process.exit(1);
  }
  console.log(`PostgreSQL not reachable at ${pgUrl} (${pgError}): PostgreSQL tests skipped, PGlite tests run.`);
  env.CRUCIBLE_TEST_PG_URL = '';
} else {
  env.CRUCIBLE_TEST_PG_URL = pgUrl;
}
env.CRUCIBLE_TEST_RUN_ID = `r${Date.now().toString(36)}`;

const only = process.argv.slice(2);
const files = only.length ? only : testFiles(path.join(root, 'test'));
// The web console, built once here: the browser test files run two at a time and would otherwise
// both build web/dist at once, one emptying it under the other's page.
if (files.some((f) => f.includes(`${path.sep}web${path.sep}`))) buildConsoleIfNeeded();
/**
 * @param {string[]} list test files
 * @param {Record<string, string>} [extraEnv]
 */
const runFiles = (list, extraEnv = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', ...list], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: 'inherit',
  });
let run = runFiles(files);
// The artifact and job test files that go through the store again on the other artifact stores
// (the first run used the local one): chunked in the database itself, and S3 through a stand-in started per harness.
if (!only.length && run.status === 0) {
  // The files whose tests write or read artifact bytes through the store (uploads, downloads and
  // ranges, streaming, quotas, job results, store faults); the others test database rules that
  // no store changes, and each rerun costs CI minutes.
  const storageFiles = [
    ...['download', 'large', 'quota', 'service', 'upload'].map((f) => path.join(root, 'test/artifacts', `${f}.test.ts`)),
    ...['failures', 'integrity', 'types'].map((f) => path.join(root, 'test/jobs', `${f}.test.ts`)),
  ];
  for (const f of storageFiles) if (!fs.existsSync(f)) throw new Error(`scripts/run-tests.mjs: the storage rerun names ${f}, which is gone`);
  for (const storage of ['postgres', 's3']) {
    console.log(`# artifact and job tests with CRUCIBLE_STORAGE=${storage}`);
    run = runFiles(storageFiles, { CRUCIBLE_TEST_STORAGE: storage });
    if (run.status !== 0) break;
  }
}

if (!pgError) {
  // Drop any database a crashed test file left behind.
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  /** @type {import('pg').QueryResult<{ datname: string }>} */
  const { rows } = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`crucible_t_${env.CRUCIBLE_TEST_RUN_ID}_%`]);
  for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`).catch(() => {});
  await c.end();
}
process.exit(run.status ?? 1);
