// The login limits (docs/api-decisions.md, "Authentication and keys": failed attempts per
// account, attempts per client IP), enforced in the database so they hold across instances and
// under concurrent requests.
//
// Each attempt is reserved before the password is checked: one short transaction takes an
// advisory lock on the client IP and one on the lower-cased email (always in that order),
// counts the window, and inserts the attempt as failed. The password is verified after the
// commit (argon2 never runs inside a transaction); a correct one marks its row succeeded.
// Concurrent guesses therefore queue on the locks and each sees the rows of the ones before.
import type { Config } from '../../config.js';
import { firstRow, type Database, type Queryable } from '../../db/database.js';
import { LOCK_NAMES } from '../../db/locks.js';
import { AppError } from '../../errors.js';

type Limits = Config['loginLimits'];

interface WindowCounts {
  ip_attempts: number;
  ip_oldest: Date | null;
  failures: number;
  fail_oldest: Date | null;
}

const retryAfter = (oldest: Date | null, windowSec: number) => Math.max(1, Math.ceil(((oldest?.getTime() ?? Date.now()) + windowSec * 1000 - Date.now()) / 1000));

/** Reserves one login attempt (counted as failed until markSucceeded), or throws 429 rate-limited. Returns the attempt id. */
export async function reserveLoginAttempt(db: Database, l: Limits, emailLower: string, ip: string): Promise<string> {
  return db.transaction(async (tx) => {
    // Two statements, IP first: every login takes the locks in the same order, so none deadlock.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [LOCK_NAMES.loginIp(ip)]);
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [LOCK_NAMES.loginEmail(emailLower)]);
    const { rows } = await tx.query<WindowCounts>(
      `SELECT
         (SELECT count(*)::int FROM login_attempts WHERE ip = $1 AND created_at > now() - make_interval(secs => $3)) AS ip_attempts,
         (SELECT min(created_at) FROM login_attempts WHERE ip = $1 AND created_at > now() - make_interval(secs => $3)) AS ip_oldest,
         (SELECT count(*)::int FROM login_attempts WHERE email_lower = $2 AND NOT succeeded AND created_at > now() - make_interval(secs => $4)) AS failures,
         (SELECT min(created_at) FROM login_attempts WHERE email_lower = $2 AND NOT succeeded AND created_at > now() - make_interval(secs => $4)) AS fail_oldest`,
      [ip, emailLower, l.perIpWindowSec, l.perAccountWindowSec],
    );
    const r = firstRow(rows, 'the login window counts');
    if (r.ip_attempts >= l.perIpAttempts) {
      throw new AppError('rate-limited', `too many login attempts from this address: at most ${l.perIpAttempts} per minute`, {
        rateLimit: l.perIpAttempts,
        retryAfterSec: retryAfter(r.ip_oldest, l.perIpWindowSec),
      });
    }
    if (r.failures >= l.perAccountFailures) {
      throw new AppError('rate-limited', `too many failed logins for this account: at most ${l.perAccountFailures} per 15 minutes`, {
        rateLimit: l.perAccountFailures,
        retryAfterSec: retryAfter(r.fail_oldest, l.perAccountWindowSec),
      });
    }
    // now() is the transaction's start; clock_timestamp() orders the row after the lock wait.
    const inserted = await tx.query<{ id: string }>(
      'INSERT INTO login_attempts (email_lower, ip, succeeded, created_at) VALUES ($1, $2, false, clock_timestamp()) RETURNING id::text AS id',
      [emailLower, ip],
    );
    return firstRow(inserted.rows, 'the login attempt insert').id;
  });
}

/** The password was right: the reserved attempt no longer counts as a failure. */
export async function markLoginSucceeded(db: Database, attemptId: string): Promise<void> {
  await db.query('UPDATE login_attempts SET succeeded = true WHERE id = $1::bigint', [attemptId]);
}

/** Retention: deletes at most `batch` attempts older than `days`, oldest first. */
export async function purgeLoginAttempts(q: Queryable, days: number, batch: number): Promise<number> {
  const r = await q.query(`DELETE FROM login_attempts WHERE id IN (SELECT id FROM login_attempts WHERE created_at < now() - make_interval(days => $2) ORDER BY id LIMIT $1)`, [
    batch,
    days,
  ]);
  return r.rowCount;
}
