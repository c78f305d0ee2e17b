// The completion event feed: the writer API the job engine (and workflow runs) call inside
// the transaction that ends a subject, and the reader behind GET /api/v1/events (pages,
// cursors, long polls woken by LISTEN/NOTIFY, retention). Design: docs/events.md.
import { ENDS } from '../../api/follow.js';
import { firstRow, type Database, type Queryable, type StatementTail } from '../../db/database.js';
import { LOCKS } from '../../db/locks.js';
import { sharedSecret } from '../../db/settings.js';
import type { PeriodicTask } from '../../scheduler.js';
import { AppError, invalid } from '../../errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { EVENTS_CHANNEL, eventsStore, type EventKind, type EventNotice, type EventRow, type Page } from './store.js';

export type { EventKind } from './store.js';

/** Retention never goes below this (docs/events.md, "Retention"). */
export const MIN_RETENTION_DAYS = 30;
export const MAX_WAIT_SEC = 25;
export const DEFAULT_LIMIT = 50;

/** Terminal statuses per kind (docs/api-decisions.md, "The contract the code relies on"): the stores' own (src/api/follow.ts); the table's CHECK says the same. */
export const TERMINAL_STATUSES: Record<EventKind, readonly string[]> = { job: [...ENDS.job], workflow_run: [...ENDS.workflow_run] };

export interface NewEvent {
  userId: string;
  kind: 'job' | 'workflow_run';
  subjectId: string;
  status: string;
  workflowRunId?: string | null;
}

/**
 * Appends a terminal event. Call it INSIDE the (READ COMMITTED) transaction that moves the
 * subject to its terminal state, as late as possible (after the subject's and wallet's row
 * locks): it takes the account's event-counter row lock, held until commit, which is what
 * makes the feed gap-free. The NOTIFY that wakes long polls on every instance is delivered
 * when the transaction commits (never if it rolls back). Returns the event id.
 *
 * A second event for the same job fails with a unique violation (constraint
 * `events_one_per_job`), which aborts the caller's transaction: exactly one terminal event
 * per job.
 */
export async function appendEvent(tx: Queryable, e: NewEvent): Promise<number> {
  return eventsStore.append(tx, checkedEvent(e));
}

/** appendEvent written into the statement that moves the account's wallet (its tail: the wallet is locked first). */
export function appendEventTail(e: NewEvent): StatementTail {
  return eventsStore.appendTail(checkedEvent(e));
}

function checkedEvent(e: NewEvent): { userId: string; kind: EventKind; subjectId: string; status: string; workflowRunId: string | null } {
  const allowed = TERMINAL_STATUSES[e.kind];
  if (!allowed) throw new TypeError(`appendEvent: unknown kind "${String(e.kind)}"`);
  if (!allowed.includes(e.status)) throw new TypeError(`appendEvent: "${e.status}" is not a terminal status of a ${e.kind} (${allowed.join(', ')})`);
  if (typeof e.subjectId !== 'string' || e.subjectId.length < 1 || e.subjectId.length > 100) throw new TypeError('appendEvent: subjectId must be 1 to 100 characters');
  const run = e.workflowRunId ?? null;
  if (run !== null && (run.length < 1 || run.length > 100)) throw new TypeError('appendEvent: workflowRunId must be 1 to 100 characters or null');
  return { userId: e.userId, kind: e.kind, subjectId: e.subjectId, status: e.status, workflowRunId: run };
}

export interface RunEvent {
  cursor: string;
  event_id: number;
  kind: EventKind;
  occurred_at: string;
  status: string;
  subject_id: string;
  workflow_run_id: string | null;
}

export interface EventPage {
  events: RunEvent[];
  next_cursor: string | null;
}

export interface EventQuery {
  /** A cursor from a previous answer; absent or empty: from the oldest retained event. */
  after?: string;
  kind?: EventKind;
  subjectId?: string;
  /** 1..100, default 50. */
  limit?: number;
  /** Seconds, 0..25, default 0: how long to wait for a matching event when there is none. */
  wait?: number;
  /** Ends the wait early (client disconnect, server shutdown). */
  signal?: AbortSignal;
}

export interface EventServiceOptions {
  /** Events older than this are purged; at least 30 (the default). */
  retentionDays?: number;
  /** How often the purge runs (default hourly) and the delay before the first run (default 60 s). */
  purgeIntervalMs?: number;
  firstPurgeDelayMs?: number;
  /**
   * Safety net under LISTEN/NOTIFY: while long polls wait, one query per interval reads the
   * waiting accounts' heads and wakes any that moved (default 1000 ms). Bounds the wake
   * delay if a notification is ever lost (e.g. the listening connection dropped).
   */
  safetyPollMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

const SECRET_SETTING = 'events_cursor_secret';
// One purger at a time across instances.
const PURGE_LOCK_KEY = LOCKS.eventsPurge;
const PURGE_BATCH = 5_000;

interface Filter {
  kind?: EventKind;
  subjectId?: string;
}

/** One waiting long poll. wake() is a latch, so a wake-up between a read and the sleep is never lost. */
class Waiter {
  private pending = false;
  private release: (() => void) | null = null;

