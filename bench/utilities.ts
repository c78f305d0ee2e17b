// `npm run bench:utilities`: the sync chemistry path end to end over HTTP (docs/performance.md,
// "Utilities"): canonical SMILES (`convert` with outputs [smiles]), Morgan fingerprints
// (`fingerprints`, radius 2, 2048 bits) and `/depict` (300 x 220), against the WASM limit measured
// in the same run, and beside a Flask + native RDKit peer served the same way.
//
//   npm run bench:utilities -- [--duration 20] [--warmup 10] [--concurrency 4] [--batch 20] [--rounds 2]
//                              [--ops smiles,morgan,depict] [--no-peer] [--latency-requests 200]
//                              [--limit-passes 2] [--limit-molecules 5000] [--profile DIR] [--json out.json]
//
// Method, in this order, nothing else of ours running:
// 1. The WASM limit: RDKit MinimalLib alone, one thread in Node (scripts/rdkit/wasm-limit.ts, in
//    a child process): get_mol + get_smiles / get_morgan_fp_as_uint8array / get_svg_with_highlights
//    over the NCI set, best pass. The limit of the server is that rate times its chemistry
//    threads (the cores): what Crucible could serve if HTTP, JSON and the rest cost nothing.
// 2. Native RDKit on one thread (scripts/rdkit/utilities_baseline.py), for continuity.
// 3. Crucible in a child process (`startServer`, the code path of `crucible serve`, API only: no
//    job workers polling the database; PGlite, the
//    chemistry cache off, an enterprise account): for each operation, `batch`-molecule
//    requests of the NCI set (RDKit's first_5K.smi in order, cycling) at `concurrency` in
//    flight from autocannon in this process (the same 2 cores), warm-up then `rounds` rounds of
//    `duration` s; the figure is the median round; ratio = molecules/s / limit.
// 4. The peer: scripts/rdkit/flask_peer.py under gunicorn, one worker process per core (gthread
//    with one thread: one request at a time each, connections kept alive), the same operations
//    and molecules, loaded by the same autocannon runs.
// 5. Latency (unchanged from earlier runs): `convert` (smiles + InChI + InChIKey) of 100
//    molecules one request at a time, and `similarity` of 20 queries x 1,000 (p50, p99).
// With --profile DIR the server is profiled during one more run of each operation: its main
// thread with the V8 sampling profiler (self time by area), its chemistry threads by their busy
// time per molecule against the bare WASM rate.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ROOT, startChild, type ServerChild } from './lib/children.js';
import type { ChildStats } from './lib/protocol.js';
import { summariseProfile, type ProfileSummary } from './lib/profile.js';

const NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi';
const log = (s: string) => process.stderr.write(s + '\n');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    batch: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    ops: { type: 'string', default: 'smiles,morgan,depict' },
    'no-peer': { type: 'boolean', default: false },
    'latency-requests': { type: 'string', default: '200' },
    'limit-passes': { type: 'string', default: '2' },
    'limit-molecules': { type: 'string', default: '5000' },
    profile: { type: 'string' },
    json: { type: 'string' },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONCURRENCY = Number(args.concurrency);
const BATCH = Number(args.batch);
const ROUNDS = Math.max(1, Number(args.rounds));
const LATENCY_N = Number(args['latency-requests']);
type Op = 'smiles' | 'morgan' | 'depict';
const OPS = args.ops.split(',') as Op[];
for (const op of OPS) if (!['smiles', 'morgan', 'depict'].includes(op)) throw new Error(`unknown op ${op}`);

if (!fs.existsSync(NCI)) throw new Error(`${NCI} is missing: apt-get install rdkit-data python3-rdkit`);
const smiles = fs
  .readFileSync(NCI, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => l.split(/\s+/)[0]!);

const run = (cmd: string, argv: string[]): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(cmd, argv, { cwd: ROOT, maxBuffer: 1 << 22 }, (err, out, stderr) => (err ? reject(new Error(`${cmd} failed: ${err.message} ${stderr}`)) : resolve(out))),
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** CPU seconds of processes (and their threads) by pid, from /proc. */
function cpuOf(pids: number[]): number {
  let s = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      s += (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      /* gone */
    }
  }
  return s;
}

// ------------------------------------------------------------ the load: one request shape per target and op
interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** Path and body of a request of `batch` molecules. */
  request(op: Op, batch: string[]): { path: string; body: unknown };
  /** Pids whose CPU is the target's. */
  pids(): number[];
  /** Crucible: the server child's pool counters and main-thread event-loop use. */
  stats?(): Promise<ChildStats>;
}

let cursor = 0;
const nextBatch = (n = BATCH) => Array.from({ length: n }, () => smiles[cursor++ % smiles.length]!);

