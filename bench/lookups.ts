// `npm run bench:lookups`: latency of POST /api/v1/lookup/compounds with 20 names, cold (every
// name goes to the source) and warm (every name answered from the database cache), p50 and
// p99 over many sequential requests, against the local stand-in of the sources. Target: warm
// p99 under 20 ms. docs/performance.md ("Science lookups") records the figures and the method.
//
//   npm run bench:lookups -- [--warm 1000] [--cold 200] [--cold-limited 8] [--json out.json]
//   DATABASE_URL=postgres://user@host/db npm run bench:lookups   # PGlite, then PostgreSQL too
//
// Processes: the Crucible server runs in a child process (this file with --child: the
// services and app of `crucible serve`, API only); the stand-in sources and the client run
// in this process, so neither shares an event loop with the server it measures. With
// DATABASE_URL the child uses a scratch database created on that server (and dropped at the
// end), because a cold run empties the cache table before each request.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freshPgDatabase } from './lib/pg.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');

/** 20 names: three the stand-in knows (one with a slash, sent as a POST form), 17 it answers 404 for. */
const NAMES = [
  'aspirin',
  'glucose',
  'D/L-glucose',
  'ibuprofen',
  'caffeine',
  'paracetamol',
  'naproxen',
  'diclofenac',
  'morphine',
  'codeine',
  'nicotine',
  'quinine',
  'atropine',
  'warfarin',
  'metformin',
  'penicillin G',
  'cholesterol',
  'dopamine',
  'serotonin',
  'adrenaline',
];

type ToChild = { type: 'purge' } | { type: 'stop' };
type FromChild = { type: 'ready'; url: string; email: string; password: string; db: string } | { type: 'purged'; rows: number };

// ---------------------------------------------------------------------------------------------
// Child: one Crucible instance.

async function child(): Promise<void> {
  const { loadConfig } = await import('../src/config.js');
  const { createServices, closeServices } = await import('../src/instance.js');
  const { buildApp } = await import('../src/http/app.js');
  const { LookupService, RateLimiterRegistry } = await import('../src/lookups/index.js');
  const { DbLookupCache } = await import('../src/modules/lookups/cache.js');
  const config = loadConfig();
  const services = await createServices(config, undefined, { queue: false });
  if (process.env.BENCH_LOOKUPS_RATE === 'lifted') {
    // The per-source politeness limits (PubChem 5/s) are for the public services; lifting them
    // here measures what the service itself costs on a cold request.
    services.lookups = new LookupService({
      urls: config.lookups.urls,
      disabled: config.lookups.disabled,
      cache: new DbLookupCache(services.db),
      rateLimiters: new RateLimiterRegistry(),
      rateLimits: { pubchem: 1e6, chembl: 1e6, opentargets: 1e6, uniprot: 1e6, rcsb: 1e6 },
    });
  }
  const app = await buildApp(services, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const email = `bench-lookups-${process.pid}@crucible.local`;
  const password = 'bench password, not a secret';
  await services.users.create(email, password, 'enterprise');
  const port = (app.server.address() as { port: number }).port;
  process.send!({ type: 'ready', url: `http://127.0.0.1:${port}`, email, password, db: services.db.kind } satisfies FromChild);
  process.on('message', async (m: ToChild) => {
    if (m.type === 'purge') {
      const r = await services.db.query('DELETE FROM lookup_cache');
      process.send!({ type: 'purged', rows: r.rowCount } satisfies FromChild);
    } else if (m.type === 'stop') {
      await app.close();
      await closeServices(services);
      process.exit(0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Parent: stand-in, client, figures.

interface Stats {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** The `p`th percentile of an ascending array (NaN when empty). */
const pctile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const r2 = (x: number) => Math.round(x * 100) / 100;

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: r2(pctile(s, 50)), p99: r2(pctile(s, 99)), mean: r2(s.reduce((a, b) => a + b, 0) / s.length), min: r2(s[0] ?? NaN), max: r2(s[s.length - 1] ?? NaN) };
}

const log = (s: string) => process.stderr.write(s + '\n');

class ServerChild {
  private waiters: ((m: FromChild) => void)[] = [];
  private constructor(
    readonly proc: ChildProcess,
    readonly ready: Extract<FromChild, { type: 'ready' }>,
  ) {
    proc.on('message', (m: FromChild) => this.waiters.shift()?.(m));
  }

  static async start(env: Record<string, string | undefined>): Promise<ServerChild> {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
    const proc = fork(SELF, ['--child'], { cwd: ROOT, env: childEnv, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const ready = await new Promise<Extract<FromChild, { type: 'ready' }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`server child exited (${code}) before it was ready`));
      proc.once('exit', onExit);
      proc.once('message', (m: FromChild) => {
        proc.off('exit', onExit);
        if (m.type === 'ready') resolve(m);
        else reject(new Error(`unexpected ${m.type}`));
      });
    });
    return new ServerChild(proc, ready);
  }

  purge(): Promise<FromChild> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.proc.send({ type: 'purge' } satisfies ToChild);
    });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.send({ type: 'stop' } satisfies ToChild);
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  }
}

