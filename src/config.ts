// Every environment variable Crucible reads, parsed and typed in one place.
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PREPARED_STATEMENTS } from './db/prepared.js';
import { PACKAGE_ROOT } from './paths.js';

export type TierName = 'free' | 'pro' | 'team' | 'enterprise';
export const TIER_NAMES: readonly TierName[] = ['free', 'pro', 'team', 'enterprise'];

/** The name of a stored tier number (the users table's CHECK keeps it within 0..3). */
export function tierNameOf(tier: number): TierName {
  const name = TIER_NAMES[tier];
  if (!name) throw new Error(`tier ${tier} is not one of 0..${TIER_NAMES.length - 1}`);
  return name;
}

export interface TierLimits {
  apiKeys: number;
  storageBytes: number;
  monthlyCalls: number | null; // null = unlimited
  requestsPerMinute: number;
}

const GiB = 1024 ** 3;
export const DEFAULT_TIERS: Record<TierName, TierLimits> = {
  free: { apiKeys: 2, storageBytes: 1 * GiB, monthlyCalls: 1_000, requestsPerMinute: 120 },
  pro: { apiKeys: 10, storageBytes: 50 * GiB, monthlyCalls: 50_000, requestsPerMinute: 600 },
  team: { apiKeys: 25, storageBytes: 500 * GiB, monthlyCalls: 500_000, requestsPerMinute: 1_200 },
  enterprise: { apiKeys: 100, storageBytes: 5 * 1024 * GiB, monthlyCalls: null, requestsPerMinute: 6_000 },
};

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Where the local artifact store keeps its files (CRUCIBLE_ARTIFACTS_DIR, default <dataDir>/artifacts). */
  artifactsDir: string;
  databaseUrl: string | null;
  /** Statement texts run as prepared statements on PostgreSQL, at most (CRUCIBLE_DB_PREPARED, default 256; 0 = none). */
  databasePrepared: number;
  /** Where artifact objects are written (docs/architecture.md, "Artifact storage"). */
  storage: StorageConfig;
  admin: { email: string; password: string | null; tier: TierName; creditUsd: number };
  workers: number;
  /** A running job whose worker has not heart-beaten for this long is requeued (CRUCIBLE_JOB_STALE_SEC). */
  jobStaleAfterSec: number;
  /** The grace in the runtime limit, 3 x expected + grace (CRUCIBLE_RUNTIME_GRACE_SEC, default 60). */
  runtimeGraceSec: number;
  /** After SIGTERM/SIGINT, how long in-flight requests may still run before their connections are closed (CRUCIBLE_SHUTDOWN_GRACE_SEC, default 10). */
  shutdownGraceSec: number;
  chemThreads: number;
  /** Entries of the drawing/description cache (CRUCIBLE_CHEM_CACHE, default 10000; 0 = off). */
  chemCache: number;
  /** Longest one chemistry item may run before its worker thread is replaced (CRUCIBLE_CHEM_TIMEOUT_MS). */
  chemTimeoutMs: number;
  jwtSecret: string | null; // null: generated once and stored in the database
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  tiers: Record<TierName, TierLimits>;
  loginLimits: { perAccountFailures: number; perAccountWindowSec: number; perIpAttempts: number; perIpWindowSec: number };
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  /** A request body that sends no byte for this long is answered 408 and its connection closed (CRUCIBLE_BODY_IDLE_TIMEOUT_SEC, default 30). */
  bodyIdleTimeoutSec: number;
  logLevel: string;
  trustProxy: boolean;
  lookups: {
    urls: Record<LookupSourceName, string>;
    disabled: LookupSourceName[];
  };
  /** GET /auth/refresh stops working after this instant. */
  refreshGetSunset: Date;
  assistant: AssistantConfig;
}

/** The Assistant's language model (docs/assistant.md, "Configuration"). */
export interface AssistantConfig {
  /** CRUCIBLE_ASSISTANT_PROVIDER: builtin (default, embedded) or openai (an OpenAI-compatible Chat Completions server). */
  provider: 'builtin' | 'openai';
  /** CRUCIBLE_ASSISTANT_URL: the server's base URL with its path, e.g. https://api.openai.com/v1 (openai only). */
  url: string | null;
  /** CRUCIBLE_ASSISTANT_MODEL (openai: required; builtin: crucible-builtin-1). */
  model: string;
  /** CRUCIBLE_ASSISTANT_API_KEY: sent to the server as a bearer token; never logged or returned. */
  apiKey: string | null;
  /** USD per million input and output tokens (CRUCIBLE_ASSISTANT_PRICE_INPUT_PER_MTOK, _OUTPUT_PER_MTOK). */
  priceInputPerMTok: number;
  priceOutputPerMTok: number;
  /** The most tokens (input and output together) one turn may use: its hold is this times the higher price (CRUCIBLE_ASSISTANT_MAX_TOKENS). */
  maxTokens: number;
  /** A running turn whose process has not beaten its heartbeat for this long is ended by the sweep (CRUCIBLE_ASSISTANT_TURN_STALE_SEC). */
  turnStaleSec: number;
}

