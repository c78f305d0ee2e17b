// `npm run bench:auth`: throughput and p99 latency of GET /api/v1/auth/check with an API key,
// beside a bare Fastify route measured the same way in the same run, plus milliseconds per
// login (argon2id). Results go to stdout as a table and as JSON; docs/performance.md records them.
//
//   npm run bench:auth -- [--duration 10] [--warmup 3] [--connections 50] [--rounds 3]
//                         [--logins 20] [--info-log] [--profile] [--json out.json]
//   DATABASE_URL=postgres://... npm run bench:auth   # also measures on PostgreSQL
//
// Method: each server runs in its own child process (Crucible through `startServer`, the code
// path of `crucible serve`, API only); autocannon runs in this process, so the load generator
// never shares an event loop with the server it measures. Targets are measured one after the
// other, alternating order each round; the figure per target is the median over rounds.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword, verifyPassword } from '../src/modules/auth/passwords.js';
import { startChild, type ServerChild } from './lib/children.js';
import { measure, type LoadOptions, type LoadResult } from './lib/load.js';
import { areaDelta, summariseProfile, type ProfileSummary } from './lib/profile.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    pipelining: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    logins: { type: 'string', default: '20' },
    'info-log': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
  strict: true,
});

const load: LoadOptions = {
  durationSec: Number(args.duration),
  warmupSec: Number(args.warmup),
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
};
const ROUNDS = Number(args.rounds);
const LOGINS = Number(args.logins);
for (const [name, v] of Object.entries({ ...load, rounds: ROUNDS, logins: LOGINS })) {
  if (!Number.isFinite(v) || v < (name === 'warmupSec' ? 0 : 1)) {
    process.stderr.write(`bench:auth: ${name} must be a number${name === 'warmupSec' ? ' >= 0' : ' >= 1'}, got ${v}\n`);
    process.exit(2);
  }
}
const TARGET_RATIO = 0.7;
const CHECK = '/api/v1/auth/check';

/** Median of `xs` (NaN when empty). */
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const upper = s[mid];
  if (upper === undefined) return NaN;
  return s.length % 2 ? upper : ((s[mid - 1] ?? upper) + upper) / 2;
};
/** The `p`th percentile of `xs` (NaN when empty). */
const pctile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
const round1 = (x: number) => Math.round(x * 10) / 10;
const log = (s: string) => process.stderr.write(s + '\n');

/** Environment of a Crucible child: API only, quiet, limits out of the way of the measurement. */
function crucibleEnv(databaseUrl: string | null, logLevel: string): { env: Record<string, string | undefined>; cleanup: () => void } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-'));
  return {
    env: {
      CRUCIBLE_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? undefined,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: logLevel,
      CRUCIBLE_WORKERS: '0', // API only: compute workers are not part of the auth path
      CRUCIBLE_ADMIN_PASSWORD: crypto.randomBytes(18).toString('base64url'),
      // The rate limiter still runs on every request; its ceiling is raised so that the
      // benchmark measures 200s, not 429s (enterprise is 6,000/min by default).
      CRUCIBLE_TIER_ENTERPRISE_REQUESTS_PER_MINUTE: '1000000000',
      // N sequential logins from one address would hit the 30/min per-IP login limit.
      CRUCIBLE_LOGIN_MAX_PER_IP: '1000000',
    },
    cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function startCrucible(databaseUrl: string | null, logLevel = 'warn', execArgv: string[] = []) {
  const { env, cleanup } = crucibleEnv(databaseUrl, logLevel);
  const child = await startChild('crucible-server.ts', env, execArgv);
  return {
    child,
    async stop() {
      await child.stop();
      cleanup();
    },
  };
}

async function login(base: string, email: string, password: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}/api/v1/auth/login-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  return { status: r.status, body: await r.json() };
}

