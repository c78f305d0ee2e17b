// npm run bench:workflows — workflow figures for docs/performance.md:
//   1. engine overhead of a run: (run finished_at - created_at) - the critical path's job
//      runtimes (finished_at - started_at), all from the database's clock, for a 5-step chain
//      of `filter` steps and a 10-wide fan-out (one `filter` feeding 10 `properties`), run one
//      at a time; against a plain `filter` job's own overhead (finished_at - created_at -
//      runtime) measured on the same instance. Target: chain p50 < 300 ms on PostgreSQL;
//   2. POST /workflows/validate of a valid 50-step spec (p50, p99 over HTTP), against a 1-step
//      spec, and validateFor (src/modules/workflows/check.ts) in process. Target: p99 < 20 ms
//      (judged on the HTTP figure);
//   3. N concurrent runs of the `library-triage` template started at once: all complete, 4 jobs
//      each, no job charged twice, one `workflow_run` event per run, the hold back to 0 and the
//      charges equal to the runs' charged_micros; wall time and runs/min. A failed check exits 1.
// Runs on PGlite always and on PostgreSQL when one answers (CRUCIBLE_BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres); each backend gets a fresh database and one
// in-process runtime with 4 worker slots.
//
// Options (env): BENCH_OVERHEAD_RUNS (30 per shape, after 3 warm-up runs), BENCH_VALIDATE_N (300, after 200),
// BENCH_CONCURRENT_RUNS (50), BENCH_BACKENDS=pglite,postgres; `--profile`: where the chain series' CPU went.
import os from 'node:os';
import { PG_ADMIN, startInstance, type BenchInstance as Instance } from './lib/instance.js';
import { pgReachable } from './lib/pg.js';
import { profiledIf } from './lib/profile.js';
import { validateFor } from '../src/modules/workflows/check.js';
import type { WorkflowSpec } from '../src/workflows/spec.js';

