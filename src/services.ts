// The long-lived parts of a running instance, built once and handed to every route module.
import type { ChemPool } from './chem/pool.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { Authenticator } from './modules/auth/authenticator.js';
import type { SessionService } from './modules/auth/sessions.js';
import type { RetentionSweep } from './modules/auth/retention.js';
import type { KeyService } from './modules/keys/service.js';
import type { UserService } from './modules/users/service.js';
import type { LookupService } from './lookups/index.js';
import type { WalletService } from './modules/wallet/service.js';
import type { JobQueue } from './compute/queue.js';
import type { JobRuntime, RuntimeOptions } from './compute/runtime.js';
import type { JobService } from './modules/jobs/service.js';
import type { ArtifactService } from './modules/artifacts/service.js';
import type { EventService } from './modules/events/service.js';

export interface Services {
  config: Config;
  db: Database;
  authenticator: Authenticator;
  limiter: RateLimiter;
  sessions: SessionService;
  /** Deletes old login attempts, idempotency keys, ended sessions and expired refresh tokens. */
  retention: RetentionSweep;
  keys: KeyService;
  users: UserService;
  /** RDKit worker threads (and the drawing/description cache) for chemistry. */
  chem: ChemPool;
  wallet: WalletService;
  queue: JobQueue;
  jobs: JobService;
  /** A compute worker runtime with this many slots (serve and `crucible worker` start one). */
  runtime(slots: number, opts?: Partial<Omit<RuntimeOptions, 'slots' | 'services'>>): JobRuntime;
  events: EventService;
  artifacts: ArtifactService;
  /** Science lookups (src/lookups/) with the database response cache. */
  lookups: LookupService;
}
