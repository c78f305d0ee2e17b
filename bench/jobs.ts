// npm run bench:jobs — compute-job figures for docs/performance.md:
//   1. submit-to-completed latency of one-molecule `properties` jobs (p50, p99), followed the
//      way a client would: POST /jobs/submit, then a long poll on GET /events for that job;
//   2. sustained throughput of such jobs with the default in-process workers (the API and
//      CRUCIBLE_WORKERS = cores slots in this process, as `crucible serve`), submitted by 8
//      concurrent clients in a separate load-generator process (bench/lib/jobs-load.ts);
//   3. (PostgreSQL) in the same run, the raw pg-boss baseline (bench/lib/raw-pgboss.ts): the
//      same pg-boss, a fresh database on the same server, 8 concurrent senders in the same kind
//      of child process, and as many fetch-and-complete loops of no-op messages as Crucible has
//      slots; both rates and their ratio are printed (target: Crucible >= 0.5 x raw, >= 100/s);
//   4. (PostgreSQL only) a scale run: the API plus 3 `crucible worker` processes finish N jobs
//      with none lost, none run twice and none charged twice, timed against 1 worker process.
// Runs on PGlite always and on PostgreSQL when one answers (CRUCIBLE_BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres); each run uses a fresh database.
// For each throughput window it reports the CPU used per job by this process (API + workers,
// or the raw workers), by the load generator and by the rest of the machine (PostgreSQL, the
// kernel, anything else running); `--profile` adds a V8 CPU profile of this process's main
// thread over the window, summarised by area (written under $TMPDIR/crucible-bench-profiles).
//
// Options (env): BENCH_LATENCY_JOBS (100), BENCH_THROUGHPUT_JOBS (1000), BENCH_SCALE_JOBS (2000),
// BENCH_SKIP_SCALE=1, BENCH_SKIP_RAW=1, BENCH_BACKENDS=pglite,postgres; argument --profile
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { PG_ADMIN, startInstance, type BenchInstance as Instance } from './lib/instance.js';
import { measureWindow, PROFILE_DIR, startLoadChild, warmUp, type WindowResult } from './lib/jobs-window.js';
import { pgReachable } from './lib/pg.js';
import { rawPgBoss } from './lib/raw-pgboss.js';
import type { Services } from '../src/services.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const N_LAT = Number(process.env.BENCH_LATENCY_JOBS ?? 100);
const N_TPUT = Number(process.env.BENCH_THROUGHPUT_JOBS ?? 1000);
const N_SCALE = Number(process.env.BENCH_SCALE_JOBS ?? 2000);
const N_WARM = 100;
const CLIENTS = 8;
const PROFILE = process.argv.includes('--profile');
const JOB = { job_type: 'properties', payload: { smiles: ['CC(=O)Oc1ccccc1C(=O)O'] } };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function api<T>(inst: Instance, method: string, p: string, body?: unknown): Promise<T> {
  const r = await fetch(inst.base + p, {
    method,
    headers: { authorization: `Bearer ${inst.user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function submit(inst: Instance, name: string): Promise<string> {
  return (await api<{ process_id: string }>(inst, 'POST', '/api/v1/jobs/submit', { job_name: name, ...JOB })).process_id;
}

/** Submit, then long-poll the events feed for this job's terminal event. */
async function latency(inst: Instance): Promise<{ p50: number; p99: number; mean: number }> {
  const ms: number[] = [];
  let cursor: string | null = (await api<{ next_cursor: string }>(inst, 'GET', '/api/v1/events')).next_cursor;
  for (let i = 0; i < N_LAT; i++) {
    const t0 = performance.now();
    const pid = await submit(inst, `lat-${i}`);
    for (;;) {
      const page: { events: { subject_id: string; status: string }[]; next_cursor: string } = await api(inst, 'GET', `/api/v1/events?after=${cursor}&wait=25&subject_id=${pid}`);
      const [first] = page.events;
      if (first) {
        if (first.status !== 'completed') throw new Error(`job ${pid} ended ${first.status}`);
        break;
      }
    }
    ms.push(performance.now() - t0);
    cursor = (await api<{ next_cursor: string }>(inst, 'GET', `/api/v1/events?after=${cursor}&limit=100`)).next_cursor;
  }
  return { p50: round(pct(ms, 50)), p99: round(pct(ms, 99)), mean: round(ms.reduce((a, b) => a + b, 0) / ms.length) };
}

async function waitAllDone(db: Services['db'], expected: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE status IN ('completed', 'error', 'cancelled')`);
    const done = rows[0]?.n;
    if (done === undefined) throw new Error('count(*) of finished jobs returned no row');
    if (done >= expected) return done;
    if (Date.now() > until) throw new Error(`only ${done} of ${expected} jobs finished in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Submits `n` jobs with 8 concurrent clients; returns jobs/s from the first submit to the last completion. */
async function throughput(inst: Instance, n: number, already = 0): Promise<{ jobsPerSec: number; seconds: number }> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) await submit(inst, `tput-${next++}`);
    }),
  );
  await waitAllDone(inst.services.db, already + n, 600_000);
  const seconds = (performance.now() - t0) / 1000;
  return { jobsPerSec: round(n / seconds), seconds: round(seconds, 2) };
}

/** Throughput with the load generator in its own process: a warm-up of N_WARM jobs, then `n` measured. */
async function throughputChild(inst: Instance, n: number, already: number, profileFile: string | null): Promise<WindowResult> {
  const child = await startLoadChild({ type: 'setup', mode: 'http', base: inst.base, token: inst.user.token, clients: CLIENTS, job: JOB });
  try {
    await warmUp(child, N_WARM, () => waitAllDone(inst.services.db, already + N_WARM, 600_000).then(() => undefined));
    return await measureWindow(child, n, () => waitAllDone(inst.services.db, already + N_WARM + n, 600_000).then(() => undefined), profileFile, inst.dbUrl);
  } finally {
    await child.stop();
  }
}

function describeWindow(w: WindowResult): string {
  const c = w.cpuMsPerJob;
  const pgPart = c.postgres === null ? '' : `, PostgreSQL (this database's backends) ${c.postgres}`;
  return `${w.jobsPerSec} jobs/s (${w.jobs} in ${w.seconds} s; submitted in ${w.submitSeconds} s); CPU per job ${c.machine} ms: this process ${c.self}, load generator ${c.loadgen}${pgPart}, rest (kernel, other processes) ${c.rest}; machine ${w.machineBusyCores} cores busy`;
}

function describeProfile(label: string, w: WindowResult): void {
  if (!w.profile) return;
  const p = w.profile;
  console.log(`[${label}] profile ${p.file}: main thread busy ${p.busyUsPerRequest} µs per job`);
  for (const a of p.byArea.slice(0, 12)) console.log(`    ${String(a.usPerRequest).padStart(8)} µs/job ${String(a.pct).padStart(5)}%  ${a.area}`);
  for (const f of p.topFunctions.slice(0, 10)) console.log(`    top ${String(f.usPerRequest).padStart(8)} µs/job  ${f.fn}`);
}

async function checkExactlyOnce(db: Services['db']): Promise<{ jobs: number; notCompleted: number; rerun: number; chargedTwice: number; events: number }> {
  const q = async (sql: string): Promise<number> => {
    const n = (await db.query<{ n: number }>(sql)).rows[0]?.n;
    if (n === undefined) throw new Error(`no row from: ${sql}`);
    return n;
  };
  return {
    jobs: await q('SELECT count(*)::int AS n FROM jobs'),
    notCompleted: await q(`SELECT count(*)::int AS n FROM jobs WHERE status <> 'completed'`),
    rerun: await q('SELECT count(*)::int AS n FROM jobs WHERE attempts <> 1'),
    chargedTwice: await q(`SELECT count(*)::int AS n FROM (SELECT job_id FROM ledger WHERE kind IN ('charge', 'release') GROUP BY job_id, kind HAVING count(*) > 1) x`),
    events: await q(`SELECT count(*)::int AS n FROM events WHERE kind = 'job'`),
  };
}

function spawnWorker(dbUrl: string, dataDir: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbUrl, CRUCIBLE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', CRUCIBLE_CHEM_CACHE: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('running')) resolve();
    });
    child.on('exit', (c) => reject(new Error(`worker exited ${c}`)));
  });
  return { child, ready };
}

