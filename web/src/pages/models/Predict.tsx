// Predict with a model (docs/console.md, "Models"): SMILES one a line against a public model or one
// of yours (POST /inference/predict, up to 100 at once), each shown as value ± the ensemble's
// spread with its units, and whether it is inside the model's applicability domain.
import { useEffect, useState, type FormEvent } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../../api/problem.ts';
import { FieldError, ProblemView } from '../../components/ProblemView.tsx';
import { numberText } from '../../lib/units.ts';

type Models = components['schemas']['InferenceModels']['models'];
type Answer = components['schemas']['PredictResponse'];

/** A predicted value with its spread: "-2.134 ± 0.1021" (4 significant digits). */
export function valueText(v: number | null, u: number | null): string {
  if (v === null) return '–';
  const f = (x: number) => numberText(x, 4, { significant: true });
  return u === null ? f(v) : `${f(v)} ± ${f(u)}`;
}

const FIELDS = [
  ['body', 'model'],
  ['body', 'smiles'],
];

export function Predict({ models, model, onModel }: { models: Models; model: string; onModel: (m: string) => void }) {
  const [text, setText] = useState('CCO ethanol\nc1ccccc1O phenol');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  // Another model (chosen here or by the route): the answer shown was another model's.
  useEffect(() => setAnswer(null), [model]);

  async function run(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    setBusy(true);
    try {
      // One molecule a line: its SMILES, then an optional name after a space.
      const smiles = text
        .split(/\r?\n/)
        .map((l) => l.trim().split(/\s+/)[0] ?? '')
        .filter(Boolean);
      setAnswer(await ok(api.POST('/api/v1/inference/predict', { body: { model, smiles } })));
    } catch (err) {
      setAnswer(null);
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  const smilesIssues = issuesAt(problem, ['body', 'smiles']);
  const modelIssues = issuesAt(problem, ['body', 'model']);
  const names = new Map(
    text
      .split(/\r?\n/)
      .map((l) => l.trim().split(/\s+/))
      .filter((p) => p[0])
      .map((p) => [p[0]!, p.slice(1).join(' ')]),
  );
  return (
    <form className="keyform predictform" onSubmit={(e) => void run(e)} aria-labelledby="predict-title">
      <fieldset>
        <legend id="predict-title">Predict</legend>
        <ProblemView problem={problem} fields={FIELDS} />
        <div className="field">
          <label htmlFor="p-model">Model</label>
          <select
            id="p-model"
            value={model}
            onChange={(e) => {
              onModel(e.target.value);
            }}
            aria-invalid={modelIssues.length > 0 || undefined}
            aria-describedby={modelIssues.length ? 'p-model-error' : undefined}
          >
            {models.map((m) => (
              <option key={m.model} value={m.model}>
                {m.name} ({m.kind === 'user' ? 'yours' : 'public'})
              </option>
            ))}
          </select>
          <FieldError id="p-model-error" messages={modelIssues} />
        </div>
        <div className="field">
          <label htmlFor="p-smiles">SMILES, one molecule a line (a name may follow)</label>
          <textarea
            id="p-smiles"
            rows={4}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={smilesIssues.length > 0 || undefined}
            aria-describedby={smilesIssues.length ? 'p-smiles-error' : undefined}
          />
          <FieldError id="p-smiles-error" messages={smilesIssues} />
        </div>
        <div className="row buttons">
          <button type="submit" disabled={busy || !model}>
            Predict
          </button>
        </div>
        {answer && (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Predictions">
            <table className="list predictions">
              <caption className="sr-only">
                Predictions of {answer.target} by {answer.model}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Molecule</th>
                  <th scope="col">
                    {answer.task === 'classification' ? 'P(class 1)' : answer.target}
                    {answer.units ? ` (${answer.units})` : ''} ± spread
                  </th>
                  <th scope="col">Domain</th>
                </tr>
              </thead>
              <tbody>
                {answer.predictions.map((p, i) => (
                  <tr key={i}>
                    <td className="mono wrap">
                      {p.smiles}
                      {names.get(p.smiles) ? <span className="muted"> {names.get(p.smiles)}</span> : null}
                    </td>
                    <td className="value">{p.error ?? valueText(p.prediction, p.uncertainty)}</td>
                    <td>
                      {p.in_domain === null ? '–' : p.in_domain ? <span className="badge ok">in domain</span> : <span className="badge warn">outside the training domain</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </fieldset>
    </form>
  );
}
