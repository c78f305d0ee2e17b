// A template's inputs as a form (docs/console.md, "Workflows"): a molecules input is one of the
// library's molecule sets (GET /artifacts?data_kind=molecules) or SMILES typed one a line; numbers,
// strings, models and booleans from their types, the default as placeholder. Estimate first
// (POST /workflows/estimate: each step's cost and runtime, the total, the critical path), then
// Start (POST /workflows/runs with template_id), enabled only while that estimate is shown. A
// 422 is shown at the input its loc names (["body", "inputs", NAME]).
import { useEffect, useState, type FormEvent } from 'react';
import { idempotencyKey } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../../api/problem.ts';
import { FieldError, ProblemView } from '../../components/ProblemView.tsx';
import { artifactName } from '../../lib/names.ts';
import { criticalPath, humanize, secs, usd, type Estimate, type Template } from './format.ts';
import { ListTable } from '../../components/ListTable.tsx';

type Input = NonNullable<Template['spec']['inputs']>[string];
type MoleculeSet = { value: string; label: string };

/** The inputs' values as the API reads them; empty fields are left out (the defaults apply). */
function inputsOf(spec: Template['spec'], values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(spec.inputs ?? {})) {
    const v = values[name];
    if (input.type === 'boolean') {
      if (typeof v === 'boolean') out[name] = v;
      continue;
    }
    if (input.type === 'molecules') {
      const typed = String(values[`${name}__smiles`] ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      if (typeof v === 'string' && v) out[name] = v;
      else if (typed.length) out[name] = typed;
      continue;
    }
    if (typeof v !== 'string' || v.trim() === '') continue;
    out[name] = input.type === 'number' || input.type === 'integer' ? Number(v) : v;
  }
  return out;
}

