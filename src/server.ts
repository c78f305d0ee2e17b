// `crucible serve`: the API (and, with the jobs work, the compute workers) in one process.
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { JobRuntime } from './compute/runtime.js';
import { startAdminSocket } from './admin/socket.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { bootstrapAdmin, closeServices, createServices } from './instance.js';
import type { Services } from './services.js';

export interface Stoppable {
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  stop(): Promise<void>;
}

export interface RunningServer extends Stoppable {
  app: FastifyInstance;
  services: Services;
  url: string;
  runtime: JobRuntime;
}

export async function startServer(config: Config, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<RunningServer> {
  const services = await createServices(config);
  let app: FastifyInstance | null = null;
  let closeSocket: (() => Promise<void>) | null = null;
  let runtime: JobRuntime | null = null;
  try {
    const admin = await bootstrapAdmin(services);
    app = await buildApp(services);
    runtime = services.runtime(config.workers, { log: app.log });
    await runtime.start();
    await app.listen({ host: config.host, port: config.port });
    if (services.db.kind === 'pglite') closeSocket = await startAdminSocket(services);
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    out(`Crucible listening on ${url} (API under ${url}/api/v1, reference at ${url}/docs; database: ${services.db.kind === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`);
    if (admin) {
      out(`First start: created the admin account ${admin.email} (tier ${config.admin.tier}).`);
      if (admin.generatedPassword) out(`Admin password (shown only this once): ${admin.generatedPassword}`);
    }
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await app!.close(); // stops accepting, lets in-flight requests finish
        await runtime!.stop(); // running jobs go back to the queue for another worker
        await closeSocket?.();
        await closeServices(services);
      })());
    return { app, services, url, runtime, stop, log: app.log };
  } catch (err) {
    await runtime?.stop().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await closeSocket?.().catch(() => undefined);
    await closeServices(services).catch(() => undefined);
    throw err;
  }
}

/** `crucible worker`: compute workers only, sharing the database (and artifact store) with the API. */
export async function startWorker(config: Config, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<Stoppable & { runtime: JobRuntime }> {
  const services = await createServices(config);
  const log = pino({ level: config.logLevel });
  const runtime = services.runtime(Math.max(1, config.workers), { log });
  await runtime.start();
  out(`Crucible worker ${runtime.workerId} running ${Math.max(1, config.workers)} job slots (database: ${services.db.kind})`);
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await runtime.stop();
      await closeServices(services);
    })());
  return { runtime, stop, log };
}

/** SIGTERM/SIGINT: finish in-flight requests, close the database, exit. A second signal exits at once. */
export function stopOnSignals(server: Stoppable): void {
  let signalled = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) process.exit(130);
    signalled = true;
    server.log.info({ signal: sig }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (err) => {
        server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
