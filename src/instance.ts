// Opens the database, applies migrations and assembles the services of one instance.
import crypto from 'node:crypto';
import { ChemPool } from './chem/pool.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { RateLimiter } from './http/rate-limit.js';
import { Authenticator } from './modules/auth/authenticator.js';
import { SessionService } from './modules/auth/sessions.js';
import { TokenSigner } from './modules/auth/tokens.js';
import { KeyService } from './modules/keys/service.js';
import { MICROS_PER_USD, WalletService } from './modules/wallet/service.js';
import { JobQueue } from './compute/queue.js';
import { JobRuntime } from './compute/runtime.js';
import { ArtifactService, jobArtifactsFrom } from './modules/artifacts/service.js';
import { LocalFileStorage } from './storage/local.js';
import { appendEvent, EventService } from './modules/events/service.js';
import { JobService } from './modules/jobs/service.js';
import { UserService } from './modules/users/service.js';
import { RetentionSweep } from './modules/auth/retention.js';
import { pino } from 'pino';
import { LookupService } from './lookups/index.js';
import { DbLookupCache } from './modules/lookups/cache.js';
import { usersStore } from './modules/users/store.js';
import type { Services } from './services.js';
import { randomBase62 } from './modules/auth/tokens.js';
import { isUniqueViolation } from './db/database.js';

/** The JWT signing secret: from config, else generated once and shared through the database. */
async function jwtSecret(db: Database, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db.query(`INSERT INTO settings (key, value) VALUES ('jwt_secret', $1) ON CONFLICT (key) DO NOTHING`, [crypto.randomBytes(48).toString('base64url')]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'jwt_secret'`);
  return rows[0].value;
}

export interface CreateOptions {
  /** Start the job queue (needed to submit jobs); off for one-shot CLI commands. */
  queue?: boolean;
}

export async function createServices(config: Config, db?: Database, opts: CreateOptions = { queue: true }): Promise<Services> {
  db ??= await openDatabase(config);
  const started: { stop(): Promise<void> }[] = [];
  try {
    await migrate(db);
    const signer = new TokenSigner(await jwtSecret(db, config.jwtSecret), config.accessTokenTtlSec);
    const authenticator = new Authenticator(db, signer);
    await authenticator.start();
    started.push(authenticator);
    const invalidate = () => authenticator.invalidate();
    const wallet = new WalletService(db);
    const queue = new JobQueue(db, config.databaseUrl);
    if (opts.queue) {
      await queue.start();
      started.push(queue);
    }
    const events = new EventService(db);
    await events.start();
    started.push(events);
    // Background work (sweeps) logs here; request logs go through Fastify's logger.
    const log = pino({ level: config.logLevel });
    const artifacts = new ArtifactService({ db, config, storage: new LocalFileStorage(config.artifactsDir), log });
    if (opts.queue) artifacts.startSweeper();
    const jobArtifacts = jobArtifactsFrom(artifacts);
    // One chemistry pool per instance: the API's /depict and /describe and the job types (services.chem).
    const chem = new ChemPool({ threads: config.chemThreads, cacheEntries: config.chemCache, itemTimeoutMs: config.chemTimeoutMs });
    const transitions = { wallet, events: { append: appendEvent } };
    const retention = new RetentionSweep(db, log);
    if (opts.queue) retention.start();
    return {
      config,
      db,
      authenticator,
      limiter: new RateLimiter(),
      sessions: new SessionService(db, signer, config, invalidate),
      retention,
      keys: new KeyService(db, config, wallet, invalidate),
      users: new UserService(db, invalidate),
      lookups: new LookupService({ urls: config.lookups.urls, disabled: config.lookups.disabled, cache: new DbLookupCache(db) }),
      chem,
      wallet,
      queue,
      jobs: new JobService(db, wallet, queue, jobArtifacts, transitions, config.runtimeGraceSec),
      runtime: (slots, opts) => new JobRuntime(db, queue, jobArtifacts, transitions, { staleAfterMs: config.jobStaleAfterSec * 1000, runtimeGraceSec: config.runtimeGraceSec, ...opts, slots, services: { chem } }),
      events,
      artifacts,
    };
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

export interface BootstrapResult {
  email: string;
  /** Set only when the password was generated here (print it once). */
  generatedPassword: string | null;
}

/** First start: with no account at all, create the admin account of CONTRACT.md section 1. */
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

export async function closeServices(services: Services): Promise<void> {
  await services.artifacts.stopSweeper().catch(() => undefined);
  await services.retention.stop().catch(() => undefined);
  await services.chem.close().catch(() => undefined);
  await services.events.stop().catch(() => undefined);
  await services.queue.stop().catch(() => undefined);
  await services.authenticator.stop().catch(() => undefined);
  await services.db.close();
}