/** Logs the benchmark account in and creates an API key through the public API. */
async function apiKeyFor(c: ServerChild): Promise<string> {
  const base = c.ready.url;
  const l = await login(base, c.ready.email!, c.ready.password!);
  if (l.status !== 200) throw new Error(`login failed: ${l.status} ${JSON.stringify(l.body)}`);
  const r = await fetch(`${base}/api/v1/auth/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${l.body.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
  });
  const body = (await r.json()) as { api_key: string };
  if (r.status !== 200) throw new Error(`key creation failed: ${r.status} ${JSON.stringify(body)}`);
  const check = await fetch(base + CHECK, { headers: { 'x-api-key': body.api_key } });
  if (check.status !== 200) throw new Error(`GET ${CHECK} with the new key answered ${check.status}`);
  return body.api_key;
}

interface LoginFigures {
  n: number;
  httpMsMean: number;
  httpMsP50: number;
  httpMsP95: number;
  argon2VerifyMsMean: number;
}

/** N sequential logins through HTTP (server side: limits check, argon2id verify, session + refresh token rows, JWT). */
async function measureLogins(c: ServerChild, n: number): Promise<LoginFigures> {
  await login(c.ready.url, c.ready.email!, c.ready.password!); // warm
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await login(c.ready.url, c.ready.email!, c.ready.password!);
    ms.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`login ${i} answered ${r.status}`);
  }
  // The argon2id verify alone (same parameters as the server), in this process.
  const hash = await hashPassword('a password for timing only');
  await verifyPassword(hash, 'a password for timing only');
  const v: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await verifyPassword(hash, 'a password for timing only');
    v.push(performance.now() - t);
  }
  return {
    n,
    httpMsMean: round1(ms.reduce((a, b) => a + b, 0) / n),
    httpMsP50: round1(median(ms)),
    httpMsP95: round1(pctile(ms, 95)),
    argon2VerifyMsMean: round1(v.reduce((a, b) => a + b, 0) / n),
  };
}

interface Row {
  target: string;
  rounds: LoadResult[];
  requestsPerSec: number;
  latencyP99Ms: number;
  latencyP50Ms: number;
  serverCpuCores: number;
  loadgenCpuCores: number;
  serverCpuUsPerRequest: number;
  non2xx: number;
  errors: number;
}

function row(target: string, rounds: LoadResult[]): Row {
  return {
    target,
    rounds,
    requestsPerSec: Math.round(median(rounds.map((r) => r.requestsPerSec))),
    latencyP99Ms: median(rounds.map((r) => r.latencyP99Ms)),
    latencyP50Ms: median(rounds.map((r) => r.latencyP50Ms)),
    serverCpuCores: Math.round(median(rounds.map((r) => r.serverCpuCores)) * 100) / 100,
    loadgenCpuCores: Math.round(median(rounds.map((r) => r.loadgenCpuCores)) * 100) / 100,
    serverCpuUsPerRequest: round1(median(rounds.map((r) => r.serverCpuUsPerRequest))),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
  };
}

interface BackendReport {
  database: 'pglite' | 'postgres';
  bare: Row;
  check: Row;
  checkInfoLog: Row | null;
  /** Throughput ratio: check req/s / bare req/s (the target figure). */
  ratio: number;
  targetMet: boolean;
  /** Cost ratio: bare server CPU per request / check server CPU per request (what the ratio would be with the server CPU-bound). */
  cpuCostRatio: number;
  /** Median over rounds of the ratio within each round (the two runs of a round are adjacent in time: robust on a busy machine). */
  pairedRatio: number;
  pairedCpuCostRatio: number;
  logins: LoginFigures;
  profile: { bare: ProfileSummary; check: ProfileSummary; extraByArea: ReturnType<typeof areaDelta> } | null;
}

async function benchBackend(bare: ServerChild, databaseUrl: string | null): Promise<BackendReport> {
  const name = databaseUrl ? 'postgres' : 'pglite';
  log(`[${name}] starting Crucible (LOG_LEVEL=warn)`);
  const crucible = await startCrucible(databaseUrl);
  let info: Awaited<ReturnType<typeof startCrucible>> | null = null;
  try {
    const key = await apiKeyFor(crucible.child);
    let infoKey = '';
    if (args['info-log']) {
      info = await startCrucible(databaseUrl, 'info');
      infoKey = await apiKeyFor(info.child);
    }
    const bareRuns: LoadResult[] = [];
    const checkRuns: LoadResult[] = [];
    const infoRuns: LoadResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const steps: [string, () => Promise<void>][] = [
        ['bare Fastify GET /', async () => void bareRuns.push(await measure(bare, '/', {}, load))],
        [`Crucible GET ${CHECK}`, async () => void checkRuns.push(await measure(crucible.child, CHECK, { 'x-api-key': key }, load))],
      ];
      if (info) steps.push([`Crucible GET ${CHECK} (LOG_LEVEL=info)`, async () => void infoRuns.push(await measure(info!.child, CHECK, { 'x-api-key': infoKey }, load))]);
      if (r % 2) steps.reverse();
      for (const [label, step] of steps) {
        log(`[${name}] round ${r + 1}/${ROUNDS}: ${label}`);
        await step();
      }
    }
    log(`[${name}] ${LOGINS} sequential logins`);
    const logins = await measureLogins(crucible.child, LOGINS);

    let profile: BackendReport['profile'] = null;
    if (args.profile) {
      // The V8 sampling profiler (as `node --cpu-prof`), on in each server for one more run only.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-prof-'));
      const profiled = async (label: string, c: ServerChild, p: string, headers: Record<string, string>) => {
        log(`[${name}] profiling ${label} during one more run`);
        const file = path.join(dir, `${label}-${name}.cpuprofile`);
        await c.send({ type: 'profile-start' });
        const r = await measure(c, p, headers, { ...load, warmupSec: 0 });
        await c.send({ type: 'profile-stop', file });
        log(`[${name}] profile: ${file}`);
        return summariseProfile(file, r.requests);
      };
      const bareProfile = await profiled('bare', bare, '/', {});
      const checkProfile = await profiled('check', crucible.child, CHECK, { 'x-api-key': key });
      profile = { bare: bareProfile, check: checkProfile, extraByArea: areaDelta(checkProfile, bareProfile) };
    }

    const bareRow = row('bare Fastify GET / (no logger)', bareRuns);
    const checkRow = row(`Crucible GET ${CHECK}, X-Api-Key (LOG_LEVEL=warn)`, checkRuns);
    const ratio = Math.round((checkRow.requestsPerSec / bareRow.requestsPerSec) * 1000) / 1000;
    // The check run and the bare run of each round, side by side.
    const pairs = checkRuns.map((c, i): [LoadResult, LoadResult] => {
      const b = bareRuns[i];
      if (!b) throw new Error(`bench:auth: round ${i + 1} has no bare run`);
      return [c, b];
    });
    return {
      database: name,
      bare: bareRow,
      check: checkRow,
      checkInfoLog: info ? row(`Crucible GET ${CHECK}, X-Api-Key (LOG_LEVEL=info to /dev/null)`, infoRuns) : null,
      ratio,
      targetMet: ratio >= TARGET_RATIO,
      cpuCostRatio: Math.round((bareRow.serverCpuUsPerRequest / checkRow.serverCpuUsPerRequest) * 1000) / 1000,
      pairedRatio: Math.round(median(pairs.map(([c, b]) => c.requestsPerSec / b.requestsPerSec)) * 1000) / 1000,
      pairedCpuCostRatio: Math.round(median(pairs.map(([c, b]) => b.serverCpuUsPerRequest / c.serverCpuUsPerRequest)) * 1000) / 1000,
      logins,
      profile,
    };
  } finally {
    await info?.stop();
    await crucible.stop();
  }
}

function table(headers: string[], rows: (string | number)[][]): string {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[i] ?? 0) : String(c).padStart(w[i] ?? 0))).join('  ');
  return [line(headers), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

function human(machine: { cpus: number; cpuModel: string; node: string; loadAvgStart: string }, reports: BackendReport[]): string {
  const out: string[] = [];
  out.push(`machine: ${machine.cpus} cores (${machine.cpuModel}), Node ${machine.node}, load average at start ${machine.loadAvgStart}`);
  out.push(
    `load: autocannon in the parent process, ${load.connections} connections, pipelining ${load.pipelining}, ${load.warmupSec} s warm-up + ${load.durationSec} s per run, ${ROUNDS} rounds (median)`,
  );
  for (const r of reports) {
    out.push('');
    out.push(`== database: ${r.database}`);
    const rows = [r.bare, r.check, ...(r.checkInfoLog ? [r.checkInfoLog] : [])];
    out.push(
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'server cores', 'loadgen cores', 'non-2xx', 'req/s per round'],
        rows.map((x) => [
          x.target,
          x.requestsPerSec,
          x.latencyP50Ms,
          x.latencyP99Ms,
          x.serverCpuUsPerRequest,
          x.serverCpuCores,
          x.loadgenCpuCores,
          x.non2xx + x.errors,
          x.rounds.map((y) => y.requestsPerSec).join(' / '),
        ]),
      ),
    );
    out.push(`throughput ratio check / bare: ${(r.ratio * 100).toFixed(1)}% (target >= ${TARGET_RATIO * 100}%: ${r.targetMet ? 'met' : 'MISSED'})`);
    out.push(`CPU cost ratio bare µs/req / check µs/req: ${(r.cpuCostRatio * 100).toFixed(1)}%`);
    out.push(`paired per round (median of the round ratios): throughput ${(r.pairedRatio * 100).toFixed(1)}%, CPU cost ${(r.pairedCpuCostRatio * 100).toFixed(1)}%`);
    out.push(
      `login (argon2id m=19 MiB, t=2, p=1): ${r.logins.httpMsMean} ms mean over ${r.logins.n} sequential HTTP logins (p50 ${r.logins.httpMsP50}, p95 ${r.logins.httpMsP95}); argon2id verify alone ${r.logins.argon2VerifyMsMean} ms`,
    );
    if (r.profile) {
      const { bare: bp, check: cp } = r.profile;
      out.push(`profiles (busy CPU per request): bare ${bp.busyUsPerRequest} µs, check ${cp.busyUsPerRequest} µs; extra cost of the check by area:`);
      out.push(
        table(
          ['area', 'check µs/req', 'bare µs/req', 'extra µs/req'],
          r.profile.extraByArea
            .filter((x) => Math.abs(x.extraUs) >= 0.3)
            .slice(0, 20)
            .map((x) => [x.area, x.usPerRequest, x.baseUsPerRequest, x.extraUs]),
        ),
      );
      out.push('check: top functions by self time:');
      out.push(
        table(
          ['function', 'area', 'µs/req', '%'],
          cp.topFunctions.map((f) => [f.fn.slice(0, 80), f.area, f.usPerRequest, f.pct]),
        ),
      );
    }
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const machine = {
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAvgStart: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
  const bare = await startChild('bare-server.ts', {});
  const reports: BackendReport[] = [];
  try {
    reports.push(await benchBackend(bare, null));
    if (process.env.DATABASE_URL) reports.push(await benchBackend(bare, process.env.DATABASE_URL));
  } finally {
    await bare.stop();
  }
  const summary = {
    benchmark: 'auth',
    date: new Date().toISOString(),
    machine: {
      ...machine,
      loadAvgEnd: os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' '),
    },
    method: {
      loadGenerator: 'autocannon (in the parent process; each server in its own child process)',
      ...load,
      rounds: ROUNDS,
      statistic: 'median over rounds; req/s = requests / duration',
      targetRatio: TARGET_RATIO,
    },
    results: reports,
  };
  process.stdout.write(human(machine, reports) + '\n\n');
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(summary, null, 2) + '\n');
}

main().catch((err) => {
  process.stderr.write(`bench:auth failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
