// The measured window of bench/jobs.ts's throughput runs: a load-generator child
// (bench/lib/jobs-load.ts), the CPU each party used (this process: server and workers, or the
// raw pg-boss workers; the load generator; the rest of the machine: PostgreSQL, the kernel and
// anything else running) and, with --profile, a V8 CPU profile of this process's main thread.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './children.js';
import type { LoadCommand, LoadReply } from './jobs-load.js';
import { summariseProfile, type ProfileSummary } from './profile.js';

const CLK_TCK = 100; // Linux USER_HZ

/** Busy and total CPU seconds of the whole machine so far (/proc/stat). */
function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  return { busy: (total - idle) / CLK_TCK, total: total / CLK_TCK };
}

function pidCpu(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0; // exited
  }
}

/** CPU seconds so far of the PostgreSQL backends connected to the database of `url` (same machine). */
async function databaseCpu(url: string): Promise<{ pids: number[]; seconds: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const pids = rows.map((r) => r.pid);
    return { pids, seconds: pids.reduce((a, p) => a + pidCpu(p), 0) };
  } finally {
    await c.end();
  }
}

export interface LoadChild {
  proc: ChildProcess;
  /** Resolves with the next reply of this type (rejects on 'failed' or exit). */
  next(type: LoadReply['type']): Promise<LoadReply>;
  send(cmd: LoadCommand): void;
  stop(): Promise<void>;
}

export async function startLoadChild(setup: Extract<LoadCommand, { type: 'setup' }>): Promise<LoadChild> {
  const proc = fork(path.join(ROOT, 'bench', 'lib', 'jobs-load.ts'), [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const child: LoadChild = {
    proc,
    next: (type) =>
      new Promise((resolve, reject) => {
        const onMsg = (m: LoadReply) => {
          if (m.type === 'failed') {
            cleanup();
            reject(new Error(`load generator: ${m.error}`));
          } else if (m.type === type) {
            cleanup();
            resolve(m);
          }
        };
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`load generator exited (${code})`));
        };
        const cleanup = () => {
          proc.off('message', onMsg);
          proc.off('exit', onExit);
        };
        proc.on('message', onMsg);
        proc.once('exit', onExit);
      }),
    send: (cmd) => proc.send(cmd),
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.send({ type: 'stop' } satisfies LoadCommand);
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
  const ready = child.next('ready');
  child.send(setup);
  await ready;
  return child;
}

export interface WindowResult {
  jobs: number;
  seconds: number;
  jobsPerSec: number;
  /** Seconds the load generator took to submit everything. */
  submitSeconds: number;
  /** CPU per job, ms: this process (API + workers, or the raw workers, all threads), the load generator, the PostgreSQL backends of the database (null: not PostgreSQL), the rest of the machine. */
  cpuMsPerJob: { self: number; loadgen: number; postgres: number | null; rest: number; machine: number };
  /** Cores busy on average over the window (machine-wide). */
  machineBusyCores: number;
  profile: ProfileSummary | null;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Submits `n` jobs through the child and waits for `done()`: a warm-up, not measured. */
export async function warmUp(child: LoadChild, n: number, done: () => Promise<void>): Promise<void> {
  const sent = child.next('sent');
  child.send({ type: 'go', n });
  await Promise.all([sent, done()]);
}

/**
 * Runs one window: the child submits `n` jobs; `done()` resolves when this side has finished
 * them. With `profileFile`, this process's main thread is profiled over the window.
 */
export async function measureWindow(child: LoadChild, n: number, done: () => Promise<void>, profileFile: string | null, dbUrl: string | null = null): Promise<WindowResult> {
  let session: Session | null = null;
  if (profileFile) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 }); // µs
    await session.post('Profiler.start');
  }
  const pg0 = dbUrl ? await databaseCpu(dbUrl) : null;
  const m0 = machineCpu();
  const self0 = process.cpuUsage();
  const c0 = pidCpu(child.proc.pid!);
  const t0 = performance.now();
  const sent = child.next('sent');
  child.send({ type: 'go', n });
  const [s] = await Promise.all([sent, done()]);
  const seconds = (performance.now() - t0) / 1000;
  const m1 = machineCpu();
  const selfUs = process.cpuUsage(self0);
  const c1 = pidCpu(child.proc.pid!);
  // Backends that connected during the window count whole (a pool grows under load).
  const pg1 = dbUrl ? await databaseCpu(dbUrl) : null;
  const pgSeconds =
    pg0 && pg1 ? pg0.pids.reduce((a, p) => a + pidCpu(p), 0) - pg0.seconds + pg1.pids.filter((p) => !pg0.pids.includes(p)).reduce((a, p) => a + pidCpu(p), 0) : null;
  let profile: ProfileSummary | null = null;
  if (session && profileFile) {
    const { profile: p } = await session.post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(path.dirname(profileFile), { recursive: true });
    fs.writeFileSync(profileFile, JSON.stringify(p));
    profile = summariseProfile(profileFile, n, 15);
  }
  const self = (selfUs.user + selfUs.system) / 1e6;
  const loadgen = c1 - c0;
  const machine = m1.busy - m0.busy;
  const perJob = (sec: number) => round((sec * 1000) / n, 2);
  return {
    jobs: n,
    seconds: round(seconds, 2),
    jobsPerSec: round(n / seconds),
    submitSeconds: round((s as { seconds: number }).seconds, 2),
    cpuMsPerJob: {
      self: perJob(self),
      loadgen: perJob(loadgen),
      postgres: pgSeconds === null ? null : perJob(pgSeconds),
      rest: perJob(Math.max(0, machine - self - loadgen - (pgSeconds ?? 0))),
      machine: perJob(machine),
    },
    machineBusyCores: round(machine / seconds, 2),
    profile,
  };
}

export const PROFILE_DIR = path.join(os.tmpdir(), 'crucible-bench-profiles');