interface Round {
  moleculesPerSec: number;
  requests: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the target's processes per molecule, µs. */
  cpuUsPerMolecule: number;
  /** CPU of the load generator (this process) per molecule, µs. */
  loadgenUsPerMolecule: number;
  /** Crucible: chemistry-thread time on items per molecule, µs; main-thread event-loop utilisation, %; pool tasks per request. */
  workerUsPerMolecule?: number;
  mainThreadBusyPct?: number;
  mainThreadUsPerRequest?: number;
  tasksPerRequest?: number;
}

function cannon(t: Target, op: Op, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: t.url,
        connections: CONCURRENCY,
        pipelining: 1,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const r = t.request(op, nextBatch());
              return { ...req, path: r.path, headers: { ...t.headers, 'content-type': 'application/json' }, body: JSON.stringify(r.body) };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
    );
  });
}

async function round(t: Target, op: Op, seconds: number): Promise<Round> {
  const s0 = await t.stats?.();
  const cpu0 = cpuOf(t.pids());
  const own0 = process.cpuUsage();
  const r = await cannon(t, op, seconds);
  const own = process.cpuUsage(own0);
  const cpu = cpuOf(t.pids()) - cpu0;
  const s1 = await t.stats?.();
  const molecules = r.requests.total * BATCH;
  const pool =
    s0 && s1
      ? {
          workerUsPerMolecule: Math.round(((s1.workerBusyMs - s0.workerBusyMs) * 1000) / Math.max(1, s1.items - s0.items)),
          mainThreadBusyPct: Math.round((100 * (s1.eluActiveMs - s0.eluActiveMs)) / Math.max(1, s1.eluActiveMs + s1.eluIdleMs - s0.eluActiveMs - s0.eluIdleMs)),
          mainThreadUsPerRequest: Math.round(((s1.eluActiveMs - s0.eluActiveMs) * 1000) / Math.max(1, r.requests.total)),
          tasksPerRequest: +((s1.tasks - s0.tasks) / Math.max(1, r.requests.total)).toFixed(2),
        }
      : {};
  return {
    ...pool,
    moleculesPerSec: Math.round(molecules / r.duration),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    cpuUsPerMolecule: Math.round((cpu * 1e6) / Math.max(1, molecules)),
    loadgenUsPerMolecule: Math.round((own.user + own.system) / Math.max(1, molecules)),
  };
}