function assistantConfig(env: NodeJS.ProcessEnv): AssistantConfig {
  const provider = (env.CRUCIBLE_ASSISTANT_PROVIDER || 'builtin').trim().toLowerCase();
  if (provider !== 'builtin' && provider !== 'openai') throw new ConfigError(`CRUCIBLE_ASSISTANT_PROVIDER must be builtin or openai, got "${env.CRUCIBLE_ASSISTANT_PROVIDER}"`);
  let base: string | null = null;
  if (provider === 'openai') {
    const raw = env.CRUCIBLE_ASSISTANT_URL;
    if (!raw || !env.CRUCIBLE_ASSISTANT_MODEL)
      throw new ConfigError('CRUCIBLE_ASSISTANT_PROVIDER=openai needs CRUCIBLE_ASSISTANT_URL (e.g. https://api.openai.com/v1) and CRUCIBLE_ASSISTANT_MODEL');
    try {
      const u = new URL(raw);
      base = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
    } catch {
      throw new ConfigError(`CRUCIBLE_ASSISTANT_URL must be a URL like https://api.openai.com/v1, got "${raw}"`);
    }
  }
  return {
    provider,
    url: base,
    model: env.CRUCIBLE_ASSISTANT_MODEL || 'crucible-builtin-1',
    apiKey: env.CRUCIBLE_ASSISTANT_API_KEY || null,
    priceInputPerMTok: num(env, 'CRUCIBLE_ASSISTANT_PRICE_INPUT_PER_MTOK', 0.5),
    priceOutputPerMTok: num(env, 'CRUCIBLE_ASSISTANT_PRICE_OUTPUT_PER_MTOK', 1.5),
    maxTokens: int(env, 'CRUCIBLE_ASSISTANT_MAX_TOKENS', 16_000, 1_000),
    turnStaleSec: int(env, 'CRUCIBLE_ASSISTANT_TURN_STALE_SEC', 15, 2),
  };
}

export type StorageBackendName = 'local' | 'postgres' | 's3';

export interface S3Config {
  /** Unset: AWS S3 itself (by region). Set for MinIO, Ceph RGW, R2 and other S3-compatible stores. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Key prefix inside the bucket (CRUCIBLE_S3_PREFIX, default none). */
  prefix: string;
}

export interface StorageConfig {
  /** CRUCIBLE_STORAGE: local (default), postgres or s3. */
  backend: StorageBackendName;
  /** CRUCIBLE_STORAGE_SHARED=1: the local data directory is a filesystem every instance shares. */
  shared: boolean;
  /** Set when CRUCIBLE_S3_BUCKET is (required with CRUCIBLE_STORAGE=s3; lets other backends read s3 objects). */
  s3: S3Config | null;
  /**
   * CRUCIBLE_INLINE_RESULT_BYTES (default 64 KiB with local or postgres storage, 0 with s3; at
   * most 1 MiB; 0: never): a job result archive up to this size is kept in the database with its
   * artifact row, in the transaction that ends the job (docs/architecture.md, "Artifact storage").
   */
  inlineResultBytes: number;
}

function storageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const backend = (env.CRUCIBLE_STORAGE || 'local').trim().toLowerCase();
  if (backend !== 'local' && backend !== 'postgres' && backend !== 's3') throw new ConfigError(`CRUCIBLE_STORAGE must be local, postgres or s3, got "${env.CRUCIBLE_STORAGE}"`);
  const bucket = env.CRUCIBLE_S3_BUCKET?.trim();
  if (backend === 's3' && !bucket)
    throw new ConfigError('CRUCIBLE_STORAGE=s3 needs CRUCIBLE_S3_BUCKET (and CRUCIBLE_S3_REGION, credentials, and CRUCIBLE_S3_ENDPOINT for a store other than AWS)');
  const endpoint = env.CRUCIBLE_S3_ENDPOINT ? url(env, 'CRUCIBLE_S3_ENDPOINT', '') : undefined;
  const prefix = (env.CRUCIBLE_S3_PREFIX ?? '').replace(/^\/+/, '');
  // On S3 the operator chose to keep bytes out of the database: there, only when asked for.
  const inlineResultBytes = int(env, 'CRUCIBLE_INLINE_RESULT_BYTES', backend === 's3' ? 0 : 64 * 1024);
  if (inlineResultBytes > 1024 * 1024) throw new ConfigError(`CRUCIBLE_INLINE_RESULT_BYTES must be at most 1048576 (1 MiB), got "${env.CRUCIBLE_INLINE_RESULT_BYTES}"`);
  return {
    backend,
    inlineResultBytes,
    shared: flag(env, 'CRUCIBLE_STORAGE_SHARED'),
    s3: bucket
      ? {
          ...(endpoint ? { endpoint } : {}),
          bucket,
          region: env.CRUCIBLE_S3_REGION || 'us-east-1',
          ...(env.CRUCIBLE_S3_ACCESS_KEY_ID ? { accessKeyId: env.CRUCIBLE_S3_ACCESS_KEY_ID } : {}),
          ...(env.CRUCIBLE_S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.CRUCIBLE_S3_SECRET_ACCESS_KEY } : {}),
          forcePathStyle: flag(env, 'CRUCIBLE_S3_FORCE_PATH_STYLE'),
          prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
        }
      : null,
  };
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`);
}

/**
 * Why this process must not start with this storage, or null: with a PostgreSQL server, API
 * instances without workers and worker processes run on several machines, and an artifact
 * written to one machine's data directory is not there for the others.
 */
export function unsharedStorageProblem(config: Config, mode: 'serve' | 'worker'): string | null {
  if (!config.databaseUrl || config.storage.backend !== 'local' || config.storage.shared) return null;
  if (mode === 'serve' && config.workers > 0) return null;
  const who = mode === 'worker' ? 'a worker' : 'an API instance without workers (CRUCIBLE_WORKERS=0)';
  return `${who} on a shared database cannot keep artifacts in its own data directory (${config.artifactsDir}): other machines could not read them. Set CRUCIBLE_STORAGE=postgres or CRUCIBLE_STORAGE=s3, or CRUCIBLE_STORAGE_SHARED=1 if that directory is a filesystem every instance mounts`;
}

export type LookupSourceName = 'pubchem' | 'chembl' | 'opentargets' | 'uniprot' | 'rcsb_search' | 'rcsb_data' | 'rcsb_files';

class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function num(env: NodeJS.ProcessEnv, name: string, def: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

function tierName(env: NodeJS.ProcessEnv, name: string, def: TierName): TierName {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (!raw) return def;
  const byNumber = TIER_NAMES[Number(raw)];
  if (/^\d$/.test(raw) && byNumber) return byNumber;
  if ((TIER_NAMES as readonly string[]).includes(raw)) return raw as TierName;
  throw new ConfigError(`${name} must be one of ${TIER_NAMES.join(', ')}, got "${raw}"`);
}

/** CRUCIBLE_TIER_<NAME>_<FIELD> overrides a tier figure, e.g. CRUCIBLE_TIER_FREE_API_KEYS=5. */
function tiers(env: NodeJS.ProcessEnv): Record<TierName, TierLimits> {
  const out = {} as Record<TierName, TierLimits>;
  for (const t of TIER_NAMES) {
    const d = DEFAULT_TIERS[t];
    const p = `CRUCIBLE_TIER_${t.toUpperCase()}_`;
    const calls = env[p + 'MONTHLY_CALLS'];
    out[t] = {
      apiKeys: int(env, p + 'API_KEYS', d.apiKeys),
      storageBytes: int(env, p + 'STORAGE_BYTES', d.storageBytes),
      monthlyCalls: calls === 'unlimited' ? null : calls ? int(env, p + 'MONTHLY_CALLS', 0) : d.monthlyCalls,
      requestsPerMinute: int(env, p + 'REQUESTS_PER_MINUTE', d.requestsPerMinute, 1),
    };
  }
  return out;
}

function url(env: NodeJS.ProcessEnv, name: string, def: string): string {
  const raw = env[name];
  if (!raw) return def;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL like http://127.0.0.1:9001, got "${raw}"`);
  }
  return `${u.protocol}//${u.host}`;
}

