import type { Config } from '../config.js';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** The database the config names: PostgreSQL when DATABASE_URL is set, else PGlite in the data dir. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePrepared'>>): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { prepared: config.databasePrepared }) : openPglite(config.dataDir);
}
