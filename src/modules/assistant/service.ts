// The Assistant's sessions, turns and plan cards (docs/assistant.md), callable without a
// request. Starting a turn reserves its hold (402 when the wallet cannot cover it) in the
// transaction that writes the turn; the turn then runs in this process (runner.ts). Approving
// a plan card starts its workflow run and decides the card in the run's start transaction.
import crypto from 'node:crypto';
import type { AssistantConfig } from '../../config.js';
import type { Database, Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/database.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { ChatMessage } from '../../assistant/provider.js';
import { countPromptTokens, countTokens, loadTokenizer } from '../../assistant/tokens.js';
import type { WorkflowQuote } from '../../assistant/tool-specs.js';
import { usd } from '../../api/schemas.js';
import { isUuid } from '../../validation.js';
import type { WalletService } from '../wallet/service.js';
import type { Principal } from '../../api/principal.js';
import type { RunService, RunStartBody } from '../workflows/runs.js';
import type { RunView } from '../workflows/runs-view.js';
import { SYSTEM_PROMPT, type TurnRunner } from './runner.js';
import type { TurnWaiters } from './stream.js';
import { assistantStore, type MessageRow, type PlanRow, type SessionRow, type TurnRow } from './store.js';

/** The longest user message, in characters. */
export const MAX_MESSAGE_CHARS = 8_000;
export const MAX_TITLE_CHARS = 200;
/** A plan card can be approved for this long after it was proposed. */
export const PLAN_TTL_SEC = 24 * 3600;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function sessionView(s: SessionRow) {
  return { session_id: s.id, title: s.title, turns: s.turns, created_at: iso(s.created_at)!, updated_at: iso(s.updated_at)! };
}

export function turnView(t: TurnRow) {
  return {
    turn_id: t.id,
    session_id: t.session_id,
    status: t.status,
    message: t.message,
    model: t.model,
    input_tokens: t.input_tokens,
    output_tokens: t.output_tokens,
    cost_usd: usd(t.cost_micros)!,
    hold_usd: usd(t.hold_micros)!,
    error: t.error,
    created_at: iso(t.created_at)!,
    finished_at: iso(t.finished_at),
  };
}

export function planView(p: PlanRow) {
  return {
    plan_id: p.id,
    session_id: p.session_id,
    turn_id: p.turn_id,
    title: p.title,
    status: p.status === 'proposed' && p.expired ? ('expired' as const) : p.status,
    workflow: p.request,
    estimate: p.estimate,
    run_id: p.run_id,
    created_at: iso(p.created_at)!,
    expires_at: iso(p.expires_at)!,
    decided_at: iso(p.decided_at),
  };
}

function messageView(m: MessageRow) {
  return { seq: m.seq, turn_id: m.turn_id, role: m.role, content: m.content, tool_calls: m.tool_calls, tool_call_id: m.tool_call_id, created_at: iso(m.created_at)! };
}

export class AssistantService {
  /** Runs this process's turns (and settles dead processes' ones). */
  readonly runner: TurnRunner;
  /** This process's streams waiting for their turns' next events. */
  readonly waiters: TurnWaiters;

  constructor(
    private readonly db: Database,
    private readonly d: { config: AssistantConfig; wallet: WalletService; runs: RunService; runner: TurnRunner; waiters: TurnWaiters },
  ) {
    this.runner = d.runner;
    this.waiters = d.waiters;
  }

  /** What one turn may hold: its token limit at the higher of the two prices. */
  get holdMicros(): number {
    const c = this.d.config;
    return Math.ceil(c.maxTokens * Math.max(c.priceInputPerMTok, c.priceOutputPerMTok));
  }

  models() {
    const c = this.d.config;
    return {
      models: [
        {
          model: c.model,
          provider: c.provider,
          description:
            c.provider === 'builtin'
              ? 'The embedded deterministic planner: describes, draws and looks up named compounds, reads your jobs, runs and artifacts, estimates and proposes workflow runs from the templates and engine jobs (optimisation, single point, frequencies, conformers) (docs/assistant.md)'
              : `An OpenAI-compatible Chat Completions model with tool calling (${c.model})`,
          input_price_per_mtok_usd: c.priceInputPerMTok,
          output_price_per_mtok_usd: c.priceOutputPerMTok,
          max_tokens_per_turn: c.maxTokens,
          hold_per_turn_usd: usd(this.holdMicros)!,
        },
      ],
      default_model: c.model,
    };
  }

  // ---- sessions

  async createSession(userId: string, title?: string) {
    return sessionView(await assistantStore.createSession(this.db, crypto.randomUUID(), userId, title?.trim() || 'New session'));
  }

  private async session(userId: string, id: string): Promise<SessionRow> {
    const s = isUuid(id) ? await assistantStore.session(this.db, userId, id) : null;
    if (!s) throw notFound(`assistant session ${id}`);
    return s;
  }

  /** Locks the caller's session in `tx` (404 for anyone else's). */
  private async lockSession(tx: Queryable, userId: string, id: string): Promise<void> {
    if (!(isUuid(id) && (await assistantStore.lockSession(tx, userId, id)))) throw notFound(`assistant session ${id}`);
  }

  async listSessions(userId: string, q: { limit?: number; offset?: number }) {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const page = await assistantStore.sessions(this.db, userId, limit, offset);
    return { sessions: page.rows.map(sessionView), total: page.total, limit, offset };
  }

  async getSession(userId: string, id: string) {
    const s = await this.session(userId, id);
    const [messages, plans] = await Promise.all([assistantStore.messages(this.db, s.id), assistantStore.plans(this.db, s.id)]);
    return { ...sessionView(s), messages: messages.map(messageView), plans: plans.map(planView) };
  }

  async renameSession(userId: string, id: string, title: string) {
    if (!title.trim()) throw invalid(['title'], 'the title must not be blank', title, 'string_too_short');
    if (!(isUuid(id) && (await assistantStore.rename(this.db, userId, id, title.trim())))) throw notFound(`assistant session ${id}`);
    return sessionView(await this.session(userId, id));
  }

  async deleteSession(userId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.lockSession(tx, userId, id);
      const running = await assistantStore.runningTurn(tx, id);
      if (running) throw new AppError('conflict', `turn ${running} of this session is still running; stop it before deleting the session`, { retry: 'conflict' });
      await assistantStore.deleteSession(tx, userId, id);
    });
  }

  // ---- turns

  private checkMessage(message: string): string {
    if (message.trim().length === 0) throw invalid(['message'], 'the message must not be blank', message, 'string_too_short');
    if (message.length > MAX_MESSAGE_CHARS)
      throw invalid(['message'], `the message may have at most ${MAX_MESSAGE_CHARS} characters`, `${message.slice(0, 100)}…`, 'string_too_long');
    return message;
  }

  /**
   * The session's conversation for the model, oldest turns dropped while it fills more than half
   * the token limit; without the messages of `exceptTurn` (the turn being started).
   */
  private async history(sessionId: string, exceptTurn: string | null = null): Promise<ChatMessage[]> {
    await loadTokenizer();
    const rows = await assistantStore.messages(this.db, sessionId);
    let msgs: ChatMessage[] = rows
      .filter((m) => m.turn_id !== exceptTurn)
      .map((m) =>
        m.role === 'tool'
          ? { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: m.content }
          : m.role === 'assistant'
            ? m.tool_calls?.length
              ? { role: 'assistant', content: m.content, tool_calls: m.tool_calls }
              : { role: 'assistant', content: m.content }
            : { role: 'user', content: m.content },
      );
    while (msgs.length && countPromptTokens(msgs) > this.d.config.maxTokens / 2) {
      const next = msgs.findIndex((m, i) => i > 0 && m.role === 'user');
      msgs = next < 0 ? [] : msgs.slice(next);
    }
    return msgs;
  }

  async estimateTurn(userId: string, sessionId: string, message: string) {
    const s = await this.session(userId, sessionId);
    this.checkMessage(message);
    const c = this.d.config;
    const history = await this.history(s.id);
    const prompt = this.runner.promptTokens([{ role: 'system', content: SYSTEM_PROMPT }, ...history, { role: 'user', content: message }]);
    return {
      model: c.model,
      message_tokens: countTokens(message),
      input_tokens_min: prompt,
      max_tokens: c.maxTokens,
      max_output_tokens: Math.max(0, c.maxTokens - prompt),
      input_price_per_mtok_usd: c.priceInputPerMTok,
      output_price_per_mtok_usd: c.priceOutputPerMTok,
      min_cost_usd: usd(Math.ceil(prompt * c.priceInputPerMTok))!,
      hold_usd: usd(this.holdMicros)!,
    };
  }

  /**
   * Starts a turn (docs/performance.md, "Assistant"): one transaction of four statements (the
   * session touched and locked with the turn inserted, the wallet locked, the hold reserved, the
   * user message appended) and nothing else before the 202. The conversation so far is read by
   * the runner after COMMIT, and not at all when this message is the session's first.
   */
  async startTurn(who: Principal, sessionId: string, message: string, requestId: string) {
    this.checkMessage(message);
    if (!isUuid(sessionId)) throw notFound(`assistant session ${sessionId}`);
    const turnId = crypto.randomUUID();
    const hold = this.holdMicros;
    let first: number | null;
    const started = this.runner.admit();
    try {
      first = await this.db.transaction(async (tx) => {
        const started = await assistantStore.insertTurn(tx, { id: turnId, sessionId, userId: who.userId, message, model: this.d.config.model, holdMicros: hold });
        if (!started) throw notFound(`assistant session ${sessionId}`);
        await this.d.wallet.reserveAll(tx, [{ userId: who.userId, keyId: null, jobId: turnId, amountMicros: hold, ceilingMicros: null, note: 'assistant turn hold' }]);
        return assistantStore.appendMessages(tx, sessionId, turnId, [{ role: 'user', content: message }]);
      });
    } catch (err) {
      started();
      // The one unique index a new turn can meet: the session's running turn.
      if (isUniqueViolation(err)) throw busy((await assistantStore.runningTurn(this.db, sessionId)) ?? 'another');
      throw err;
    }
    const history = first === 1 ? Promise.resolve([]) : this.history(sessionId, turnId);
    this.runner.start({
      turnId,
      sessionId,
      who,
      requestId,
      messages: history.then((h): ChatMessage[] => [{ role: 'system', content: SYSTEM_PROMPT }, ...h, { role: 'user', content: message }]),
      proposePlan: (title, request, estimate) => this.propose(who.userId, sessionId, turnId, title, request, estimate),
      started,
    });
    return { turn_id: turnId, session_id: sessionId, status: 'running' as const, hold_usd: usd(hold)!, stream: `/api/v1/assistant/sessions/${sessionId}/turns/${turnId}/stream` };
  }

  async turnRow(userId: string, sessionId: string, turnId: string): Promise<TurnRow> {
    const t = isUuid(sessionId) && isUuid(turnId) ? await assistantStore.turn(this.db, userId, sessionId, turnId) : null;
    if (!t) throw notFound(`turn ${turnId}`);
    return t;
  }

  async getTurn(userId: string, sessionId: string, turnId: string) {
    return turnView(await this.turnRow(userId, sessionId, turnId));
  }

  async listTurns(userId: string, sessionId: string, q: { limit?: number; offset?: number }) {
    const s = await this.session(userId, sessionId);
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const page = await assistantStore.turns(this.db, s.id, limit, offset);
    return { turns: page.rows.map(turnView), total: page.total, limit, offset };
  }

  /** Stops a running turn on whichever instance runs it, and answers once it has settled (at most ~2 s). */
  async stopTurn(userId: string, sessionId: string, turnId: string) {
    const t = await this.turnRow(userId, sessionId, turnId);
    if (t.status !== 'running') throw new AppError('conflict', `turn ${turnId} already ended with status ${t.status}`, { retry: 'terminal' });
    this.runner.abort(turnId);
    await assistantStore.requestStop(this.db, turnId);
    const until = Date.now() + 2_000;
    let now = t;
    while (now.status === 'running' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      now = await this.turnRow(userId, sessionId, turnId);
    }
    return turnView(now);
  }

  // ---- plan cards

  private async propose(userId: string, sessionId: string, turnId: string, title: string, request: RunStartBody, estimate: WorkflowQuote) {
    const p = await assistantStore.insertPlan(this.db, { id: crypto.randomUUID(), userId, sessionId, turnId, title, request, estimate, ttlSec: PLAN_TTL_SEC });
    return { plan_id: p.id, expires_at: iso(p.expires_at)! };
  }

  private async plan(userId: string, id: string, q: Queryable = this.db, forUpdate = false): Promise<PlanRow> {
    const p = isUuid(id) ? await assistantStore.plan(q, userId, id, forUpdate) : null;
    if (!p) throw notFound(`plan ${id}`);
    return p;
  }

  async getPlan(userId: string, id: string) {
    return planView(await this.plan(userId, id));
  }

  /** Starts the card's workflow run (charges: reserves its estimate); the card is decided in the run's start transaction. */
  async approvePlan(who: Principal, id: string, pin: (tx: Queryable, body: unknown) => Promise<void>): Promise<ReturnType<typeof planView> & { run_id: string; run: RunView }> {
    const card = open(await this.plan(who.userId, id));
    let answer: (ReturnType<typeof planView> & { run_id: string; run: RunView }) | null = null;
    await this.d.runs.start(who, { ...card.request, name: card.title }, async (tx, run: RunView) => {
      const p = open(await this.plan(who.userId, id, tx, true));
      await assistantStore.decidePlan(tx, p.id, 'approved', run.run_id);
      answer = { ...planView({ ...p, status: 'approved', run_id: run.run_id, decided_at: new Date() }), run_id: run.run_id, run };
      await pin(tx, answer);
    });
    return answer!;
  }

  async rejectPlan(userId: string, id: string) {
    return this.db.transaction(async (tx) => {
      const p = open(await this.plan(userId, id, tx, true));
      await assistantStore.decidePlan(tx, p.id, 'rejected', null);
      return planView({ ...p, status: 'rejected', decided_at: new Date() });
    });
  }
}

/** A card that can still be decided: proposed and not expired (409 otherwise). */
function open(p: PlanRow): PlanRow {
  if (p.status !== 'proposed') throw new AppError('conflict', `plan ${p.id} was already ${p.status}${p.run_id ? ` (run ${p.run_id})` : ''}`, { retry: 'terminal' });
  if (p.expired) throw new AppError('conflict', `plan ${p.id} expired at ${iso(p.expires_at)}; ask the Assistant for a new one`, { retry: 'terminal' });
  return p;
}

function busy(running: string): AppError {
  return new AppError('conflict', `a turn (${running}) is already running in this session; wait for it to end or stop it`, { retry: 'conflict' });
}
