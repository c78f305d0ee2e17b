// `npm run bench:chem`: /describe and /depict end to end over HTTP with the cache off,
// 20-molecule requests at concurrency 4, against native RDKit (Debian python3-rdkit) computing
// the same property set and the same 300x220 drawings on one thread, in the same run.
//
//   npm run bench:chem -- [--duration 20] [--warmup 15] [--concurrency 4] [--batch 20]
//                         [--rounds 3] [--passes 3] [--threads N] [--json out.json]
//
// Method: Crucible runs in a child process (`startServer`, the code path of `crucible serve`,
// API only, CRUCIBLE_CHEM_CACHE=0) so that the load generator (a fetch loop in this process)
// never shares an event loop with it. Molecules are the fixture set of the properties tests
// (test/fixtures/chem/reference.json, drugs, salts, charged and stereo cases, NCI), sent in
// order in requests of 20, cycling. Each endpoint is warmed up first (WASM code tiers up over
// the first thousand molecules), then measured `rounds` times; the figure is the median round.
// The native baseline (scripts/rdkit/baseline.py) runs before the server starts, its best pass.
// Where the time goes: the child reports the workers' busy time on items (RDKit + sanitizing),
// the main thread's event-loop utilisation (HTTP, auth, JSON) and its process CPU.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (s: string) => process.stderr.write(s + '\n');

interface ChildReady {
  type: 'ready';
  url: string;
  email: string;
  password: string;
  threads: number;
}
interface ChildStats {
  type: 'stats';
  /** Process CPU (all threads), µs. */
  cpuUs: number;
  /** Main-thread event loop: active ms (cumulative). */
  eluActiveMs: number;
  eluIdleMs: number;
  workerBusyMs: number;
  tasks: number;
  items: number;
  timeouts: number;
  crashes: number;
}

// ---------------------------------------------------------------- child: the server
if (process.argv.includes('--child')) {
  const { loadConfig } = await import('../src/config.js');
  const { startServer } = await import('../src/http/server.js');
  const config = loadConfig();
  const server = await startServer(config, () => undefined);
  const email = `bench-chem-${process.pid}@crucible.local`;
  const password = crypto.randomBytes(18).toString('base64url');
  const user = await server.services.users.create(email, password, 'enterprise');
  await server.services.chem.start();
  process.send!({ type: 'ready', url: server.url, email, password, threads: server.services.chem.threads } satisfies ChildReady);
  process.on('message', async (msg: { type: string }) => {
    if (msg.type === 'stats') {
      const cpu = process.cpuUsage();
      const elu = performance.eventLoopUtilization();
      const s = server.services.chem.stats();
      const reply: ChildStats = {
        type: 'stats',
        cpuUs: cpu.user + cpu.system,
        eluActiveMs: elu.active,
        eluIdleMs: elu.idle,
        workerBusyMs: s.workerBusyMs,
        tasks: s.tasks,
        items: s.items,
        timeouts: s.timeouts,
        crashes: s.crashes,
      };
      process.send!(reply);
    } else if (msg.type === 'stop') {
      await server.services.db.query('DELETE FROM users WHERE id = $1', [user.id]).catch(() => undefined);
      await server.stop();
      process.exit(0);
    }
  });
} else {
  await main();
}

