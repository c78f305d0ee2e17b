// The Assistant's sessions, most recently used first (GET /assistant/sessions), each opened at
// #/assistant/<session_id>; New session creates one (POST /assistant/sessions) and opens it.
import { useEffect, useState } from 'react';
import { api, ok } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';
import type { Session } from './model.ts';

export function Sessions({ current, refresh, onChanged }: { current: string | null; refresh: number; onChanged: () => void }) {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [total, setTotal] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const ctl = new AbortController();
    ok(api.GET('/api/v1/assistant/sessions', { params: { query: { limit: 50 } }, signal: ctl.signal })).then(
      (r) => {
        setSessions(r.sessions);
        setTotal(r.total);
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) setProblem(toProblem(err));
      },
    );
    return () => ctl.abort();
  }, [refresh]);

  async function create() {
    setBusy(true);
    setProblem(null);
    try {
      const s = await ok(api.POST('/api/v1/assistant/sessions', { body: {} }));
      onChanged();
      window.location.hash = href('assistant', s.session_id);
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <nav className="sessions" aria-labelledby="sessions-title">
      <div className="sessions-head">
        <h2 id="sessions-title">Sessions</h2>
        <button type="button" onClick={() => void create()} disabled={busy}>
          New session
        </button>
      </div>
      <ProblemView problem={problem} />
      {sessions && sessions.length === 0 && <p className="muted small">No sessions yet.</p>}
      {sessions && sessions.length > 0 && (
        <ul>
          {sessions.map((s) => (
            <li key={s.session_id}>
              <a href={href('assistant', s.session_id)} aria-current={s.session_id === current ? 'page' : undefined}>
                <span className="wrap">{s.title}</span>
                <span className="muted small">
                  {s.turns} {s.turns === 1 ? 'turn' : 'turns'} · {new Date(s.updated_at).toLocaleString()}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {total > (sessions?.length ?? 0) && <p className="muted small">The 50 most recent of {total}.</p>}
    </nav>
  );
}
