// npm run bench:jobs — compute-job figures for docs/performance.md:
//   1. submit-to-completed latency of one-molecule `properties` jobs (p50, p99), followed the
//      way a client would: POST /jobs/submit, then a long poll on GET /events for that job;
//   2. sustained throughput of such jobs with the default in-process workers;
//   3. (PostgreSQL only) a scale run: the API plus 3 `crucible worker` processes finish N jobs
//      with none lost, none run twice and none charged twice, timed against 1 worker process.
// Runs on PGlite always and on PostgreSQL when one answers (CRUCIBLE_BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres); each run uses a fresh database.
//
// Options (env): BENCH_LATENCY_JOBS (100), BENCH_THROUGHPUT_JOBS (1000), BENCH_SCALE_JOBS (2000),
// BENCH_SKIP_SCALE=1, BENCH_BACKENDS=pglite,postgres
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { PG_ADMIN, startInstance, type BenchInstance as Instance } from './lib/instance.js';
import { pgReachable } from './lib/pg.js';
import type { Services } from '../src/services.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const N_LAT = Number(process.env.BENCH_LATENCY_JOBS ?? 100);
const N_TPUT = Number(process.env.BENCH_THROUGHPUT_JOBS ?? 1000);
const N_SCALE = Number(process.env.BENCH_SCALE_JOBS ?? 2000);
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
      const tput = await throughput(inst, N_TPUT, N_LAT + 1);
      console.log(`[${backend}] throughput with ${workers} in-process worker slots: ${tput.jobsPerSec} jobs/s (${N_TPUT} jobs in ${tput.seconds} s)`);
      results[backend] = { workers, latency: lat, throughput: tput, check: await checkExactlyOnce(inst.services.db) };
    } finally {
      await inst.close();
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
