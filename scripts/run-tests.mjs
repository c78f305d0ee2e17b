// `npm test`: type-checks and lints, then runs every test file under node:test against PGlite and,
// when a PostgreSQL server answers, against PostgreSQL too. Under CI=true PostgreSQL is
// required: the run fails if it cannot connect.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildConsoleIfNeeded, buildIfNeeded } from './build-if-needed.mjs';

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

// Lint (ESLint, type-aware) and formatting (Prettier): `npm run lint`; skipped when running chosen
// files. It runs beside the type check and the tests (its output is held until they end): it
// takes a core for a minute and a half, which the test files' first minutes leave free.
/** @type {Promise<{ status: number | null, output: string }> | null} */
const lint =
  process.argv.length <= 2
    ? new Promise((resolve) => {
        const child = spawn('npm', ['run', '--silent', 'lint'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        process.on('exit', () => child.exitCode === null && child.kill());
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('close', (status) => resolve({ status, output }));
      })
    : null;

const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
// The web console has its own settings (DOM, JSX, bundler resolution): web/tsconfig.json.
const tscWeb = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'web/tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0 || tscWeb.status !== 0) {
  console.error('type check failed');
  process.exit(1);
}

const env = { ...process.env };
// The tests that start `crucible` as a process run it from dist/, compiled here as `npm start`
// compiles it (test/helpers/cli.ts): no process then compiles TypeScript at its start.
buildIfNeeded();
env.CRUCIBLE_TEST_CLI = 'dist';
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
// Test files at once: one more than the cores (a third of a file's time is waiting: timers,
// leases, sweeps, HTTP; measured on 2 cores, 1,687 s of CPU in 2,602 s of file time), at most 4
// (each holds a server, a database and its engines in memory).
const concurrency = Number(process.env.CRUCIBLE_TEST_CONCURRENCY) || Math.min(4, os.availableParallelism() + 1);
// Each file's time, written by the file's own process (scripts/test-times.mjs, preloaded).
const timesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-test-times-')), 'times.jsonl');
/**
 * @param {string[]} list test files
 * @param {Record<string, string>} [extraEnv]
 * @param {number} [atOnce] files at once
 */
const runFiles = (list, extraEnv = {}, atOnce = concurrency) =>
  spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      path.join(root, 'scripts/test-times.mjs'),
      '--test',
      `--test-concurrency=${atOnce}`,
      '--test-timeout=600000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      ...list,
    ],
    { cwd: root, env: { ...env, ...extraEnv, CRUCIBLE_TEST_TIMES: timesFile }, stdio: 'inherit' },
  );
/** @type {{ file: string, ms: number, cpuMs: number | null, label: string }[]} */
const times = [];
/** @param {string} label which pass of the run the times belong to */
const keepTimes = (label) => {
  if (!fs.existsSync(timesFile)) return;
  for (const line of fs.readFileSync(timesFile, 'utf8').split('\n')) {
    if (!line) continue;
    /** @type {unknown} */
    const t = JSON.parse(line);
    if (t && typeof t === 'object' && 'file' in t && 'ms' in t)
      times.push({ file: String(t.file), ms: Number(t.ms), cpuMs: 'cpuMs' in t && typeof t.cpuMs === 'number' ? t.cpuMs : null, label });
  }
  fs.rmSync(timesFile);
};
/**
 * The files that time the server's answers under load (/health/live within 200 ms while it
 * parses a 50 MB receptor, takes a fuzzer's requests or evaluates hostile expressions): run after the others, one at a time, so
 * that the other test files' processes do not take the cores from the server they measure (on 2
 * cores, three files at once stretched a probe to 276 ms and 312 ms in CI).
 */
const TIMED = ['test/engines/docking-liveness.test.ts', 'test/hardening/fuzz.test.ts', 'test/hardening/stall.test.ts'].map((f) => path.join(root, f));
const timed = files.filter((f) => TIMED.includes(path.resolve(f)));
const started = Date.now();
const rest = files.filter((f) => !timed.includes(f));
// node --test with no file would look for every test file itself.
let run = rest.length ? runFiles(rest) : { status: 0 };
keepTimes('');
if (timed.length && run.status === 0) {
  console.log('# the timed files, one at a time');
  run = runFiles(timed, {}, 1);
  keepTimes(' (alone)');
}
// The artifact and job test files that go through the store again on the other artifact stores
// (the first run used the local one): chunked in the database itself, and S3 through a stand-in started per harness.
if (!only.length && run.status === 0) {
  // The files whose tests write or read artifact bytes through the store (uploads, downloads and
  // ranges, streaming, quotas, job results, store faults); the others test database rules that
  // no store changes, and each rerun costs CI minutes.
  const storageFiles = [
    ...['download', 'large', 'quota', 'service', 'streamed', 'upload'].map((f) => path.join(root, 'test/artifacts', `${f}.test.ts`)),
    ...['failures', 'integrity', 'types'].map((f) => path.join(root, 'test/jobs', `${f}.test.ts`)),
  ];
  for (const f of storageFiles) if (!fs.existsSync(f)) throw new Error(`scripts/run-tests.mjs: the storage rerun names ${f}, which is gone`);
  // Each store runs once more, on PostgreSQL (their production pairing) when there is one: the
  // postgres store's SQL is the same on PGlite, where test/storage/backends.test.ts runs every
  // store on both databases, and S3 does not depend on the database.
  for (const [storage, backends] of [
    ['postgres', 'postgres'],
    ['s3', 'postgres'],
  ]) {
    console.log(`# artifact and job tests with CRUCIBLE_STORAGE=${storage}`);
    run = runFiles(storageFiles, { CRUCIBLE_TEST_STORAGE: storage, CRUCIBLE_TEST_BACKENDS: backends });
    keepTimes(` (${storage} storage)`);
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
// Where the minutes went: the slowest files, so a CI log shows what to cut first.
if (times.length) {
  times.sort((a, b) => b.ms - a.ms);
  const total = times.reduce((n, t) => n + t.ms, 0);
  const cpu = times.reduce((n, t) => n + (t.cpuMs ?? 0), 0);
  console.log(
    `# ${times.length} test files in ${((Date.now() - started) / 1000).toFixed(0)} s (${(total / 1000).toFixed(0)} s of file time, ${concurrency} at a time; ${(cpu / 1000).toFixed(0)} s of CPU in the files' processes and their children); the slowest:`,
  );
  // Every file's time, for planning cuts: CRUCIBLE_TEST_TIMES_OUT=path writes them all as JSON.
  if (process.env.CRUCIBLE_TEST_TIMES_OUT) fs.writeFileSync(process.env.CRUCIBLE_TEST_TIMES_OUT, JSON.stringify(times, null, 1));
  for (const t of times.slice(0, 25))
    console.log(
      `#   ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.cpuMs === null ? '' : `(${(t.cpuMs / 1000).toFixed(0).padStart(3)} s CPU)  `}${path.relative(root, t.file)}${t.label}`,
    );
}
if (lint) {
  const { status, output } = await lint;
  process.stdout.write(output);
  if (status !== 0) {
    console.error('lint failed: npm run lint shows the findings (npm run format fixes formatting)');
    process.exit(1);
  }
}
process.exit(run.status ?? 1);
