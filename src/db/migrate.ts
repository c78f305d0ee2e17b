import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import type { Database } from './database.js';

const MIGRATIONS_DIR = path.join(PACKAGE_ROOT, 'src', 'db', 'migrations');
import { LOCKS } from './locks.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3,}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.split('_')[0]), name: f.replace(/\.sql$/, ''), sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/**
 * Applies every migration not yet applied, each in its own transaction. Safe when several
 * processes start at once: a transaction-scoped advisory lock lets one migrator at a time
 * read the applied set and apply the next version.
 */
export async function migrate(db: Database, migrations = listMigrations()): Promise<string[]> {
  await db
    .query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    .catch(async (err) => {
      // Two processes racing on CREATE TABLE IF NOT EXISTS can collide on the catalog; the loser retries once.
      if ((err as { code?: string }).code !== '23505') throw err;
    });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.migrate]);
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}