  constructor(
    readonly userId: string,
    readonly filter: Filter,
    /** Highest event id this poll has already read past. */
    public seen: number,
    /** The service epoch of the registration or of the last wake-up: the next read must start at or after it. */
    public epoch: number,
  ) {}

  matches(n: EventNotice): boolean {
    return n.i > this.seen && (!this.filter.kind || this.filter.kind === n.k) && (this.filter.subjectId === undefined || this.filter.subjectId === n.s);
  }

  wake(epoch: number): void {
    this.epoch = epoch;
    this.pending = true;
    this.release?.();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.release = null;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.release = done;
    });
  }
}

export class EventService {
  private secret: Buffer | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private waiterCount = 0;
  private stopping = false;
  private safetyTimer: NodeJS.Timeout | null = null;
  /**
   * Raised before every round of wake-ups (a notification, the safety poll, shutdown). A page
   * read records the epoch it started in; a woken poll shares only a read that started at or
   * after its wake-up, so a shared read always sees the event that caused the wake-up.
   */
  private epoch = 0;
  private readonly inflight = new Map<string, { epoch: number; page: Promise<Page> }>();
  private polling = false;
  readonly retentionDays: number;
  private readonly opts: Required<Omit<EventServiceOptions, 'log' | 'retentionDays'>> & Pick<EventServiceOptions, 'log'>;

  constructor(
    private readonly db: Database,
    opts: EventServiceOptions = {},
  ) {
    this.retentionDays = opts.retentionDays ?? MIN_RETENTION_DAYS;
    if (!(this.retentionDays >= MIN_RETENTION_DAYS)) throw new RangeError(`event retention must be at least ${MIN_RETENTION_DAYS} days`);
    this.opts = {
      purgeIntervalMs: opts.purgeIntervalMs ?? 3_600_000,
      firstPurgeDelayMs: opts.firstPurgeDelayMs ?? 60_000,
      safetyPollMs: opts.safetyPollMs ?? 1_000,
      log: opts.log,
    };
  }

  /** The retention purge as a periodic task (hourly by default, the first after 60 s). */
  purgeTask(): PeriodicTask {
    return { name: 'events-purge', everyMs: this.opts.purgeIntervalMs, firstDelayMs: this.opts.firstPurgeDelayMs, run: () => this.purgeOlderThan(this.retentionDays) };
  }

  /** Loads the cursor secret (shared by every instance through the database), LISTENs, starts the safety poll. */
  async start(): Promise<void> {
    if (this.secret) return;
    this.stopping = false;
    const secret = await sharedSecret(this.db, SECRET_SETTING, 32);
    this.unlisten = await this.db.listen(EVENTS_CHANNEL, (payload) => this.onNotice(payload));
    this.secret = Buffer.from(secret, 'base64url');
    this.setSafetyPollMs(this.opts.safetyPollMs);
  }

  /** Ends every wait (each answers as if its time were up), UNLISTENs, stops the safety poll. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.interruptWaits();
    if (this.safetyTimer) clearInterval(this.safetyTimer);
    this.safetyTimer = null;
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = null;
    this.secret = null;
  }

  /** Wakes every waiting long poll; with the service stopping they answer at once. */
  interruptWaits(): void {
    const epoch = ++this.epoch;
    for (const set of this.waiters.values()) for (const w of set) w.wake(epoch);
  }

  /** Interval of the safety-net poll under LISTEN/NOTIFY (tests lengthen it to prove wake-ups come from NOTIFY). */
  setSafetyPollMs(ms: number): void {
    if (!(ms > 0)) throw new RangeError('safety poll interval must be positive');
    this.opts.safetyPollMs = ms;
    if (this.safetyTimer) clearInterval(this.safetyTimer);
    this.safetyTimer = this.secret && !this.stopping ? setInterval(() => void this.safetyPoll(), ms).unref() : null;
  }

  /** Long polls waiting right now (on this instance). */
  get waiting(): number {
    return this.waiterCount;
  }

  /** JobEventSink for the job engine: the same as appendEvent. */
  append(tx: Queryable, e: NewEvent): Promise<number> {
    return appendEvent(tx, e);
  }

  /** The cursor of a position in an account's feed (0: before its first event). */
  cursorFor(userId: string, position: number): string {
    return encodeCursor(this.requireSecret(), userId, position);
  }

