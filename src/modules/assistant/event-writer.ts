// A turn's stream events as they are written (docs/assistant.md, "Streaming"): numbered from 1,
// stored in order, and announced to every instance's streams. Text deltas are coalesced: the
// first event is written at once (time to first event), later deltas are gathered for up to
// FLUSH_MS, and any other event first flushes the text before it, so order is kept.
import type { Database, Queryable } from '../../db/database.js';
import { assistantStore } from './store.js';

const FLUSH_MS = 40;

export class EventWriter {
  private seq = 0;
  private text = '';
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  constructor(
    private readonly db: Database,
    private readonly turnId: string,
    /** Wakes this process's streams of the turn without waiting for the NOTIFY. */
    private readonly wake: (turnId: string) => void,
  ) {}

  /** The error of a failed write: the turn must end (another writer, the sweep, has ended it). */
  get failed(): Error | null {
    return this.failure;
  }

  delta(text: string): void {
    if (!text) return;
    this.text += text;
    if (this.seq === 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  push(type: string, data: Record<string, unknown>): void {
    this.flush([{ type, data }]);
  }

  /** Writes what is pending; resolves when every write so far has been stored. */
  async drain(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure) throw this.failure;
  }

  /**
   * The last events, written in the caller's transaction (the one that settles the turn).
   * Drain first, outside that transaction: the writes in flight use their own connection.
   */
  async final(tx: Queryable, events: { type: string; data: Record<string, unknown> }[]): Promise<void> {
    // A writer that wrote nothing here (the sweep's, for a turn of a dead process) or whose
    // writes failed continues after what is stored; the caller holds the turn's lock.
    const first = this.failure || this.seq === 0 ? (await assistantStore.lastSeq(tx, this.turnId)) + 1 : this.seq + 1;
    await assistantStore.appendEvents(tx, this.turnId, first, events);
    this.seq = first + events.length - 1;
  }

  /** Call after the transaction of `final` committed. */
  announce(): void {
    this.wake(this.turnId);
  }

  private flush(after: { type: string; data: Record<string, unknown> }[] = []): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.text ? [{ type: 'delta', data: { text: this.text } }, ...after] : after;
    this.text = '';
    if (!events.length || this.failure) return;
    const first = this.seq + 1;
    this.seq += events.length;
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await assistantStore.appendEvents(this.db, this.turnId, first, events);
        this.wake(this.turnId);
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
      }
    });
  }
}