async function apiKey(base: string, email: string, password: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/auth/login-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  const tokens = (await login.json()) as { access_token: string };
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const r = await fetch(`${base}/api/v1/auth/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-lookups', scopes: ['read'] }),
  });
  const key = (await r.json()) as { api_key: string };
  if (r.status !== 200) throw new Error(`key creation failed: ${r.status}`);
  return key.api_key;
}

interface Phase {
  stats: Stats;
  upstreamCallsPerRequest: number;
  statuses: Record<string, number>;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      warm: { type: 'string', default: '1000' },
      cold: { type: 'string', default: '200' },
      'cold-limited': { type: 'string', default: '8' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const WARM = Number(args.warm);
  const COLD = Number(args.cold);
  const COLD_LIMITED = Number(args['cold-limited']);
  const { StandIn } = await import('../test/lookups/stand-in.js');
  const standIn = await new StandIn().start();

  async function run(database: 'pglite' | 'postgres', rate: 'production' | 'lifted'): Promise<{ cold: Phase; warm: Phase | null }> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-lookups-'));
    let scratchDb: { url: string; drop: () => Promise<void> } | null = null;
    if (database === 'postgres') scratchDb = await freshPgDatabase(process.env.DATABASE_URL!);
    const env: Record<string, string | undefined> = {
      CRUCIBLE_DATA_DIR: dataDir,
      DATABASE_URL: scratchDb?.url,
      LOG_LEVEL: 'warn',
      CRUCIBLE_WORKERS: '0',
      CRUCIBLE_ADMIN_PASSWORD: crypto.randomBytes(18).toString('base64url'),
      CRUCIBLE_TIER_ENTERPRISE_REQUESTS_PER_MINUTE: '1000000000',
      BENCH_LOOKUPS_RATE: rate,
      CRUCIBLE_PUBCHEM_URL: standIn.base,
      CRUCIBLE_CHEMBL_URL: standIn.base,
      CRUCIBLE_OPENTARGETS_URL: standIn.base,
      CRUCIBLE_UNIPROT_URL: standIn.base,
      CRUCIBLE_RCSB_SEARCH_URL: standIn.base,
      CRUCIBLE_RCSB_DATA_URL: standIn.base,
    };
    const server = await ServerChild.start(env);
    try {
      const base = server.ready.url;
      const key = await apiKey(base, server.ready.email, server.ready.password);
      const once = async (): Promise<{ ms: number; statuses: string[] }> => {
        const t = performance.now();
        const r = await fetch(`${base}/api/v1/lookup/compounds`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ names: NAMES }),
        });
        const body = (await r.json()) as { compounds: { status: string }[] };
        const ms = performance.now() - t;
        if (r.status !== 200) throw new Error(`lookup answered ${r.status}: ${JSON.stringify(body)}`);
        return { ms, statuses: body.compounds.map((c) => c.status) };
      };
      const tally = (all: string[][]) => {
        const out: Record<string, number> = {};
        for (const s of all.flat()) out[s] = (out[s] ?? 0) + 1;
        for (const [k, count] of Object.entries(out)) out[k] = r2(count / all.length);
        return out;
      };

      // Warm-up of the HTTP connections, JIT and the database (not measured).
      for (let i = 0; i < 3; i++) await once();

      // Cold: the cache table emptied before every request, so all 20 names go to the source.
      const nCold = rate === 'production' ? COLD_LIMITED : COLD;
      log(`[${database}, rate limits ${rate}] cold: ${nCold} requests`);
      const coldMs: number[] = [];
      const coldStatuses: string[][] = [];
      standIn.reset();
      for (let i = 0; i < nCold; i++) {
        await server.purge();
        const o = await once();
        coldMs.push(o.ms);
        coldStatuses.push(o.statuses);
      }
      const cold: Phase = { stats: stats(coldMs), upstreamCallsPerRequest: r2(standIn.requests.length / nCold), statuses: tally(coldStatuses) };
      if (cold.upstreamCallsPerRequest < NAMES.length) throw new Error(`a cold request made only ${cold.upstreamCallsPerRequest} upstream calls`);
      if (rate === 'production') return { cold, warm: null };

      // Warm: the last cold request filled the cache; every request is answered from the table.
      log(`[${database}] warm: ${WARM} requests`);
      standIn.reset();
      const warmMs: number[] = [];
      const warmStatuses: string[][] = [];
      for (let i = 0; i < WARM; i++) {
        const o = await once();
        warmMs.push(o.ms);
        if (i % 100 === 0) warmStatuses.push(o.statuses);
      }
      const warm: Phase = { stats: stats(warmMs), upstreamCallsPerRequest: r2(standIn.requests.length / WARM), statuses: tally(warmStatuses) };
      if (standIn.requests.length !== 0) throw new Error(`warm requests made ${standIn.requests.length} upstream calls`);
      return { cold, warm };
    } finally {
      await server.stop();
      await scratchDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const databases: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const report: Record<string, unknown> = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg().map(r2) },
    names: NAMES.length,
    results: {},
  };
  const header = ['database', 'case', 'n', 'p50 ms', 'p99 ms', 'mean ms', 'min ms', 'max ms', 'upstream calls/req'];
  const rows: string[][] = [header];
  let warmOk = true;
  try {
    for (const db of databases) {
      const lifted = await run(db, 'lifted');
      const limited = await run(db, 'production');
      (report.results as Record<string, unknown>)[db] = { coldLimitsLifted: lifted.cold, warm: lifted.warm, coldProductionLimits: limited.cold };
      const line = (name: string, p: Phase) =>
        rows.push([
          db,
          name,
          String(p.stats.n),
          String(p.stats.p50),
          String(p.stats.p99),
          String(p.stats.mean),
          String(p.stats.min),
          String(p.stats.max),
          String(p.upstreamCallsPerRequest),
        ]);
      line('cold (PubChem limit 5/s)', limited.cold);
      line('cold (limits lifted)', lifted.cold);
      line('warm (database cache)', lifted.warm!);
      if (lifted.warm!.stats.p99 >= 20) warmOk = false;
    }
  } finally {
    await standIn.stop();
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows) console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '));
  console.log(`\nwarm target p99 < 20 ms: ${warmOk ? 'met' : 'NOT met'}`);
  report.warmTargetMet = warmOk;
  console.log(JSON.stringify(report, null, 2));
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(report, null, 2));
}

if (process.argv.includes('--child')) await child();
else await main();
