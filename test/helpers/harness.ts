// Starts a real Crucible instance (real database, real HTTP on a random port) for a test file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { JobRuntime } from '../../src/compute/runtime.js';
import { buildApp, type BuildOptions } from '../../src/http/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { closeServices, createServices } from '../../src/instance.js';
import type { Services } from '../../src/services.js';
import type { Backend } from './backends.js';
import { s3Env, startS3StandInProcess, type S3StandIn } from './s3-stand-in.js';

/**
 * The artifact store every harness uses unless a test sets CRUCIBLE_STORAGE itself:
 * CRUCIBLE_TEST_STORAGE (local by default; scripts/run-tests.mjs runs the artifact and job test
 * files again with postgres and with s3, the latter on an S3 stand-in started per harness).
 */
export const TEST_STORAGE = process.env.CRUCIBLE_TEST_STORAGE || 'local';

async function storageEnv(env: Record<string, string>): Promise<{ env: Record<string, string>; s3: S3StandIn | null }> {
  if (env.CRUCIBLE_STORAGE || TEST_STORAGE === 'local') return { env, s3: null };
  if (TEST_STORAGE === 'postgres') return { env: { CRUCIBLE_STORAGE: 'postgres', ...env }, s3: null };
  // In a process of its own: the parts it buffers must not count in this process's memory,
  // which the large-artifact tests measure.
  const s3 = await startS3StandInProcess();
  return {
    env: { ...s3Env(s3), ...env },
    s3,
  };
}

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ReqOpts {
  body?: unknown;
  form?: Record<string, string>;
  raw?: { body: string | Buffer; type: string };
  headers?: Record<string, string>;
  key?: string;
  token?: string;
}

export interface Harness {
  app: FastifyInstance;
  services: Services;
  config: Config;
  base: string;
  dbUrl: string | null;
  req<T = any>(method: string, path: string, opts?: ReqOpts): Promise<Res<T>>;
  /** Creates an account and logs in: returns its access token and refresh token. */
  user(opts?: { tier?: string; email?: string; password?: string }): Promise<{ email: string; password: string; token: string; refresh: string; userId: string }>;
  /** Creates an API key for a token holder and returns its secret. */
  key(token: string, body?: Record<string, unknown>): Promise<{ id: string; secret: string }>;
  runtime: JobRuntime | null;
  credit(userId: string, usd: number): Promise<void>;
  /** Polls GET /jobs/status until the job reaches one of `statuses`. */
  waitForJob(token: string, processId: string, statuses?: string[], timeoutMs?: number): Promise<{ status: string; message: string | null; result_artifact_id: string | null }>;
  close(): Promise<void>;
}

/** A JSON/form/raw request helper for the server at `base` (the body parsed when it is JSON). */
export function requester(base: string) {
  return async function req<T = any>(method: string, path: string, o: ReqOpts = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(o.body);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    } else if (o.raw) {
      headers['content-type'] = o.raw.type;
      body = o.raw.body;
    }
    if (o.key) headers['x-api-key'] = o.key;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const r = await fetch(base + path, { method, headers, body });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: r.status, headers: r.headers, body: parsed as T, text };
  };
}

let counter = 0;

interface HarnessOptions extends BuildOptions {
  /** Start a job runtime with this many slots (0: none). */
  workers?: number;
  runtime?: { staleAfterMs?: number; sweepMs?: number; heartbeatMs?: number; pollMs?: number };
}

export async function startHarness(backend: Backend, givenEnv: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const { env, s3 } = await storageEnv(givenEnv);
  const { db, url, drop } = await backend.create({ migrated: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-test-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', CRUCIBLE_DATA_DIR: dataDir, ...env });
  const services = await createServices(config, db);
  const app = await buildApp(services, { logger: false, ...opts });
  const runtime = opts.workers ? services.runtime(opts.workers, opts.runtime) : null;
  await runtime?.start();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${addr.port}`;

  const req = requester(base);

  const h: Harness = {
    app,
    services,
    config,
    base,
    dbUrl: url,
    req,
    async user(o = {}) {
      const email = o.email ?? `user${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const password = o.password ?? 'correct horse battery staple';
      const u = await services.users.create(email, password, o.tier ?? 'pro');
      const r = await req<any>('POST', '/api/v1/auth/login-email', { form: { username: email, password } });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
      return { email, password, token: r.body.access_token, refresh: r.body.refresh_token, userId: u.id };
    },
    async key(token, body = {}) {
      const r = await req<any>('POST', '/api/v1/auth/api-keys', { token, body: { name: `k-${++counter}`, ...body } });
      if (r.status !== 200) throw new Error(`key create failed: ${r.status} ${r.text}`);
      return { id: r.body.id, secret: r.body.api_key };
    },
    runtime,
    async credit(userId, usdAmount) {
      await services.wallet.credit(userId, Math.round(usdAmount * 1_000_000), 'test credit');
    },
    async waitForJob(_token, processId, statuses = ['completed', 'error', 'cancelled'], timeoutMs = 30_000) {
      // Polls the table (not the API, whose rate limit a tight loop would use up); assertions go through the API.
      const until = Date.now() + timeoutMs;
      for (;;) {
        const { rows } = await services.db.query<{ status: string; message: string; result_artifact_id: string | null }>(
          'SELECT status, message, result_artifact_id FROM jobs WHERE id = $1',
          [processId],
        );
        const j = rows[0];
        if (j && statuses.includes(j.status)) return { status: j.status, message: j.message || null, result_artifact_id: j.result_artifact_id };
        if (Date.now() > until) throw new Error(`job ${processId} still ${j?.status ?? 'missing'} after ${timeoutMs} ms`);
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    async close() {
      await runtime?.stop();
      await app.close();
      await closeServices(services).catch(() => undefined);
      await drop();
      await s3?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}
