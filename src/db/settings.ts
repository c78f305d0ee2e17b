// The settings table (its only writer): instance-wide values shared by every process through
// the database, such as generated secrets.
import crypto from 'node:crypto';
import type { Queryable } from './database.js';

/** The value of `key`, generated once by the first process that asks (every process then reads the same). */
export async function sharedSecret(q: Queryable, key: string, bytes: number): Promise<string> {
  await q.query(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, crypto.randomBytes(bytes).toString('base64url')]);
  const { rows } = await q.query<{ value: string }>(`SELECT value FROM settings WHERE key = $1`, [key]);
  const value = rows[0]?.value;
  if (value === undefined) throw new Error(`the setting ${key} could not be stored`);
  return value;
}
