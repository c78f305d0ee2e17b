// Opens the database, applies migrations and assembles the services of one instance: the core
// (database, logger, chemistry pool, job queue, scheduler), then every module of
// src/modules/index.ts in order (docs/architecture.md, "Modules").
import { pino } from 'pino';
import { logDestination } from './log.js';
import { ChemPool } from './chem/pool.js';
import { allLanes } from './compute/lanes.js';
import { JobQueue } from './compute/queue.js';
import type { Config } from './config.js';
import { isUniqueViolation, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { randomBase62 } from './modules/auth/tokens.js';
import { MODULES } from './modules/index.js';
import { usersStore } from './modules/users/store.js';
import { MICROS_PER_USD } from './modules/wallet/service.js';
import { Scheduler } from './scheduler.js';
import type { Services } from './services.js';

export interface CreateOptions {
  /** Start the job queue and the periodic tasks (serving processes); off for one-shot CLI commands. */
  queue?: boolean;
}

export async function createServices(config: Config, db?: Database, opts: CreateOptions = { queue: true }): Promise<Services> {
  db ??= await openDatabase(config);
  // Background work (sweeps, runtimes) logs here; request logs go through Fastify's logger.
  const log = pino({ level: config.logLevel }, logDestination());
  const started: Stop[] = [];
  try {
    await migrate(db);
    const queue = new JobQueue(db, config.databaseUrl, allLanes());
    if (opts.queue) {
      await queue.start();
      started.push({ what: 'job queue (pg-boss)', stop: () => queue.stop() });
    }
    // One chemistry pool per instance: the API's /depict and /describe and the job types.
    const chem = new ChemPool({ threads: config.chemThreads, cacheEntries: config.chemCache, itemTimeoutMs: config.chemTimeoutMs });
    started.push({ what: 'chemistry pool (RDKit threads)', stop: () => chem.close() });
    const scheduler = new Scheduler(log);
    // Each module adds its services to the container; later modules see earlier ones.
    const services = { config, db, log, chem, queue, scheduler } as Services;
    for (const m of MODULES) Object.assign(services, await m.provide?.(services));
    for (const m of MODULES) {
      await m.start?.(services);
      const mod = m;
      if (mod.stop) started.push({ what: `module ${mod.name}`, stop: () => mod.stop?.(services) ?? Promise.resolve() });
    }
    if (opts.queue) for (const m of MODULES) for (const t of m.tasks?.(services) ?? []) scheduler.add(t);
    started.push({ what: 'scheduled tasks', stop: () => scheduler.stop() }); // stopped first: no task runs while its module stops
    stopOrder.set(services, started);
    return services;
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

interface Stop {
  what: string;
  stop(): Promise<void>;
}

/** What each instance started, to stop in reverse order. */
const stopOrder = new WeakMap<Services, Stop[]>();

/** Stops what the instance started, the database last; `step` hears the name of each part before it stops. */
export async function closeServices(services: Services, step: (what: string) => void = () => undefined): Promise<void> {
  const started = stopOrder.get(services) ?? [];
  stopOrder.delete(services);
  for (const s of [...started].reverse()) {
    step(s.what);
    await s.stop().catch(() => undefined);
  }
  step(`database (${services.db.kind})`);
  await services.db.close();
}

export interface BootstrapResult {
  email: string;
  /** Set only when the password was generated here (print it once). */
  generatedPassword: string | null;
}

/** First start: with no account at all, create the admin account (docs/api-decisions.md, "The contract the code relies on"). */
export async function bootstrapAdmin(services: Services): Promise<BootstrapResult | null> {
  if ((await usersStore.count(services.db)) > 0) return null;
  const { admin } = services.config;
  const password = admin.password ?? randomBase62(20);
  try {
    const user = await services.users.create(admin.email, password, admin.tier);
    if (admin.creditUsd > 0) await services.wallet.credit(user.id, Math.round(admin.creditUsd * MICROS_PER_USD), 'first-start admin credit');
  } catch (err) {
    // Another process bootstrapped at the same moment.
    if (isUniqueViolation(err) || /already exists/.test(String((err as Error).message))) return null;
    throw err;
  }
  return { email: admin.email, generatedPassword: admin.password ? null : password };
}
