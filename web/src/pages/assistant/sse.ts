// A turn's event stream (docs/assistant.md, "Streaming") read with fetch(): EventSource cannot send
// the Authorization header. A small text/event-stream parser over the response body, and a
// follower that remembers the last event id and, when the connection drops (a network error, or
// the stream ending before its `done`/`error` event), reconnects with backoff sending
// `Last-Event-ID`, so the server resumes after it: no gap, no repeat. Events at or below the last
// id seen are dropped anyway, so none is ever handed on twice.
import { ProblemError } from 'crucible-client';
import { crucible, problemOf, sessionEnded } from '../../api/client.ts';

export interface SseEvent {
  id: number;
  event: string;
  data: unknown;
}

/** Incremental parser: feed it decoded text, it answers the complete events (comments skipped). */
export class SseParser {
  private buf = '';
  private id = NaN;
  private event = '';
  private data: string[] = [];

  push(text: string): SseEvent[] {
    this.buf += text;
    const out: SseEvent[] = [];
    for (;;) {
      const nl = this.buf.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + (this.buf.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (this.data.length) out.push(this.dispatch());
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') this.id = Number(value);
      else if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
    }
    return out;
  }

  private dispatch(): SseEvent {
    const raw = this.data.join('\n');
    let data: unknown = raw;
    try {
      data = JSON.parse(raw);
    } catch {
      // not JSON: kept as text
    }
    return { id: this.id, event: this.event || 'message', data };
  }
}

export type LinkState = 'open' | 'reconnecting';

export interface FollowOptions {
  /** The stream's path (…/turns/{turn_id}/stream). */
  path: string;
  /** Resume after this event (0: from the start). */
  after: number;
  signal: AbortSignal;
  onEvent: (e: SseEvent) => void;
  /** 'reconnecting' when the connection dropped, 'open' once a new one answers. */
  onLink: (state: LinkState) => void;
}

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    // Back online: try at once instead of waiting out the backoff.
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });
}

/**
 * Follows a turn's stream to its last event. Resolves with the last event (`done` or `error`), or
 * null when aborted; throws a ProblemError for an answer that a retry cannot mend (404, 422, 401).
 */
export async function followTurn(o: FollowOptions): Promise<SseEvent | null> {
  let last = o.after;
  let failures = 0;
  let refreshed = false;
  while (!o.signal.aborted) {
    let dropped = false;
    try {
      const headers: Record<string, string> = { ...(await crucible.authHeaders()), accept: 'text/event-stream' };
      if (last > 0) headers['last-event-id'] = String(last);
      const res = await fetch(o.path, { headers, signal: o.signal, cache: 'no-store' });
      if (res.status === 401) {
        const problem = await problemOf(res);
        if (problem.slug === 'token-expired' && !refreshed) {
          refreshed = true;
          await crucible.refresh();
          continue;
        }
        sessionEnded(problem);
        throw problem;
      }
      if (!res.ok || !res.body) {
        // 5xx and 429 may pass; anything else is the answer.
        if (res.status < 500 && res.status !== 429) throw await problemOf(res);
        dropped = true;
      } else {
        refreshed = false;
        failures = 0;
        o.onLink('open');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const e of parser.push(value)) {
            if (!(e.id > last)) continue; // seen already (or without an id): never shown twice
            last = e.id;
            o.onEvent(e);
            if (e.event === 'done' || e.event === 'error') {
              await reader.cancel().catch(() => undefined);
              return e;
            }
          }
        }
        // The stream closed before its last event: the connection was cut.
        dropped = true;
      }
    } catch (err) {
      if (o.signal.aborted) return null;
      if (err instanceof ProblemError) throw err;
      dropped = true; // a network error (TypeError) or a body cut off mid-read
    }
    if (dropped && !o.signal.aborted) {
      o.onLink('reconnecting');
      await pause(BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!, o.signal);
      failures++;
    }
  }
  return null;
}
