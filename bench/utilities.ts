// `npm run bench:utilities`: the utilities end to end over HTTP (docs/performance.md), against
// native RDKit (Debian python3-rdkit, scripts/rdkit/utilities_baseline.py) doing the same per
// molecule in one process on one thread, in the same run.
//
//   npm run bench:utilities -- [--duration 20] [--warmup 10] [--concurrency 4] [--latency-requests 200]
//
// Method: Crucible runs in a child process (the code path of `crucible serve`, PGlite, the
// chemistry cache off) as an enterprise account (no allowance limit); this process sends
// 100-molecule requests of the NCI set (RDKit's first_5K.smi, in order, cycling):
// 1. throughput: `convert` (canonical SMILES + InChI + InChIKey) and `fingerprints` (Morgan
//    radius 2, 2048 bits) at `concurrency` requests in flight, molecules per second;
// 2. latency: the same `convert` requests one at a time (p50, p99), and `similarity` of 20
//    queries against a 1,000-molecule library one at a time (p50, p99).
// Target (issue): throughput >= 1.5x native single-thread; convert p99 < 250 ms; similarity p99 < 300 ms.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ROOT, startChild } from './lib/children.js';

const NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi';
const log = (s: string) => process.stderr.write(s + '\n');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    'latency-requests': { type: 'string', default: '200' },
  },
});
const DURATION = Number(args.duration) * 1000;
const WARMUP = Number(args.warmup) * 1000;
const CONCURRENCY = Number(args.concurrency);
const LATENCY_N = Number(args['latency-requests']);

if (!fs.existsSync(NCI)) throw new Error(`${NCI} is missing: apt-get install rdkit-data python3-rdkit`);
const smiles = fs
  .readFileSync(NCI, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => l.split(/\s+/)[0]!);

function native(): Promise<{ rdkit_version: string; inchi: boolean; convert_per_sec: number; fingerprints_per_sec: number }> {
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/python3', [path.join(ROOT, 'scripts/rdkit/utilities_baseline.py'), '--smiles', NCI, '--passes', '3'], { maxBuffer: 1 << 20 }, (err, out) =>
      err ? reject(new Error(`native baseline failed: ${err.message}`)) : resolve(JSON.parse(out) as never),
    ),
  );
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

log('native baseline: /usr/bin/python3 scripts/rdkit/utilities_baseline.py (one thread, best of 3 passes)');
const base = await native();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-utilities-'));
const server = await startChild('crucible-server.ts', { CRUCIBLE_DATA_DIR: dataDir, DATABASE_URL: undefined, CRUCIBLE_CHEM_CACHE: '0', PORT: '0', LOG_LEVEL: 'warn' });
try {
  const api = `${server.ready.url}/api/v1`;
  const login = await fetch(`${api}/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: server.ready.email!, password: server.ready.password! }) });
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' };
  let cursor = 0;
  const batch = (n: number) => Array.from({ length: n }, () => smiles[cursor++ % smiles.length]!);
  async function call(tool: string, input: unknown): Promise<number> {
    const t0 = performance.now();
    const r = await fetch(`${api}/utilities/run`, { method: 'POST', headers, body: JSON.stringify({ tool, input }) });
    const body = await r.text();
    if (r.status !== 200) throw new Error(`${tool}: ${r.status} ${body.slice(0, 300)}`);
    return performance.now() - t0;
  }
  const convertInput = () => ({ molecules: batch(100), outputs: ['smiles', 'inchi', 'inchikey'] });
  const fpInput = () => ({ molecules: batch(100), type: 'morgan', radius: 2, n_bits: 2048 });

  async function throughput(tool: string, input: () => unknown): Promise<number> {
    const runFor = async (ms: number) => {
      const until = performance.now() + ms;
      let molecules = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            await call(tool, input());
            molecules += 100;
          }
        }),
      );
      return molecules;
    };
    await runFor(WARMUP);
    const t0 = performance.now();
    const n = await runFor(DURATION);
    return n / ((performance.now() - t0) / 1000);
  }
  async function latency(tool: string, input: () => unknown): Promise<{ p50: number; p99: number }> {
    for (let i = 0; i < 20; i++) await call(tool, input());
    const times: number[] = [];
    for (let i = 0; i < LATENCY_N; i++) times.push(await call(tool, input()));
    return { p50: pct(times, 50), p99: pct(times, 99) };
  }

  log(`throughput: 100-molecule requests, ${CONCURRENCY} in flight, ${WARMUP / 1000} s warm-up, ${DURATION / 1000} s measured`);
  const convertRate = await throughput('convert', convertInput);
  const fpRate = await throughput('fingerprints', fpInput);
  log(`latency: ${LATENCY_N} requests one at a time`);
  const convertLat = await latency('convert', convertInput);
  const library = smiles.slice(0, 1000);
  const simLat = await latency('similarity', () => ({ queries: batch(20), library, top_k: 10 }));

  const out = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg()[0]!.toFixed(1)}`,
    native: base,
    convert: {
      molecules_per_sec: Math.round(convertRate),
      ratio_to_native: +(convertRate / base.convert_per_sec).toFixed(2),
      p50_ms: +convertLat.p50.toFixed(1),
      p99_ms: +convertLat.p99.toFixed(1),
    },
    fingerprints: { molecules_per_sec: Math.round(fpRate), ratio_to_native: +(fpRate / base.fingerprints_per_sec).toFixed(2) },
    similarity_20x1000: { p50_ms: +simLat.p50.toFixed(1), p99_ms: +simLat.p99.toFixed(1) },
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
