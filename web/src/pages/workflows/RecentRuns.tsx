// The 20 latest workflow runs (GET /workflows/runs, newest first), each opened at #/workflows/runs/<id>;
// read again when the run shown changes or ends.
import { useEffect, useState } from 'react';
import { api, ok } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';
import { usd, type RunSummary } from './format.ts';
import { ListTable } from '../../components/ListTable.tsx';

export function RecentRuns({ refresh, current }: { refresh: number; current: string | null }) {
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    ok(api.GET('/api/v1/workflows/runs', { params: { query: { limit: 20, sort: '-created_at' } } })).then(
      (r) => setRuns(r.runs),
      (err: unknown) => setProblem(toProblem(err)),
    );
  }, [refresh, current]);
  return (
    <>
      <h2 className="section">Recent runs</h2>
      <ProblemView problem={problem} />
      <ListTable label="Recent runs" columns={['Name', 'Status', 'Steps ended', 'Charged', 'Created']} empty={runs?.length === 0 && 'No runs yet.'}>
        {runs?.map((r) => (
          <tr key={r.run_id}>
            <td>
              <a href={href('workflows', 'runs', r.run_id)} aria-current={r.run_id === current ? 'page' : undefined}>
                {r.name}
              </a>
            </td>
            <td>
              <span className={`wf-state wf-state-${r.status}`}>{r.status}</span>
            </td>
            <td>
              {r.steps_done} / {r.steps_total}
            </td>
            <td>{usd(r.charged_usd)}</td>
            <td>{new Date(r.created_at).toLocaleString()}</td>
          </tr>
        ))}
      </ListTable>
    </>
  );
}
