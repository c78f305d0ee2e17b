// Every statement on the Assistant's tables (migration 015; docs/assistant.md). A turn's row is
// locked (FOR UPDATE) by whoever ends it, so it is settled once.
import { firstRow, type Queryable } from '../../db/database.js';
import type { ToolCall } from '../../assistant/provider.js';
import type { WorkflowQuote } from '../../assistant/tool-specs.js';

export type TurnStatus = 'running' | 'completed' | 'stopped' | 'error';

export interface SessionRow {
  id: string;
  user_id: string;
  title: string;
  created_at: Date;
  updated_at: Date;
  turns: number;
}

export interface TurnRow {
  id: string;
  session_id: string;
  user_id: string;
  status: TurnStatus;
  message: string;
  model: string;
  hold_micros: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
  error: string | null;
  stop_requested: boolean;
  created_at: Date;
  finished_at: Date | null;
}

export interface EventRow {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export interface MessageRow {
  seq: number;
  turn_id: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls: ToolCall[] | null;
  tool_call_id: string | null;
  created_at: Date;
}

export interface PlanRow {
  id: string;
  user_id: string;
  session_id: string;
  turn_id: string;
  title: string;
  request: Record<string, unknown>;
  estimate: WorkflowQuote;
  status: 'proposed' | 'approved' | 'rejected';
  run_id: string | null;
  expires_at: Date;
  decided_at: Date | null;
  created_at: Date;
  expired: boolean;
}

/** Channel of turn notices: `e:<turn id>` (new events), `s:<turn id>` (stop requested). */
export const TURN_CHANNEL = 'crucible_assistant';

const TURN_COLS = 'id, session_id, user_id, status, message, model, hold_micros, input_tokens, output_tokens, cost_micros, error, stop_requested, created_at, finished_at';
const PLAN_COLS = 'id, user_id, session_id, turn_id, title, request, estimate, status, run_id, expires_at, decided_at, created_at, (expires_at <= now()) AS expired';
const SESSION_COLS = 's.id, s.user_id, s.title, s.created_at, s.updated_at, (SELECT count(*)::int FROM assistant_turns t WHERE t.session_id = s.id) AS turns';

export const assistantStore = {
  async createSession(q: Queryable, id: string, userId: string, title: string): Promise<SessionRow> {
    const { rows } = await q.query<SessionRow>('INSERT INTO assistant_sessions (id, user_id, title) VALUES ($1, $2, $3) RETURNING *, 0 AS turns', [id, userId, title]);
    return firstRow(rows, 'session insert');
  },

  async session(q: Queryable, userId: string, id: string): Promise<SessionRow | null> {
    const { rows } = await q.query<SessionRow>(`SELECT ${SESSION_COLS} FROM assistant_sessions s WHERE s.id = $1 AND s.user_id = $2`, [id, userId]);
    return rows[0] ?? null;
  },

  /** Locks the user's session (turn starts and deletes serialise on it); false when there is none. */
  async lockSession(q: Queryable, userId: string, id: string): Promise<boolean> {
    const { rows } = await q.query('SELECT id FROM assistant_sessions WHERE id = $1 AND user_id = $2 FOR UPDATE', [id, userId]);
    return rows.length > 0;
  },

  async sessions(q: Queryable, userId: string, limit: number, offset: number): Promise<{ rows: SessionRow[]; total: number }> {
    const { rows } = await q.query<SessionRow>(`SELECT ${SESSION_COLS} FROM assistant_sessions s WHERE s.user_id = $1 ORDER BY s.updated_at DESC, s.id LIMIT $2 OFFSET $3`, [
      userId,
      limit,
      offset,
    ]);
    const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM assistant_sessions WHERE user_id = $1', [userId]);
    return { rows, total: n[0]!.n };
  },

  async rename(q: Queryable, userId: string, id: string, title: string): Promise<boolean> {
    const r = await q.query('UPDATE assistant_sessions SET title = $3, updated_at = now() WHERE id = $1 AND user_id = $2', [id, userId, title]);
    return r.rowCount > 0;
  },

  async deleteSession(q: Queryable, userId: string, id: string): Promise<void> {
    await q.query('DELETE FROM assistant_sessions WHERE id = $1 AND user_id = $2', [id, userId]);
  },

  /**
   * Starts a turn in one statement: touches the user's session (the UPDATE locks it: turn starts
   * and deletes serialise on it) and inserts the running turn. False when the user has no such
   * session; a unique violation when the session already has a running turn (the partial unique
   * index assistant_turns_one_running is the check).
   */
  async insertTurn(q: Queryable, t: { id: string; sessionId: string; userId: string; message: string; model: string; holdMicros: number }): Promise<boolean> {
    const { rows } = await q.query(
      `WITH s AS (UPDATE assistant_sessions SET updated_at = now() WHERE id = $2 AND user_id = $3 RETURNING id)
       INSERT INTO assistant_turns (id, session_id, user_id, status, message, model, hold_micros)
       SELECT $1, s.id, $3, 'running', $4, $5, $6 FROM s RETURNING id`,
      [t.id, t.sessionId, t.userId, t.message, t.model, t.holdMicros],
    );
    return rows.length > 0;
  },

  async turn(q: Queryable, userId: string | null, sessionId: string | null, id: string, forUpdate = false): Promise<TurnRow | null> {
    const { rows } = await q.query<TurnRow>(
      `SELECT ${TURN_COLS} FROM assistant_turns WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2) AND ($3::uuid IS NULL OR session_id = $3)${forUpdate ? ' FOR UPDATE' : ''}`,
      [id, userId, sessionId],
    );
    return rows[0] ?? null;
  },

  async turns(q: Queryable, sessionId: string, limit: number, offset: number): Promise<{ rows: TurnRow[]; total: number }> {
    const { rows } = await q.query<TurnRow>(`SELECT ${TURN_COLS} FROM assistant_turns WHERE session_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
      sessionId,
      limit,
      offset,
    ]);
    const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM assistant_turns WHERE session_id = $1', [sessionId]);
    return { rows, total: n[0]!.n };
  },

  async runningTurn(q: Queryable, sessionId: string): Promise<string | null> {
    const { rows } = await q.query<{ id: string }>("SELECT id FROM assistant_turns WHERE session_id = $1 AND status = 'running'", [sessionId]);
    return rows[0]?.id ?? null;
  },

  /** Records the tokens used so far and the heartbeat; answers whether a stop was requested (null: the turn has ended). */
  async beat(q: Queryable, id: string, inputTokens: number, outputTokens: number): Promise<boolean | null> {
    const { rows } = await q.query<{ stop_requested: boolean }>(
      "UPDATE assistant_turns SET heartbeat_at = now(), input_tokens = $2, output_tokens = $3 WHERE id = $1 AND status = 'running' RETURNING stop_requested",
      [id, inputTokens, outputTokens],
    );
    return rows[0]?.stop_requested ?? null;
  },

  async requestStop(q: Queryable, id: string): Promise<void> {
    await q.query("UPDATE assistant_turns SET stop_requested = true WHERE id = $1 AND status = 'running'", [id]);
    await q.query('SELECT pg_notify($1, $2)', [TURN_CHANNEL, `s:${id}`]);
  },

  /**
   * Ends a running turn, charging the tokens' cost capped at its hold; the UPDATE locks the row,
   * so of two callers only the first finds it running. Null when it had already ended.
   */
  async finishTurn(
    q: Queryable,
    id: string,
    f: { status: TurnStatus; inputTokens: number; outputTokens: number; costMicros: number; error: string | null },
  ): Promise<{ user_id: string; session_id: string; hold_micros: number; cost_micros: number } | null> {
    const { rows } = await q.query<{ user_id: string; session_id: string; hold_micros: number; cost_micros: number }>(
      `UPDATE assistant_turns SET status = $2, input_tokens = $3, output_tokens = $4, cost_micros = LEAST(hold_micros, $5::int8), error = $6, finished_at = now()
        WHERE id = $1 AND status = 'running' RETURNING user_id, session_id, hold_micros, cost_micros`,
      [id, f.status, f.inputTokens, f.outputTokens, f.costMicros, f.error],
    );
    return rows[0] ?? null;
  },

  /** Running turns whose process has not beaten its heartbeat for `staleSec`. */
  async staleTurns(q: Queryable, staleSec: number): Promise<string[]> {
    const { rows } = await q.query<{ id: string }>(
      "SELECT id FROM assistant_turns WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1) ORDER BY heartbeat_at LIMIT 100",
      [staleSec],
    );
    return rows.map((r) => r.id);
  },

  /** Appends events numbered from `firstSeq` and wakes every instance's streams (the NOTIFY, sent at commit, is part of the same statement). */
  async appendEvents(q: Queryable, turnId: string, firstSeq: number, events: { type: string; data: unknown }[]): Promise<void> {
    if (!events.length) return;
    await q.query(
      `WITH e AS (INSERT INTO assistant_turn_events (turn_id, seq, type, data)
                  SELECT $1, $2::int + e.ord, e.type, e.data FROM json_to_recordset($3::json) AS e(ord int, type text, data json))
       SELECT pg_notify($4, $5)`,
      [turnId, firstSeq, JSON.stringify(events.map((e, ord) => ({ ord, type: e.type, data: e.data }))), TURN_CHANNEL, `e:${turnId}`],
    );
  },

  async lastSeq(q: Queryable, turnId: string): Promise<number> {
    const { rows } = await q.query<{ n: number | null }>('SELECT max(seq) AS n FROM assistant_turn_events WHERE turn_id = $1', [turnId]);
    return rows[0]?.n ?? 0;
  },

  async eventsAfter(q: Queryable, turnId: string, after: number, limit = 500): Promise<EventRow[]> {
    const { rows } = await q.query<EventRow>('SELECT seq, type, data FROM assistant_turn_events WHERE turn_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [turnId, after, limit]);
    return rows;
  },

  async appendMessages(
    q: Queryable,
    sessionId: string,
    turnId: string,
    msgs: { role: MessageRow['role']; content: string; tool_calls?: ToolCall[] | null; tool_call_id?: string | null }[],
  ): Promise<number | null> {
    if (!msgs.length) return null;
    const { rows } = await q.query<{ seq: number }>(
      `INSERT INTO assistant_messages (session_id, seq, turn_id, role, content, tool_calls, tool_call_id)
       SELECT $1, COALESCE((SELECT max(seq) FROM assistant_messages WHERE session_id = $1), 0) + m.ord, $2, m.role, m.content, m.tool_calls, m.tool_call_id
         FROM jsonb_to_recordset($3::jsonb) AS m(ord int, role text, content text, tool_calls jsonb, tool_call_id text)
       RETURNING seq`,
      [
        sessionId,
        turnId,
        JSON.stringify(msgs.map((m, i) => ({ ord: i + 1, role: m.role, content: m.content, tool_calls: m.tool_calls ?? null, tool_call_id: m.tool_call_id ?? null }))),
      ],
    );
    return Math.min(...rows.map((r) => r.seq));
  },

  async messages(q: Queryable, sessionId: string): Promise<MessageRow[]> {
    const { rows } = await q.query<MessageRow>(
      'SELECT seq, turn_id, role, content, tool_calls, tool_call_id, created_at FROM assistant_messages WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    );
    return rows;
  },

  async insertPlan(
    q: Queryable,
    p: { id: string; userId: string; sessionId: string; turnId: string; title: string; request: unknown; estimate: unknown; ttlSec: number },
  ): Promise<PlanRow> {
    const { rows } = await q.query<PlanRow>(
      `INSERT INTO assistant_plans (id, user_id, session_id, turn_id, title, request, estimate, status, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'proposed', now() + make_interval(secs => $8)) RETURNING ${PLAN_COLS}`,
      [p.id, p.userId, p.sessionId, p.turnId, p.title, JSON.stringify(p.request), JSON.stringify(p.estimate), p.ttlSec],
    );
    return firstRow(rows, 'plan insert');
  },

  async plan(q: Queryable, userId: string, id: string, forUpdate = false): Promise<PlanRow | null> {
    const { rows } = await q.query<PlanRow>(`SELECT ${PLAN_COLS} FROM assistant_plans WHERE id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [id, userId]);
    return rows[0] ?? null;
  },

  async plans(q: Queryable, sessionId: string): Promise<PlanRow[]> {
    const { rows } = await q.query<PlanRow>(`SELECT ${PLAN_COLS} FROM assistant_plans WHERE session_id = $1 ORDER BY created_at, id`, [sessionId]);
    return rows;
  },

  async decidePlan(q: Queryable, id: string, status: 'approved' | 'rejected', runId: string | null): Promise<void> {
    await q.query('UPDATE assistant_plans SET status = $2, run_id = $3, decided_at = now() WHERE id = $1', [id, status, runId]);
  },
};