  /**
   * A page of the account's events after `after`. With `wait` > 0 and nothing to return,
   * waits until a matching event is committed (on any instance) or the time is up.
   * next_cursor: the cursor of the last event returned; with no events, the `after` given,
   * or (no `after`) the account's current position.
   */
  async list(userId: string, q: EventQuery = {}): Promise<EventPage> {
    const secret = this.requireSecret();
    const limit = q.limit ?? DEFAULT_LIMIT;
    const wait = Math.min(Math.max(q.wait ?? 0, 0), MAX_WAIT_SEC);
    const given = q.after !== undefined && q.after !== '';
    let after = 0;
    if (given) {
      const pos = decodeCursor(secret, userId, q.after!);
      if (pos === null) {
        throw invalid(['after'], 'Not a cursor of this feed: pass next_cursor (or an event cursor) back unchanged', q.after, 'value_error');
      }
      after = pos;
    }
    const filter: Filter = { kind: q.kind, subjectId: q.subjectId };
    const deadline = Date.now() + wait * 1000;
    // Registered before the first read, so an event committed after that read always wakes us.
    const waiter = wait > 0 && !this.stopping ? this.register(new Waiter(userId, filter, after, this.epoch)) : null;
    // Events up to `from` are known not to match (ids below the head are final: gap-free).
    let from = after;
    try {
      for (;;) {
        const page = await this.readPage(userId, from, limit, filter, waiter ? waiter.epoch : null);
        if (given && after < page.purgedThrough) {
          throw new AppError(
            'cursor-expired',
            `events after this cursor were removed (events are kept ${this.retentionDays} days); read the feed again without "after" and re-read your jobs and runs`,
          );
        }
        const events = page.rows.map((r) => this.toRunEvent(secret, userId, r));
        const last = events.at(-1);
        if (last) return { events, next_cursor: last.cursor };
        const remaining = deadline - Date.now();
        if (!waiter || remaining <= 0 || this.stopping || q.signal?.aborted) {
          return { events: [], next_cursor: given ? q.after! : encodeCursor(secret, userId, Math.max(page.head, page.purgedThrough)) };
        }
        from = Math.max(from, page.head);
        waiter.seen = from;
        await waiter.sleep(remaining, q.signal);
      }
    } finally {
      if (waiter) this.unregister(waiter);
    }
  }

  /**
   * Deletes events older than `days` (at least 30), oldest first in batches, and raises each
   * account's watermark so that cursors into the removed range answer 410 cursor-expired.
   * One purger at a time across instances (an advisory lock; a busy lock skips). Returns the
   * number of events removed.
   */
  async purgeOlderThan(days: number): Promise<number> {
    if (!(days >= MIN_RETENTION_DAYS)) throw new RangeError(`events are kept at least ${MIN_RETENTION_DAYS} days`);
    let total = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [PURGE_LOCK_KEY]);
        if (!firstRow(rows, 'the purge lock query').ok) return -1;
        return eventsStore.purgeBatch(tx, days, PURGE_BATCH);
      });
      if (n < 0) break;
      total += n;
      if (n < PURGE_BATCH || this.stopping) break;
    }
    return total;
  }

  /**
   * One page read. Long polls woken together (same account, position, limit and filters)
   * share one read, provided it started at or after `minEpoch`; other reads never share.
   */
  private readPage(userId: string, from: number, limit: number, filter: Filter, minEpoch: number | null): Promise<Page> {
    const key = `${userId}|${from}|${limit}|${filter.kind ?? ''}|${filter.subjectId ?? ''}`;
    if (minEpoch !== null) {
      const running = this.inflight.get(key);
      if (running && running.epoch >= minEpoch) return running.page;
    }
    const entry = { epoch: this.epoch, page: eventsStore.page(this.db, userId, from, limit, filter) };
    this.inflight.set(key, entry);
    const done = () => {
      if (this.inflight.get(key) === entry) this.inflight.delete(key);
    };
    entry.page.then(done, done);
    return entry.page;
  }

  private requireSecret(): Buffer {
    if (!this.secret) throw new Error('EventService is not started');
    return this.secret;
  }

  private toRunEvent(secret: Buffer, userId: string, r: EventRow): RunEvent {
    return {
      cursor: encodeCursor(secret, userId, r.event_id),
      event_id: r.event_id,
      kind: r.kind,
      occurred_at: r.occurred_at.toISOString(),
      status: r.status,
      subject_id: r.subject_id,
      workflow_run_id: r.workflow_run_id,
    };
  }

  private register(w: Waiter): Waiter {
    let set = this.waiters.get(w.userId);
    if (!set) this.waiters.set(w.userId, (set = new Set()));
    set.add(w);
    this.waiterCount++;
    return w;
  }

  private unregister(w: Waiter): void {
    const set = this.waiters.get(w.userId);
    if (!set?.delete(w)) return;
    this.waiterCount--;
    if (set.size === 0) this.waiters.delete(w.userId);
  }

  private onNotice(payload: string): void {
    let n: EventNotice;
    try {
      n = JSON.parse(payload) as EventNotice;
    } catch {
      return;
    }
    const epoch = ++this.epoch;
    const set = this.waiters.get(n?.u);
    if (!set) return;
    for (const w of set) if (w.matches(n)) w.wake(epoch);
  }

  private async safetyPoll(): Promise<void> {
    if (this.polling || this.waiterCount === 0 || this.stopping) return;
    this.polling = true;
    try {
      const heads = await eventsStore.heads(this.db, [...this.waiters.keys()]);
      const epoch = ++this.epoch;
      for (const [userId, head] of heads) for (const w of this.waiters.get(userId) ?? []) if (head > w.seen) w.wake(epoch);
    } catch (err) {
      this.opts.log?.warn({ err }, 'event safety poll failed');
    } finally {
      this.polling = false;
    }
  }
}
