// The long-lived parts of a running instance. The core is built by instance.ts; every feature
// module adds what it provides by augmenting this interface in its index.ts
// (`declare module '../../services.js' { interface Services { ... } }`) and building it in its
// descriptor's `provide` (docs/architecture.md, "Modules").
import type { Logger } from 'pino';
import type { ChemPool } from './chem/pool.js';
import type { JobQueue } from './compute/queue.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Scheduler } from './scheduler.js';

export interface Services {
  config: Config;
  db: Database;
  /** Background work (sweeps, runtimes) logs here; request logs go through Fastify's logger. */
  log: Logger;
  /** RDKit worker threads (and the drawing/description cache) for chemistry. */
  chem: ChemPool;
  /** The job queue (pg-boss on the same database). */
  queue: JobQueue;
  /** Periodic background tasks of this process. */
  scheduler: Scheduler;
}
