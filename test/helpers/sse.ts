// Server-Sent Events as the tests and benchmarks read them (the Assistant's turn streams,
// docs/assistant.md): one parser for every reader of a text/event-stream body.

export interface SseEvent {
  id: number;
  event: string;
  data: any;
}

/** Parses complete text/event-stream frames, their data JSON (comments, e.g. keep-alives, skipped). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim() || block.startsWith(':')) continue;
    let id = NaN;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = Number(line.slice(4));
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) out.push({ id, event, data: JSON.parse(data.join('\n')) });
  }
  return out;
}
