// Start/stop cycles of `crucible serve` and `crucible worker` (issue 16), shared by
// exit-pglite.test.ts and exit-postgres.test.ts (one file per backend) and by bench/exit.ts.
// `crucible serve` always exits after SIGTERM, as a process manager runs it (own process group,
// SIGTERM to the group): idle, after a burst of mixed requests, during a long poll, during a
// running job, and with stdout/stderr on pipes (FIFOs) whose reader stopped reading once the
// server started, or has gone. Every exit must be clean (code 0) and within the shutdown
// deadline, and must leave the data directory unlocked (the next cycle starts on it).
// `crucible worker` likewise, on PostgreSQL, its output read or its reader gone.
// The tests run each kind of cycle once per backend (CI_SERVE_CYCLES, CI_WORKER_CYCLES: about a
// minute per backend on a busy 2-core machine, most of it in the start-ups); `npm run bench:exit`
// runs 50 serve and 6 worker cycles per backend (BENCH_SERVE_CYCLES), the kinds in turn.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, it } from 'node:test';
import pg from 'pg';
import { DataDirLock } from '../../src/db/data-dir-lock.js';
import { SHUTDOWN_MARGIN_SEC } from '../../src/http/server.js';
import { crucibleArgv } from '../helpers/cli.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GRACE_SEC = 2;
const DEADLINE_MS = (GRACE_SEC + SHUTDOWN_MARGIN_SEC) * 1000;
/** Cycles the tests run: one of each kind (KINDS), then bench/exit.ts repeats them. */
export const CI_SERVE_CYCLES = 6;
export const CI_WORKER_CYCLES = 2;
export const BENCH_SERVE_CYCLES = 50;
export const BENCH_WORKER_CYCLES = 6;
const ADMIN = { email: 'admin@crucible.local', password: 'exit test admin password' };
const pgAdminUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const live = new Set<ChildProcess>();
/** Kills what a failed cycle left running (a test file's `after`, the bench's exit). */
export function killLeftovers(): void {
  for (const c of live) killGroup(c, 'SIGKILL');
}

export function killGroup(c: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-c.pid!, sig); // the whole process group, as a process manager does
  } catch {
    /* gone */
  }
}

/** The parent's environment minus everything Crucible reads, plus the given variables. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(CRUCIBLE_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_TEST_CONTEXT$|NODE_OPTIONS$)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

// ---------------------------------------------------------------------------------------
// Pipes: a FIFO is a pipe(2) (spawn's 'pipe' is a socket pair); this side holds the read end.

interface Fifo {
  /** The read end, this process's (-1 once closed: the reader is gone). */
  rfd: number;
  /** The write end, for the child. */
  wfd: number;
}

function fifo(dir: string, name: string): Fifo {
  const file = path.join(dir, `${name}-${crypto.randomBytes(4).toString('hex')}`);
  execFileSync('mkfifo', [file]);
  const rfd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const wfd = fs.openSync(file, fs.constants.O_WRONLY);
  fs.rmSync(file);
  return { rfd, wfd };
}

function closeReader(f: Fifo): void {
  if (f.rfd >= 0) fs.closeSync(f.rfd);
  f.rfd = -1;
}

// ---------------------------------------------------------------------------------------
// A server process

type PipeMode = 'read' | 'reader-gone' | 'reader-stalled';

const LISTENING = /Crucible listening on (http:\/\/\S+?) /;

class Server {
  readonly child: ChildProcess;
  url = '';
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  readonly fifos: Fifo[] = [];

