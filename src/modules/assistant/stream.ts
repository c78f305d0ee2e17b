// A turn's Server-Sent Events (docs/assistant.md, "Streaming"), read from the stored events so
// that any instance serves any turn and a reconnect with Last-Event-ID resumes exactly after
// the last event it saw. Streams wait on a wake-up: from the runner in this process, or from
// the NOTIFY another instance's runner sent; a slow poll backs both up.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { assistantStore } from './store.js';

/** Without any wake-up, a waiting stream reads the table again after this long. */
const POLL_MS = 1_000;
const KEEP_ALIVE_MS = 15_000;
const LAST = new Set(['done', 'error']);

export class TurnWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  wake(turnId: string): void {
    const set = this.waiting.get(turnId);
    if (!set) return;
    this.waiting.delete(turnId);
    for (const f of set) f();
  }

  /** A promise woken by the turn's next events (or after `ms`); register it BEFORE reading, so no event slips between. */
  next(turnId: string, ms: number): { promise: Promise<void>; cancel(): void } {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(() => fire(), ms);
    const fire = () => {
      clearTimeout(timer);
      this.waiting.get(turnId)?.delete(fire);
      done();
    };
    let set = this.waiting.get(turnId);
    if (!set) this.waiting.set(turnId, (set = new Set()));
    set.add(fire);
    return { promise, cancel: fire };
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
      const w = waiters.next(turnId, POLL_MS);
      wait = w;
      const events = await assistantStore.eventsAfter(db, turnId, last);
      if (events.length) {
        w.cancel();
        quietSince = Date.now();
        let ended = false;
        for (const e of events) {
          last = e.seq;
          if (!res.write(frame(e.seq, e.type, e.data))) await new Promise<void>((r) => res.once('drain', r).once('close', r));
          if (LAST.has(e.type)) ended = true;
        }
        if (ended) break;
        continue;
      }
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
    if (!res.writableEnded) res.end();
  }
}
