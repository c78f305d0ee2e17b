// The database backends the suite runs against: PGlite always, PostgreSQL when the test
// runner found a server (scripts/run-tests.mjs sets CRUCIBLE_TEST_PG_URL).
import crypto from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { openPglite } from '../../src/db/pglite.js';
import { openPostgres } from '../../src/db/postgres.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A fresh, empty database; `drop` removes it (a plain function: callers destructure it). */
  create(): Promise<{ db: Database; url: string | null; drop: () => Promise<void> }>;
}

const pgAdminUrl = process.env.CRUCIBLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = process.env.CRUCIBLE_TEST_RUN_ID ?? `r${Date.now().toString(36)}`;

const pglite: Backend = {
  name: 'pglite',
  async create() {
    const db = await openPglite(null);
    return { db, url: null, drop: async () => db.close().catch(() => undefined) };
  },
};

const postgres: Backend = {
  name: 'postgres',
  async create() {
    const name = `crucible_t_${runId}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(pgAdminUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    const db = await openPostgres(url);
    return {
      db,
      url,
      async drop() {
        await db.close().catch(() => undefined);
        const c = new pg.Client({ connectionString: pgAdminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  },
};

/**
 * PostgreSQL is in the list when the runner found a server (or when run by hand with the variable unset).
 * PGlite is always first: `BACKENDS[0]` is the backend of the tests that need only one.
 */
export const BACKENDS: [Backend, ...Backend[]] = process.env.CRUCIBLE_TEST_PG_URL === '' ? [pglite] : [pglite, postgres];
