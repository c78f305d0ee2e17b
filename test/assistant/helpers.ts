// Shared by the Assistant tests: sessions, turns and reading a turn's Server-Sent Events.
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { parseSse, type SseEvent } from '../helpers/sse.js';

export { parseSse, type SseEvent };

/**
 * Reads a turn's stream until its last event (done or error), or until `stopAfter` events
 * have arrived (then the client disconnects). Answers the events and the response status.
 */
export async function readStream(
  h: Harness,
  token: string,
  sessionId: string,
  turnId: string,
  o: { lastEventId?: number; stopAfter?: number; base?: string; timeoutMs?: number } = {},
): Promise<{ status: number; contentType: string | null; events: SseEvent[]; firstEventMs: number | null }> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), o.timeoutMs ?? 30_000);
  const t0 = performance.now();
  const res = await fetch(`${o.base ?? h.base}/api/v1/assistant/sessions/${sessionId}/turns/${turnId}/stream`, {
    headers: { authorization: `Bearer ${token}`, ...(o.lastEventId !== undefined ? { 'last-event-id': String(o.lastEventId) } : {}) },
    signal: ctl.signal,
  });
  const events: SseEvent[] = [];
  let firstEventMs: number | null = null;
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    return { status: res.status, contentType: res.headers.get('content-type'), events, firstEventMs };
  }
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body) {
      buf += decoder.decode(chunk as Uint8Array, { stream: true });
      const cut = buf.lastIndexOf('\n\n');
      if (cut < 0) continue;
      const got = parseSse(buf.slice(0, cut + 2));
      buf = buf.slice(cut + 2);
      if (got.length && firstEventMs === null) firstEventMs = performance.now() - t0;
      events.push(...got);
      if (o.stopAfter !== undefined && events.length >= o.stopAfter) {
        // The client read this many and went away (what else arrived is dropped, as by a client that closed).
        events.length = o.stopAfter;
        ctl.abort();
        break;
      }
      if (got.some((e) => e.event === 'done' || e.event === 'error')) break;
    }
  } catch (err) {
    if (!ctl.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, contentType: res.headers.get('content-type'), events, firstEventMs };
}

export async function newSession(h: Harness, token: string, title?: string): Promise<string> {
  const r = await h.req('POST', '/api/v1/assistant/sessions', { token, body: title ? { title } : {} });
  assert.equal(r.status, 201, r.text);
  return r.body.session_id;
}

export async function startTurn(h: Harness, token: string, sessionId: string, message: string, status = 202): Promise<any> {
  const r = await h.req('POST', `/api/v1/assistant/sessions/${sessionId}/turns`, { token, body: { message } });
  assert.equal(r.status, status, r.text);
  return r.body;
}

/** Starts a turn and reads its whole stream. */
export async function ask(h: Harness, token: string, sessionId: string, message: string): Promise<{ turnId: string; events: SseEvent[]; text: string }> {
  const t = await startTurn(h, token, sessionId, message);
  const s = await readStream(h, token, sessionId, t.turn_id);
  assert.equal(s.status, 200);
  return {
    turnId: t.turn_id,
    events: s.events,
    text: s.events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join(''),
  };
}

/** Waits until the turn has left `running` (read from the database, sparing the rate limit). */
export async function waitForTurn(h: Harness, turnId: string, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await h.services.db.query<{ status: string }>('SELECT status FROM assistant_turns WHERE id = $1', [turnId]);
    if (rows[0] && rows[0].status !== 'running') return rows[0].status;
    if (Date.now() > until) throw new Error(`turn ${turnId} still ${rows[0]?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The ledger rows of a turn (its hold's reserve and release, and its charge). */
export async function turnLedger(h: Harness, turnId: string): Promise<{ kind: string; amount_micros: number; reserved_delta_micros: number }[]> {
  const { rows } = await h.services.db.query<{ kind: string; amount_micros: number; reserved_delta_micros: number }>(
    'SELECT kind, amount_micros, reserved_delta_micros FROM ledger WHERE job_id = $1 ORDER BY id',
    [turnId],
  );
  return rows.map((r) => ({ kind: r.kind, amount_micros: Number(r.amount_micros), reserved_delta_micros: Number(r.reserved_delta_micros) }));
}