/** The API (no in-process workers) plus `workers` worker processes on one PostgreSQL database. */
async function scaleRun(workers: number): Promise<{ workers: number; seconds: number; jobsPerSec: number; check: Awaited<ReturnType<typeof checkExactlyOnce>> }> {
  const inst = await startInstance('postgres', { workers: 0 });
  const children: ChildProcess[] = [];
  try {
    const procs = Array.from({ length: workers }, () => spawnWorker(inst.dbUrl!, inst.services.config.dataDir));
    children.push(...procs.map((p) => p.child));
    await Promise.all(procs.map((p) => p.ready));
    const t = await throughput(inst, N_SCALE);
    return { workers, seconds: t.seconds, jobsPerSec: t.jobsPerSec, check: await checkExactlyOnce(inst.services.db) };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(null)))));
    await inst.close();
  }
}

async function main() {
  const wanted = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
  const backends = wanted.filter((b): b is 'pglite' | 'postgres' => b === 'pglite' || b === 'postgres');
  const hasPg = await pgReachable(PG_ADMIN);
  const results: Record<string, unknown> = { machine: { cores: os.availableParallelism(), node: process.version }, latencyJobs: N_LAT, throughputJobs: N_TPUT };
  for (const backend of backends) {
    if (backend === 'postgres' && !hasPg) {
      console.log(`PostgreSQL not reachable at ${PG_ADMIN}: skipping its runs`);
      continue;
    }
    const workers = os.availableParallelism();
    const inst = await startInstance(backend, { workers });
    try {
      await submit(inst, 'warm-up');
      await waitAllDone(inst.services.db, 1, 60_000);
      const lat = await latency(inst);
      console.log(`[${backend}] submit-to-completed latency over ${N_LAT} one-molecule properties jobs: p50 ${lat.p50} ms, p99 ${lat.p99} ms (mean ${lat.mean})`);
      const profileFile = PROFILE ? path.join(PROFILE_DIR, `jobs-${backend}-${Date.now()}.cpuprofile`) : null;
      const tput = await throughputChild(inst, N_TPUT, N_LAT + 1, profileFile);
      console.log(`[${backend}] throughput with ${workers} in-process worker slots, ${CLIENTS} clients in a separate process: ${describeWindow(tput)}`);
      describeProfile(backend, tput);
      const check = await checkExactlyOnce(inst.services.db);
      console.log(`[${backend}] exactly once:`, check);
      results[backend] = { workers, latency: lat, throughput: { ...tput, profile: tput.profile?.byArea.slice(0, 12) }, check };
    } finally {
      await inst.close();
    }
    if (backend === 'postgres' && process.env.BENCH_SKIP_RAW !== '1') {
      const profileFile = PROFILE ? path.join(PROFILE_DIR, `jobs-raw-pgboss-${Date.now()}.cpuprofile`) : null;
      const raw = await rawPgBoss(PG_ADMIN, { n: N_TPUT, warmup: N_WARM, workers, clients: CLIENTS, profileFile });
      console.log(`[raw pg-boss] ${workers} fetch-and-complete loops, ${CLIENTS} senders in a separate process: ${describeWindow(raw)}`);
      describeProfile('raw pg-boss', raw);
      const crucible = (results.postgres as { throughput: WindowResult }).throughput.jobsPerSec;
      const ratio = round(crucible / raw.jobsPerSec, 2);
      console.log(`[postgres] Crucible ${crucible} jobs/s against raw pg-boss ${raw.jobsPerSec} jobs/s: ratio ${ratio} (target >= 0.5, and >= 100 jobs/s)`);
      results.rawPgBoss = { ...raw, profile: raw.profile?.byArea.slice(0, 12), ratio };
    }
  }
  if (hasPg && process.env.BENCH_SKIP_SCALE !== '1') {
    const one = await scaleRun(1);
    console.log(`[scale] API + 1 worker process: ${N_SCALE} jobs in ${one.seconds} s (${one.jobsPerSec} jobs/s)`, one.check);
    const three = await scaleRun(3);
    console.log(`[scale] API + 3 worker processes: ${N_SCALE} jobs in ${three.seconds} s (${three.jobsPerSec} jobs/s)`, three.check);
    results.scale = { one, three, speedup: round(one.seconds / three.seconds, 2) };
  }
  console.log(JSON.stringify(results, null, 2));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
