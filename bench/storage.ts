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
// `--profile`: after the measured upload, one more upload of the same size under the V8 CPU
// profiler (the server child's own sampler, 100 µs), summarised by area and function; the
// profiled upload's figure is not the measured one.
//
// The baseline is timed twice per repetition: `cp` alone (the copy lands in the page cache)
// and `cp` then `sync <copy>` (fsync of that file) inside the same timed span, which is what
// an upload does: its figure runs from the first byte sent to the 201, after the store's fsync
// (local: of the file and its directory). Ratios are to the synced copy.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { multipartChunks, postStream, randomChunks } from '../test/artifacts/helpers.js';
import { s3Env, startS3StandInProcess } from '../test/helpers/s3-stand-in.js';
import { startChild, type ServerChild } from './lib/children.js';
import { freshPgDatabase, pgReachable } from './lib/pg.js';
import { summariseProfile } from './lib/profile.js';

const PG_ADMIN = process.env.CRUCIBLE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = Number(process.env.BENCH_STORAGE_MB ?? 200);
const SIZE = MB * 1_000_000;
const N_SMALL = Number(process.env.BENCH_SMALL_DOWNLOADS ?? 1000);
const RUNS = (process.env.BENCH_STORAGE_RUNS ?? 'local,postgres-pglite,postgres,s3').split(',');
const PROFILE = process.argv.includes('--profile');

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

/** Resident memory of a process now, in MB (VmRSS). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? round(Number(m[1]) / 1024, 0) : NaN;
}

/** Resets the process's peak RSS (VmHWM) to its current RSS, so that the next peak is of what follows; false where refused. */
function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
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

/**
 * `cp` of a SIZE-byte file within `dir`, median of 3: alone (into the page cache) and followed by
 * `sync <copy>` in the same timed span (durable, as an upload's figure is), in MB/s.
 */
function cpBaseline(dir: string): { mbps: number; ms: number; cacheMbps: number; cacheMs: number } {
  const src = path.join(dir, 'baseline.bin');
  const fd = fs.openSync(src, 'w');
  const chunk = crypto.randomBytes(1_000_000);
  for (let i = 0; i < SIZE / 1_000_000; i++) fs.writeSync(fd, chunk.subarray(0, Math.min(1_000_000, SIZE - i * 1_000_000)));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  const synced: number[] = [];
  const cached: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (const sync of [false, true]) {
      const dst = path.join(dir, `copy-${i}.bin`);
      const t0 = performance.now();
      execFileSync('cp', [src, dst]);
      if (sync) execFileSync('sync', [dst]);
      (sync ? synced : cached).push(performance.now() - t0);
      if (!sync) execFileSync('sync', [dst]); // no dirty pages of this copy left for the next timing
      fs.rmSync(dst);
    }
  }
  fs.rmSync(src);
  const ms = pct(synced, 50);
  const cacheMs = pct(cached, 50);
  return { mbps: mbps(SIZE, ms), ms: round(ms, 0), cacheMbps: mbps(SIZE, cacheMs), cacheMs: round(cacheMs, 0) };
}

interface RunResult {
  run: string;
  db: string;
  uploadMBps: number;
  downloadMBps: number;
  smallP50ms: number;
  smallP99ms: number;
  serverPeakRssMb: number;
  /** Server RSS before the upload and its peak during it (VmHWM reset just before), MB. */
  uploadRssBeforeMb: number;
  uploadRssPeakMb: number;
  /** CPU seconds (user + system, all threads) the server used for the upload: steadier than MB/s on a busy machine. */
  uploadCpuS: number;
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

