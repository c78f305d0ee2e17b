// npm run bench:storage — artifact storage figures for docs/performance.md, per backend:
//   1. upload of a 200 MB file through POST /artifacts (multipart, streamed), in MB/s;
//   2. download of it through GET /artifacts/{id}/download?record=..., in MB/s (bytes checked);
//   3. p50/p99 of 1,000 downloads of a small job result (a `properties` job's zip), one at a time;
// beside the baseline, `cp` of a 200 MB file on the same disk in the same run. The server runs in
// a child process (`startServer`, the path of `crucible serve`); its peak RSS is reported to show
// that no backend holds the file in memory.
//
// Backends: local files, the database store on embedded PGlite and on PostgreSQL, and S3 (the
// tests' s3rver stand-in, in a child process of its own; a stand-in, not AWS: its figures are
// those of s3rver writing files on this disk). PostgreSQL runs are skipped when no server answers
// at CRUCIBLE_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres).
//
// Options (env): BENCH_STORAGE_MB (200), BENCH_SMALL_DOWNLOADS (1000),
// BENCH_STORAGE_RUNS=local,postgres-pglite,postgres,s3 (a subset, in that order).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { multipartChunks, postStream, randomChunks } from '../test/artifacts/helpers.js';
import { s3Env, startS3StandInProcess } from '../test/helpers/s3-stand-in.js';
import { startChild, type ServerChild } from './lib/children.js';
import { freshPgDatabase, pgReachable } from './lib/pg.js';

const PG_ADMIN = process.env.CRUCIBLE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = Number(process.env.BENCH_STORAGE_MB ?? 200);
const SIZE = MB * 1_000_000;
const N_SMALL = Number(process.env.BENCH_SMALL_DOWNLOADS ?? 1000);
const RUNS = (process.env.BENCH_STORAGE_RUNS ?? 'local,postgres-pglite,postgres,s3').split(',');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const mbps = (bytes: number, ms: number) => round(bytes / 1e6 / (ms / 1000));

/** Peak resident memory of a process so far, in MB (VmHWM). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? round(Number(m[1]) / 1024, 0) : NaN;
}

interface S3Child {
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function startS3(): Promise<S3Child> {
  const s3 = await startS3StandInProcess();
  return {
    env: s3Env(s3),
    stop: () => s3.close(),
  };
}

/** `cp` of a SIZE-byte file within `dir`, in MB/s (the page cache is dropped first where allowed). */
function cpBaseline(dir: string): { mbps: number; ms: number } {
  const src = path.join(dir, 'baseline.bin');
  const fd = fs.openSync(src, 'w');
  const chunk = crypto.randomBytes(1_000_000);
  for (let i = 0; i < SIZE / 1_000_000; i++) fs.writeSync(fd, chunk.subarray(0, Math.min(1_000_000, SIZE - i * 1_000_000)));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dst = path.join(dir, `copy-${i}.bin`);
    const t0 = performance.now();
    execFileSync('cp', [src, dst]);
    execFileSync('sync', [dst]);
    times.push(performance.now() - t0);
    fs.rmSync(dst);
  }
  fs.rmSync(src);
  const ms = pct(times, 50);
  return { mbps: mbps(SIZE, ms), ms: round(ms, 0) };
}

interface RunResult {
  run: string;
  db: string;
  uploadMBps: number;
  downloadMBps: number;
  smallP50ms: number;
  smallP99ms: number;
  serverPeakRssMb: number;
}

