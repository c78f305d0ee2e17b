import { firstRow, type Queryable } from '../../db/database.js';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  public_prefix: string;
  secret_hash: string;
  scopes: string[];
  allow_structure_search: boolean;
  spend_ceiling_micros: number | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export interface NewKey {
  userId: string;
  name: string;
  prefix: string;
  secretHash: string;
  scopes: string[];
  allowStructureSearch: boolean;
  spendCeilingMicros: number | null;
  expiresAt: Date | null;
}

export const keysStore = {
  async listForUser(q: Queryable, userId: string): Promise<ApiKeyRow[]> {
    const { rows } = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id DESC', [userId]);
    return rows;
  },
  async countForUser(q: Queryable, userId: string): Promise<number> {
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [userId]);
    return firstRow(rows, 'the API key count').n;
  },
  async get(q: Queryable, userId: string, id: string): Promise<ApiKeyRow | null> {
    const { rows } = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows[0] ?? null;
  },
  async byPrefix(q: Queryable, prefix: string): Promise<(ApiKeyRow & { email: string; tier: number }) | null> {
    const { rows } = await q.query<ApiKeyRow & { email: string; tier: number }>(
      'SELECT k.*, u.email, u.tier FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.public_prefix = $1',
      [prefix],
    );
    return rows[0] ?? null;
  },
  async insert(q: Queryable, k: NewKey): Promise<ApiKeyRow> {
    const { rows } = await q.query<ApiKeyRow>(
      `INSERT INTO api_keys (user_id, name, public_prefix, secret_hash, scopes, allow_structure_search, spend_ceiling_micros, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [k.userId, k.name, k.prefix, k.secretHash, k.scopes, k.allowStructureSearch, k.spendCeilingMicros, k.expiresAt],
    );
    return firstRow(rows, 'the API key insert');
  },
  async update(q: Queryable, userId: string, id: string, fields: { name?: string; allowStructureSearch?: boolean }): Promise<ApiKeyRow | null> {
    const { rows } = await q.query<ApiKeyRow>(
      `UPDATE api_keys SET name = coalesce($3, name), allow_structure_search = coalesce($4, allow_structure_search)
        WHERE id = $1 AND user_id = $2 RETURNING *`,
      [id, userId, fields.name ?? null, fields.allowStructureSearch ?? null],
    );
    return rows[0] ?? null;
  },
  async rotate(q: Queryable, userId: string, id: string, prefix: string, secretHash: string): Promise<ApiKeyRow | null> {
    const { rows } = await q.query<ApiKeyRow>(`UPDATE api_keys SET public_prefix = $3, secret_hash = $4, rotated_at = now() WHERE id = $1 AND user_id = $2 RETURNING *`, [
      id,
      userId,
      prefix,
      secretHash,
    ]);
    return rows[0] ?? null;
  },
  async delete(q: Queryable, userId: string, id: string): Promise<boolean> {
    const { rowCount } = await q.query('DELETE FROM api_keys WHERE id = $1 AND user_id = $2', [id, userId]);
    return rowCount > 0;
  },
  async touch(q: Queryable, id: string): Promise<void> {
    await q.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [id]);
  },
};
