import { firstRow, type Queryable } from '../../db/database.js';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  tier: number;
  created_at: Date;
}

export const usersStore = {
  async byEmail(db: Queryable, email: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
    return rows[0] ?? null;
  },
  async byId(db: Queryable, id: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0] ?? null;
  },
  async insert(db: Queryable, email: string, passwordHash: string, tier: number): Promise<UserRow> {
    const { rows } = await db.query<UserRow>('INSERT INTO users (email, password_hash, tier) VALUES ($1, $2, $3) RETURNING *', [email, passwordHash, tier]);
    return firstRow(rows, 'the user insert');
  },
  async setPasswordHash(db: Queryable, email: string, passwordHash: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('UPDATE users SET password_hash = $2, updated_at = now() WHERE lower(email) = lower($1) RETURNING *', [email, passwordHash]);
    return rows[0] ?? null;
  },
  async setTier(db: Queryable, email: string, tier: number): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('UPDATE users SET tier = $2, updated_at = now() WHERE lower(email) = lower($1) RETURNING *', [email, tier]);
    return rows[0] ?? null;
  },
  async count(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    return firstRow(rows, 'the user count').n;
  },
  async list(db: Queryable): Promise<UserRow[]> {
    const { rows } = await db.query<UserRow>('SELECT * FROM users ORDER BY created_at');
    return rows;
  },
};
