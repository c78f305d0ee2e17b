// A finished run's outputs (docs/console.md, "Workflows"): GET /workflows/runs/{id}/outputs names
// each output's step, port and artifact; each is downloaded (GET /artifacts/{id}/download?port=...,
// saveDownload: a one-record port is its file, a larger one a zip) and shown as a table read from
// its step's result (GET /jobs/result of the step's job): the summary as name/value rows, the
// rows the port holds (a filter's kept molecules, a cluster's clusters, a job's items) with
// depictions where the step drew them.
import { useEffect, useState } from 'react';
import { api, ok, saveDownload } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { Plots } from '../../components/Plots.tsx';
import { ProblemView } from '../../components/ProblemView.tsx';
import { itemName } from '../../components/viewer3d/structures.ts';
import { fieldLabel, formatValue } from '../../lib/units.ts';
import { flatten, humanize, rowsOf, summaryOf, svgUrl, type Row, type Run, type RunOutputs as Outputs } from './format.ts';

const MAX_ROWS = 100;

export function RunOutputs({ run }: { run: Run }) {
  const [outputs, setOutputs] = useState<Outputs['outputs'] | null>(null);
  const [results, setResults] = useState<Record<string, Row>>({});
  const [problem, setProblem] = useState<Problem | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    const signal = stop.signal;
    (async () => {
      const o = await ok(api.GET('/api/v1/workflows/runs/{run_id}/outputs', { params: { path: { run_id: run.run_id } }, signal }));
      setOutputs(o.outputs);
      // Each step's result once, however many outputs it gives.
      const jobs = new Map<string, string>();
      for (const out of Object.values(o.outputs)) {
        const step = run.steps.find((s) => s.step_id === out.step_id);
        if (out.ready && step?.job_id) jobs.set(out.step_id, step.job_id);
      }
      const pairs = await Promise.all(
        [...jobs].map(async ([stepId, jobId]) => [stepId, (await ok(api.GET('/api/v1/jobs/result', { params: { query: { process_id: jobId } }, signal }))) as Row] as const),
      );
      if (!signal.aborted) setResults(Object.fromEntries(pairs));
    })().catch((err: unknown) => !signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [run.run_id, run.steps]);

  if (!outputs && !problem) return <p className="muted">Reading the outputs…</p>;
  const entries = Object.entries(outputs ?? {});
  // Each step's result artifact once (its plots: a frequencies step's IR spectra, a scan's profiles).
  const stepArtifacts = [...new Map(entries.filter(([, o]) => o.ready && o.artifact_id).map(([, o]) => [o.step_id, o.artifact_id!])).entries()];
  const nameIn = (stepId: string) => (index: number | null, id: string) => {
    const items = Array.isArray(results[stepId]?.items) ? (results[stepId]!.items as Row[]) : [];
    const n = items.findIndex((item, k) => (index !== null ? (typeof item.index === 'number' ? item.index : k) === index : item.id === id));
    return n >= 0 ? itemName(items[n]!, n) : id;
  };
  return (
    <section className="wf-outputs" aria-labelledby="outputs-title">
      <h3 id="outputs-title" className="wf-h3">
        Outputs
      </h3>
      <ProblemView problem={problem} />
      {entries.length === 0 && <p className="muted">This workflow declares no outputs.</p>}
      {entries.map(([name, out]) => (
        <section key={name} className="wf-output" aria-labelledby={`out-${name}`}>
          <div className="row wf-output-head">
            <h4 id={`out-${name}`}>{humanize(name)}</h4>
            <span className="muted small">
              {out.step_id} · {out.port}
            </span>
            {out.ready && out.artifact_id ? (
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void saveDownload(`/api/v1/artifacts/${encodeURIComponent(out.artifact_id!)}/download?port=${encodeURIComponent(out.port)}`, `${name}-${out.port}`).catch(
                    (err: unknown) => setProblem(toProblem(err)),
                  )
                }
              >
                Download {name}
              </button>
            ) : (
              <span className="muted">not produced</span>
            )}
          </div>
          {out.ready && results[out.step_id] && <OutputTable name={name} result={results[out.step_id]!} port={out.port} />}
        </section>
      ))}
      {stepArtifacts.map(([stepId, artifactId]) => (
        <Plots key={artifactId} artifactId={artifactId} nameOf={nameIn(stepId)} heading={`Plots of step ${stepId}`} />
      ))}
    </section>
  );
}

function OutputTable({ name, result, port }: { name: string; result: Row; port: string }) {
  const summary = summaryOf(result);
  const all = rowsOf(result, port);
  const rows = all.slice(0, MAX_ROWS).map(flatten);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.cells)))];
  const pictures = rows.some((r) => r.svg);
  const label = `${humanize(name)} rows`;
  return (
    <>
      {summary.length > 0 && (
        <dl className="wf-summary">
          {summary.map(([k, v]) => (
            <div key={k}>
              <dt>{fieldLabel(k)}</dt>
              <dd>{formatValue(k, v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {rows.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
          <table className="list result-table">
            <caption className="sr-only">{label}</caption>
            <thead>
              <tr>
                {pictures && <th scope="col">Structure</th>}
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {fieldLabel(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, n) => (
                <tr key={n}>
                  {pictures && <td>{r.svg && <img src={svgUrl(r.svg)} alt={`Structure of ${String(r.cells.name ?? r.cells.smiles ?? n + 1)}`} width={150} height={110} />}</td>}
                  {columns.map((c) => (
                    <td key={c} className={c === 'smiles' ? 'mono' : undefined}>
                      {formatValue(c, r.cells[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {all.length > MAX_ROWS && (
        <p className="muted small">
          The first {MAX_ROWS} rows of {all.length}; download the output for all.
        </p>
      )}
    </>
  );
}
