// A turn's stream events as they are written (docs/assistant.md, "Streaming"): numbered from 1,
// stored in order, and announced to every instance's streams. Text deltas are coalesced: the
// first event is written at once (time to first event), later deltas are gathered for up to
// FLUSH_MS, and any other event first flushes the text before it, so order is kept. One write is
// in flight at a time: the events that come meanwhile go together in the next (one statement
// for all of them, however slow the database is under load). Once stored
// (committed), the events are handed to this process's streams of the turn, which write them
// without reading them back.
import type { Database, Queryable } from '../../db/database.js';
import { assistantStore, type EventRow } from './store.js';

const FLUSH_MS = 40;

export class EventWriter {
  private seq = 0;
  private text = '';
  private timer: NodeJS.Timeout | null = null;
  /** Numbered, not yet written. */
  private pending: EventRow[] = [];
  /** The write loop, while one runs. */
  private writing: Promise<void> | null = null;
  private failure: Error | null = null;
  /** The last events, written by `final`, handed over by `announce` once their transaction committed. */
  private last: EventRow[] = [];

  constructor(
    private readonly db: Database,
    private readonly turnId: string,
    /** Hands the stored events to this process's streams of the turn, without waiting for the NOTIFY. */
    private readonly wake: (turnId: string, events: EventRow[]) => void,
    /** Called after each write stored (the runner's first-event mark). */
    private readonly stored: () => void = () => undefined,
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
    await this.writing;
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
    this.last = rows(first, events);
  }

  /** Call after the transaction of `final` committed. */
  announce(): void {
    this.wake(this.turnId, this.last);
  }

  private flush(after: { type: string; data: Record<string, unknown> }[] = []): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.text ? [{ type: 'delta', data: { text: this.text } }, ...after] : after;
    this.text = '';
    if (!events.length || this.failure) return;
    for (const e of events) this.pending.push({ seq: ++this.seq, type: e.type, data: e.data });
    this.writing ??= this.write();
  }

  /** Writes what is pending, in order, one statement at a time, until nothing is. */
  private async write(): Promise<void> {
    try {
      while (this.pending.length && !this.failure) {
        const batch = this.pending;
        this.pending = [];
        try {
          await assistantStore.appendEvents(this.db, this.turnId, batch[0]!.seq, batch);
          this.wake(this.turnId, batch);
          this.stored();
        } catch (err) {
          this.failure = err instanceof Error ? err : new Error(String(err));
        }
      }
    } finally {
      this.writing = null;
    }
  }
}

function rows(first: number, events: { type: string; data: Record<string, unknown> }[]): EventRow[] {
  return events.map((e, k) => ({ seq: first + k, type: e.type, data: e.data }));
}
