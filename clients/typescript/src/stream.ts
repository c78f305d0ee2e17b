// streamTurn (README, "The Assistant"): the text/event-stream of an Assistant turn
// (docs/assistant.md, "Streaming") as an async iterator of typed events. Each event's `id` is
// its number in the turn; when the connection drops before the last event (`done` or
// `error`), the stream is asked again with `Last-Event-ID` and goes on from the event after the
// last one seen: no gap, no repeat. Events of a kind this SDK does not know are skipped (the
// API may add kinds within v1).
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import type { Crucible } from './client.js';
import { ProblemError } from './errors.js';
import type { components } from './generated/openapi.js';
import { backoff, isAbort, sleep } from './retry.js';

export type AssistantStreamEvent = components['schemas']['AssistantStreamEvent'];

export interface StreamOptions {
  /** Resume after this event (its `id`); from the first event when absent. */
  lastEventId?: number;
  signal?: AbortSignal;
  /** Reconnections in a row that bring no new event before giving up (default 5). */
  maxReconnects?: number;
}

const KINDS = new Set<string>(['delta', 'tool_call', 'tool_result', 'plan', 'usage', 'done', 'error']);

function toEvent(m: EventSourceMessage): AssistantStreamEvent | null {
  if (!m.event || !KINDS.has(m.event)) return null;
  let data: unknown;
  try {
    data = JSON.parse(m.data);
  } catch {
    return null;
  }
  return { id: Number(m.id), event: m.event, data } as AssistantStreamEvent;
}

export async function* streamTurn(client: Crucible, sessionId: string, turnId: string, options: StreamOptions): AsyncGenerator<AssistantStreamEvent, void, undefined> {
  const { signal, maxReconnects = 5 } = options;
  const path = { session_id: sessionId, turn_id: turnId };
  let last = options.lastEventId ?? 0;
  let idle = 0;
  for (;;) {
    let progressed = false;
    try {
      const body = await client.get('/api/v1/assistant/sessions/{session_id}/turns/{turn_id}/stream', {
        params: { path },
        parseAs: 'stream',
        headers: { Accept: 'text/event-stream', ...(last > 0 && { 'Last-Event-ID': String(last) }) },
        ...(signal && { signal }),
      });
      if (!body) throw new Error('the stream answered without a body');
      const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const id = Number(value.id);
          if (Number.isInteger(id) && id > last) {
            last = id;
            progressed = true;
          }
          const event = toEvent(value);
          if (!event) continue;
          yield event;
          if (event.event === 'done' || event.event === 'error') return;
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    } catch (err) {
      // A problem (404, 401, ...) has been retried as its hint allows already; a lost connection is resumed below.
      if (err instanceof ProblemError || isAbort(err) || signal?.aborted) throw err;
    }
    // The connection ended before the last event.
    idle = progressed ? 0 : idle + 1;
    if (!progressed) {
      const turn = await client.get('/api/v1/assistant/sessions/{session_id}/turns/{turn_id}', { params: { path }, ...(signal && { signal }) });
      if (turn.status !== 'running') return;
      if (idle > maxReconnects) throw new Error(`the stream of turn ${turnId} dropped ${idle} times in a row without a new event`);
    }
    await sleep(progressed ? 0 : backoff(client.retryOptions, idle), signal);
  }
}