const LOOKUP_SOURCES: LookupSourceName[] = ['pubchem', 'chembl', 'opentargets', 'uniprot', 'rcsb_search', 'rcsb_data', 'rcsb_files'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // The default data directory is the project's (`<project root>/data`), wherever the command
  // runs from: from a subdirectory, `npx crucible users list` must find the server's database,
  // not create another one in the subdirectory.
  const dataDir = path.resolve(env.CRUCIBLE_DATA_DIR || path.join(PACKAGE_ROOT, 'data'));
  const disabledRaw = (env.CRUCIBLE_LOOKUPS_DISABLED ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const disabled: LookupSourceName[] = [];
  for (const name of disabledRaw) {
    if (name === 'rcsb') disabled.push('rcsb_search', 'rcsb_data', 'rcsb_files');
    else if ((LOOKUP_SOURCES as string[]).includes(name)) disabled.push(name as LookupSourceName);
    else throw new ConfigError(`CRUCIBLE_LOOKUPS_DISABLED: unknown source "${name}" (known: pubchem, chembl, opentargets, uniprot, rcsb)`);
  }
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 8000),
    dataDir,
    artifactsDir: path.resolve(env.CRUCIBLE_ARTIFACTS_DIR || path.join(dataDir, 'artifacts')),
    databaseUrl: env.DATABASE_URL || null,
    databasePrepared: int(env, 'CRUCIBLE_DB_PREPARED', DEFAULT_PREPARED_STATEMENTS),
    storage: storageConfig(env),
    admin: {
      email: (env.CRUCIBLE_ADMIN_EMAIL || 'admin@crucible.local').trim(),
      password: env.CRUCIBLE_ADMIN_PASSWORD || null,
      tier: tierName(env, 'CRUCIBLE_ADMIN_TIER', 'pro'),
      creditUsd: num(env, 'CRUCIBLE_ADMIN_CREDIT_USD', 100),
    },
    workers: int(env, 'CRUCIBLE_WORKERS', cores),
    jobStaleAfterSec: int(env, 'CRUCIBLE_JOB_STALE_SEC', 15, 2),
    runtimeGraceSec: int(env, 'CRUCIBLE_RUNTIME_GRACE_SEC', 60),
    shutdownGraceSec: int(env, 'CRUCIBLE_SHUTDOWN_GRACE_SEC', 10),
    chemThreads: int(env, 'CRUCIBLE_CHEM_THREADS', cores, 1),
    chemCache: int(env, 'CRUCIBLE_CHEM_CACHE', 10_000),
    chemTimeoutMs: int(env, 'CRUCIBLE_CHEM_TIMEOUT_MS', 10_000, 100),
    jwtSecret: env.CRUCIBLE_JWT_SECRET || null,
    accessTokenTtlSec: int(env, 'CRUCIBLE_ACCESS_TOKEN_TTL', 900, 1),
    refreshTokenTtlSec: int(env, 'CRUCIBLE_REFRESH_TOKEN_TTL', 30 * 24 * 3600, 1),
    tiers: tiers(env),
    loginLimits: {
      perAccountFailures: int(env, 'CRUCIBLE_LOGIN_MAX_FAILURES', 5, 1),
      perAccountWindowSec: 15 * 60,
      perIpAttempts: int(env, 'CRUCIBLE_LOGIN_MAX_PER_IP', 30, 1),
      perIpWindowSec: 60,
    },
    bodyLimitBytes: 1024 * 1024,
    uploadLimitBytes: int(env, 'CRUCIBLE_UPLOAD_LIMIT_BYTES', 512 * 1024 * 1024, 1),
    bodyIdleTimeoutSec: int(env, 'CRUCIBLE_BODY_IDLE_TIMEOUT_SEC', 30, 1),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.CRUCIBLE_TRUST_PROXY === '1' || env.CRUCIBLE_TRUST_PROXY === 'true',
    lookups: {
      urls: {
        pubchem: url(env, 'CRUCIBLE_PUBCHEM_URL', 'https://pubchem.ncbi.nlm.nih.gov'),
        chembl: url(env, 'CRUCIBLE_CHEMBL_URL', 'https://www.ebi.ac.uk'),
        opentargets: url(env, 'CRUCIBLE_OPENTARGETS_URL', 'https://api.platform.opentargets.org'),
        uniprot: url(env, 'CRUCIBLE_UNIPROT_URL', 'https://rest.uniprot.org'),
        rcsb_search: url(env, 'CRUCIBLE_RCSB_SEARCH_URL', 'https://search.rcsb.org'),
        rcsb_data: url(env, 'CRUCIBLE_RCSB_DATA_URL', 'https://data.rcsb.org'),
        rcsb_files: url(env, 'CRUCIBLE_RCSB_FILES_URL', 'https://files.rcsb.org'),
      },
      disabled,
    },
    refreshGetSunset: new Date(env.CRUCIBLE_REFRESH_GET_SUNSET || '2027-01-01T00:00:00Z'),
    assistant: assistantConfig(env),
  };
}

export { ConfigError };
