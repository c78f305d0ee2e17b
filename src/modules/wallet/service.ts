// Money rules: credits, reservations at submit, settlement at the actual runtime (never more
// than the reservation), release on every terminal state, per-key monthly spend ceilings.
// Every move is a ledger row written in the caller's transaction.
import type { JobReservation } from '../../compute/ports.js';
import type { Database, Queryable, StatementTail } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { usd } from '../../api/schemas.js';
import type { KeySpendSource } from '../keys/service.js';
import { walletStore, type LedgerEntry, type LedgerKind } from './store.js';

type LedgerMove = Omit<LedgerEntry, 'userId'>;

export const MICROS_PER_USD = 1_000_000;

export interface WalletView {
  balance_usd: number;
  reserved_usd: number;
  available_usd: number;
  currency: 'USD';
}

/** A job's reservation: the wallet is the job runtime's JobWallet port (src/compute/ports.ts). */
export type Reservation = JobReservation;

/** One ledger row as GET /wallet/ledger shows it (docs/api-decisions.md, "The wallet's ledger"). */
export interface LedgerItemView {
  entry_id: string;
  kind: LedgerKind;
  amount_usd: number;
  reserved_delta_usd: number;
  subject: 'jobs' | 'workflow_runs' | 'assistant_turns' | 'account';
  subject_id: string | null;
  note: string | null;
  created_at: string;
}

export class WalletService implements KeySpendSource {
  constructor(private readonly db: Database) {}

  /** The account's ledger, newest first: `limit` rows below the cursor `before` (an entry id), and the next cursor. */
  async ledger(userId: string, limit: number, before: string | null): Promise<{ items: LedgerItemView[]; next_before: string | null }> {
    const rows = await walletStore.entries(this.db, userId, limit + 1, before);
    const page = rows.slice(0, limit);
    return {
      items: page.map((r) => ({
        entry_id: r.id,
        kind: r.kind,
        amount_usd: usd(Number(r.amount_micros))!,
        reserved_delta_usd: usd(Number(r.reserved_delta_micros))!,
        subject: r.subject,
        subject_id: r.job_id,
        note: r.note,
        created_at: new Date(r.created_at).toISOString(),
      })),
      next_before: rows.length > limit ? page[page.length - 1]!.id : null,
    };
  }

  async view(userId: string): Promise<WalletView> {
    const w = await walletStore.read(this.db, userId);
    return {
      balance_usd: usd(w.balance_micros)!,
      reserved_usd: usd(w.reserved_micros)!,
      available_usd: usd(w.balance_micros - w.reserved_micros)!,
      currency: 'USD',
    };
  }

