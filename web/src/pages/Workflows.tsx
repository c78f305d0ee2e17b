// Workflows (docs/console.md, "Workflows"; docs/workflows.md): the built-in templates
// (GET /workflows/templates: name, description, inputs); a chosen one's inputs as a form, estimated
// (POST /workflows/estimate) before a run starts (POST /workflows/runs); the run followed live at
// #/workflows/runs/<id> (so it survives a reload and a sign-in) with its steps, graph and outputs;
// the recent runs listed.
import { useEffect, useState } from 'react';
import { api, ok } from '../api/client.ts';
import { toProblem, type Problem } from '../api/problem.ts';
import { ProblemView } from '../components/ProblemView.tsx';
import { href } from '../router.ts';
import { humanize, type Template } from './workflows/format.ts';
import { RecentRuns } from './workflows/RecentRuns.tsx';
import { RunView } from './workflows/RunView.tsx';
import { StartForm } from './workflows/StartForm.tsx';
import './Workflows.css';

export default function Workflows({ rest = [] }: { rest?: string[] }) {
  // #/workflows/runs/<run_id>: that run; #/workflows: the templates.
  const runId = rest[0] === 'runs' && rest[1] ? rest[1] : null;
  const [listed, setListed] = useState(0);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Workflows</h1>
      {runId ? (
        <>
          <p>
            <a href={href('workflows')}>← Templates: start another run</a>
          </p>
          <RunView key={runId} id={runId} onChanged={() => setListed((n) => n + 1)} />
        </>
      ) : (
        <Templates />
      )}
      <RecentRuns refresh={listed} current={runId} />
    </section>
  );
}

function Templates() {
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    ok(api.GET('/api/v1/workflows/templates')).then(
      (r) => setTemplates(r.templates),
      (err: unknown) => setProblem(toProblem(err)),
    );
  }, []);
  const template = templates?.find((t) => t.template_id === chosen);
  return (
    <>
      <h2 className="section">Templates</h2>
      <ProblemView problem={problem} />
      {!templates && !problem && <p className="muted">Loading the templates…</p>}
      <ul className="wf-templates" aria-label="Templates">
        {templates?.map((t) => (
          <li key={t.template_id} className={`card wf-template${t.template_id === chosen ? ' chosen' : ''}`}>
            <h3>{t.name}</h3>
            <p className="small">{t.description}</p>
            <p className="small muted">
              {t.spec.steps.length} steps: {t.spec.steps.map((s) => s.job_type).join(', ')}
            </p>
            <dl className="wf-inputs small">
              {Object.entries(t.spec.inputs ?? {}).map(([n, i]) => (
                <div key={n}>
                  <dt>{humanize(n)}</dt>
                  <dd>
                    {i.type}
                    {i.default === undefined ? ', required' : `, default ${JSON.stringify(i.default)}`}
                  </dd>
                </div>
              ))}
            </dl>
            <button
              type="button"
              className={t.template_id === chosen ? undefined : 'secondary'}
              aria-pressed={t.template_id === chosen}
              onClick={() => {
                setChosen(t.template_id);
                // The form follows the list: bring it into view (a phone shows one card a screen).
                setTimeout(() => document.getElementById('wf-form-title')?.scrollIntoView({ block: 'start' }), 0);
              }}
            >
              Use {t.name}
            </button>
          </li>
        ))}
      </ul>
      {template && (
        <StartForm
          key={template.template_id}
          template={template}
          onStarted={(id) => {
            window.location.hash = href('workflows', 'runs', id);
          }}
        />
      )}
    </>
  );
}
