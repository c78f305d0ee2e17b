// The wallet row (cached ledger totals, the per-account lock) and the append-only ledger.
import { firstRow, type Queryable } from '../../db/database.js';

export type LedgerKind = 'credit' | 'reserve' | 'release' | 'charge' | 'debit';

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
    const select = 'SELECT user_id, balance_micros, reserved_micros FROM wallets WHERE user_id = $1 FOR UPDATE';
    let { rows } = await tx.query<WalletRow>(select, [userId]);
    if (!rows[0]) {
      await tx.query('INSERT INTO wallets (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
      ({ rows } = await tx.query<WalletRow>(select, [userId]));
    }
    return firstRow(rows, 'the wallet lock (after creating the wallet)');
  },

  async read(q: Queryable, userId: string): Promise<WalletRow> {
    const { rows } = await q.query<WalletRow>('SELECT user_id, balance_micros, reserved_micros FROM wallets WHERE user_id = $1', [userId]);
    return rows[0] ?? { user_id: userId, balance_micros: 0, reserved_micros: 0 };
  },

  /**
   * Appends ledger rows of one account, in order, and moves the cached totals by their sums,
   * in one statement. Call with the wallet locked.
   */
  async append(tx: Queryable, userId: string, entries: Omit<LedgerEntry, 'userId'>[]): Promise<void> {
    if (entries.length === 0) return;
    await tx.query(
      `WITH l AS (
         INSERT INTO ledger (user_id, kind, amount_micros, reserved_delta_micros, job_id, key_id, note)
         SELECT $1, t.kind, t.amount, t.reserved, t.job_id, t.key_id, t.note
           FROM unnest($2::text[], $3::int8[], $4::int8[], $5::uuid[], $6::uuid[], $7::text[]) WITH ORDINALITY AS t(kind, amount, reserved, job_id, key_id, note, n)
          ORDER BY t.n
         RETURNING amount_micros, reserved_delta_micros
       )
       UPDATE wallets w SET balance_micros = w.balance_micros + s.amount, reserved_micros = w.reserved_micros + s.reserved, updated_at = now()
         FROM (SELECT coalesce(sum(amount_micros), 0)::int8 AS amount, coalesce(sum(reserved_delta_micros), 0)::int8 AS reserved FROM l) s
        WHERE w.user_id = $1`,
      [
        userId,
        entries.map((e) => e.kind),
        entries.map((e) => e.amountMicros),
        entries.map((e) => e.reservedDeltaMicros ?? 0),
        entries.map((e) => e.jobId ?? null),
        entries.map((e) => e.keyId ?? null),
        entries.map((e) => e.note ?? null),
      ],
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
    return firstRow(rows, 'the ledger totals');
  },
};