// ---------------------------------------------------------------- parent: load and report
async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      duration: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '15' },
      concurrency: { type: 'string', default: '4' },
      batch: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      passes: { type: 'string', default: '3' },
      threads: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const DURATION = Number(args.duration) * 1000;
  const WARMUP = Number(args.warmup) * 1000;
  const CONCURRENCY = Number(args.concurrency);
  const BATCH = Number(args.batch);
  const ROUNDS = Number(args.rounds);

  const fixtures = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/chem/reference.json'), 'utf8')) as { molecules: { smiles: string }[] };
  const smiles = fixtures.molecules.map((m) => m.smiles);

  log(`native baseline: /usr/bin/python3 scripts/rdkit/baseline.py --passes ${args.passes} (${smiles.length} molecules, one thread)`);
  const native = await nativeBaseline(Number(args.passes));
  log(
    `  describe ${native.describe_ms_per_molecule} ms/molecule, svg ${native.svg_ms_per_molecule} ms/molecule with <text> labels as Crucible's ` +
      `(${native.svg_freetype_ms_per_molecule} ms with FreeType glyph outlines, native's default) (RDKit ${native.rdkit_version})`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-chem-'));
  const child = fork(fileURLToPath(import.meta.url), ['--child'], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      ...process.env,
      CRUCIBLE_DATA_DIR: dataDir,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      CRUCIBLE_WORKERS: '0',
      CRUCIBLE_CHEM_CACHE: '0',
      ...(args.threads ? { CRUCIBLE_CHEM_THREADS: args.threads } : {}),
      CRUCIBLE_ADMIN_PASSWORD: crypto.randomBytes(18).toString('base64url'),
      CRUCIBLE_TIER_ENTERPRISE_REQUESTS_PER_MINUTE: '1000000000',
    },
  });
  const ready = await nextMessage<ChildReady>(child, 'ready');
  log(`Crucible at ${ready.url}: ${ready.threads} chemistry threads, cache off`);
  try {
    const key = await apiKey(ready);
    const endpoints: { name: 'describe' | 'depict'; path: string; body: (batch: string[]) => unknown; nativeMsPerMolecule: number; target: number }[] = [
      { name: 'describe', path: '/api/v1/describe', body: (b) => ({ smiles: b }), nativeMsPerMolecule: native.describe_ms_per_molecule, target: 2 },
      { name: 'depict', path: '/api/v1/depict', body: (b) => ({ smiles: b, width: 300, height: 220 }), nativeMsPerMolecule: native.svg_ms_per_molecule, target: 1 },
    ];
    const report: Record<string, unknown> = {
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
      native,
      settings: { durationSec: DURATION / 1000, warmupSec: WARMUP / 1000, concurrency: CONCURRENCY, batch: BATCH, rounds: ROUNDS, threads: ready.threads, cache: 'off' },
    };
    for (const ep of endpoints) {
      log(`${ep.name}: warm-up ${WARMUP / 1000} s`);
      await load(ready.url, key, ep.path, ep.body, smiles, BATCH, CONCURRENCY, WARMUP);
      const rounds: RoundResult[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const s0 = await stats(child);
        const res = await load(ready.url, key, ep.path, ep.body, smiles, BATCH, CONCURRENCY, DURATION);
        const s1 = await stats(child);
        const round = summarise(res, s0, s1, ready.threads);
        rounds.push(round);
        log(
          `  round ${r + 1}: ${round.moleculesPerSec} molecules/s, p50 ${round.p50Ms} ms, p99 ${round.p99Ms} ms per ${BATCH}-molecule request` +
            ` (worker ${round.workerMsPerMolecule} ms/molecule, main thread ${round.mainThreadUtilisation * 100}% busy, ${round.errors} errors)`,
        );
      }
      const mid = [...rounds].sort((a, b) => a.moleculesPerSec - b.moleculesPerSec)[Math.floor(rounds.length / 2)];
      if (!mid) throw new Error(`bench:chem: no rounds measured for ${ep.name} (rounds=${ROUNDS})`);
      const nativePerSec = 1000 / ep.nativeMsPerMolecule;
      const ratio = round2(mid.moleculesPerSec / nativePerSec);
      report[ep.name] = {
        median: mid,
        rounds,
        nativeMoleculesPerSec: round1(nativePerSec),
        ratio,
        target: ep.target,
        targetMet: ratio >= ep.target && (ep.name !== 'describe' || mid.p99Ms < 250),
      };
    }
    const d = report.describe as { median: RoundResult; ratio: number; nativeMoleculesPerSec: number; targetMet: boolean };
    const p = report.depict as { median: RoundResult; ratio: number; nativeMoleculesPerSec: number; targetMet: boolean };
    const line = (n: string, x: typeof d, t: string) =>
      `| ${n} | ${x.median.moleculesPerSec} | ${x.median.p50Ms} | ${x.median.p99Ms} | ${x.nativeMoleculesPerSec} | ${x.ratio}x | ${t} | ${x.targetMet ? 'met' : 'MISSED'} |`;
    console.log('| endpoint (20 molecules/request, concurrency 4, cache off) | molecules/s | p50 ms | p99 ms | native 1-thread molecules/s | ratio | target | |');
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(line('POST /describe', d, '>= 2x, p99 < 250 ms'));
    console.log(line('POST /depict 300x220', p, '>= 1x'));
    const ftPerSec = 1000 / native.svg_freetype_ms_per_molecule;
    console.log(
      `\n(for information: native drawing with FreeType glyph outlines, its default, ${round1(ftPerSec)} molecules/s; /depict against it: ${round2(p.median.moleculesPerSec / ftPerSec)}x)`,
    );
    console.log(
      `\nworker time per molecule: describe ${d.median.workerMsPerMolecule} ms, depict ${p.median.workerMsPerMolecule} ms (native: ${native.describe_ms_per_molecule} ms, ${native.svg_ms_per_molecule} ms);` +
        ` workers busy ${d.median.workerUtilisation * 100}% / ${p.median.workerUtilisation * 100}% of ${ready.threads} threads; main thread busy ${d.median.mainThreadUtilisation * 100}% / ${p.median.mainThreadUtilisation * 100}%`,
    );
    console.log(JSON.stringify(report));
    if (args.json) fs.writeFileSync(args.json, JSON.stringify(report, null, 2));
  } finally {
    child.send({ type: 'stop' });
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface NativeBaseline {
  rdkit_version: string;
  molecules: number;
  describe_ms_per_molecule: number;
  svg_ms_per_molecule: number;
  describe_cpu_ms_per_molecule: number;
  svg_cpu_ms_per_molecule: number;
  /** The same drawings with FreeType glyph outlines (native RDKit's default; not what Crucible returns). */
  svg_freetype_ms_per_molecule: number;
}

function nativeBaseline(passes: number): Promise<NativeBaseline> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [path.join(ROOT, 'scripts/rdkit/baseline.py'), '--passes', String(passes)], { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) return reject(new Error(`native baseline failed: ${err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as NativeBaseline);
    });
  });
}

function nextMessage<T extends { type: string }>(child: ChildProcess, type: T['type']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the server child exited (${code})`));
    const onMsg = (m: T) => {
      if (m.type !== type) return;
      child.off('message', onMsg);
      child.off('exit', onExit);
      resolve(m);
    };
    child.on('message', onMsg);
    child.once('exit', onExit);
  });
}