  async credit(userId: string, amountMicros: number, note: string): Promise<WalletView> {
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0) throw new RangeError('a credit must be a positive amount');
    await this.db.transaction(async (tx) => {
      await walletStore.lock(tx, userId);
      await walletStore.append(tx, userId, [{ kind: 'credit', amountMicros, note }]);
    });
    return this.view(userId);
  }

  /** Takes money out (an operator's correction): never below zero, and never into what running work has reserved. */
  async debit(userId: string, amountMicros: number, note: string): Promise<WalletView> {
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0) throw new RangeError('a debit must be a positive amount');
    await this.db.transaction(async (tx) => {
      const w = await walletStore.lock(tx, userId);
      const available = w.balance_micros - w.reserved_micros;
      if (amountMicros > available) {
        throw new AppError(
          'insufficient-funds',
          `a debit of $${fmt(amountMicros)} would take the wallet below zero: $${fmt(available)} is available ($${fmt(w.reserved_micros)} reserved by running work)`,
        );
      }
      await walletStore.append(tx, userId, [{ kind: 'debit', amountMicros: -amountMicros, note }]);
    });
    return this.view(userId);
  }

  accruedThisMonth(keyIds: string[]): Promise<Map<string, number>> {
    return walletStore.reservedThisMonthByKey(this.db, keyIds);
  }

  /** Locks the account's wallet row (created if missing) until the caller's transaction ends: the lock order of docs/reliability.md. */
  async lock(tx: Queryable, userId: string): Promise<void> {
    await walletStore.lock(tx, userId);
  }

  /**
   * Reserves a set of amounts (one submit or an all-or-nothing batch), locking the wallet row
   * with the statement that moves it: call it last in the transaction but for what must follow
   * it, so the account's lock is held for that statement and the COMMIT (docs/reliability.md,
   * "One lock order"). Throws 402 insufficient-funds or 403 spend-ceiling-exceeded; the caller's
   * transaction then rolls back whatever it wrote.
   */
  async reserveAll(tx: Queryable, items: Reservation[]): Promise<void> {
    const [first] = items;
    if (!first) return;
    const userId = first.userId;
    const total = items.reduce((s, r) => s + r.amountMicros, 0);
    const entries = items.map((r) => ({ amountMicros: r.amountMicros, jobId: r.jobId, keyId: r.keyId, note: r.note ?? 'job submit' }));
    if (!(await walletStore.reserveIfAvailable(tx, userId, entries))) {
      const w = await walletStore.lock(tx, userId); // creates a missing wallet; the figures of the refusal
      const available = w.balance_micros - w.reserved_micros;
      if (total > available) {
        throw new AppError(
          'insufficient-funds',
          `this work needs $${fmt(total)} reserved but the wallet has $${fmt(available)} available ($${fmt(w.balance_micros)} balance, $${fmt(w.reserved_micros)} reserved)`,
        );
      }
      // The wallet did not exist, or funds came in since: reserve under the lock now held.
      if (!(await walletStore.reserveIfAvailable(tx, userId, entries))) throw new Error('the reservation failed under the wallet lock');
    }
    // The key's monthly ceiling, counted with the wallet locked (one submit of the account at a
    // time), so two submits cannot pass it together; the sum includes the rows just written.
    const keyId = first.keyId;
    const ceiling = first.ceilingMicros;
    if (keyId && ceiling !== null) {
      // The month's sum includes this submit's rows (all under this key): take them out.
      const spent = ((await walletStore.reservedThisMonthByKey(tx, [keyId])).get(keyId) ?? 0) - total;
      if (spent + total > ceiling) {
        throw new AppError(
          'spend-ceiling-exceeded',
          `this API key may reserve $${fmt(ceiling)} per calendar month (UTC); $${fmt(spent)} is reserved so far and this work needs $${fmt(total)}`,
        );
      }
    }
  }

  /**
   * Ends a job's reservation: releases all of it and charges `chargeMicros`, which the caller
   * has already capped at the reservation (finishJob computes it with the runtime). Call in
   * the transaction that moves the job to its terminal state; the wallet row is locked by the
   * statement that moves its totals, which also runs `tail` (the job's event) after it.
   */
  async settle(
    tx: Queryable,
    s: { userId: string; jobId: string; keyId: string | null; reservedMicros: number; chargeMicros: number; note: string },
    tail?: StatementTail,
  ): Promise<void> {
    if (!Number.isSafeInteger(s.chargeMicros) || s.chargeMicros < 0 || s.chargeMicros > s.reservedMicros) {
      throw new RangeError(`a charge of ${s.chargeMicros} micro-dollars does not fit the reservation of ${s.reservedMicros}`);
    }
    const release: LedgerMove = { kind: 'release', amountMicros: 0, reservedDeltaMicros: -s.reservedMicros, jobId: s.jobId, keyId: s.keyId, note: s.note };
    const charge: LedgerMove = { kind: 'charge', amountMicros: -s.chargeMicros, jobId: s.jobId, keyId: s.keyId, note: s.note };
    await walletStore.append(tx, s.userId, s.chargeMicros > 0 ? [release, charge] : [release], tail);
  }

  /**
   * Charges a job against a hold reserved under another id (a workflow run's reservation,
   * docs/workflows.md): the charge under the job's id and a release of the same amount under
   * the hold's, so the hold shrinks by what was charged. The caller keeps the total within the hold.
   * Returns whether the wallet moved (and `tail` ran in its statement): a charge of 0 writes nothing.
   */
  async chargeHold(
    tx: Queryable,
    c: { userId: string; holdId: string; jobId: string; keyId: string | null; chargeMicros: number; note: string },
    tail?: StatementTail,
  ): Promise<boolean> {
    if (!Number.isSafeInteger(c.chargeMicros) || c.chargeMicros < 0) throw new RangeError(`a charge of ${c.chargeMicros} micro-dollars is not an amount`);
    if (c.chargeMicros === 0) return false;
    await walletStore.append(
      tx,
      c.userId,
      [
        { kind: 'release', amountMicros: 0, reservedDeltaMicros: -c.chargeMicros, jobId: c.holdId, keyId: c.keyId, note: c.note },
        { kind: 'charge', amountMicros: -c.chargeMicros, jobId: c.jobId, keyId: c.keyId, note: c.note },
      ],
      tail,
    );
    return true;
  }

  /** Releases what is left of a hold. */
  async releaseHold(tx: Queryable, r: { userId: string; holdId: string; keyId: string | null; amountMicros: number; note: string }): Promise<void> {
    if (!Number.isSafeInteger(r.amountMicros) || r.amountMicros < 0) throw new RangeError(`a release of ${r.amountMicros} micro-dollars is not an amount`);
    if (r.amountMicros === 0) return;
    await walletStore.append(tx, r.userId, [{ kind: 'release', amountMicros: 0, reservedDeltaMicros: -r.amountMicros, jobId: r.holdId, keyId: r.keyId, note: r.note }]);
  }
}

/** USD to the micro-dollar, without trailing zeros past the cents: 0.50, 0.024, 0.000395, 12.00. */
function fmt(micros: number): string {
  const [whole, fraction = ''] = (micros / MICROS_PER_USD).toFixed(6).replace(/0+$/, '').split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
