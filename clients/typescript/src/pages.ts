// Pagination (README, "Lists"): async iterators over every item of a list. Offset lists
// (limit/offset with `total`, or `has_more`/`next_offset` for artifacts) are read page after
// page until the last; a list that changes meanwhile can shift items across a page boundary
// (newest-first lists gain items at the front), as with any offset pagination. The events feed
// follows `next_cursor`, which never misses or repeats an event (docs/events.md).
import type { Crucible } from './client.js';
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type PageQuery<Op extends keyof operations> = Omit<Query<Op>, 'offset'> & { signal?: AbortSignal };

interface Page<T> {
  items: T[];
  /** The offset of the next page, or null after the last. */
  next: number | null;
}

async function* offsetPages<T>(read: (offset: number) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let offset: number | null = 0;
  while (offset !== null) {
    const page: Page<T> = await read(offset);
    yield* page.items;
    offset = page.items.length > 0 ? page.next : null;
  }
}

/** The next offset of a list that reports its total. */
const after = (offset: number, count: number, total: number): number | null => (offset + count < total ? offset + count : null);

function split<Q extends { signal?: AbortSignal }>(q: Q): { query: Omit<Q, 'signal'>; signal: { signal?: AbortSignal } } {
  const { signal, ...query } = q;
  return { query, signal: signal ? { signal } : {} };
}

/** Your jobs (GET /jobs/list; `status` is a list of statuses). */
export function jobs(client: Crucible, q: PageQuery<'listJobs'> = {}): AsyncGenerator<Schemas['JobListItem'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/jobs/list', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.items, next: after(offset, p.items.length, p.total) };
  });
}

/** Your artifacts (GET /artifacts). */
export function artifacts(client: Crucible, q: PageQuery<'listArtifacts'> = {}): AsyncGenerator<Schemas['ArtifactListItem'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/artifacts', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.items, next: p.has_more ? (p.next_offset ?? offset + p.items.length) : null };
  });
}

/** Your workflow definitions and those shared with you (GET /workflows). */
export function workflows(client: Crucible, q: PageQuery<'listWorkflows'> = {}): AsyncGenerator<Schemas['WorkflowSummary'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/workflows', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.workflows, next: after(offset, p.workflows.length, p.total) };
  });
}

/** Your workflow runs (GET /workflows/runs). */
export function workflowRuns(client: Crucible, q: PageQuery<'listWorkflowRuns'> = {}): AsyncGenerator<Schemas['WorkflowRunSummary'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/workflows/runs', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.runs, next: after(offset, p.runs.length, p.total) };
  });
}

/** The reference papers (GET /papers). */
export function papers(client: Crucible, q: PageQuery<'listPapers'> = {}): AsyncGenerator<Schemas['PaperList']['items'][number], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/papers', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.items, next: after(offset, p.items.length, p.total) };
  });
}

/** Your asynchronous utility requests (GET /utilities/requests). */
export function utilityRequests(client: Crucible, q: PageQuery<'listUtilityRequests'> = {}): AsyncGenerator<Schemas['UtilityRequestSummary'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/utilities/requests', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.items, next: after(offset, p.items.length, p.total) };
  });
}

/** Your asynchronous prediction requests (GET /inference/requests). */
export function inferenceRequests(client: Crucible, q: PageQuery<'listInferenceRequests'> = {}): AsyncGenerator<Schemas['InferenceRequestList']['items'][number], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/inference/requests', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.items, next: after(offset, p.items.length, p.total) };
  });
}

/** Your Assistant sessions (GET /assistant/sessions). */
export function assistantSessions(client: Crucible, q: PageQuery<'listAssistantSessions'> = {}): AsyncGenerator<Schemas['AssistantSession'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/assistant/sessions', { params: { query: { ...query, offset } }, ...signal });
    return { items: p.sessions, next: after(offset, p.sessions.length, p.total) };
  });
}

/** The turns of an Assistant session, oldest first (GET /assistant/sessions/{session_id}/turns). */
export function assistantTurns(client: Crucible, sessionId: string, q: PageQuery<'listAssistantTurns'> = {}): AsyncGenerator<Schemas['AssistantTurn'], void, undefined> {
  const { query, signal } = split(q);
  return offsetPages(async (offset) => {
    const p = await client.get('/api/v1/assistant/sessions/{session_id}/turns', { params: { path: { session_id: sessionId }, query: { ...query, offset } }, ...signal });
    return { items: p.turns, next: after(offset, p.turns.length, p.total) };
  });
}

export type EventsQuery = Query<'listEvents'> & {
  /** Keep long-polling for new events instead of stopping at the end of the feed. */
  follow?: boolean;
  signal?: AbortSignal;
};

/**
 * The events feed from `after` (the start of the retained feed when absent), following
 * `next_cursor`. Stops at the end of the feed, unless `follow`: then it long-polls (`wait`,
 * default 25 s) until the signal aborts. Each event's `cursor` resumes right after it.
 */
export async function* events(client: Crucible, q: EventsQuery = {}): AsyncGenerator<Schemas['RunEvent'], void, undefined> {
  const { follow = false, signal, ...rest } = q;
  const query = { ...rest };
  const wait = query.wait ?? (follow ? 25 : 0);
  for (;;) {
    const page = await client.get('/api/v1/events', { params: { query: { ...query, wait } }, ...(signal ? { signal } : {}) });
    yield* page.events;
    if (page.next_cursor) query.after = page.next_cursor;
    if (page.events.length === 0 && !follow) return;
  }
}
