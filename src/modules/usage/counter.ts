// Counting synchronous calls against the monthly allowance outside a caller's transaction
// (docs/usage.md, "Counting"; docs/performance.md, "Utilities"): a call that pins nothing else
// (no Idempotency-Key) is counted by one statement, and the calls of one account, month and kind
// that arrive while that account's previous count is still being written share the next
// statement (group commit). Each call is still counted before it is answered, exactly, never
// beyond the allowance: a shared statement adds the sum only if all of it fits; when it does not,
// its calls are counted one by one, in arrival order, each allowed or refused on its own.
import type { Queryable } from '../../db/database.js';
import { usageStore, type CallKind, type MonthCounts } from './store.js';

interface Waiting {
  units: number;
  resolve: (counts: MonthCounts | null) => void;
  reject: (err: unknown) => void;
}

interface Group {
  userId: string;
  month: string;
  kind: CallKind;
  allowance: number | null;
  calls: Waiting[];
}

/** Statements written, and calls counted by them (tests and the benchmark read these). */
export interface CounterStats {
  statements: number;
  calls: number;
}

export class CallCounter {
  /** Per account, month, kind and allowance: the calls waiting for the next statement. */
  private readonly next = new Map<string, Group>();
  /** Per key: the statement being written, if any (the next group starts when it settles). */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly counters: CounterStats = { statements: 0, calls: 0 };

  constructor(private readonly db: Queryable) {}

  stats(): CounterStats {
    return { ...this.counters };
  }

  /**
   * Adds `units` calls of `kind` to the account's month if the total stays within `allowance`
   * (null: unlimited): the month's new counts, or null when the calls would pass it (nothing
   * added), as usageStore.add, once the statement that counts them has committed.
   */
  add(userId: string, month: string, kind: CallKind, units: number, allowance: number | null): Promise<MonthCounts | null> {
    const key = `${userId}\u0000${month}\u0000${kind}\u0000${allowance ?? ''}`;
    return new Promise((resolve, reject) => {
      const waiting = this.next.get(key);
      if (waiting) {
        waiting.calls.push({ units, resolve, reject });
        return;
      }
      const group: Group = { userId, month, kind, allowance, calls: [{ units, resolve, reject }] };
      this.next.set(key, group);
      // After the key's statement in progress (calls arriving meanwhile join this group), and
      // after one turn of the event loop (calls finishing in the same turn join it too).
      const before = this.writing.get(key) ?? Promise.resolve();
      const done = before
        .then(() => new Promise<void>((r) => setImmediate(r)))
        .then(() => {
          this.next.delete(key);
          return this.write(group);
        })
        .finally(() => {
          if (this.writing.get(key) === done) this.writing.delete(key);
        });
      this.writing.set(key, done);
    });
  }

  private async write(g: Group): Promise<void> {
    const total = g.calls.reduce((s, c) => s + c.units, 0);
    try {
      this.counters.statements++;
      this.counters.calls += g.calls.length;
      const counts = await usageStore.add(this.db, g.userId, g.month, g.kind, total, g.allowance);
      if (counts || g.calls.length === 1) {
        for (const c of g.calls) c.resolve(counts);
        return;
      }
      // Not all of them fit: each on its own, in the order they came.
      for (const c of g.calls) {
        this.counters.statements++;
        try {
          c.resolve(await usageStore.add(this.db, g.userId, g.month, g.kind, c.units, g.allowance));
        } catch (err) {
          c.reject(err);
        }
      }
    } catch (err) {
      for (const c of g.calls) c.reject(err);
    }
  }
}
