import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export function sha256hex(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newRefreshToken(): string {
  return 'crr_' + crypto.randomBytes(32).toString('base64url');
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
  exp: number;
}

export type VerifyOutcome = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

const ISSUER = 'crucible';
const AUDIENCE = 'crucible-api';

/** Signs and verifies access tokens (HS256 JWTs carrying the session id). */
export class TokenSigner {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    readonly ttlSec: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(userId: string, sessionId: string): Promise<{ token: string; exp: number }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.ttlSec;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setJti(crypto.randomUUID())
      .sign(this.key);
    return { token, exp };
  }

  async verify(token: string): Promise<VerifyOutcome> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { userId: payload.sub, sessionId: payload.sid, exp: payload.exp } };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}
