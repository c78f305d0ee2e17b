// API key rules: tier limit, unique names, expiry at least a minute ahead, rotation, hard delete.
import type { Static } from '@sinclair/typebox';
import { tierNameOf, type Config } from '../../config.js';
import { isUniqueViolation, type Database } from '../../db/database.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { iso, micros, usd } from '../../api/schemas.js';
import { notifyAuthChange } from '../auth/auth-events.js';
import type { CreateApiKeyRequest, RenameApiKeyRequest } from './schemas.js';
import { keyPrefixOf, newKeySecret } from './secrets.js';
import { keysStore, type ApiKeyRow } from './store.js';

const MIN_EXPIRY_AHEAD_MS = 60_000;

export interface KeySpendSource {
  /** Micro-dollars reserved with this key in the current calendar month (UTC). */
  accruedThisMonth(keyIds: string[]): Promise<Map<string, number>>;
}

export function keyView(k: ApiKeyRow, accruedMicros: number) {
  return {
    id: k.id,
    name: k.name,
    key_prefix: keyPrefixOf(k.public_prefix),
    created_at: k.created_at.toISOString(),
    expires_at: iso(k.expires_at),
    last_used_at: iso(k.last_used_at),
    revoked_at: iso(k.revoked_at),
    rotated_at: iso(k.rotated_at),
    scopes: k.scopes as ('read' | 'write')[],
    allow_structure_search: k.allow_structure_search,
    spend_ceiling_usd: usd(k.spend_ceiling_micros),
    spend_accrued_usd: usd(accruedMicros),
  };
}

export class KeyService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'tiers'>,
    private readonly spend: KeySpendSource,
    private readonly onChange: () => void,
  ) {}

  limitFor(tier: number): number {
    return this.config.tiers[tierNameOf(tier)].apiKeys;
  }

  private async views(rows: ApiKeyRow[]) {
    const accrued = await this.spend.accruedThisMonth(rows.map((r) => r.id));
    return rows.map((r) => keyView(r, accrued.get(r.id) ?? 0));
  }

  private async view(row: ApiKeyRow) {
    const accrued = await this.spend.accruedThisMonth([row.id]);
    return keyView(row, accrued.get(row.id) ?? 0);
  }

  async list(userId: string, tier: number) {
    const rows = await keysStore.listForUser(this.db, userId);
    return { count: rows.length, keys: await this.views(rows), limit: this.limitFor(tier) };
  }

  async get(userId: string, keyId: string) {
    const row = await keysStore.get(this.db, userId, keyId);
    if (!row) throw notFound(`API key ${keyId}`);
    return this.view(row);
  }

  async create(userId: string, tier: number, body: Static<typeof CreateApiKeyRequest>) {
    let expiresAt: Date | null = null;
    if (body.expires_at) {
      expiresAt = new Date(body.expires_at);
      if (expiresAt.getTime() < Date.now() + MIN_EXPIRY_AHEAD_MS) {
        throw invalid(['expires_at'], 'expires_at must be at least one minute in the future', body.expires_at, 'greater_than_equal');
      }
    }
    const scopes = body.scopes ?? ['read', 'write'];
    const limit = this.limitFor(tier);
    const secret = newKeySecret();
    const row = await this.db.transaction(async (tx) => {
      // Serialise key creation per user so two concurrent creates cannot both pass the limit (NO KEY:
      // the rows that only reference the user, ledger and events, are not held up).
      await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
      const count = await keysStore.countForUser(tx, userId);
      if (count >= limit) {
        throw new AppError('api-key-limit-exceeded', `your tier (${tierNameOf(tier)}) allows ${limit} API keys and you have ${count}; revoke one first`);
      }
      try {
        return await keysStore.insert(tx, {
          userId,
          name: body.name,
          prefix: secret.prefix,
          secretHash: secret.hash,
          scopes: ['read', 'write'].filter((s) => scopes.includes(s as 'read' | 'write')),
          allowStructureSearch: body.allow_structure_search ?? false,
          spendCeilingMicros: body.spend_ceiling_usd == null ? null : micros(body.spend_ceiling_usd),
          expiresAt,
        });
      } catch (err) {
        if (isUniqueViolation(err, 'api_keys_user_name_key')) throw duplicateName(body.name);
        throw err;
      }
    });
    return { ...keyView(row, 0), api_key: secret.secret };
  }

  async rename(userId: string, keyId: string, body: Static<typeof RenameApiKeyRequest>) {
    const row = await this.db
      .transaction(async (tx) => {
        const r = await keysStore.update(tx, userId, keyId, {
          name: body.name ?? undefined,
          allowStructureSearch: body.allow_structure_search ?? undefined,
        });
        if (r) await notifyAuthChange(tx, `key:${keyId}`);
        return r;
      })
      .catch((err) => {
        if (isUniqueViolation(err, 'api_keys_user_name_key')) throw duplicateName(body.name ?? '');
        throw err;
      });
    if (!row) throw notFound(`API key ${keyId}`);
    this.onChange();
    return this.view(row);
  }

  async rotate(userId: string, keyId: string) {
    const secret = newKeySecret();
    const row = await this.db.transaction(async (tx) => {
      const r = await keysStore.rotate(tx, userId, keyId, secret.prefix, secret.hash);
      if (r) await notifyAuthChange(tx, `key:${keyId}`);
      return r;
    });
    if (!row) throw notFound(`API key ${keyId}`);
    this.onChange();
    return { ...(await this.view(row)), api_key: secret.secret };
  }

  async revoke(userId: string, keyId: string) {
    const deleted = await this.db.transaction(async (tx) => {
      const d = await keysStore.delete(tx, userId, keyId);
      if (d) await notifyAuthChange(tx, `key:${keyId}`);
      return d;
    });
    if (!deleted) throw notFound(`API key ${keyId}`);
    this.onChange();
    return { message: `API key ${keyId} revoked and deleted` };
  }
}

function duplicateName(name: string) {
  return new AppError('conflict', `you already have an API key named "${name}"; names are unique per user`);
}
