// One Assistant session (docs/assistant.md): its turns from the stored messages, cards and turn
// list; a new turn sent and its answer streamed live (sse.ts: fetch + Last-Event-ID resume, a
// banner while the connection is lost); tool calls as they happen, plan cards, the cost of each
// turn; rename, delete and stop.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ok } from '../../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../../api/problem.ts';
import { FieldError, ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';
import { PlanCard, ToolCall } from './Blocks.tsx';
import { applyEvent, planFromStored, turnsFromStored, type Plan, type TurnView } from './model.ts';
import { followTurn } from './sse.ts';
import { usd } from '../../lib/units.ts';

const MESSAGE = ['body', 'message'];

export function Conversation({ sessionId, onChanged }: { sessionId: string; onChanged: () => void }) {
  const [title, setTitle] = useState<string | null>(null);
  const [turns, setTurns] = useState<TurnView[]>([]);
  const [plans, setPlans] = useState<Map<string, Plan>>(new Map());
  const [lost, setLost] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const life = useRef(new AbortController());

  const putPlan = useCallback((p: Plan) => setPlans((m) => new Map(m).set(p.plan_id, p)), []);

  /** Follows a running turn's stream after `after`, applying each event once. */
  const follow = useCallback(
    async (turnId: string, after: number) => {
      const path = `/api/v1/assistant/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/stream`;
      try {
        await followTurn({
          path,
          after,
          signal: life.current.signal,
          onEvent: (e) => setTurns((ts) => ts.map((t) => (t.turnId === turnId ? applyEvent(t, e, putPlan) : t))),
          onLink: (s) => setLost(s === 'reconnecting'),
        });
      } catch (err) {
        setProblem(toProblem(err));
      } finally {
        setLost(false);
        if (!life.current.signal.aborted) onChanged();
      }
    },
    [sessionId, putPlan, onChanged],
  );

  useEffect(() => {
    const ctl = new AbortController();
    life.current = ctl;
    setTitle(null);
    setTurns([]);
    setProblem(null);
    const path = { session_id: sessionId };
    Promise.all([
      ok(api.GET('/api/v1/assistant/sessions/{session_id}', { params: { path }, signal: ctl.signal })),
      ok(api.GET('/api/v1/assistant/sessions/{session_id}/turns', { params: { path, query: { limit: 100 } }, signal: ctl.signal })),
    ]).then(
      ([detail, list]) => {
        if (ctl.signal.aborted) return;
        setTitle(detail.title);
        setPlans(new Map(detail.plans.map((p) => [p.plan_id, planFromStored(p)])));
        // A running turn has no stored answer yet: its stream, from the start, shows it.
        const shown = turnsFromStored(detail, list.turns).map((t) => (t.status === 'running' ? { ...t, blocks: [] } : t));
        setTurns(shown);
        for (const t of shown) if (t.status === 'running') void follow(t.turnId, 0);
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) setProblem(toProblem(err));
      },
    );
    return () => ctl.abort();
  }, [sessionId, follow]);

  const running = turns.find((t) => t.status === 'running');

  async function send(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    setSending(true);
    try {
      const r = await ok(api.POST('/api/v1/assistant/sessions/{session_id}/turns', { params: { path: { session_id: sessionId } }, body: { message: draft } }));
      setTurns((ts) => [...ts, { turnId: r.turn_id, message: draft, status: 'running', blocks: [], usage: null, error: null, lastEventId: 0 }]);
      setDraft('');
      void follow(r.turn_id, 0);
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setSending(false);
    }
  }

  async function stop() {
    if (!running) return;
    try {
      await ok(api.POST('/api/v1/assistant/sessions/{session_id}/turns/{turn_id}/stop', { params: { path: { session_id: sessionId, turn_id: running.turnId } } }));
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (renaming === null) return;
    setProblem(null);
    try {
      const r = await ok(api.PATCH('/api/v1/assistant/sessions/{session_id}', { params: { path: { session_id: sessionId } }, body: { title: renaming } }));
      setTitle(r.title);
      setRenaming(null);
      onChanged();
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  async function remove() {
    if (!window.confirm(`Delete the session "${title}" with its messages and plan cards? Runs it started stay.`)) return;
    try {
      await ok(api.DELETE('/api/v1/assistant/sessions/{session_id}', { params: { path: { session_id: sessionId } } }));
      onChanged();
      window.location.hash = href('assistant');
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  const messageIssues = issuesAt(problem, MESSAGE);
  const titleIssues = issuesAt(problem, ['body', 'title']);
  return (
    <section className="conversation" aria-labelledby="session-title">
      <div className="conv-head">
        {renaming === null ? (
          <>
            <h2 id="session-title">{title ?? 'Session'}</h2>
            <div className="row">
              <button type="button" className="secondary" onClick={() => setRenaming(title ?? '')} disabled={title === null}>
                Rename
              </button>
              <button type="button" className="danger" onClick={() => void remove()} disabled={title === null || !!running}>
                Delete
              </button>
            </div>
          </>
        ) : (
          <form className="rename row" onSubmit={(e) => void rename(e)}>
            <h2 id="session-title" className="sr-only">
              Rename {title}
            </h2>
            <label className="grow">
              Title
              <input
                value={renaming}
                maxLength={200}
                onChange={(e) => setRenaming(e.target.value)}
                aria-invalid={titleIssues.length > 0 || undefined}
                aria-describedby={titleIssues.length ? 'title-error' : undefined}
                autoFocus
              />
              <FieldError id="title-error" messages={titleIssues} />
            </label>
            <button type="submit">Save</button>
            <button type="button" className="secondary" onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </form>
        )}
      </div>
      {lost && (
        <p className="notice link-lost" role="status">
          Connection lost — reconnecting…
        </p>
      )}
      <ProblemView problem={problem} fields={[MESSAGE, ['body', 'title']]} />
      {title !== null && turns.length === 0 && (
        <p className="muted">Ask about molecules, your jobs and runs, or for a plan: “describe aspirin and caffeine”, “plan a triage of my library”.</p>
      )}
      <ol className="turns">
        {turns.map((t, n) => (
          <li key={t.turnId} className="turn" aria-label={`Turn ${n + 1}`} aria-busy={t.status === 'running' || undefined} data-turn={t.turnId}>
            <div className="msg user">
              <span className="sr-only">You: </span>
              {t.message}
            </div>
            <div className="msg assistant">
              {t.blocks.map((b, i) =>
                b.kind === 'text' ? (
                  <div key={i} className="answer">
                    {b.text}
                  </div>
                ) : b.kind === 'tool' ? (
                  <ToolCall key={i} block={b} />
                ) : (
                  <PlanCard key={i} plan={plans.get(b.planId)} onChange={putPlan} />
                ),
              )}
              {t.status === 'running' && t.blocks.length === 0 && <p className="muted">Thinking…</p>}
              {t.error && <p className="field-error">The turn ended with an error: {t.error}</p>}
            </div>
            <p className="turn-foot small muted">
              <span className={`state state-${t.status}`}>{t.status}</span>
              {t.usage ? (
                <>
                  {' · '}
                  <span className="cost">Cost {usd(t.usage.cost_usd, { digits: 6 })}</span> ({t.usage.input_tokens.toLocaleString()} tokens in,{' '}
                  {t.usage.output_tokens.toLocaleString()} out)
                </>
              ) : (
                t.status === 'running' && ' · generating…'
              )}
            </p>
          </li>
        ))}
      </ol>
      <form className="composer" onSubmit={(e) => void send(e)}>
        <label htmlFor="assistant-message">Message</label>
        <textarea
          id="assistant-message"
          rows={3}
          value={draft}
          maxLength={8000}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter is a new line.
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          aria-invalid={messageIssues.length > 0 || undefined}
          aria-describedby={messageIssues.length ? 'assistant-message-error' : 'assistant-message-hint'}
        />
        <FieldError id="assistant-message-error" messages={messageIssues} />
        <p id="assistant-message-hint" className="muted small">
          Enter sends, Shift+Enter starts a new line. A turn holds its most expensive case while it runs and is charged for the tokens it used.
        </p>
        <div className="row">
          <button type="submit" disabled={sending || !!running || title === null || !draft.trim()}>
            Send
          </button>
          {running && (
            <button type="button" className="secondary" onClick={() => void stop()}>
              Stop
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
