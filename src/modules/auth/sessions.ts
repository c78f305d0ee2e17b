// Login sessions: login, refresh with rotation and reuse detection, logout.
import type { Config } from '../../config.js';
import { firstRow, type Database, type Queryable } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { usersStore } from '../users/store.js';
import { notifyAuthChange } from './auth-events.js';
import { markLoginSucceeded, reserveLoginAttempt } from './login-attempts.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { newRefreshToken, sha256hex, type TokenSigner } from './tokens.js';

export interface TokenPair {
  access_token: string;
  expires_at: number;
  expires_in: number;
  refresh_token: string;
  token_type: 'bearer';
}

export class SessionService {
  constructor(
    private readonly db: Database,
    private readonly signer: TokenSigner,
    private readonly config: Pick<Config, 'refreshTokenTtlSec' | 'loginLimits'>,
    private readonly onRevoke: () => void,
  ) {}

  private async issue(q: Queryable, userId: string, sessionId: string): Promise<TokenPair> {
    const refresh = newRefreshToken();
    await q.query(`INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
      sha256hex(refresh),
      sessionId,
      this.config.refreshTokenTtlSec,
    ]);
    const { token, exp } = await this.signer.sign(userId, sessionId);
    return { access_token: token, expires_at: exp, expires_in: this.signer.ttlSec, refresh_token: refresh, token_type: 'bearer' };
  }

  async login(email: string, password: string, ip: string): Promise<TokenPair> {
    const emailLower = email.trim().toLowerCase();
    // Counted (as a failure) before the password is checked, serialised per IP and per email.
    const attemptId = await reserveLoginAttempt(this.db, this.config.loginLimits, emailLower, ip);
    const user = await usersStore.byEmail(this.db, emailLower);
    // Same work whether or not the account exists: no enumeration by timing.
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
    if (!ok || user === null) throw new AppError('invalid-credentials', 'wrong email or password');
    await markLoginSucceeded(this.db, attemptId);
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>('INSERT INTO sessions (user_id) VALUES ($1) RETURNING id', [user.id]);
      return this.issue(tx, user.id, firstRow(rows, 'the session insert').id);
    });
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const outcome = await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ session_id: string; user_id: string; used_at: Date | null; expired: boolean; revoked_at: Date | null }>(
        `SELECT rt.session_id, s.user_id, rt.used_at, rt.expires_at <= now() AS expired, s.revoked_at
           FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
          WHERE rt.token_hash = $1
          FOR UPDATE OF rt, s`,
        [sha256hex(refreshToken)],
      );
      const rt = rows[0];
      if (!rt) return { kind: 'unknown' as const };
      if (rt.revoked_at) return { kind: 'revoked' as const };
      if (rt.used_at) {
        // A used refresh token presented again: someone holds a copy. End the whole session.
        await tx.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = 'refresh token reuse' WHERE id = $1`, [rt.session_id]);
        await notifyAuthChange(tx, `session:${rt.session_id}`);
        return { kind: 'reused' as const };
      }
      if (rt.expired) return { kind: 'expired' as const };
      await tx.query('UPDATE refresh_tokens SET used_at = now() WHERE token_hash = $1', [sha256hex(refreshToken)]);
      return { kind: 'ok' as const, pair: await this.issue(tx, rt.user_id, rt.session_id) };
    });
    switch (outcome.kind) {
      case 'ok':
        return outcome.pair;
      case 'unknown':
        throw new AppError('invalid-credentials', 'the refresh token is not recognised');
      case 'revoked':
        throw new AppError('token-revoked', 'the session of this refresh token has ended');
      case 'expired':
        throw new AppError('token-expired', 'the refresh token has expired; log in again');
      case 'reused':
        this.onRevoke();
        throw new AppError('token-revoked', 'this refresh token was already used; the session has been revoked for safety, log in again');
    }
  }

  async logout(sessionId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = 'logout' WHERE id = $1 AND revoked_at IS NULL`, [sessionId]);
      await notifyAuthChange(tx, `session:${sessionId}`);
    });
    this.onRevoke();
  }
}

/** Ends every open session of an account (a password change): their tokens stop working at once. */
export async function revokeAllSessions(tx: Queryable, userId: string, reason: string): Promise<number> {
  const r = await tx.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [userId, reason]);
  await notifyAuthChange(tx, `user:${userId}`);
  return r.rowCount;
}

/**
 * Retention: deletes at most `batch` sessions ended (revoked) more than `endedDays` ago, and
 * sessions never ended whose refresh tokens all expired more than `expiredDays` ago (their
 * refresh tokens go with them).
 */
export async function purgeEndedSessions(q: Queryable, endedDays: number, expiredDays: number, batch: number): Promise<number> {
  const r = await q.query(
    `DELETE FROM sessions WHERE id IN (
       SELECT s.id FROM sessions s
        WHERE s.created_at < now() - make_interval(days => $2)
          AND (s.revoked_at < now() - make_interval(days => $2)
               OR s.revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM refresh_tokens rt
                               WHERE rt.session_id = s.id AND rt.expires_at >= now() - make_interval(days => $3)))
        LIMIT $1)`,
    [batch, endedDays, expiredDays],
  );
  return r.rowCount;
}

/** Retention: deletes at most `batch` refresh tokens, used or not, that expired more than `days` ago. */
export async function purgeExpiredRefreshTokens(q: Queryable, days: number, batch: number): Promise<number> {
  const r = await q.query(`DELETE FROM refresh_tokens WHERE token_hash IN (SELECT token_hash FROM refresh_tokens WHERE expires_at < now() - make_interval(days => $2) LIMIT $1)`, [
    batch,
    days,
  ]);
  return r.rowCount;
}