export function StartForm({ template, onStarted }: { template: Template; onStarted: (runId: string) => void }) {
  const spec = template.spec;
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [name, setName] = useState('');
  const [sets, setSets] = useState<MoleculeSet[]>([]);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ok(api.GET('/api/v1/artifacts', { params: { query: { data_kind: 'molecules', limit: 100 } } })).then(
      (r) => {
        const seen = new Set<string>();
        setSets(
          r.items
            .filter((i) => !seen.has(i.artifact_id) && seen.add(i.artifact_id))
            .map((i) => ({ value: i.artifact_id, label: `${artifactName(i)} (${i.record_count.toLocaleString()} molecules)` })),
        );
      },
      () => setSets([]),
    );
  }, []);

  const set = (k: string, v: string | boolean) => {
    setValues((old) => ({ ...old, [k]: v }));
    setEstimate(null);
  };

  async function submit(e: FormEvent, start: boolean) {
    e.preventDefault();
    setProblem(null);
    setBusy(true);
    const inputs = inputsOf(spec, values);
    try {
      if (!start) {
        setEstimate(await ok(api.POST('/api/v1/workflows/estimate', { body: { spec, inputs } })));
        // One key per estimate shown: a second click on Start replays the first start.
        setKey(idempotencyKey());
      } else {
        const run = await ok(
          api.POST('/api/v1/workflows/runs', {
            body: { template_id: template.template_id, inputs, ...(name.trim() ? { name: name.trim() } : {}) },
            params: { header: { 'idempotency-key': key } },
          }),
        );
        onStarted(run.run_id);
      }
    } catch (err) {
      setEstimate(null);
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  const inputs = Object.entries(spec.inputs ?? {});
  const fields = [['body', 'name'], ...inputs.map(([n]) => ['body', 'inputs', n])];
  const nameIssues = issuesAt(problem, ['body', 'name']);
  const path = estimate ? criticalPath(spec, estimate) : [];
  return (
    <form className="keyform wf-form" onSubmit={(e) => void submit(e, estimate !== null)} aria-labelledby="wf-form-title">
      <fieldset>
        <legend id="wf-form-title">Run {template.name}</legend>
        <p className="muted small">{template.description}</p>
        <ProblemView problem={problem} fields={fields} />
        {inputs.map(([n, input]) => (
          <InputField key={n} name={n} input={input} values={values} set={set} sets={sets} messages={issuesAt(problem, ['body', 'inputs', n])} />
        ))}
        <div className="field">
          <label htmlFor="f-body-name">Run name (optional)</label>
          <input
            id="f-body-name"
            value={name}
            placeholder={template.name}
            onChange={(e) => {
              setName(e.target.value);
              setEstimate(null);
            }}
            aria-invalid={nameIssues.length > 0 || undefined}
            aria-describedby={nameIssues.length ? 'f-body-name-error' : undefined}
          />
          <FieldError id="f-body-name-error" messages={nameIssues} />
        </div>
        {estimate && (
          <div className="wf-estimate" role="status">
            <p>
              Estimate: <strong>{usd(estimate.cost)}</strong> reserved for {estimate.steps.length} steps, about {secs(estimate.expected_runtime_sec)} end to end.
            </p>
            <ListTable label="Estimate per step" columns={['Step', 'Job type', 'Molecules', 'Runtime', 'Cost']}>
              {estimate.steps.map((s) => (
                <tr key={s.step_id} className={path.includes(s.step_id) ? 'wf-critical' : undefined}>
                  <th scope="row">{s.step_id}</th>
                  <td>{s.job_type}</td>
                  <td>{typeof s.assumptions.molecules === 'number' ? s.assumptions.molecules.toLocaleString() : '–'}</td>
                  <td>{secs(s.expected_runtime_sec)}</td>
                  <td>{usd(s.cost)}</td>
                </tr>
              ))}
              <tr className="wf-total">
                <th scope="row">Total</th>
                <td colSpan={3}></td>
                <td>{usd(estimate.cost)}</td>
              </tr>
            </ListTable>
            <p className="small">
              Critical path (●): <strong>{path.join(' → ')}</strong> ({secs(estimate.expected_runtime_sec)}; the other steps run beside it).
            </p>
          </div>
        )}
        <div className="row">
          <button type="button" className={estimate ? 'secondary' : undefined} disabled={busy} onClick={(e) => void submit(e, false)}>
            Estimate
          </button>
          <button type="submit" disabled={busy || !estimate}>
            Start run
          </button>
        </div>
      </fieldset>
    </form>
  );
}

function InputField({
  name,
  input,
  values,
  set,
  sets,
  messages,
}: {
  name: string;
  input: Input;
  values: Record<string, string | boolean>;
  set: (k: string, v: string | boolean) => void;
  sets: MoleculeSet[];
  messages: string[];
}) {
  const id = `f-body-inputs-${name}`;
  const errId = `${id}-error`;
  const hintId = `${id}-hint`;
  const required = input.default === undefined;
  const aria = {
    'aria-invalid': messages.length > 0 || undefined,
    'aria-describedby': [input.description ? hintId : '', messages.length ? errId : ''].filter(Boolean).join(' ') || undefined,
  };
  const v = values[name];
  const d = input.default;
  const placeholder = typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? `default ${String(d)}` : undefined;
  let control;
  if (input.type === 'molecules')
    control = (
      <>
        <select id={id} {...aria} value={typeof v === 'string' ? v : ''} onChange={(e) => set(name, e.target.value)}>
          <option value="">{sets.length ? '(choose a molecule set)' : '(no molecule sets in the library)'}</option>
          {sets.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-smiles`} className="wf-or">
          or SMILES, one a line
        </label>
        <textarea
          id={`${id}-smiles`}
          {...aria}
          rows={3}
          spellCheck={false}
          className="mono"
          value={String(values[`${name}__smiles`] ?? '')}
          onChange={(e) => set(`${name}__smiles`, e.target.value)}
        />
      </>
    );
  else if (input.type === 'boolean')
    control = <input type="checkbox" id={id} {...aria} checked={typeof v === 'boolean' ? v : d === true} onChange={(e) => set(name, e.target.checked)} />;
  else
    control = (
      <input
        id={id}
        {...aria}
        type={input.type === 'number' || input.type === 'integer' ? 'number' : 'text'}
        step={input.type === 'integer' ? 1 : input.type === 'number' ? 'any' : undefined}
        placeholder={placeholder}
        value={typeof v === 'string' ? v : ''}
        onChange={(e) => set(name, e.target.value)}
      />
    );
  return (
    <div className={input.type === 'boolean' ? 'field check' : 'field'}>
      <label htmlFor={id}>
        {humanize(name)}
        {required && <span aria-hidden="true"> *</span>}
        <span className="muted small wf-type"> {input.type}</span>
      </label>
      {control}
      {input.description && (
        <p className="muted small hint" id={hintId}>
          {input.description}
        </p>
      )}
      <FieldError id={errId} messages={messages} />
    </div>
  );
}
