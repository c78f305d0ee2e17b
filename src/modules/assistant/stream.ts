// A turn's Server-Sent Events (docs/assistant.md, "Streaming"), read from the stored events so
// that any instance serves any turn and a reconnect with Last-Event-ID resumes exactly after
// the last event it saw. Streams wait on a wake-up: from the runner in this process, which hands
// over the events it has just stored (committed), or from the NOTIFY another instance's runner
// sent; a slow poll backs both up. Handed-over events are written only when they continue the
// stream exactly (the next seq, no gap); anything else is read from the table.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { assistantStore, type EventRow } from './store.js';

/** Without any wake-up, a waiting stream reads the table again after this long. */
const POLL_MS = 1_000;
const KEEP_ALIVE_MS = 15_000;
const LAST = new Set(['done', 'error']);
/** The most events one read of the table returns. */
const READ_LIMIT = 500;

/** One stream's subscription to its turn: events handed over by this process's writer, or word that the table has more. */
export class TurnFeed {
  /** Stored events handed over since the stream last took them, in seq order. */
  private handed: EventRow[] = [];
  /** The table may hold events not handed over (a NOTIFY, a poll, a gap): read it. */
  private stale = true;
  private signal: (() => void) | null = null;

  constructor(private readonly unsubscribe: (f: TurnFeed) => void) {}

  push(events: readonly EventRow[] | null): void {
    if (events) this.handed.push(...events);
    else this.stale = true;
    this.signal?.();
  }

  /** The events after `last` if the handed ones continue it exactly; null when the table must be read. */
  take(last: number): EventRow[] | null {
    const handed = this.handed.filter((e) => e.seq > last);
    this.handed = [];
    if (this.stale || !handed.every((e, k) => e.seq === last + 1 + k)) {
      this.stale = false;
      return null;
    }
    return handed;
  }

  /** Resolves at the next push, or after `ms` (then the table is read). */
  wait(ms: number): { promise: Promise<void>; cancel(): void } {
    let fire!: () => void;
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.stale = true;
        fire();
      }, ms);
      fire = () => {
        clearTimeout(timer);
        this.signal = null;
        resolve();
      };
    });
    if (this.handed.length || this.stale) fire();
    else this.signal = fire;
    return { promise, cancel: fire };
  }

  close(): void {
    this.signal?.();
    this.unsubscribe(this);
  }
}

export class TurnWaiters {
  private readonly feeds = new Map<string, Set<TurnFeed>>();

  /** Wakes the turn's streams in this process: `events` are the rows just stored (committed), null when only the table knows what is new. */
  wake(turnId: string, events: readonly EventRow[] | null = null): void {
    for (const f of this.feeds.get(turnId) ?? []) f.push(events);
  }

  /** A stream's feed of the turn's events; subscribe BEFORE reading the table, so no event slips between. */
  subscribe(turnId: string): TurnFeed {
    const feed = new TurnFeed((f) => {
      const set = this.feeds.get(turnId);
      set?.delete(f);
      if (set?.size === 0) this.feeds.delete(turnId);
    });
    let set = this.feeds.get(turnId);
    if (!set) this.feeds.set(turnId, (set = new Set()));
    set.add(feed);
    return feed;
  }
}

/** The event after which to resume: Last-Event-ID (an EventSource reconnect) or ?after=<id>. */
export function resumeAfter(request: FastifyRequest, query?: number): number | 'invalid' {
  const raw = request.headers['last-event-id'];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header === undefined || header === '') return query ?? 0;
  return /^\d{1,9}$/.test(header.trim()) ? Number(header.trim()) : 'invalid';
}

function frame(seq: number, type: string, data: unknown): string {
  return `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Streams the turn's events after `after` until its last event, or until the client goes away (the turn goes on). */
export async function streamTurn(db: Database, waiters: TurnWaiters, request: FastifyRequest, reply: FastifyReply, turnId: string, after: number): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
  });
  res.flushHeaders();
  let closed = false;
  const feed = waiters.subscribe(turnId);
  let wait: { cancel(): void } | null = null;
  const onClose = () => {
    closed = true;
    wait?.cancel();
  };
  res.on('close', onClose);
  let last = after;
  let quietSince = Date.now();
  try {
    while (!closed) {
      const events = feed.take(last) ?? (await assistantStore.eventsAfter(db, turnId, last, READ_LIMIT));
      if (events.length) {
        quietSince = Date.now();
        let ended = false;
        for (const e of events) {
          last = e.seq;
          if (!res.write(frame(e.seq, e.type, e.data))) await new Promise<void>((r) => res.once('drain', r).once('close', r));
          if (LAST.has(e.type)) ended = true;
        }
        if (ended) break;
        // A full page: the table may hold more.
        if (events.length >= READ_LIMIT) feed.push(null);
        continue;
      }
      const w = feed.wait(POLL_MS);
      wait = w;
      await w.promise;
      if (!closed && Date.now() - quietSince >= KEEP_ALIVE_MS) {
        res.write(': keep-alive\n\n');
        quietSince = Date.now();
      }
    }
  } catch (err) {
    request.log.error({ err, turn_id: turnId }, 'assistant stream failed');
  } finally {
    res.off('close', onClose);
    wait?.cancel();
    feed.close();
    if (!res.writableEnded) res.end();
  }
}
