// Shared set-up of the lookup API tests: a real Crucible instance (startHarness: real database,
// real HTTP) whose CRUCIBLE_*_URL variables point at the local stand-in of the five sources
// (test/lookups/stand-in.ts), which logs every request it receives, so a test can count what
// left the service. Also: credentials of each kind, and the OpenAPI components to validate
// every answer against.
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import { buildApp } from '../../src/http/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { closeServices, createServices } from '../../src/instance.js';
import type { Services } from '../../src/services.js';
import type { Backend } from '../helpers/backends.js';
import { startHarness, type Harness, type Res } from '../helpers/harness.js';
import { assertLocalUrls, LOOKUP_URL_VARS, StandIn } from '../lookups/stand-in.js';

export { StandIn };

/** CRUCIBLE_*_URL for every host, pointing at the stand-in. */
export function standInEnv(standIn: StandIn, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CRUCIBLE_PUBCHEM_URL: standIn.base,
    CRUCIBLE_CHEMBL_URL: standIn.base,
    CRUCIBLE_OPENTARGETS_URL: standIn.base,
    CRUCIBLE_UNIPROT_URL: standIn.base,
    CRUCIBLE_RCSB_SEARCH_URL: standIn.base,
    CRUCIBLE_RCSB_DATA_URL: standIn.base,
    CRUCIBLE_RCSB_FILES_URL: standIn.base,
    ...extra,
  };
}

export interface Callers {
  /** Access token of the account. */
  token: string;
  /** API key without allow_structure_search (the default). */
  key: string;
  keyId: string;
  /** API key with allow_structure_search. */
  structureKey: string;
  structureKeyId: string;
}

export async function callers(h: Harness): Promise<Callers> {
  const u = await h.user();
  const plain = await h.key(u.token, { scopes: ['read'] });
  const structure = await h.key(u.token, { scopes: ['read'], allow_structure_search: true });
  return { token: u.token, key: plain.secret, keyId: plain.id, structureKey: structure.secret, structureKeyId: structure.id };
}

type Credential = { key: string } | { token: string };

/** How long a lookup request may take before the test fails (instead of hanging the run). */
const LOOKUP_REQUEST_TIMEOUT_MS = 30_000;

/**
 * POST /api/v1/lookup/{endpoint}. With a client-side deadline: if the instance never answers
 * (a stalled database pool, an upstream call that escapes its timeout), the test fails with a
 * TimeoutError naming the endpoint instead of stalling the whole run.
 */
export async function lookup(h: { base: string }, endpoint: string, body: unknown, cred: Credential): Promise<Res> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if ('key' in cred) headers['x-api-key'] = cred.key;
  else headers.authorization = `Bearer ${cred.token}`;
  let r: Response;
  let text: string;
  try {
    r = await fetch(`${h.base}/api/v1/lookup/${endpoint}`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(LOOKUP_REQUEST_TIMEOUT_MS) });
    text = await r.text();
  } catch (err) {
    throw new Error(`POST /lookup/${endpoint}: no answer within ${LOOKUP_REQUEST_TIMEOUT_MS} ms (${(err as Error).name})`, { cause: err });
  }
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: r.status, headers: r.headers, body: parsed, text };
}

/** Validators for the response components of the served OpenAPI document. */
export async function responseValidators(h: Harness): Promise<(endpoint: string, body: unknown) => void> {
  const doc = (await h.req('GET', '/openapi.json')).body;
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The document's references are '#/components/schemas/<name>': resolve them inside the document.
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  return (endpoint, body) => {
    const op = doc.paths[`/api/v1/lookup/${endpoint}`].post;
    const ref: string = op.responses['200'].content['application/json'].schema.$ref;
    let v = cache.get(ref);
    if (!v) {
      v = ajv.getSchema(`openapi${ref}`)!;
      cache.set(ref, v);
    }
    assert.ok(v, `no component for ${ref}`);
    assert.ok(v(body), `${endpoint} answer does not match ${ref}: ${ajv.errorsText(v.errors)}\n${JSON.stringify(body).slice(0, 2000)}`);
  };
}

interface Instance {
  base: string;
  services: Services;
  req: Harness['req'];
  close(): Promise<void>;
}

/**
 * A Crucible instance of its own (services, HTTP server) from a config: on `db` when given
 * (e.g. a second connection to the harness's PostgreSQL database), else on the database the
 * config names (PGlite in its data dir).
 */
export async function startInstance(config: Config, db?: Database): Promise<Instance> {
  assertLocalUrls(config.lookups.urls);
  const services = await createServices(config, db);
  const app = await buildApp(services, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const req: Harness['req'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.key) headers['x-api-key'] = o.key;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const r = await fetch(base + path, { method, headers, body });
    const text = await r.text();
    return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null, text };
  };
  return {
    base,
    services,
    req,
    async close() {
      await app.close();
      await closeServices(services);
    },
  };
}

/** A second instance on the harness's PostgreSQL database. */
export async function secondInstance(dbUrl: string, config: Config): Promise<Instance> {
  return startInstance(config, await openPostgres(dbUrl));
}

export async function withHarness(backend: Backend, standIn: StandIn, env: Record<string, string> = {}): Promise<Harness> {
  const e = standInEnv(standIn, env);
  // Checked before the instance starts: every lookup host is set, and local.
  assertLocalUrls(Object.fromEntries(LOOKUP_URL_VARS.map((v) => [v, e[v] ?? 'https://unset.invalid'])));
  return startHarness(backend, e);
}

/** Rows of the cache table. */
export async function cacheRows(h: Harness): Promise<{ key: string; value: any; ttl_hours: number }[]> {
  const { rows } = await h.services.db.query<{ key: string; value: any; ttl_hours: number }>(
    `SELECT key, value, round(extract(epoch FROM (expires_at - created_at)) / 3600)::int AS ttl_hours FROM lookup_cache ORDER BY created_at`,
  );
  return rows;
}
