// `crucible serve`: the API (and, with the jobs work, the compute workers) in one process.
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { JobRuntime } from '../compute/runtime.js';
import { startAdminSocket } from '../admin/socket.js';
import { buildApp } from './app.js';
import type { Config } from '../config.js';
import { bootstrapAdmin, closeServices, createServices } from '../instance.js';
import type { Services } from '../services.js';
import { flushLogs, logDestination } from '../log.js';

export interface Stoppable {
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  stop(): Promise<void>;
  /** What stop() is waiting for now (logged when the shutdown deadline forces the exit). */
  pending(): string;
}

export interface RunningServer extends Stoppable {
  app: FastifyInstance;
  services: Services;
  url: string;
  runtime: JobRuntime;
}

/** After the request grace period, the rest of a shutdown (jobs, threads, database) gets this long. */
export const SHUTDOWN_MARGIN_SEC = 10;

/** From the first SIGTERM/SIGINT to a forced exit: the request grace period plus SHUTDOWN_MARGIN_SEC. */
export const shutdownDeadlineMs = (config: Pick<Config, 'shutdownGraceSec'>): number => (config.shutdownGraceSec + SHUTDOWN_MARGIN_SEC) * 1000;

export async function startServer(config: Config, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<RunningServer> {
  const services = await createServices(config);
  let app: FastifyInstance | null = null;
  let closeSocket: (() => Promise<void>) | null = null;
  let runtime: JobRuntime | null = null;
  // The first start's admin login is printed last, set apart, after the listening line (and
  // after whatever the build and start-up wrote), or before the error when the start fails
  // after creating the account (port in use): the only admin credential is never lost, nor
  // buried in other output (docs/api-decisions.md, "The contract the code relies on": first start).
  let adminLogin: (() => void) | null = null;
  try {
    const admin = await bootstrapAdmin(services);
    if (admin)
      adminLogin = () => {
        adminLogin = null;
        out(adminBanner(admin.email, config.admin.tier, admin.generatedPassword));
      };
    // Serializers compiled and the OpenAPI document built before listening: neither is then a
    // one-off stall of a request in service (docs/reliability.md, "No request stalls the server").
    app = await buildApp(services, { eagerSchemas: true });
    await app.ready();
    app.swagger();
    runtime = services.runtime(config.workers, { log: app.log });
    await runtime.start();
    if (services.db.kind === 'pglite') closeSocket = await startAdminSocket(services);
    // main() installed the signal handlers before start-up (stopOnSignals), so a SIGTERM that
    // follows this banner at once never meets the default action (killed, lock left).
    await app.listen({ host: config.host, port: config.port });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    out(
      `Crucible listening on ${url} (web console at ${url}/app/, API under ${url}/api/v1, reference at ${url}/docs; database: ${services.db.kind === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`,
    );
    adminLogin?.();
    let stopping: Promise<void> | null = null;
    let step = 'nothing (running)';
    const stop = () =>
      (stopping ??= (async () => {
        const http = app!;
        // Stops accepting and lets in-flight requests finish, for the grace period at most.
        step = `HTTP: in-flight requests (grace ${config.shutdownGraceSec} s)`;
        const grace = setTimeout(() => {
          step = 'HTTP: closing the connections left after the grace period';
          http.log.warn({ grace_sec: config.shutdownGraceSec }, 'shutdown: grace period over, closing the connections still open');
          http.server.closeAllConnections();
        }, config.shutdownGraceSec * 1000);
        try {
          await http.close();
        } finally {
          clearTimeout(grace);
        }
        step = `job runtime (${runtime!.busy} running jobs go back to the queue)`;
        await runtime!.stop();
        step = 'admin socket';
        await closeSocket?.();
        await closeServices(services, (what) => (step = what));
        step = 'nothing (stopped)';
      })());
    return { app, services, url, runtime, stop, pending: () => step, log: app.log };
  } catch (err) {
    adminLogin?.();
    await runtime?.stop().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await closeSocket?.().catch(() => undefined);
    await closeServices(services).catch(() => undefined);
    throw err;
  }
}

const RULE = '='.repeat(72);

/** The first start's admin login, between blank lines and rules (the password line as the README shows it). */
export function adminBanner(email: string, tier: string, password: string | null | undefined): string {
  const lines = [`First start: created the admin account ${email} (tier ${tier}).`];
  if (password) lines.push(`Admin password (shown only this once): ${password}`, `Sign in to the web console (/app/) or the API with ${email} and this password.`);
  return ['', RULE, ...lines, RULE, ''].join('\n');
}

/** `crucible worker`: compute workers only, sharing the database (and artifact store) with the API. */
export async function startWorker(config: Config, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<Stoppable & { runtime: JobRuntime }> {
  const services = await createServices(config);
  const log = pino({ level: config.logLevel }, logDestination());
  const runtime = services.runtime(Math.max(1, config.workers), { log });
  await runtime.start();
  out(`Crucible worker ${runtime.workerId} running ${Math.max(1, config.workers)} job slots (database: ${services.db.kind})`);
  let stopping: Promise<void> | null = null;
  let step = 'nothing (running)';
  const stop = () =>
    (stopping ??= (async () => {
      step = `job runtime (${runtime.busy} running jobs go back to the queue)`;
      await runtime.stop();
      await closeServices(services, (what) => (step = what));
      step = 'nothing (stopped)';
    })());
  return { runtime, stop, pending: () => step, log };
}

/** Libuv thread-pool requests in flight: process.exit() joins the pool's threads, so one that never ends would hold the exit. */
const THREADPOOL_REQUEST = /^(FSReq|GetAddrInfoReqWrap|GetNameInfoReqWrap)/;

function activeResources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

/**
 * The backstop of the deadline, for a main thread that no longer runs JavaScript (a synchronous
 * loop anywhere, an 'exit' hook that never returns): a worker thread with its own event loop
 * kills the process `ms` after it starts, unless the process exits first. It writes its line
 * to fd 1 directly (the main thread relays a worker's process.stdout); fd 1 is non-blocking
 * when it is a pipe or socket, so that write cannot hang either.
 */
const WATCHDOG = `
Promise.all([import('node:fs'), import('node:worker_threads')]).then(([fs, { workerData }]) => {
  setTimeout(() => {
    const bytes = new Uint8Array(workerData.pending);
    const end = bytes.indexOf(0);
    const pending = Buffer.from(bytes.subarray(0, end < 0 ? bytes.length : end)).toString();
    const line = { level: 60, time: Date.now(), pid: process.pid, pending, msg: 'shutdown deadline passed and the main thread does not respond: killing the process' };
    try { fs.writeSync(1, JSON.stringify(line) + '\\n'); } catch {}
    process.kill(process.pid, 'SIGKILL');
  }, workerData.ms);
});
`;

function startWatchdog(ms: number, pending: () => string): void {
  const shared = new SharedArrayBuffer(1024);
  const bytes = new Uint8Array(shared);
  const encoder = new TextEncoder();
  const publish = () => {
    const { written } = encoder.encodeInto(pending(), bytes.subarray(0, bytes.length - 1));
    bytes[written] = 0;
  };
  publish();
  setInterval(publish, 100).unref();
  try {
    // execArgv []: no loader hooks (tsx) in this thread; the code runs as a script or a module.
    const watchdog = new Worker(WATCHDOG, { eval: true, execArgv: [], workerData: { ms, pending: shared } });
    watchdog.on('error', () => undefined); // a watchdog that failed must not take the process down
    watchdog.unref();
  } catch {
    // No thread for it (resource limits): the main thread's own deadline still stands.
  }
}

/**
 * SIGTERM/SIGINT: finish in-flight requests (for the grace period at most), stop jobs, threads
 * and the database, exit 0. Whatever a component does, the process is gone by the deadline
 * (grace + SHUTDOWN_MARGIN_SEC), and at once on a second signal: both log what was still
 * pending and end the process with SIGKILL, the one exit nothing in the process can hold up.
 *
 * Installed before start-up, and the server attached once it runs: a signal that arrives in
 * between (a process manager that stops the service as soon as it prints where it listens)
 * never meets the default action, which would kill the process at once and leave the embedded
 * database's lock behind. Such a signal starts the deadline at once and the stop as soon as the
 * server is attached.
 */
export function stopOnSignals(deadlineMs: number, startupLog: Stoppable['log']): { attach(server: Stoppable): void } {
  let server: Stoppable | null = null;
  let signalledAt = 0;
  const log = () => server?.log ?? startupLog;
  const pending = () => server?.pending() ?? 'start-up';
  const forceExit = (msg: string) => {
    try {
      log().error({ pending: pending(), active: activeResources(), since_signal_ms: Date.now() - signalledAt }, msg);
    } finally {
      process.kill(process.pid, 'SIGKILL');
    }
  };
  const stop = (s: Stoppable) =>
    void s
      .stop()
      .then(
        () => 0,
        (err: unknown) => {
          s.log.error({ err }, 'shutdown failed');
          return 1;
        },
      )
      .then(async (code) => {
        await flushLogs(1_000);
        // A thread-pool request that never ends would make process.exit() hang; wait for them
        // (the deadline still stands), so that exit cannot block.
        while (process.getActiveResourcesInfo().some((r) => THREADPOOL_REQUEST.test(r))) await new Promise((r) => setTimeout(r, 10));
        process.exit(code);
      });
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalledAt) return forceExit(`second signal (${sig}): exiting at once`);
    signalledAt = Date.now();
    log().info({ signal: sig, deadline_sec: deadlineMs / 1000, ...(server ? {} : { during: 'start-up' }) }, 'shutting down');
    // Armed before anything else: timers run until process.exit() starts, and the exit itself
    // is only called once nothing can hold it (above).
    setTimeout(() => forceExit(`shutdown deadline (${deadlineMs / 1000} s) passed: exiting at once`), deadlineMs);
    startWatchdog(deadlineMs + 2_000, pending);
    if (server) stop(server);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    attach(s) {
      server = s;
      if (signalledAt) stop(s);
    },
  };
}
