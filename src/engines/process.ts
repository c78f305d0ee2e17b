// One engine calculation as a child process (docs/engines.md, "The engine runtime"):
//
// - in its own session and process group (detached), so that cancel, a timeout or the job's
//   runtime limit kill the engine and anything it started at once (SIGKILL to the group, and to
//   every process of the session: Open MPI puts each rank in a process group of its own);
// - with the kernel told to kill it when its parent dies (setpriv --pdeathsig KILL): a worker
//   that is SIGKILLed leaves no engine behind;
// - with bounded threads (OMP_NUM_THREADS and friends), address space and file size (prlimit),
//   wall-clock time, and kept output (stdout and stderr, head and tail);
// - in the scratch directory it is given, with a clean environment.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** util-linux's setpriv and prlimit, wherever the engines are (a worker's PATH may have no engine). */
const tool = (name: string) => ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => `${d}/${name}`).find((p) => fs.existsSync(p)) ?? name;
const SETPRIV = tool('setpriv');
const PRLIMIT = tool('prlimit');

export interface EngineCall {
  /** The program's path (from discovery). */
  path: string;
  args: string[];
  /** The calculation's scratch directory (scratch.ts). */
  cwd: string;
  input?: string;
  threads: number;
  /** Address-space limit of the process. */
  memoryBytes: number;
  /** Largest file it may write. */
  maxFileBytes?: number;
  /** Wall-clock limit of this calculation. */
  timeoutMs: number;
  /** stdout and stderr kept, each (the first and last halves when longer). */
  maxOutputBytes?: number;
  /** Cancel, runtime limit, shutdown. */
  signal: AbortSignal;
  env?: Record<string, string>;
  /** Told the child's pid once it runs (tests look for it). */
  onSpawn?: (pid: number) => void;
  /** Told each piece of stdout as it comes (an engine's own progress, e.g. Vina's asterisks). */
  onStdout?: (chunk: Buffer) => void;
}

export interface EngineResult {
  /** Exit code; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether output was cut (its middle dropped). */
  truncated: boolean;
  timedOut: boolean;
  ms: number;
}

/** Address space an engine process may use per thread of the job's resource (and at least 2 GiB). */
const MEMORY_PER_THREAD = 1.5 * 1024 ** 3;

/** The address-space limit of an engine call on `threads` threads (docs/engines.md, "The engine runtime"). */
export function memoryLimit(threads: number): number {
  return Math.max(2 * 1024 ** 3, threads * MEMORY_PER_THREAD);
}

const DEFAULT_OUTPUT = 4 * 1024 * 1024;
const DEFAULT_FILE = 512 * 1024 * 1024;

/** Keeps the first and last halves of a stream past `max` bytes. */
class Bounded {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  cut = false;
  constructor(private readonly max: number) {}
  push(c: Buffer): void {
    const half = this.max >> 1;
    if (this.headBytes < half) {
      const take = c.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      c = c.subarray(take.length);
    }
    if (!c.length) return;
    this.tail.push(c);
    this.tailBytes += c.length;
    while (this.tailBytes - this.tail[0]!.length >= half) {
      this.tailBytes -= this.tail.shift()!.length;
      this.cut = true;
    }
  }
  text(): string {
    const tail = Buffer.concat(this.tail);
    const half = this.max >> 1;
    if (tail.length > half) this.cut = true;
    const head = Buffer.concat(this.head).toString('utf8');
    const end = tail.subarray(Math.max(0, tail.length - half)).toString('utf8');
    return this.cut ? `${head}\n[... output cut ...]\n${end}` : head + end;
  }
}

/** The processes of session `sid` (fields 4 to 6 of /proc/<pid>/stat after the command: ppid, pgrp, session). */
export function sessionMembers(sid: number): number[] {
  const out: number[] = [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[3]) === sid) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** SIGKILL to process group `pid` and to every process of session `pid` (a detached child leads both). */
export function killSession(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  for (const member of sessionMembers(pid)) {
    try {
      process.kill(member, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}

/** The environment of every engine: nothing of the server's (no secrets), threads bounded. */
export function engineEnv(threads: number, cwd: string, extra: Record<string, string> = {}): Record<string, string> {
  const n = String(Math.max(1, threads));
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: cwd,
    TMPDIR: cwd,
    LANG: 'C',
    LC_ALL: 'C',
    OMP_NUM_THREADS: n,
    OMP_MAX_ACTIVE_LEVELS: '1',
    OMP_STACKSIZE: '256M',
    MKL_NUM_THREADS: n,
    OPENBLAS_NUM_THREADS: n,
    ...extra,
  };
}

/**
 * Runs one calculation; resolves with its result whatever its exit code; rejects with the
 * signal's reason on abort (the job runtime aborts with a JobAborted: cancel, runtime limit, shutdown).
 */
export function runEngine(call: EngineCall): Promise<EngineResult> {
  if (call.signal.aborted) return Promise.reject(call.signal.reason as Error);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const limits = [`--as=${Math.floor(call.memoryBytes)}`, `--fsize=${Math.floor(call.maxFileBytes ?? DEFAULT_FILE)}`];
    const child = spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', PRLIMIT, ...limits, '--', call.path, ...call.args], {
      cwd: call.cwd,
      env: call.env ?? engineEnv(call.threads, call.cwd),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const out = new Bounded(call.maxOutputBytes ?? DEFAULT_OUTPUT);
    const err = new Bounded(call.maxOutputBytes ?? DEFAULT_OUTPUT);
    let timedOut = false;
    let killed = false;
    const killGroup = () => {
      if (killed || child.pid === undefined) return;
      killed = true;
      killSession(child.pid);
    };
    const onAbort = () => killGroup();
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, call.timeoutMs);
    call.signal.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) call.onSpawn?.(child.pid);
    child.stdout.on('data', (c: Buffer) => {
      out.push(c);
      call.onStdout?.(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => undefined); // an engine that exits without reading its input
    child.stdin.end(call.input ?? '');
    const done = () => {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('close', (code, signal) => {
      done();
      // Anything the engine left in its group or session goes with it.
      killGroup();
      if (call.signal.aborted) return reject(call.signal.reason as Error);
      const stdout = out.text();
      const stderr = err.text();
      resolve({ code, signal, stdout, stderr, truncated: out.cut || err.cut, timedOut, ms: Date.now() - started });
    });
  });
}
