// A docking pose's 2D interaction diagram beside the 3D view (docs/console.md, "Jobs"): the
// record `<ligand id>-<pose>` of the job's `interactions` port (docs/structure.md, "Docking's
// poses"), downloaded with the session's token and shown as an image, with the pose's checks.
import { useEffect, useState } from 'react';
import { authFetch } from '../api/client.ts';
import { toProblem, type Problem } from '../api/problem.ts';
import { ProblemView } from './ProblemView.tsx';

export interface PoseChecksView {
  passed: boolean;
  failed: string[];
}

export function PoseDiagram({ artifactId, record, title, checks }: { artifactId: string; record: string; title: string; checks: PoseChecksView | null }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    const stop = new AbortController();
    setSvg(null);
    setProblem(null);
    const url = `/api/v1/artifacts/${encodeURIComponent(artifactId)}/download?port=interactions&record=${encodeURIComponent(record)}`;
    authFetch(url, { signal: stop.signal })
      .then(async (res) => {
        const text = await res.text();
        if (!stop.signal.aborted) setSvg(text);
      })
      .catch((err: unknown) => !stop.signal.aborted && setProblem(toProblem(err)));
    return () => stop.abort();
  }, [artifactId, record]);
  return (
    <figure className="pose-diagram" aria-live="polite">
      <ProblemView problem={problem} />
      {svg ? (
        <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={`Interactions of ${title}`} />
      ) : (
        !problem && <p className="muted small">Loading the diagram…</p>
      )}
      <figcaption className="small">
        {title}
        {checks && (
          <span className={checks.passed ? 'pose-checks ok' : 'pose-checks failed'}>
            {checks.passed ? ': every pose check passed' : `: failed ${checks.failed.map((c) => c.replace(/_/g, ' ')).join(', ')}`}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
