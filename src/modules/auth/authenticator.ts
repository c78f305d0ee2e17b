// Resolves the credential of a request (X-Api-Key or Bearer access token) to a Principal.
// Lookups are cached in process for a few seconds; every change to a key, session or
// account is announced on AUTH_CHANNEL and clears the cache of every instance.
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { Scope } from '../../api/principal.js';
import { keysStore } from '../keys/store.js';
import { parseKeySecret } from '../keys/secrets.js';
import { AUTH_CHANNEL } from './auth-events.js';
import type { Principal } from '../../api/principal.js';
import { sha256hex, type AccessClaims, type TokenSigner } from './tokens.js';

interface KeyEntry {
  principal: Principal;
  expiresAt: number | null;
}

interface SessionEntry {
  revoked: boolean;
  email: string;
  tier: number;
}

const CACHE_TTL_MS = 30_000;
const LAST_USED_WRITE_EVERY_MS = 60_000;
const ALL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['read', 'write']);

/** Three base64url parts: the shape of a JWT access token. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export class Authenticator {
  private readonly keys = new LRUCache<string, KeyEntry>({ max: 50_000, ttl: CACHE_TTL_MS });
  private readonly sessions = new LRUCache<string, SessionEntry>({ max: 50_000, ttl: CACHE_TTL_MS });
  /**
   * Access tokens whose signature and claims were verified, by the token itself: a token seen
   * again costs no HMAC (its expiry is still checked on every use, as jose does).
   */
  private readonly tokens = new LRUCache<string, AccessClaims>({ max: 50_000, ttl: CACHE_TTL_MS });
  private readonly lastUsedWritten = new Map<string, number>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Database,
    private readonly signer: TokenSigner,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(AUTH_CHANNEL, () => this.invalidate());
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }

  /** Drops every cached credential (after any key, session or account change). */
  invalidate(): void {
    this.keys.clear();
    this.sessions.clear();
    this.tokens.clear();
  }

  /**
   * null when the request carries no credential; throws 401/400 for a bad one. An API key
   * already in the cache is answered synchronously (no promise on the hot path).
   */
  authenticate(apiKeyHeader: string | string[] | undefined, authorization: string | undefined): Principal | null | Promise<Principal | null> {
    const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
    const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (authorization && !bearer) throw new AppError('unauthenticated', 'the Authorization header must be "Bearer <access token>"', { challenge: 'Bearer' });
    if (apiKey && bearer) throw new AppError('bad-request', 'send one credential: either X-Api-Key or Authorization, not both');
    // The right credential in the wrong header: say which header it belongs in.
    if (apiKey && JWT_SHAPE.test(apiKey)) throw new AppError('unauthenticated', 'this is an access token, not an API key: send it as "Authorization: Bearer <access token>"');
    if (bearer?.startsWith('crk_')) throw new AppError('unauthenticated', 'this is an API key, not an access token: send it in the X-Api-Key header', { challenge: 'Bearer' });
    if (apiKey) {
      // Keyed by the secret itself (held in memory at most 30 s): a cache hit costs no hashing.
      const entry = this.keys.get(apiKey);
      return entry ? this.admitKey(entry) : this.loadApiKey(apiKey);
    }
    if (bearer) return this.byAccessToken(bearer);
    return null;
  }

  private async loadApiKey(secret: string): Promise<Principal> {
    const hash = sha256hex(secret);
    const prefix = parseKeySecret(secret);
    const row = prefix ? await keysStore.byPrefix(this.db, prefix) : null;
    const a = Buffer.from(hash, 'hex');
    const b = Buffer.from(row?.secret_hash ?? '0'.repeat(64), 'hex');
    if (!row || !crypto.timingSafeEqual(a, b)) throw new AppError('unauthenticated', 'the API key is not valid (unknown, revoked or rotated)');
    const entry: KeyEntry = {
      expiresAt: row.expires_at?.getTime() ?? null,
      principal: {
        userId: row.user_id,
        email: row.email,
        tier: row.tier,
        via: 'api_key',
        scopes: new Set(row.scopes as Scope[]),
        keyId: row.id,
        sessionId: null,
        allowStructureSearch: row.allow_structure_search,
        spendCeilingMicros: row.spend_ceiling_micros,
      },
    };
    this.keys.set(secret, entry);
    return this.admitKey(entry);
  }

  private admitKey(entry: KeyEntry): Principal {
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) throw new AppError('token-expired', 'the API key has expired');
    this.touch(entry.principal.keyId!);
    return entry.principal;
  }

  /** last_used_at is written at most once a minute per key, off the request's path. */
  private touch(keyId: string): void {
    const now = Date.now();
    const last = this.lastUsedWritten.get(keyId);
    if (last !== undefined && now - last < LAST_USED_WRITE_EVERY_MS) return;
    this.lastUsedWritten.set(keyId, now);
    keysStore.touch(this.db, keyId).catch(() => this.lastUsedWritten.delete(keyId));
  }

  /** A token and session both in the cache are answered synchronously (no promise on the hot path). */
  private byAccessToken(token: string): Principal | Promise<Principal> {
    const claims = this.tokens.get(token);
    if (claims) {
      // jose's check: expired once `exp` is not after the current second.
      if (claims.exp <= Math.floor(Date.now() / 1000)) throw expiredToken();
      const s = this.sessions.get(claims.sessionId);
      if (s) return tokenPrincipal(claims, s);
    }
    return this.verifyAccessToken(token, claims);
  }

  private async verifyAccessToken(token: string, known: AccessClaims | undefined): Promise<Principal> {
    let claims = known;
    if (!claims) {
      const v = await this.signer.verify(token);
      if (!v.ok) {
        if (v.reason === 'expired') throw expiredToken();
        throw new AppError('unauthenticated', 'the access token is not valid');
      }
      claims = v.claims;
      this.tokens.set(token, claims);
    }
    const { userId, sessionId } = claims;
    let s = this.sessions.get(sessionId);
    if (!s) {
      const { rows } = await this.db.query<{ revoked_at: Date | null; email: string; tier: number }>(
        'SELECT s.revoked_at, u.email, u.tier FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2',
        [sessionId, userId],
      );
      if (!rows[0]) throw new AppError('token-revoked', 'the session of this access token no longer exists');
      s = { revoked: rows[0].revoked_at !== null, email: rows[0].email, tier: rows[0].tier };
      this.sessions.set(sessionId, s);
    }
    return tokenPrincipal(claims, s);
  }
}

const expiredToken = () => new AppError('token-expired', 'the access token has expired; refresh it with POST /api/v1/auth/refresh');

function tokenPrincipal({ userId, sessionId }: AccessClaims, s: SessionEntry): Principal {
  if (s.revoked) throw new AppError('token-revoked', 'the session of this access token has ended (logged out or revoked)');
  return {
    userId,
    email: s.email,
    tier: s.tier,
    via: 'token',
    scopes: ALL_SCOPES,
    keyId: null,
    sessionId,
    allowStructureSearch: false,
    spendCeilingMicros: null,
  };
}
