// The wallet row (cached ledger totals, the per-account lock) and the append-only ledger.
import type { Queryable } from '../../db/database.js';

export type LedgerKind = 'credit' | 'reserve' | 'release' | 'charge';

export interface WalletRow {
  user_id: string;
  balance_micros: number;
  reserved_micros: number;
}

export interface LedgerEntry {
  userId: string;
  kind: LedgerKind;
  amountMicros: number;
  reservedDeltaMicros?: number;
  jobId?: string | null;
  keyId?: string | null;
  note?: string | null;
}

export const walletStore = {
  /** Locks (creating when absent) the account's wallet row until the transaction ends. */
  async lock(tx: Queryable, userId: string): Promise<WalletRow> {
    await tx.query('INSERT INTO wallets (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
    const { rows } = await tx.query<WalletRow>('SELECT user_id, balance_micros, reserved_micros FROM wallets WHERE user_id = $1 FOR UPDATE', [userId]);
    return rows[0];
  },

  async read(q: Queryable, userId: string): Promise<WalletRow> {
    const { rows } = await q.query<WalletRow>('SELECT user_id, balance_micros, reserved_micros FROM wallets WHERE user_id = $1', [userId]);
    return rows[0] ?? { user_id: userId, balance_micros: 0, reserved_micros: 0 };
  },

  /** Appends a ledger row and moves the cached totals by the same amounts. Call with the wallet locked. */
  async append(tx: Queryable, e: LedgerEntry): Promise<void> {
    const reserved = e.reservedDeltaMicros ?? 0;
    await tx.query(
      `INSERT INTO ledger (user_id, kind, amount_micros, reserved_delta_micros, job_id, key_id, note) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.userId, e.kind, e.amountMicros, reserved, e.jobId ?? null, e.keyId ?? null, e.note ?? null],
    );
    await tx.query(
      `UPDATE wallets SET balance_micros = balance_micros + $2, reserved_micros = reserved_micros + $3, updated_at = now() WHERE user_id = $1`,
      [e.userId, e.amountMicros, reserved],
    );
  },

  /** Micro-dollars reserved with each key since the start of the current calendar month (UTC). */
  async reservedThisMonthByKey(q: Queryable, keyIds: string[]): Promise<Map<string, number>> {
    if (keyIds.length === 0) return new Map();
    const { rows } = await q.query<{ key_id: string; total: number }>(
      `SELECT key_id, coalesce(sum(reserved_delta_micros), 0)::int8 AS total FROM ledger
        WHERE kind = 'reserve' AND key_id = ANY($1::uuid[])
          AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        GROUP BY key_id`,
      [keyIds],
    );
    return new Map(rows.map((r) => [r.key_id, r.total]));
  },

  /** The sums of the ledger, for invariant checks. */
  async ledgerTotals(q: Queryable, userId: string): Promise<{ balance: number; reserved: number }> {
    const { rows } = await q.query<{ balance: number; reserved: number }>(
      `SELECT coalesce(sum(amount_micros), 0)::int8 AS balance, coalesce(sum(reserved_delta_micros), 0)::int8 AS reserved FROM ledger WHERE user_id = $1`,
      [userId],
    );
    return rows[0];
  },
};