  constructor(args: string[], env: Record<string, string>, mode: PipeMode, tmp: string) {
    let stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    if (mode !== 'read') {
      const out = fifo(tmp, 'out');
      const err = fifo(tmp, 'err');
      this.fifos.push(out, err);
      stdio = ['ignore', out.wfd, err.wfd];
    }
    this.child = spawn(process.execPath, crucibleArgv(args), { cwd: ROOT, env: childEnv({ ...env, PORT: '0' }), stdio, detached: true });
    live.add(this.child);
    for (const f of this.fifos) fs.closeSync(f.wfd);
    this.child.stdout?.setEncoding('utf8').on('data', (c: string) => (this.output += c));
    this.child.stderr?.setEncoding('utf8').on('data', (c: string) => (this.output += c));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        live.delete(this.child);
        resolve({ code, signal, at: performance.now() });
      }),
    );
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Reads what the FIFOs hold (their reader reads until the server serves, then leaves or stalls). */
  drainFifos(): void {
    const buf = Buffer.alloc(65536);
    for (const f of this.fifos) {
      for (let n = 1; f.rfd >= 0 && n > 0;) {
        try {
          n = fs.readSync(f.rfd, buf);
          this.output += buf.subarray(0, n).toString('utf8');
        } catch {
          n = 0; // EAGAIN: nothing more for now
        }
      }
    }
  }

  /** Until it prints `line` (serve: where it listens; it serves from then on). */
  async ready(line = LISTENING): Promise<void> {
    const deadline = Date.now() + 90_000; // ~1.5-10 s on a busy 2-core machine
    for (;;) {
      this.drainFifos();
      const m = line.exec(this.output);
      if (m) {
        this.url = m[1] ?? '';
        return;
      }
      assert.ok(this.running, `the server exited (${this.child.exitCode ?? this.child.signalCode}) before it served\n${this.output}`);
      assert.ok(Date.now() < deadline, `the server did not serve within 90 s\n${this.output}`);
      await sleep(25);
    }
  }

  /** SIGTERM to the process group; resolves with the exit and how long it took. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const t0 = performance.now();
    killGroup(this.child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(this.child, 'SIGKILL'), DEADLINE_MS + 10_000);
    const exit = await this.exited;
    clearTimeout(timer);
    for (const f of this.fifos) closeReader(f);
    if (this.child.stdout) await new Promise((r) => (this.child.stdout!.readableEnded ? r(null) : this.child.once('close', r)));
    return { code: exit.code, signal: exit.signal, ms: exit.at - t0 };
  }

  async req(method: string, p: string, opts: { token?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    const r = await fetch(`${this.url}/api/v1${p}`, { method, headers, body });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, body: parsed };
  }

  /** GET /events?wait=25: `sent` once the whole request is written to the socket. */
  longPoll(token: string): { sent: Promise<void>; answer: Promise<{ status: number; body: string }> } {
    let sent!: () => void;
    const sentP = new Promise<void>((r) => (sent = r));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${this.url}/api/v1/events?wait=25`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.on('finish', sent);
      req.end();
    });
    answer.catch(() => undefined); // awaited after the stop; not an unhandled rejection meanwhile
    return { sent: sentP, answer };
  }

  async login(): Promise<{ access: string; refresh: string }> {
    const r = await this.req('POST', '/auth/login-email', { form: { username: ADMIN.email, password: ADMIN.password } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return { access: r.body.access_token, refresh: r.body.refresh_token };
  }
}

// ---------------------------------------------------------------------------------------
// What happens before the SIGTERM

type Scenario = 'idle' | 'burst' | 'long-poll' | 'running-job' | 'pipes';

/**
 * The kinds of cycle, in the order they run: every scenario with its output read, and the pipes
 * scenario with both ways its reader fails. The pipes cycle after the running job cancels the
 * job that job's shutdown put back in the queue, so that the next idle cycle is idle.
 */
const KINDS: { scenario: Scenario; mode: PipeMode }[] = [
  { scenario: 'idle', mode: 'read' },
  { scenario: 'burst', mode: 'read' },
  { scenario: 'long-poll', mode: 'read' },
  { scenario: 'running-job', mode: 'read' },
  { scenario: 'pipes', mode: 'reader-stalled' },
  { scenario: 'pipes', mode: 'reader-gone' },
];
const kindLabel = (k: { scenario: Scenario; mode: PipeMode }) => (k.mode === 'read' ? k.scenario : `${k.scenario}, ${k.mode}`);

/** The foundation tests' sequence and more: auth, refresh and its reuse, keys to the tier limit, failed logins, drawings, logout. */
async function burst(s: Server): Promise<void> {
  let t = await s.login();
  const first = await s.req('POST', '/auth/refresh', { json: { refresh_token: t.refresh } });
  assert.equal(first.status, 200);
  assert.equal((await s.req('POST', '/auth/refresh', { json: { refresh_token: t.refresh } })).status, 401, 'a refresh token is single use');
  t = await s.login(); // the reuse revoked the whole session
  const viaGet = await s.req('GET', `/auth/refresh?refresh_token=${encodeURIComponent(t.refresh)}`);
  assert.equal(viaGet.status, 200, JSON.stringify(viaGet.body));
  const token: string = viaGet.body.access_token;
  const created: string[] = [];
  const key = await s.req('POST', '/auth/api-keys', { token, json: { name: 'exit-test' } });
  if (key.status === 200) {
    await s.req('POST', `/auth/api-keys/${key.body.id}/rotate`, { token });
    await s.req('DELETE', `/auth/api-keys/${key.body.id}`, { token });
  }
  const more = await Promise.all(Array.from({ length: 11 }, (_, i) => s.req('POST', '/auth/api-keys', { token, json: { name: `exit-test-${i}` } })));
  for (const k of more) if (k.status === 200) created.push(k.body.id);
  await Promise.all([
    ...Array.from({ length: 7 }, (_, i) => s.req('POST', '/auth/login-email', { form: { username: ADMIN.email, password: `wrong ${i}` } })),
    s.req('POST', '/depict', { token, json: { smiles: ['CCO', 'c1ccccc1O', 'not a smiles'] } }),
    s.req('GET', '/auth/api-keys', { token }),
    s.req('GET', '/jobs/list', { token }),
  ]);
  await Promise.all(created.map((id) => s.req('DELETE', `/auth/api-keys/${id}`, { token })));
  assert.equal((await s.req('GET', '/auth/logout', { token })).status, 200);
  // The SIGTERM follows the last answer at once: its log line may still be in flight.
}

interface Run {
  /** The job of the last running-job cycle: its shutdown put it back in the queue. */
  leftoverJob: string | null;
}

async function runCycle(s: Server, scenario: Scenario, mode: PipeMode, cycle: number, run: Run): Promise<() => Promise<void>> {
  switch (scenario) {
    case 'idle':
      return async () => undefined;
    case 'burst':
      await burst(s);
      return async () => undefined;
    case 'long-poll': {
      const { access } = await s.login();
      const poll = s.longPoll(access);
      // The poll must be in flight before the SIGTERM (a request arriving during the shutdown is
      // answered 503): its request is written, and a request sent after it has been answered.
      await poll.sent;
      assert.equal((await s.req('GET', '/health/live')).status, 200);
      await sleep(100); // the server is waiting
      return async () => {
        const r = await poll.answer;
        assert.equal(r.status, 200, `the long poll answers (no events) when the server stops: ${r.status} ${r.body}`);
      };
    }
    case 'running-job': {
      const { access } = await s.login();
      const sub = await s.req('POST', '/jobs/submit', { token: access, json: { job_name: `exit-${cycle}`, job_type: 'wait', payload: { seconds: 30 } } });
      assert.equal(sub.status, 200, JSON.stringify(sub.body));
      run.leftoverJob = sub.body.process_id;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const st = await s.req('GET', `/jobs/status?process_id=${sub.body.process_id}`, { token: access });
        if (st.body.status === 'running') break;
        assert.ok(Date.now() < deadline, `the job did not start: ${JSON.stringify(st.body)}`);
        await sleep(100);
      }
      return async () => undefined;
    }
    case 'pipes': {
      // Cancel the job the previous cycle left (requeued by its shutdown), so that idle stays idle.
      const { access } = await s.login();
      if (run.leftoverJob) await s.req('DELETE', `/jobs/cancel?process_id=${run.leftoverJob}`, { token: access });
      run.leftoverJob = null;
      // Enough request log lines (~190 bytes each) to fill a pipe (64 KiB) that nobody reads.
      const requests = mode === 'reader-stalled' ? 384 : 48;
      for (let i = 0; i < requests; i += 16) await Promise.all(Array.from({ length: 16 }, () => s.req('GET', '/health/live')));
      await Promise.all([
        s.req('POST', '/auth/login-email', { form: { username: ADMIN.email, password: 'wrong' } }),
        s.req('POST', '/depict', { token: access, json: { smiles: ['CCO'] } }),
        s.req('GET', '/auth/api-keys', { token: access }),
      ]);
      assert.equal((await s.req('GET', '/auth/logout', { token: access })).status, 200);
      // The reader goes with the signal (a process manager stopped with its group), or has stalled.
      if (mode === 'reader-gone') for (const f of s.fifos) closeReader(f);
      return async () => undefined;
    }
  }
}

// ---------------------------------------------------------------------------------------

interface BackendSetup {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function pgliteSetup(dataDir: string): Promise<BackendSetup> {
  return { env: { CRUCIBLE_DATA_DIR: dataDir }, cleanup: async () => undefined };
}

async function postgresSetup(dataDir: string): Promise<BackendSetup> {
  const runId = process.env.CRUCIBLE_TEST_RUN_ID;
  const name = `crucible_t_${runId ? `${runId}_` : ''}exit_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: pgAdminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(pgAdminUrl);
  u.pathname = `/${name}`;
  return { env: { CRUCIBLE_DATA_DIR: dataDir, DATABASE_URL: u.toString() }, cleanup: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

const BACKENDS: { name: 'pglite' | 'postgres'; setup: (dataDir: string) => Promise<BackendSetup>; skip: string | false }[] = [
  { name: 'pglite', setup: pgliteSetup, skip: false },
  { name: 'postgres', setup: postgresSetup, skip: pgAdminUrl === '' && 'no PostgreSQL server (CRUCIBLE_TEST_PG_URL is empty)' },
];

/** What a run of cycles measured. */
export interface CycleReport {
  cycles: number;
  /** Start-up (spawn to serving) and exit (SIGTERM to exit) of each cycle, ms. */
  startMs: number[];
  exitMs: number[];
  /** The slowest exit per kind of cycle, ms. */
  worstExitMs: Record<string, number>;
  /** Cycles run again because something outside killed the server before it served. */
  repeated: number;
}

const serveEnv = (setup: BackendSetup) => ({
  ...setup.env,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info', // one line per request: the lines the shutdown raced with
  CRUCIBLE_ADMIN_EMAIL: ADMIN.email,
  CRUCIBLE_ADMIN_PASSWORD: ADMIN.password,
  CRUCIBLE_WORKERS: '1',
  CRUCIBLE_CHEM_THREADS: '1',
  CRUCIBLE_SHUTDOWN_GRACE_SEC: String(GRACE_SEC),
  CRUCIBLE_LOGIN_MAX_FAILURES: '100000',
  CRUCIBLE_LOGIN_MAX_PER_IP: '100000',
  CRUCIBLE_LOOKUPS_DISABLED: 'pubchem,chembl,opentargets,uniprot,rcsb',
});

/**
 * `cycles` start/stop cycles of `crucible serve` on one backend, the kinds in turn; throws at the
 * first exit that is not clean, not within the deadline or leaves the data directory locked.
 */
export async function runServeCycles(name: 'pglite' | 'postgres', cycles: number, note: (msg: string) => void = () => undefined): Promise<CycleReport> {
  const backend = BACKENDS.find((b) => b.name === name);
  if (!backend) throw new Error(`no backend ${name}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-exit-'));
  const dataDir = path.join(tmp, 'data');
  const setup = await backend.setup(dataDir);
  const env = serveEnv(setup);
  const report: CycleReport = { cycles, startMs: [], exitMs: [], worstExitMs: {}, repeated: 0 };
  const run: Run = { leftoverJob: null };
  try {
    for (let cycle = 0; cycle < cycles; cycle++) {
      const kind = KINDS[cycle % KINDS.length]!;
      const t0 = performance.now();
      const s = new Server(['serve'], env, kind.mode, tmp);
      const what = `cycle ${cycle + 1}/${cycles} (${kindLabel(kind)})`;
      try {
        try {
          await s.ready();
        } catch (err) {
          // Killed by a signal this code did not send, before it served (seen on a machine
          // shared with other test runs): not an exit to judge; run the cycle again, a few times at most.
          if (s.child.signalCode && !s.output && report.repeated++ < 3) {
            note(`${what}: the server was killed by ${s.child.signalCode} from outside before it served; cycle repeated`);
            cycle--;
            continue;
          }
          throw new Error(`${what}: ${(err as Error).message}`);
        }
        report.startMs.push(Math.round(performance.now() - t0));
        const afterStop = await runCycle(s, kind.scenario, kind.mode, cycle, run);
        const exit = await s.stop();
        await afterStop();
        const label = kindLabel(kind);
        report.exitMs.push(Math.round(exit.ms));
        report.worstExitMs[label] = Math.max(report.worstExitMs[label] ?? 0, Math.round(exit.ms));
        assert.ok(exit.ms < DEADLINE_MS, `${what}: exit took ${Math.round(exit.ms)} ms (deadline ${DEADLINE_MS} ms)\n${s.output}`);
        assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null }, `${what}: a clean exit\n${s.output}`);
        if (kind.mode === 'read') assert.match(s.output, /"msg":"shutting down"/, what);
        assert.doesNotMatch(s.output, /deadline \(|second signal|does not respond/, what);
        if (!setup.env.DATABASE_URL) {
          assert.ok(!fs.existsSync(path.join(dataDir, 'pglite.lock')), `${what}: the data dir lock is released`);
          DataDirLock.acquire(path.join(dataDir, 'pglite.lock')).release(); // and nobody holds it
        }
      } finally {
        if (s.running) killGroup(s.child, 'SIGKILL');
        for (const f of s.fifos) closeReader(f);
      }
    }
    return report;
  } finally {
    await setup.cleanup().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** `cycles` start/stop cycles of `crucible worker` on PostgreSQL, its output read and its reader gone in turn. */
export async function runWorkerCycles(cycles: number): Promise<CycleReport> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-exit-'));
  const setup = await postgresSetup(path.join(tmp, 'data'));
  const env = {
    ...setup.env,
    CRUCIBLE_STORAGE_SHARED: '1',
    LOG_LEVEL: 'info',
    CRUCIBLE_WORKERS: '1',
    CRUCIBLE_CHEM_THREADS: '1',
    CRUCIBLE_SHUTDOWN_GRACE_SEC: String(GRACE_SEC),
  };
  const report: CycleReport = { cycles, startMs: [], exitMs: [], worstExitMs: {}, repeated: 0 };
  try {
    for (let cycle = 0; cycle < cycles; cycle++) {
      const mode: PipeMode = cycle % 2 ? 'reader-gone' : 'read';
      const t0 = performance.now();
      const w = new Server(['worker'], env, mode, tmp);
      const what = `worker cycle ${cycle + 1}/${cycles} (${mode})`;
      try {
        await w.ready(/Crucible worker \S+ running 1 job slots/);
        report.startMs.push(Math.round(performance.now() - t0));
        for (const f of w.fifos) closeReader(f);
        const exit = await w.stop();
        report.exitMs.push(Math.round(exit.ms));
        report.worstExitMs[mode] = Math.max(report.worstExitMs[mode] ?? 0, Math.round(exit.ms));
        assert.ok(exit.ms < DEADLINE_MS, `${what}: exit took ${Math.round(exit.ms)} ms\n${w.output}`);
        assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null }, `${what}: a clean exit\n${w.output}`);
      } finally {
        if (w.running) killGroup(w.child, 'SIGKILL');
      }
    }
    return report;
  } finally {
    await setup.cleanup().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The skip reason of a backend's cycles, or false. */
export function backendSkip(name: 'pglite' | 'postgres'): string | false {
  return BACKENDS.find((b) => b.name === name)?.skip ?? `no backend ${name}`;
}

/** Registers the test of CI_SERVE_CYCLES start/stop cycles of `crucible serve` on one backend: each kind of cycle once. */
export function serveCycles(name: 'pglite' | 'postgres'): void {
  after(killLeftovers);
  it(
    `${name}: ${CI_SERVE_CYCLES} start/stop cycles (${KINDS.map(kindLabel).join('; ')}), each clean, within ${DEADLINE_MS / 1000} s, the data dir unlocked`,
    { skip: backendSkip(name) },
    async (t) => {
      const report = await runServeCycles(name, CI_SERVE_CYCLES, (msg) => t.diagnostic(msg));
      t.diagnostic(`slowest exit per kind of cycle (ms): ${JSON.stringify(report.worstExitMs)}; start-ups (ms): ${report.startMs.join(', ')}`);
    },
  );
}

/** Registers the test of CI_WORKER_CYCLES start/stop cycles of `crucible worker` (PostgreSQL). */
export function workerCycles(): void {
  after(killLeftovers);
  it(
    `postgres: crucible worker, ${CI_WORKER_CYCLES} start/stop cycles (output read, its reader gone), each clean, within ${DEADLINE_MS / 1000} s`,
    { skip: backendSkip('postgres') },
    async (t) => {
      const report = await runWorkerCycles(CI_WORKER_CYCLES);
      t.diagnostic(`exits (ms): ${report.exitMs.join(', ')}`);
    },
  );
}