const N_OVER = Number(process.env.BENCH_OVERHEAD_RUNS ?? 30);
const N_VAL = Number(process.env.BENCH_VALIDATE_N ?? 300);
const N_CONC = Number(process.env.BENCH_CONCURRENT_RUNS ?? 50);
const WARMUP = 3;
/** `--profile`: a V8 CPU profile of the chain series (server, worker slots and the bench's client: one process). */
const PROFILE = process.argv.includes('--profile');
/** validate warm-up calls: V8 is still tiering the validator up for the first ~150 calls of a 50-step spec. */
const VAL_WARMUP = 200;
const SLOTS = 4;
const SMILES3 = ['CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O'];
const LIBRARY = [
  'CC(=O)Oc1ccccc1C(=O)O',
  'CN1C=NC2=C1C(=O)N(C(=O)N2C)C',
  'CC(C)Cc1ccc(cc1)C(C)C(=O)O',
  'CC(=O)Nc1ccc(O)cc1',
  'COc1ccc2[nH]cc(CCNC(C)=O)c2c1',
  'CN1CCC[C@H]1c1cccnc1',
  'OC(=O)c1ccccc1O',
  'CC(C)NCC(O)COc1cccc2ccccc12',
  'CN(C)CCCN1c2ccccc2CCc2ccccc21',
  'Clc1ccc(cc1)C(c1ccccc1)N1CCN(CC1)CCOCC(=O)O',
  'CC(C)(C)NCC(O)c1ccc(O)c(CO)c1',
  'COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3)CC1)C2',
  'CCOC(=O)C1=C(C)NC(C)=C(C(=O)OC)C1c1cccc(c1)[N+](=O)[O-]',
  'O=C(O)Cc1ccccc1Nc1c(Cl)cccc1Cl',
  'CC12CCC3C(CCC4=CC(=O)CCC34C)C1CCC2O',
  'NC(=O)c1cnccn1',
  'CCN(CC)CCNC(=O)c1ccc(N)cc1',
  'c1ccc2ccccc2c1',
  'OC(=O)CCC(=O)O',
  'Cc1ccccc1',
];
const FILTER = { expression: 'mw < 1000' };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api<T>(inst: Instance, method: string, p: string, body?: unknown): Promise<T> {
  const r = await fetch(inst.base + p, {
    method,
    headers: { authorization: `Bearer ${inst.user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function rows<T>(inst: Instance, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await inst.services.db.query<T & Record<string, unknown>>(sql, params)).rows;
}

async function num(inst: Instance, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await rows<{ n: unknown }>(inst, sql, params);
  if (row === undefined) throw new Error(`no row from: ${sql}`);
  return Number(row.n);
}

/** Polls the row's status (every 10 ms, in the database: the API's rate limit is spared) until it is terminal; returns it. */
async function waitFor(inst: Instance, table: 'workflow_runs' | 'jobs', id: string, timeoutMs = 120_000): Promise<string> {
  const terminal = table === 'jobs' ? ['completed', 'error', 'cancelled'] : ['completed', 'failed', 'cancelled'];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await rows<{ status: string }>(inst, `SELECT status FROM ${table} WHERE id = $1`, [id]);
    if (row && terminal.includes(row.status)) return row.status;
    if (Date.now() > until) throw new Error(`${table} ${id} still ${row?.status ?? 'missing'} after ${timeoutMs} ms`);
    await sleep(10);
  }
}

const chainSpec: WorkflowSpec = {
  name: 'bench chain',
  inputs: { library: { type: 'molecules' } },
  steps: Array.from({ length: 5 }, (_, i) => ({
    id: `f${i}`,
    job_type: 'filter',
    inputs: { molecules: i === 0 ? '$inputs.library' : `$steps.f${i - 1}.outputs.molecules` },
    params: FILTER,
  })),
};

const fanSpec: WorkflowSpec = {
  name: 'bench fan-out',
  inputs: { library: { type: 'molecules' } },
  steps: [
    { id: 'root', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: FILTER },
    ...Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, job_type: 'properties', inputs: { molecules: '$steps.root.outputs.molecules' } })),
  ],
};

/**
 * One run, started and awaited; from the database's timestamps (ms): its overhead (duration -
 * the critical path's job runtimes) and its idle time (duration with no step job running).
 */
async function runOverhead(inst: Instance, spec: WorkflowSpec): Promise<{ overhead: number; idle: number }> {
  const { run_id } = await api<{ run_id: string }>(inst, 'POST', '/api/v1/workflows/runs', { spec, inputs: { library: SMILES3 } });
  const status = await waitFor(inst, 'workflow_runs', run_id);
  if (status !== 'completed') throw new Error(`run ${run_id} ended ${status}`);
  const total = await num(inst, `SELECT extract(epoch FROM finished_at - created_at)::float8 * 1000 AS n FROM workflow_runs WHERE id = $1`, [run_id]);
  const steps = await rows<{ step_id: string; s: number; f: number }>(
    inst,
    `SELECT s.step_id, extract(epoch FROM j.started_at - r.created_at)::float8 * 1000 AS s, extract(epoch FROM j.finished_at - r.created_at)::float8 * 1000 AS f
       FROM workflow_run_steps s JOIN jobs j ON j.id = s.job_id JOIN workflow_runs r ON r.id = s.run_id WHERE s.run_id = $1 ORDER BY 2`,
    [run_id],
  );
  // The critical path: each step's runtime after the longest path among the steps it reads from.
  const byId = new Map(steps.map((x) => [x.step_id, Number(x.f) - Number(x.s)]));
  const longest = new Map<string, number>();
  for (const st of spec.steps) {
    const ups = Object.values(st.inputs ?? {}).flatMap((ref) => /^\$steps\.([^.]+)\./.exec(ref)?.[1] ?? []);
    const own = byId.get(st.id);
    if (own === undefined) throw new Error(`run ${run_id}: step ${st.id} has no job`);
    longest.set(st.id, Math.max(0, ...ups.map((u) => longest.get(u) ?? 0)) + own);
  }
  // Busy time: the union of the step jobs' [started, finished] intervals (sorted by start).
  let busy = 0;
  let end = -Infinity;
  for (const { s, f } of steps.map((x) => ({ s: Number(x.s), f: Number(x.f) }))) {
    busy += Math.max(0, f - Math.max(s, end));
    end = Math.max(end, f);
  }
  return { overhead: total - Math.max(...longest.values()), idle: total - busy };
}

/** A plain `filter` job via /jobs/submit: (finished_at - created_at) - (finished_at - started_at), in ms. */
async function jobOverhead(inst: Instance): Promise<number> {
  const { process_id } = await api<{ process_id: string }>(inst, 'POST', '/api/v1/jobs/submit', {
    job_name: 'bench-filter',
    job_type: 'filter',
    payload: { smiles: SMILES3, ...FILTER },
  });
  const status = await waitFor(inst, 'jobs', process_id);
  if (status !== 'completed') throw new Error(`job ${process_id} ended ${status}`);
  return num(inst, `SELECT extract(epoch FROM started_at - created_at)::float8 * 1000 AS n FROM jobs WHERE id = $1`, [process_id]);
}

async function overheads(inst: Instance) {
  const series = async <T>(f: () => Promise<T>): Promise<T[]> => {
    for (let i = 0; i < WARMUP; i++) await f();
    const out: T[] = [];
    for (let i = 0; i < N_OVER; i++) out.push(await f());
    return out;
  };
  const chain = await profiledIf(PROFILE, 'chain', WARMUP + N_OVER, () => series(() => runOverhead(inst, chainSpec)));
  const fan = await series(() => runOverhead(inst, fanSpec));
  const job = await series(() => jobOverhead(inst));
  const stats = (xs: number[]) => ({ p50: round(pct(xs, 50)), p99: round(pct(xs, 99)) });
  const idle = (xs: { idle: number }[]) => xs.map((x) => x.idle);
  const shape = (xs: { overhead: number; idle: number }[]) => ({ ...stats(xs.map((x) => x.overhead)), idleP50: stats(idle(xs)).p50 });
  return { chain: shape(chain), fan: shape(fan), job: stats(job) };
}

/** A valid 50-step spec: a backbone of 25 filter/cluster steps, each with a properties or depict leaf. */
function spec50(): WorkflowSpec {
  const steps: WorkflowSpec['steps'] = [];
  const out = (i: number) => `$steps.b${i}.outputs.${i % 2 === 0 ? 'molecules' : 'assignments'}`;
  for (let i = 0; i < 25; i++) {
    const input = i === 0 ? '$inputs.library' : out(i - 1);
    steps.push(
      i % 2 === 0
        ? { id: `b${i}`, job_type: 'filter', inputs: { molecules: input }, params: { expression: 'mw <= 500 and clogp < 5 and not pains' } }
        : { id: `b${i}`, job_type: 'cluster', inputs: { molecules: input }, params: { cutoff: 0.4 } },
    );
    steps.push({ id: `l${i}`, job_type: i % 2 === 0 ? 'properties' : 'depict', inputs: { molecules: out(i) } });
  }
  return { name: 'bench 50 steps', inputs: { library: { type: 'molecules' } }, steps, outputs: { last: out(24) } };
}

const spec1: WorkflowSpec = { name: 'bench 1 step', inputs: { library: { type: 'molecules' } }, steps: [chainSpec.steps[0]!] };

async function validation(inst: Instance) {
  const http = async (spec: WorkflowSpec): Promise<number[]> => {
    const once = async () => {
      const t0 = performance.now();
      const v = await api<{ valid: boolean; errors: unknown[]; step_order: string[] }>(inst, 'POST', '/api/v1/workflows/validate', { spec });
      const ms = performance.now() - t0;
      if (!v.valid || v.step_order.length !== spec.steps.length) throw new Error(`the ${spec.steps.length}-step spec is not valid: ${JSON.stringify(v.errors)}`);
      return ms;
    };
    for (let i = 0; i < VAL_WARMUP; i++) await once();
    const ms: number[] = [];
    for (let i = 0; i < N_VAL; i++) ms.push(await once());
    return ms;
  };
  const direct = async (spec: WorkflowSpec): Promise<number[]> => {
    for (let i = 0; i < VAL_WARMUP; i++) await validateFor(inst.services, inst.user.id, spec);
    const ms: number[] = [];
    for (let i = 0; i < N_VAL; i++) {
      const t0 = performance.now();
      await validateFor(inst.services, inst.user.id, spec);
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  const stats = (xs: number[]) => ({ p50: round(pct(xs, 50), 2), p99: round(pct(xs, 99), 2) });
  const big = spec50();
  return { http50: stats(await http(big)), http1: stats(await http(spec1)), direct50: stats(await direct(big)), direct1: stats(await direct(spec1)) };
}

async function concurrent(inst: Instance) {
  const t0 = performance.now();
  const started = await Promise.all(
    Array.from({ length: N_CONC }, () => api<{ run_id: string }>(inst, 'POST', '/api/v1/workflows/runs', { template_id: 'library-triage', inputs: { library: LIBRARY } })),
  );
  const ids = started.map((s) => s.run_id);
  // One poller for all of them (50 pollers would load the database the runs use).
  for (const until = Date.now() + 600_000; ; await sleep(25)) {
    if ((await num(inst, `SELECT count(*)::int AS n FROM workflow_runs WHERE id = ANY($1::uuid[]) AND status = 'running'`, [ids])) === 0) break;
    if (Date.now() > until) throw new Error(`runs still running after 600 s`);
  }
  const statuses = (await rows<{ status: string }>(inst, 'SELECT status FROM workflow_runs WHERE id = ANY($1::uuid[])', [ids])).map((r) => r.status);
  const seconds = (performance.now() - t0) / 1000;
  const failures: string[] = [];
  const notCompleted = statuses.filter((s) => s !== 'completed').length;
  if (notCompleted) failures.push(`${notCompleted} runs did not complete (${[...new Set(statuses)].join(', ')})`);
  const badJobCounts = await num(inst, `SELECT count(*)::int AS n FROM unnest($1::uuid[]) AS r(id) WHERE (SELECT count(*) FROM jobs WHERE workflow_run_id = r.id) <> 4`, [ids]);
  if (badJobCounts) failures.push(`${badJobCounts} runs without exactly 4 jobs`);
  const chargedTwice = await num(inst, `SELECT count(*)::int AS n FROM (SELECT job_id FROM ledger WHERE kind = 'charge' GROUP BY job_id HAVING count(*) > 1) x`);
  if (chargedTwice) failures.push(`${chargedTwice} jobs with more than one charge`);
  const badEvents = await num(
    inst,
    `SELECT count(*)::int AS n FROM unnest($1::text[]) AS r(id) WHERE (SELECT count(*) FROM events WHERE kind = 'workflow_run' AND subject_id = r.id) <> 1`,
    [ids],
  );
  if (badEvents) failures.push(`${badEvents} runs without exactly one workflow_run event`);
  const reserved = await num(inst, `SELECT coalesce(sum(reserved_delta_micros), 0)::text AS n FROM ledger WHERE user_id = $1`, [inst.user.id]);
  const walletReserved = await num(inst, `SELECT reserved_micros::text AS n FROM wallets WHERE user_id = $1`, [inst.user.id]);
  if (reserved !== 0 || walletReserved !== 0) failures.push(`reserved not back to 0: ledger ${reserved}, wallet ${walletReserved}`);
  const charges = await num(
    inst,
    `SELECT coalesce(-sum(l.amount_micros), 0)::text AS n FROM ledger l JOIN jobs j ON j.id = l.job_id WHERE l.kind = 'charge' AND j.workflow_run_id = ANY($1::uuid[])`,
    [ids],
  );
  const runCharged = await num(inst, `SELECT coalesce(sum(charged_micros), 0)::text AS n FROM workflow_runs WHERE id = ANY($1::uuid[])`, [ids]);
  if (charges !== runCharged) failures.push(`charges ${charges} <> runs' charged_micros ${runCharged}`);
  return { seconds: round(seconds, 2), runsPerMin: round((N_CONC / seconds) * 60), charges, failures };
}

async function main() {
  const wanted = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
  const backends = wanted.filter((b): b is 'pglite' | 'postgres' => b === 'pglite' || b === 'postgres');
  const hasPg = await pgReachable(PG_ADMIN);
  const table: string[][] = [];
  const failed: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log(
    `machine: ${os.availableParallelism()} cores, node ${process.version}; ${SLOTS} worker slots; overhead runs ${N_OVER}, validate n ${N_VAL}, concurrent runs ${N_CONC}`,
  );
  for (const backend of backends) {
    if (backend === 'postgres' && !hasPg) {
      console.log(`PostgreSQL not reachable at ${PG_ADMIN}: skipping its runs`);
      continue;
    }
    const inst = await startInstance(backend, { workers: SLOTS });
    try {
      const o = await overheads(inst);
      const ratio = round(o.chain.p50 / (5 * o.job.p50), 2);
      console.log(`[${backend}] overhead (ms, p50/p99): chain ${o.chain.p50}/${o.chain.p99} (idle: no step job running, p50 ${o.chain.idleP50}),`);
      console.log(`[${backend}]   fan-out ${o.fan.p50}/${o.fan.p99} (idle p50 ${o.fan.idleP50}), plain job ${o.job.p50}/${o.job.p99}; chain / (5 x job) = ${ratio}`);
      const chainTarget = backend === 'postgres' ? verdict(o.chain.p50 < 300) : '';
      table.push(
        [backend, '5-step chain overhead p50 / p99 (ms)', `${o.chain.p50} / ${o.chain.p99}`, 'p50 < 300 ms (PostgreSQL)', chainTarget],
        [backend, 'chain overhead per transition p50 / p99 (ms)', `${round(o.chain.p50 / 5)} / ${round(o.chain.p99 / 5)}`, '', ''],
        [backend, `10-wide fan-out overhead p50 / p99 (ms; 10 steps on ${SLOTS} slots)`, `${o.fan.p50} / ${o.fan.p99}`, '', ''],
        [backend, 'fan-out idle p50 (ms; no step job running)', String(o.fan.idleP50), '', ''],
        [backend, 'plain filter job overhead p50 / p99 (ms)', `${o.job.p50} / ${o.job.p99}`, 'baseline', ''],
        [backend, 'chain p50 / (5 x job p50)', String(ratio), '', ''],
      );
      const v = await validation(inst);
      console.log(
        `[${backend}] validate (ms, p50/p99): 50 steps HTTP ${v.http50.p50}/${v.http50.p99}, in process ${v.direct50.p50}/${v.direct50.p99}; 1 step HTTP ${v.http1.p50}/${v.http1.p99}`,
      );
      table.push(
        [backend, 'validate 50 steps, HTTP p50 / p99 (ms)', `${v.http50.p50} / ${v.http50.p99}`, 'p99 < 20 ms (judged on HTTP)', verdict(v.http50.p99 < 20)],
        [backend, 'validate 1 step, HTTP p50 / p99 (ms)', `${v.http1.p50} / ${v.http1.p99}`, 'baseline', ''],
        [backend, 'validateFor 50 steps, in process p50 / p99 (ms)', `${v.direct50.p50} / ${v.direct50.p99}`, '', ''],
        [backend, 'validateFor 1 step, in process p50 / p99 (ms)', `${v.direct1.p50} / ${v.direct1.p99}`, '', ''],
      );
      const c = await concurrent(inst);
      console.log(
        `[${backend}] ${N_CONC} concurrent library-triage runs: ${c.seconds} s (${c.runsPerMin} runs/min); checks ${c.failures.length ? c.failures.join('; ') : 'all passed'}`,
      );
      table.push(
        [backend, `${N_CONC} concurrent library-triage runs: wall (s)`, String(c.seconds), '', ''],
        [backend, `${N_CONC} concurrent library-triage runs: runs/min`, String(c.runsPerMin), '', ''],
        [backend, 'concurrent runs: completed, 4 jobs, 1 charge/job, 1 event, hold 0, charges = runs', c.failures.join('; ') || 'all hold', '', verdict(!c.failures.length)],
      );
      failed.push(...c.failures.map((f) => `${backend}: ${f}`));
    } finally {
      await inst.close();
    }
  }
  console.log('\n| backend | figure | value | target | verdict |\n|---|---|---|---|---|');
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
  // A missed performance target is reported (FAIL above); a failed correctness check fails the run.
  if (failed.length) throw new Error(`checks failed:\n${failed.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