async function stats(child: ChildProcess): Promise<ChildStats> {
  const p = nextMessage<ChildStats>(child, 'stats');
  child.send({ type: 'stats' });
  return p;
}

async function apiKey(ready: ChildReady): Promise<string> {
  const l = await fetch(`${ready.url}/api/v1/auth/login-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ready.email, password: ready.password }).toString(),
  });
  const token = ((await l.json()) as { access_token: string }).access_token;
  const k = await fetch(`${ready.url}/api/v1/auth/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-chem', scopes: ['read'] }),
  });
  if (k.status !== 200) throw new Error(`key creation failed: ${k.status}`);
  return ((await k.json()) as { api_key: string }).api_key;
}

interface LoadResult {
  wallMs: number;
  latencies: number[];
  molecules: number;
  itemErrors: number;
  errors: number;
}

/** `concurrency` clients, each sending the next batch of molecules as soon as its last answer is in. */
async function load(
  base: string,
  key: string,
  urlPath: string,
  body: (b: string[]) => unknown,
  smiles: string[],
  batch: number,
  concurrency: number,
  durationMs: number,
): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  let molecules = 0;
  let itemErrors = 0;
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + durationMs;
  const client = async () => {
    while (performance.now() < end) {
      const start = (next++ * batch) % smiles.length;
      const b = smiles.slice(start, start + batch);
      if (b.length < batch) b.push(...smiles.slice(0, batch - b.length));
      const t = performance.now();
      const r = await fetch(base + urlPath, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body(b)) });
      const json = (await r.json()) as { items?: { error: string | null }[] };
      latencies.push(performance.now() - t);
      if (r.status !== 200 || !json.items || json.items.length !== b.length) {
        errors++;
        continue;
      }
      molecules += b.length;
      for (const it of json.items) if (it.error && it.error.endsWith('_failed')) itemErrors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { wallMs: performance.now() - t0, latencies, molecules, itemErrors, errors };
}

interface RoundResult {
  requests: number;
  moleculesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  errors: number;
  failedItems: number;
  /** Worker time on items per molecule (RDKit and sanitizing, no queueing), ms. */
  workerMsPerMolecule: number;
  /** Share of the worker threads' time spent on items. */
  workerUtilisation: number;
  /** Share of the server's main thread busy (HTTP, auth, validation, JSON, dispatch). */
  mainThreadUtilisation: number;
  /** Server process CPU (all threads) per molecule, ms. */
  serverCpuMsPerMolecule: number;
}

function summarise(r: LoadResult, s0: ChildStats, s1: ChildStats, threads: number): RoundResult {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const pct = (p: number) => round1(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
  const busy = s1.workerBusyMs - s0.workerBusyMs;
  const active = s1.eluActiveMs - s0.eluActiveMs;
  const idle = s1.eluIdleMs - s0.eluIdleMs;
  return {
    requests: r.latencies.length,
    moleculesPerSec: round1((r.molecules / r.wallMs) * 1000),
    p50Ms: pct(50),
    p99Ms: pct(99),
    meanMs: round1(r.latencies.reduce((a, b) => a + b, 0) / Math.max(1, r.latencies.length)),
    errors: r.errors,
    failedItems: r.itemErrors,
    workerMsPerMolecule: round2(busy / Math.max(1, r.molecules)),
    workerUtilisation: round2(busy / (r.wallMs * threads)),
    mainThreadUtilisation: round2(active / Math.max(1, active + idle)),
    serverCpuMsPerMolecule: round2((s1.cpuUs - s0.cpuUs) / 1000 / Math.max(1, r.molecules)),
  };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
