// One workflow run followed live (docs/console.md, "Workflows"): GET /workflows/runs/{id}/status
// each 1.5 s for every step's state, a long poll on GET /events?kind=workflow_run&subject_id=<id>
// (docs/events.md) for its end, the run (GET /workflows/runs/{id}: jobs, runtimes, costs) and its
// graph (GET /workflows/runs/{id}/graph: an SVG, shown as an image) read again when a step's
// state changes; cancel (POST /workflows/runs/{id}/cancel); then its charge and outputs.
import { useEffect, useRef, useState } from 'react';
import { api, authFetch, crucible, ok, untilEnded } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { ProblemView } from '../../components/ProblemView.tsx';
import { RunOutputs } from './RunOutputs.tsx';
import { secs, svgUrl, TERMINAL, usd, type Run, type RunStatus } from './format.ts';
import { ListTable } from '../../components/ListTable.tsx';

const POLL_MS = 1500;

/** The graph's text for a screen reader: the run, its state, each step's job type and state. */
function graphAlt(run: Run): string {
  const steps = run.steps.map((s) => `${s.step_id} (${s.job_type}) ${s.state}`).join('; ');
  return `Graph of the run ${run.name}, ${run.status}: steps ${steps}.`;
}

export function RunView({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [run, setRun] = useState<Run | null>(null);
  const [status, setStatus] = useState<RunStatus | null>(null);
  const [graph, setGraph] = useState<{ url: string; width: number; height: number } | null>(null);
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const changed = useRef(onChanged);
  changed.current = onChanged;

  useEffect(() => {
    const stop = new AbortController();
    const signal = stop.signal;
    let done = false;
    let seen = '';
    // The run and its graph, read again whenever a step's state changes (and once at the end).
    const refresh = async () => {
      const [r, svg] = await Promise.all([
        ok(api.GET('/api/v1/workflows/runs/{run_id}', { params: { path: { run_id: id } }, signal })),
        authFetch(`/api/v1/workflows/runs/${encodeURIComponent(id)}/graph`, { signal, headers: { accept: 'image/svg+xml' } }).then((res) => res.text()),
      ]);
      if (signal.aborted) return r;
      setRun(r);
      const size = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
      setGraph({ url: svgUrl(svg), width: Number(size?.[1] ?? 800), height: Number(size?.[2] ?? 300) });
      return r;
    };
    const finish = async () => {
      if (done) return;
      done = true;
      const r = await refresh();
      if (signal.aborted) return;
      setStatus({
        run_id: r.run_id,
        status: r.status,
        steps_done: r.steps_done,
        steps_total: r.steps_total,
        progress: r.progress,
        cost_so_far_usd: r.cost_so_far_usd,
        steps: r.steps,
      });
      setEnded(true);
      changed.current();
    };
    // Per-step states: the light status, polled while the run goes.
    const poll = async () => {
      while (!done && !signal.aborted) {
        try {
          const s = await ok(api.GET('/api/v1/workflows/runs/{run_id}/status', { params: { path: { run_id: id } }, signal }));
          if (done || signal.aborted) return;
          setStatus(s);
          const states = `${s.status}:${s.steps.map((x) => x.state).join(',')}`;
          if (TERMINAL.has(s.status)) return await finish();
          if (states !== seen) {
            seen = states;
            await refresh();
          }
        } catch (err) {
          if (signal.aborted) return;
          setProblem(toProblem(err));
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };
    // The end: the SDK's wait for the run's one workflow_run event (docs/events.md).
    const follow = async () => {
      if (
        (await untilEnded(
          () => crucible.waitForRun(id, { signal }),
          signal,
          (err) => setProblem(toProblem(err)),
        )) !== null
      )
        await finish();
    };
    refresh()
      .then(async (r) => {
        if (TERMINAL.has(r.status)) await finish();
        else await Promise.all([poll(), follow()]);
      })
      .catch((err: unknown) => !signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [id]);

  async function cancel() {
    setProblem(null);
    setCancelling(true);
    try {
      setRun(await ok(api.POST('/api/v1/workflows/runs/{run_id}/cancel', { params: { path: { run_id: id } } })));
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setCancelling(false);
    }
  }

  const state = status?.status ?? run?.status;
  const stepState = new Map((status?.steps ?? run?.steps ?? []).map((s) => [s.step_id, s]));
  const states = [...stepState.values()];
  const completed = states.filter((s) => s.state === 'completed' || s.state === 'reused').length;
  // The server counts every ended step as done: a cancelled or failed run's bar shows the steps that completed.
  const fraction = state && TERMINAL.has(state) ? (states.length ? completed / states.length : 0) : (status?.progress ?? run?.progress ?? 0);
  return (
    <article className="card wf-run" aria-labelledby="run-title">
      <h2 id="run-title">
        {run?.name ?? 'Run'} <span className="mono small muted">{id}</span>
      </h2>
      <ProblemView problem={problem} />
      <div className="row">
        <span role="status" className={`wf-status wf-state-${state ?? 'queued'}`}>
          {state ?? 'loading'}
          {run?.message ? `: ${run.message}` : ''}
        </span>
        <progress max={1} value={fraction} aria-label="Run progress" />
        <span className="muted">
          {completed} of {states.length || '–'} steps completed
        </span>
        {run && !ended && !TERMINAL.has(run.status) && (
          <button type="button" className="danger" disabled={cancelling} onClick={() => void cancel()}>
            Cancel run
          </button>
        )}
      </div>
      {run && (
        <p className="wf-charge">
          {ended ? 'Charged' : 'Cost so far'} <strong>{usd(ended ? run.charged_usd : (status?.cost_so_far_usd ?? run.cost_so_far_usd))}</strong> of {usd(run.reserved_usd)} reserved
          {ended && run.finished_at ? `; ended ${new Date(run.finished_at).toLocaleString()}` : ''}.
        </p>
      )}
      {run && (
        <ListTable label="Steps" columns={['Step', 'Job type', 'State', 'Progress', 'Runtime', 'Cost']} className="list wf-steps">
          {run.steps.map((s) => {
            const live = stepState.get(s.step_id);
            const st = live?.state ?? s.state;
            return (
              <tr key={s.step_id}>
                <th scope="row">{s.step_id}</th>
                <td>{s.job_type}</td>
                <td>
                  <span className={`wf-state wf-state-${st}`}>{st}</span>
                  {s.message && <span className="muted small"> {s.message}</span>}
                </td>
                <td>{Math.round((live?.progress ?? s.progress) * 100)}%</td>
                <td>{secs(s.runtime_seconds)}</td>
                <td>
                  {usd(s.cost_usd)} <span className="muted small">of {usd(s.planned_usd)}</span>
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      {run && graph && (
        <>
          <h3 className="wf-h3">Graph</h3>
          <div className="wf-graph" tabIndex={0} role="region" aria-label="Run graph (scrolls sideways)">
            <img src={graph.url} alt={graphAlt(run)} width={graph.width} height={graph.height} />
          </div>
        </>
      )}
      {run && ended && <RunOutputs run={run} />}
    </article>
  );
}
