// An in-process instance for the benchmarks: the API on a random local port over a fresh
// PGlite data directory or a fresh PostgreSQL database (created here, dropped on close), with an
// optional job runtime, and enterprise accounts logged in with an access token.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { closeServices, createServices } from '../../src/instance.js';
import type { Services } from '../../src/services.js';
import { freshPgDatabase } from './pg.js';

export const PG_ADMIN = process.env.CRUCIBLE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'bench-password';

export interface BenchUser {
  id: string;
  token: string;
}

export interface BenchInstance {
  services: Services;
  base: string;
  dbUrl: string | null;
  /** An enterprise account with $1,000 to spend. */
  user: BenchUser;
  close(): Promise<void>;
}

/** An enterprise account with `creditUsd` in its wallet, logged in. */
export async function benchUser(inst: Pick<BenchInstance, 'services' | 'base'>, name: string, creditUsd: number): Promise<BenchUser> {
  const email = `bench-${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = await inst.services.users.create(email, PASSWORD, 'enterprise');
  await inst.services.wallet.credit(user.id, Math.round(creditUsd * 1_000_000), 'bench');
  const login = await fetch(`${inst.base}/api/v1/auth/login-email`, { method: 'POST', body: new URLSearchParams({ username: email, password: PASSWORD }) });
  if (!login.ok) throw new Error(`login ${email}: ${login.status} ${await login.text()}`);
  return { id: user.id, token: ((await login.json()) as { access_token: string }).access_token };
}

/** With `workers`, a job runtime of that many slots runs in this process (0: its sweeps only); `env` adds to or overrides the configuration. */
export async function startInstance(backend: 'pglite' | 'postgres', o: { workers?: number; env?: Record<string, string> } = {}): Promise<BenchInstance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-'));
  const pgdb = backend === 'postgres' ? await freshPgDatabase(PG_ADMIN) : null;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    CRUCIBLE_DATA_DIR: dataDir,
    DATABASE_URL: pgdb?.url ?? '',
    CRUCIBLE_WORKERS: String(o.workers ?? 0),
    CRUCIBLE_CHEM_CACHE: '0',
    // A benchmark waits on jobs for up to an hour: its access token must outlive them (15 min by default).
    CRUCIBLE_ACCESS_TOKEN_TTL: '86400',
    ...o.env,
  });
  const services = await createServices(config);
  const app = await buildApp(services, { logger: false });
  const runtime = o.workers === undefined ? null : services.runtime(o.workers);
  await runtime?.start();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return {
    services,
    base,
    dbUrl: pgdb?.url ?? null,
    user: await benchUser({ services, base }, 'main', 1_000),
    async close() {
      await runtime?.stop();
      await app.close();
      await closeServices(services);
      await pgdb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A call of /api/v1 as the instance's user: the answer parsed when it is JSON, else its text; throws on a status >= 400. */
export async function benchApi(inst: BenchInstance, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(`${inst.base}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${inst.user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return /json/.test(r.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}
