// The plots a job wrote (docs/console.md, "Jobs"): every port of kind `svg` in its result artifact
// (a frequencies job's IR spectra, a scan's energy profiles: docs/engines.md, "Frequencies and
// scans"), read from the manifest (GET /artifacts/{id}) and each record downloaded with the
// session's token (GET /artifacts/{id}/download?port=&record=), shown as images with alt text
// naming the plot and its molecule. The job page and a workflow run's outputs both use it.
import { useEffect, useState } from 'react';
import { api, authFetch, ok } from '../api/client.ts';
import { toProblem, type Problem } from '../api/problem.ts';
import { fieldLabel } from '../lib/units.ts';
import { ProblemView } from './ProblemView.tsx';

/** Plots drawn at most per artifact (a set of 1,000 structures has 1,000 spectra: download the port for all). */
const MAX_PLOTS = 24;

interface Plot {
  key: string;
  title: string;
  svg: string;
}

const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** "plot/1/ir-spectrum.svg" -> "IR spectrum". */
const titleOf = (member: string) => fieldLabel((member.split('/').pop() ?? 'plot').replace(/\.svg$/i, '').replace(/[-\s]+/g, '_'));

/** `nameOf(index, id)`: the molecule a record is about (the result item's name), for the alt text; `heading` shown only when there are plots. */
/** `skip`: ports shown elsewhere on the page (a docking job's interaction diagrams, beside the 3D view). */
export function Plots({ artifactId, nameOf, heading, skip = [] }: { artifactId: string; nameOf: (index: number | null, id: string) => string; heading?: string; skip?: string[] }) {
  const [plots, setPlots] = useState<Plot[]>([]);
  const [more, setMore] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    (async () => {
      const art = await ok(api.GET('/api/v1/artifacts/{artifact_id}', { params: { path: { artifact_id: artifactId } }, signal: stop.signal }));
      const wanted: { port: string; id: string; title: string }[] = [];
      let total = 0;
      for (const [port, p] of Object.entries(art.manifest.ports)) {
        if (p.kind !== 'svg' || skip.includes(port)) continue;
        for (const r of p.records) {
          total++;
          if (wanted.length < MAX_PLOTS)
            wanted.push({ port, id: r.id, title: `${titleOf(r.files.primary ?? '')} of ${nameOf(typeof r.metrics?.index === 'number' ? r.metrics.index : null, r.id)}` });
        }
      }
      const base = `/api/v1/artifacts/${encodeURIComponent(artifactId)}/download`;
      const got = await Promise.all(
        wanted.map(async (w) => {
          const res = await authFetch(`${base}?port=${encodeURIComponent(w.port)}&record=${encodeURIComponent(w.id)}`, { signal: stop.signal });
          return { key: `${w.port}/${w.id}`, title: w.title, svg: await res.text() };
        }),
      );
      if (stop.signal.aborted) return;
      setPlots(got);
      setMore(total - got.length);
    })().catch((err: unknown) => !stop.signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
    // Read once per artifact (nameOf reads the same result).
  }, [artifactId]);

  if (!plots.length && !problem) return null;
  return (
    <section className="plots" aria-label={heading ?? 'Plots'}>
      {heading && <h4>{heading}</h4>}
      <ProblemView problem={problem} />
      {plots.map((p) => (
        <figure key={p.key} className="plot">
          <img src={svgUrl(p.svg)} alt={p.title} />
          <figcaption className="muted small">{p.title}</figcaption>
        </figure>
      ))}
      {more > 0 && (
        <p className="muted small">
          The first {MAX_PLOTS} plots; download the result for the other {more.toLocaleString()}.
        </p>
      )}
    </section>
  );
}