async function benchRun(run: string, dir: string, hasPg: boolean): Promise<RunResult | null> {
  const needsPg = run === 'postgres' || run === 's3';
  if (needsPg && !hasPg && run === 'postgres') return null;
  const database = needsPg && hasPg ? await freshPgDatabase(PG_ADMIN) : null;
  const s3 = run === 's3' ? await startS3() : null;
  const dataDir = fs.mkdtempSync(path.join(dir, `${run}-`));
  let server: ServerChild | null = null;
  try {
    server = await startChild('crucible-server.ts', {
      CRUCIBLE_DATA_DIR: dataDir,
      DATABASE_URL: database?.url,
      CRUCIBLE_STORAGE: run === 'local' ? 'local' : run === 's3' ? 's3' : 'postgres',
      ...(s3?.env ?? {}),
      PORT: '0',
      LOG_LEVEL: 'warn',
      BENCH_CREDIT_USD: '10',
    });
    const base = `${server.ready.url}/api/v1`;
    const login = await fetch(`${base}/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: server.ready.email!, password: server.ready.password! }) });
    const auth = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };

    // 1. Upload.
    const data = randomChunks(SIZE, `bench-${run}`);
    const mp = multipartChunks({ mode: 'file' }, { name: 'big.bin', type: 'application/octet-stream', chunks: data.stream });
    let t0 = performance.now();
    const up = await postStream(`${base}/artifacts`, { ...auth, 'content-type': mp.contentType }, mp.chunks);
    const uploadMs = performance.now() - t0;
    if (up.status !== 201) throw new Error(`${run}: upload answered ${up.status}: ${JSON.stringify(up.body)}`);
    const id = (up.body as { id: string }).id;

    // 2. Download, checked.
    t0 = performance.now();
    const dl = await fetch(`${base}/artifacts/${id}/download?record=big.bin`, { headers: auth });
    const hash = crypto.createHash('sha256');
    let n = 0;
    for await (const c of dl.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(c);
      n += c.length;
    }
    const downloadMs = performance.now() - t0;
    if (dl.status !== 200 || n !== SIZE || hash.digest('hex') !== data.sha256()) throw new Error(`${run}: the download is not the upload (${dl.status}, ${n} bytes)`);

    // 3. Small result downloads.
    const job = await fetch(`${base}/jobs/submit`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ job_name: 'bench', job_type: 'properties', payload: { smiles: ['CC(=O)Oc1ccccc1C(=O)O', 'CCO', 'c1ccccc1'] } }),
    });
    const submitted = (await job.json()) as { process_id: string };
    if (job.status !== 200) throw new Error(`${run}: job submit answered ${job.status}: ${JSON.stringify(submitted)}`);
    const pid = submitted.process_id;
    let resultId: string | null = null;
    for (let i = 0; i < 600 && !resultId; i++) {
      const s = (await (await fetch(`${base}/jobs/status?process_id=${pid}`, { headers: auth })).json()) as { status: string; result_artifact_id: string | null };
      if (s.status === 'completed') resultId = s.result_artifact_id;
      else if (s.status === 'error' || s.status === 'cancelled') throw new Error(`${run}: the job ended ${s.status}`);
      else await new Promise((r) => setTimeout(r, 100));
    }
    if (!resultId) throw new Error(`${run}: the job did not complete`);
    const small: number[] = [];
    let smallBytes = 0;
    for (let i = 0; i < N_SMALL; i++) {
      const t = performance.now();
      const r = await fetch(`${base}/artifacts/${resultId}/download`, { headers: auth });
      const b = await r.arrayBuffer();
      small.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`${run}: result download answered ${r.status}`);
      smallBytes = b.byteLength;
    }
    const result: RunResult = {
      run,
      db: server.ready.db ?? '?',
      uploadMBps: mbps(SIZE, uploadMs),
      downloadMBps: mbps(SIZE, downloadMs),
      smallP50ms: round(pct(small, 50), 2),
      smallP99ms: round(pct(small, 99), 2),
      serverPeakRssMb: peakRssMb(server.ready.pid),
    };
    console.log(
      `${run} (${result.db}): upload ${result.uploadMBps} MB/s, download ${result.downloadMBps} MB/s, ${N_SMALL} result downloads (${smallBytes} bytes) p50 ${result.smallP50ms} ms p99 ${result.smallP99ms} ms, server peak RSS ${result.serverPeakRssMb} MB`,
    );
    return result;
  } finally {
    await server?.stop();
    await s3?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-storage-'));
try {
  const hasPg = await pgReachable(PG_ADMIN);
  if (!hasPg) console.log(`PostgreSQL not reachable at ${PG_ADMIN}: the postgres run is skipped, s3 runs on PGlite`);
  console.log(`${MB} MB artifact; ${os.cpus().length} cores; files under ${dir}`);
  const before = cpBaseline(dir);
  console.log(`baseline: cp of ${MB} MB on the same disk ${before.mbps} MB/s (${before.ms} ms, median of 3, synced)`);
  const results: RunResult[] = [];
  for (const run of RUNS) {
    const r = await benchRun(run, dir, hasPg);
    if (r) results.push(r);
  }
  const after = cpBaseline(dir);
  const cp = round((before.mbps + after.mbps) / 2);
  console.log(`baseline again: cp ${after.mbps} MB/s; mean ${cp} MB/s`);
  console.log('\n| backend | database | upload MB/s (x cp) | download MB/s (x cp) | small result p50 / p99 ms | server peak RSS MB |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  console.log(`| cp (baseline) | | ${cp} | ${cp} | | |`);
  for (const r of results)
    console.log(
      `| ${r.run} | ${r.db} | ${r.uploadMBps} (${round(r.uploadMBps / cp, 2)}) | ${r.downloadMBps} (${round(r.downloadMBps / cp, 2)}) | ${r.smallP50ms} / ${r.smallP99ms} | ${r.serverPeakRssMb} |`,
    );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