/** Warm-up, then `ROUNDS` rounds: the median round (by molecules/s) and all of them. */
async function throughput(t: Target, op: Op): Promise<Round & { rounds: number[] }> {
  // One request first: the answer must have `batch` items without errors in most of them.
  const r = t.request(op, smiles.slice(0, BATCH));
  const res = await fetch(t.url + r.path, { method: 'POST', headers: { ...t.headers, 'content-type': 'application/json' }, body: JSON.stringify(r.body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${t.name} ${op}: ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { items?: unknown[]; result?: { items: unknown[] } };
  const items = (body.items ?? body.result?.items ?? []) as { error: unknown }[];
  if (items.length !== BATCH || items.filter((i) => i.error === null).length < BATCH - 2) throw new Error(`${t.name} ${op}: unexpected answer ${text.slice(0, 300)}`);
  await cannon(t, op, WARMUP);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(t, op, DURATION));
  const m = median(rounds.map((x) => x.moleculesPerSec));
  return { ...rounds.find((x) => x.moleculesPerSec === m)!, rounds: rounds.map((x) => x.moleculesPerSec) };
}

// ------------------------------------------------------------ the peer
async function startPeer(): Promise<{ proc: ChildProcess; url: string; workers: number; pids: () => number[]; stop: () => Promise<void> }> {
  const port = 18000 + (process.pid % 2000);
  const workers = os.cpus().length;
  // gthread workers with one thread each: one request at a time per process (as sync workers),
  // but connections are kept alive (sync workers close each one: autocannon counted errors).
  const argv = ['-w', String(workers), '-k', 'gthread', '--threads', '1', '--keep-alive', '30', '-b', `127.0.0.1:${port}`];
  if (!fs.existsSync('/usr/bin/gunicorn')) throw new Error('the peer needs Debian gunicorn and Flask: apt-get install python3-flask gunicorn (or run with --no-peer)');
  const proc = spawn('/usr/bin/gunicorn', [...argv, '--chdir', path.join(ROOT, 'scripts/rdkit'), '--log-level', 'warning', 'flask_peer:app'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}` },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error('gunicorn exited: apt-get install python3-flask gunicorn');
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error('the peer did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const pids = () => {
    const kids = fs.existsSync(`/proc/${proc.pid}/task/${proc.pid}/children`)
      ? fs.readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
      : [];
    return [proc.pid!, ...kids];
  };
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  return { proc, url, workers, pids, stop };
}

// ------------------------------------------------------------ 1, 2: the limit and the native baseline
log(`1. the WASM limit: scripts/rdkit/wasm-limit.ts (one thread, ${args['limit-passes']} passes after a warm-up pass)`);
const limit = JSON.parse(
  await run(process.execPath, [
    '--import',
    'tsx',
    'scripts/rdkit/wasm-limit.ts',
    '--smiles',
    NCI,
    '--passes',
    args['limit-passes'],
    '--limit',
    args['limit-molecules'],
    '--ops',
    OPS.join(','),
  ]),
) as Record<string, number> & { rdkit_version: string };
log(`   ${JSON.stringify(limit)}`);
log('2. native RDKit, one thread: /usr/bin/python3 scripts/rdkit/utilities_baseline.py');
const native = JSON.parse(await run('/usr/bin/python3', ['scripts/rdkit/utilities_baseline.py', '--smiles', NCI, '--passes', '3'])) as {
  rdkit_version: string;
  convert_per_sec: number;
  fingerprints_per_sec: number;
};

// ------------------------------------------------------------ 3: Crucible
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-utilities-'));
// API only (no job workers polling the database), as bench:chem; no request-rate limit in the way.
const server: ServerChild = await startChild('crucible-server.ts', {
  CRUCIBLE_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  CRUCIBLE_WORKERS: '0',
  CRUCIBLE_CHEM_CACHE: '0',
  CRUCIBLE_TIER_ENTERPRISE_REQUESTS_PER_MINUTE: '1000000000',
  PORT: '0',
  LOG_LEVEL: 'warn',
});
const results: Record<string, unknown> = {};
let threads = 0;
try {
  const api = `${server.ready.url}/api/v1`;
  const login = await fetch(`${api}/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: server.ready.email!, password: server.ready.password! }) });
  const token = ((await login.json()) as { access_token: string }).access_token;
  threads = Number(process.env.CRUCIBLE_CHEM_THREADS ?? os.cpus().length);
  const crucible: Target = {
    name: 'crucible',
    url: server.ready.url,
    headers: { authorization: `Bearer ${token}` },
    request: (op, molecules) =>
      op === 'depict'
        ? { path: '/api/v1/depict', body: { smiles: molecules } }
        : {
            path: '/api/v1/utilities/run',
            body:
              op === 'smiles'
                ? { tool: 'convert', input: { molecules, outputs: ['smiles'] } }
                : { tool: 'fingerprints', input: { molecules, type: 'morgan', radius: 2, n_bits: 2048 } },
          },
    pids: () => [server.proc.pid!],
    stats: () => server.stats(),
  };
  log(`3. Crucible (${threads} chemistry threads): ${BATCH}-molecule requests, ${CONCURRENCY} in flight, ${WARMUP} s warm-up, ${ROUNDS} x ${DURATION} s (median)`);
  const crucibleRuns: Partial<Record<Op, Awaited<ReturnType<typeof throughput>>>> = {};
  for (const op of OPS) {
    crucibleRuns[op] = await throughput(crucible, op);
    log(`   ${op}: ${JSON.stringify(crucibleRuns[op])}`);
  }
  const profiles: Partial<Record<Op, ProfileSummary>> = {};
  if (args.profile) {
    fs.mkdirSync(args.profile, { recursive: true });
    for (const op of OPS) {
      const file = path.join(path.resolve(args.profile), `server-main-${op}.cpuprofile`);
      await server.send({ type: 'profile-start' });
      const r = await round(crucible, op, DURATION);
      await server.send({ type: 'profile-stop', file });
      profiles[op] = summariseProfile(file, r.requests, 25);
      log(`   profile ${op}: ${file} (${r.moleculesPerSec} molecules/s while profiled)`);
    }
  }

  // ------------------------------------------------------------ 4: the peer
  const peerRuns: Partial<Record<Op, Awaited<ReturnType<typeof throughput>>>> = {};
  let peerWorkers = 0;
  if (!args['no-peer']) {
    const peer = await startPeer();
    peerWorkers = peer.workers;
    try {
      const t: Target = {
        name: 'peer',
        url: peer.url,
        headers: {},
        request: (op, molecules) =>
          op === 'depict' ? { path: '/depict', body: { smiles: molecules } } : { path: op === 'smiles' ? '/convert' : '/fingerprints', body: { molecules } },
        pids: peer.pids,
      };
      log(`4. the peer: Flask + native RDKit ${native.rdkit_version} under gunicorn, ${peer.workers} workers (gthread, 1 thread each), same load`);
      for (const op of OPS) {
        peerRuns[op] = await throughput(t, op);
        log(`   ${op}: ${JSON.stringify(peerRuns[op])}`);
      }
    } finally {
      await peer.stop();
    }
  }

  // ------------------------------------------------------------ 5: latency (as in earlier runs)
  let latency: Record<string, { p50_ms: number; p99_ms: number }> | null = null;
  if (LATENCY_N > 0) {
    const headers = { ...crucible.headers, 'content-type': 'application/json' };
    const call = async (tool: string, input: unknown) => {
      const t0 = performance.now();
      const r = await fetch(`${api}/utilities/run`, { method: 'POST', headers, body: JSON.stringify({ tool, input }) });
      const body = await r.text();
      if (r.status !== 200) throw new Error(`${tool}: ${r.status} ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const lat = async (tool: string, input: () => unknown) => {
      for (let i = 0; i < 20; i++) await call(tool, input());
      const times: number[] = [];
      for (let i = 0; i < LATENCY_N; i++) times.push(await call(tool, input()));
      return { p50_ms: +pct(times, 50).toFixed(1), p99_ms: +pct(times, 99).toFixed(1) };
    };
    log(`5. latency: ${LATENCY_N} requests one at a time`);
    const library = smiles.slice(0, 1000);
    latency = {
      convert_100: await lat('convert', () => ({ molecules: nextBatch(100), outputs: ['smiles', 'inchi', 'inchikey'] })),
      similarity_20x1000: await lat('similarity', () => ({ queries: nextBatch(20), library, top_k: 10 })),
    };
  }

  for (const op of OPS) {
    const c = crucibleRuns[op]!;
    const p = peerRuns[op];
    const wasm1 = limit[`${op}_per_sec`]!;
    const nativeRate = op === 'smiles' ? native.convert_per_sec : op === 'morgan' ? native.fingerprints_per_sec : null;
    results[op] = {
      wasm_limit_per_thread: wasm1,
      wasm_limit_per_thread_cpu: limit[`${op}_per_cpu_sec`],
      crucible_handler_per_thread: limit[`${op}_handler_per_sec`],
      wasm_limit: wasm1 * threads,
      crucible: c,
      ratio_to_wasm_limit: +(c.moleculesPerSec / (wasm1 * threads)).toFixed(2),
      // The same ratio from CPU time (holds on a machine shared with other work): the WASM work's
      // CPU per molecule over all the CPU a molecule took (server threads + load generator).
      cpu_ratio: +(1e6 / limit[`${op}_per_cpu_sec`]! / (c.cpuUsPerMolecule + c.loadgenUsPerMolecule)).toFixed(2),
      peer_cpu_ratio: p ? +(1e6 / limit[`${op}_per_cpu_sec`]! / (p.cpuUsPerMolecule + p.loadgenUsPerMolecule)).toFixed(2) : null,
      peer: p ?? null,
      peer_ratio_to_wasm_limit: p ? +(p.moleculesPerSec / (wasm1 * threads)).toFixed(2) : null,
      crucible_to_peer: p ? +(c.moleculesPerSec / p.moleculesPerSec).toFixed(2) : null,
      native_one_thread_per_sec: nativeRate === null ? null : Math.round(nativeRate),
      profile: profiles[op] ? { busyUsPerRequest: profiles[op].busyUsPerRequest, byArea: profiles[op].byArea.slice(0, 15), topFunctions: profiles[op].topFunctions } : null,
    };
  }
  const out = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg()[0]!.toFixed(1)} at the end`,
    method: {
      batch: BATCH,
      concurrency: CONCURRENCY,
      warmup_s: WARMUP,
      duration_s: DURATION,
      rounds: ROUNDS,
      threads,
      peer_workers: peerWorkers,
      load_generator: 'autocannon (this process)',
    },
    wasm: limit,
    native,
    results,
    latency,
  };
  const json = JSON.stringify(out, null, 2);
  if (args.json) fs.writeFileSync(args.json, json);
  console.log(json);
  log('\nop      | Crucible mol/s | WASM limit (1 thread x threads) | ratio | CPU ratio | peer mol/s | peer ratio | peer CPU ratio');
  for (const op of OPS) {
    const r = results[op] as Record<string, number | null> & { crucible: Round; peer: Round | null };
    log(
      `${op.padEnd(7)} | ${r.crucible.moleculesPerSec} | ${r.wasm_limit} | ${r.ratio_to_wasm_limit} | ${r.cpu_ratio} | ${r.peer?.moleculesPerSec ?? '-'} | ${r.peer_ratio_to_wasm_limit ?? '-'} | ${r.peer_cpu_ratio ?? '-'}`,
    );
  }
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
