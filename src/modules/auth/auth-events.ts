import type { Queryable } from '../../db/database.js';

/** Channel on which every instance hears that cached credentials must be dropped. */
export const AUTH_CHANNEL = 'crucible_auth';

/** Inside the transaction that changes a credential: tell every instance (delivered on commit). */
export async function notifyAuthChange(q: Queryable, what: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, what]);
}
