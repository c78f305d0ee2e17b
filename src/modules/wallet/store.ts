// The wallet row (cached ledger totals, the per-account lock) and the append-only ledger.
import { firstRow, type Queryable, type StatementTail } from '../../db/database.js';

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

/**
 * The subject of a ledger row `l`, from the note its writer gives it (docs/usage.md, "GET /usage"):
 * an Assistant turn's hold and charge ('assistant turn hold', 'assistant turn'); a workflow run's
 * hold ('workflow run start') and its steps' charges ('workflow run step <id>'); a credit or debit
 * has none ('account'); anything else is a standalone job ('job submit', 'job <status>').
 */
export const LEDGER_SUBJECT_SQL = `CASE WHEN l.note IN ('assistant turn hold', 'assistant turn') THEN 'assistant_turns'
                      WHEN l.note LIKE 'workflow run %' THEN 'workflow_runs'
                      WHEN l.kind IN ('credit', 'debit') THEN 'account'
                      ELSE 'jobs' END`;

export interface LedgerRow {
  id: string;
  kind: LedgerKind;
  amount_micros: number;
  reserved_delta_micros: number;
  subject: 'jobs' | 'workflow_runs' | 'assistant_turns' | 'account';
  job_id: string | null;
  note: string | null;
  created_at: Date;
}

export const walletStore = {
  /** The account's ledger rows, newest first, below the row id `before` (a cursor), `limit` of them. */
  async entries(q: Queryable, userId: string, limit: number, before: string | null): Promise<LedgerRow[]> {
    const { rows } = await q.query<LedgerRow>(
      `SELECT l.id::text AS id, l.kind, l.amount_micros, l.reserved_delta_micros, ${LEDGER_SUBJECT_SQL} AS subject, l.job_id, l.note, l.created_at
         FROM ledger l
        WHERE l.user_id = $1 AND ($2::int8 IS NULL OR l.id < $2::int8)
        ORDER BY l.id DESC
        LIMIT $3`,
      [userId, before, limit],
    );
    return rows;
  },

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
   * Appends ledger rows of one account, in order, and moves the cached totals by their sums, in
   * one statement (its UPDATE locks the wallet row). `tail`: more of the statement, run after the wallet moved
   * (the job's event, whose counter is locked after the wallet: docs/reliability.md, "One lock order").
   */
  async append(tx: Queryable, userId: string, entries: Omit<LedgerEntry, 'userId'>[], tail?: StatementTail): Promise<void> {
    if (entries.length === 0) {
      if (tail) throw new Error('a ledger append with a tail needs entries');
      return;
    }
    const params: unknown[] = [
      userId,
      entries.map((e) => e.kind),
      entries.map((e) => e.amountMicros),
      entries.map((e) => e.reservedDeltaMicros ?? 0),
      entries.map((e) => e.jobId ?? null),
      entries.map((e) => e.keyId ?? null),
      entries.map((e) => e.note ?? null),
    ];
    const t = tail?.(params.length + 1, '(SELECT count(*) FROM w)');
    const move = `UPDATE wallets w SET balance_micros = w.balance_micros + s.amount, reserved_micros = w.reserved_micros + s.reserved, updated_at = now()
         FROM (SELECT coalesce(sum(amount_micros), 0)::int8 AS amount, coalesce(sum(reserved_delta_micros), 0)::int8 AS reserved FROM l) s
        WHERE w.user_id = $1`;
    await tx.query(
      `WITH l AS (
         INSERT INTO ledger (user_id, kind, amount_micros, reserved_delta_micros, job_id, key_id, note)
         SELECT $1, t.kind, t.amount, t.reserved, t.job_id, t.key_id, t.note
           FROM unnest($2::text[], $3::int8[], $4::int8[], $5::uuid[], $6::uuid[], $7::text[]) WITH ORDINALITY AS t(kind, amount, reserved, job_id, key_id, note, n)
          ORDER BY t.n
         RETURNING amount_micros, reserved_delta_micros
       )${
         t
           ? `, w AS (${move} RETURNING 1), ${t.ctes}
${t.select}`
           : `
       ${move}`
       }`,
      [...params, ...(t?.params ?? [])],
    );
  },

  /**
   * Reserves `entries` (kind 'reserve') when the account has their sum available, in one
   * statement: the conditional UPDATE of the wallet row (which locks it until the transaction
   * ends) and the ledger rows, written only when it moved. Returns false, writing nothing, when
   * the wallet is missing or has less available. One statement holding the lock, where a
   * `SELECT ... FOR UPDATE` first held it over the rest of the transaction's round trips
   * (docs/performance.md, "Compute jobs").
   */
  async reserveIfAvailable(tx: Queryable, userId: string, entries: { amountMicros: number; jobId: string | null; keyId: string | null; note: string }[]): Promise<boolean> {
    const total = entries.reduce((n, e) => n + e.amountMicros, 0);
    const { rows } = await tx.query<{ moved: number }>(
      `WITH w AS (
         UPDATE wallets SET reserved_micros = reserved_micros + $2::int8, updated_at = now()
          WHERE user_id = $1 AND balance_micros - reserved_micros >= $2::int8
         RETURNING user_id
       ), l AS (
         INSERT INTO ledger (user_id, kind, amount_micros, reserved_delta_micros, job_id, key_id, note)
         SELECT w.user_id, 'reserve', 0, t.reserved, t.job_id, t.key_id, t.note
           FROM w, unnest($3::int8[], $4::uuid[], $5::uuid[], $6::text[]) WITH ORDINALITY AS t(reserved, job_id, key_id, note, n)
          ORDER BY t.n
       )
       SELECT count(*)::int AS moved FROM w`,
      [userId, total, entries.map((e) => e.amountMicros), entries.map((e) => e.jobId), entries.map((e) => e.keyId), entries.map((e) => e.note)],
    );
    return firstRow(rows, 'the reservation').moved === 1;
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