    // 1. Upload (the server's peak RSS is reset first, so its peak is the upload's).
    const data = randomChunks(SIZE, `bench-${run}`);
    const mp = multipartChunks({ mode: 'file' }, { name: 'big.bin', type: 'application/octet-stream', chunks: data.stream });
    const serverPid = server.ready.pid;
    const peakBefore = peakRssMb(serverPid);
    const rssBefore = rssMb(serverPid);
    const reset = resetPeakRss(serverPid);
    const cpu0 = server.cpuSeconds();
    let t0 = performance.now();
    const up = await postStream(`${base}/artifacts`, { ...auth, 'content-type': mp.contentType }, mp.chunks);
    const uploadMs = performance.now() - t0;
    const uploadCpuS = server.cpuSeconds() - cpu0;
    const uploadPeak = reset ? peakRssMb(serverPid) : NaN;
    if (up.status !== 201) throw new Error(`${run}: upload answered ${up.status}: ${JSON.stringify(up.body)}`);
    const id = (up.body as { id: string }).id;
    if (PROFILE) await profileUpload(server, base, auth, run, dir);

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
      serverPeakRssMb: Math.max(peakBefore, peakRssMb(serverPid)),
      uploadRssBeforeMb: rssBefore,
      uploadRssPeakMb: uploadPeak,
      uploadCpuS: round(uploadCpuS, 2),
    };
    console.log(
      `${run} (${result.db}): upload ${result.uploadMBps} MB/s, download ${result.downloadMBps} MB/s, ${N_SMALL} result downloads (${smallBytes} bytes) p50 ${result.smallP50ms} ms p99 ${result.smallP99ms} ms, server peak RSS ${result.serverPeakRssMb} MB; the upload took ${round(uploadMs / 1000, 2)} s and ${result.uploadCpuS} s of server CPU; during it RSS ${rssBefore} -> peak ${uploadPeak} MB (+${round(uploadPeak - rssBefore, 0)})`,
    );
    return result;
  } finally {
    await server?.stop();
    await s3?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One more upload under the server's CPU profiler: where its time goes, by area and function. */
async function profileUpload(server: ServerChild, base: string, auth: Record<string, string>, run: string, dir: string): Promise<void> {
  const data = randomChunks(SIZE, `bench-${run}-profiled`);
  const mp = multipartChunks({ mode: 'file' }, { name: 'profiled.bin', type: 'application/octet-stream', chunks: data.stream });
  const file = path.join(dir, `${run}.cpuprofile`);
  await server.send({ type: 'profile-start' });
  const t0 = performance.now();
  const up = await postStream(`${base}/artifacts`, { ...auth, 'content-type': mp.contentType }, mp.chunks);
  const ms = performance.now() - t0;
  await server.send({ type: 'profile-stop', file });
  if (up.status !== 201) throw new Error(`${run}: profiled upload answered ${up.status}: ${JSON.stringify(up.body)}`);
  const p = summariseProfile(file, 1, 15);
  const keep = process.env.BENCH_STORAGE_PROFILE_DIR;
  if (keep) fs.copyFileSync(file, path.join(keep, `${run}.cpuprofile`));
  console.log(`${run}: profiled upload ${mbps(SIZE, ms)} MB/s (${round(ms, 0)} ms, under the profiler); server main thread busy ${p.busyMs} of ${p.totalMs} ms`);
  for (const a of p.byArea.slice(0, 12)) console.log(`  ${String(a.ms).padStart(6)} ms ${String(a.pct).padStart(5)} %  ${a.area}`);
  console.log('  top functions (self time):');
  for (const f of p.topFunctions) console.log(`  ${String(f.ms).padStart(6)} ms ${String(f.pct).padStart(5)} %  ${f.fn}`);
  // The profiled upload's artifact is not kept.
  const row = up.body as { id: string };
  await fetch(`${base}/artifacts/${row.id}`, { method: 'DELETE', headers: auth });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-storage-'));
try {
  const hasPg = await pgReachable(PG_ADMIN);
  if (!hasPg) console.log(`PostgreSQL not reachable at ${PG_ADMIN}: the postgres run is skipped, s3 runs on PGlite`);
  console.log(`${MB} MB artifact; ${os.cpus().length} cores; files under ${dir}`);
  const before = cpBaseline(dir);
  console.log(
    `baseline: cp of ${MB} MB on the same disk, then sync of the copy: ${before.mbps} MB/s (${before.ms} ms, median of 3); cp alone (page cache): ${before.cacheMbps} MB/s (${before.cacheMs} ms)`,
  );
  const results: RunResult[] = [];
  for (const run of RUNS) {
    const r = await benchRun(run, dir, hasPg);
    if (r) results.push(r);
  }
  const after = cpBaseline(dir);
  const cp = round((before.mbps + after.mbps) / 2);
  const cpCache = round((before.cacheMbps + after.cacheMbps) / 2);
  console.log(`baseline again: cp + sync ${after.mbps} MB/s, cp alone ${after.cacheMbps} MB/s; means ${cp} and ${cpCache} MB/s`);
  console.log(
    '\n| backend | database | upload MB/s (x cp+sync) | download MB/s (x cp+sync) | small result p50 / p99 ms | server RSS before upload -> peak during it, MB | server peak RSS MB | server CPU s per upload |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| cp + sync (baseline) | | ${cp} | ${cp} | | | | |`);
  console.log(`| cp alone (page cache) | | ${cpCache} | ${cpCache} | | | | |`);
  for (const r of results)
    console.log(
      `| ${r.run} | ${r.db} | ${r.uploadMBps} (${round(r.uploadMBps / cp, 2)}) | ${r.downloadMBps} (${round(r.downloadMBps / cp, 2)}) | ${r.smallP50ms} / ${r.smallP99ms} | ${r.uploadRssBeforeMb} -> ${r.uploadRssPeakMb} | ${r.serverPeakRssMb} | ${r.uploadCpuS} |`,
    );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
