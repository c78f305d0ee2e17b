// Train a model from a CSV (docs/console.md, "Models"): the file's header is read in the browser to
// offer its columns; Estimate uploads the file once (POST /artifacts, mode=file, with a progress
// bar) and estimates the mpnn_train job (POST /jobs/estimate); Submit is enabled once an estimate
// for the current form is shown (POST /jobs/submit). 422s are shown at their fields (a column the
// file does not have at the target or SMILES column, naming the columns the file has).
import { useState, type FormEvent, type ReactNode } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { issuesAt, localProblem, toProblem, type Problem } from '../../api/problem.ts';
import { FieldError, ProblemView } from '../../components/ProblemView.tsx';
import { guessColumns, readHeader, uploadFile, type Header } from './csv.ts';
import { numberText, usd } from '../../lib/units.ts';

type Estimate = components['schemas']['JobEstimateResponse'];
type Payload = components['schemas']['MpnnTrainPayload'];
type Path = (string | number)[];

const P = ['body', 'payload'];
const HYPER = ['epochs', 'hidden_size', 'ensemble_size', 'depth', 'ffn_layers', 'batch_size'] as const;
type Hyper = (typeof HYPER)[number];
const HYPER_LABEL: Record<Hyper, string> = {
  epochs: 'Epochs',
  hidden_size: 'Hidden size',
  ensemble_size: 'Ensemble size',
  depth: 'Depth (message-passing steps)',
  ffn_layers: 'Feed-forward layers',
  batch_size: 'Batch size',
};
const HYPER_RANGE: Record<Hyper, [number, number, number]> = {
  epochs: [1, 200, 50],
  hidden_size: [32, 600, 300],
  ensemble_size: [1, 5, 1],
  depth: [2, 6, 3],
  ffn_layers: [1, 3, 2],
  batch_size: [8, 256, 50],
};
/** Every field path the form shows a 422 at (the banner lists the rest). */
const FIELDS: Path[] = [
  ['body', 'file'],
  [...P, 'input_artifact_id'],
  [...P, 'smiles_column'],
  [...P, 'target_column'],
  [...P, 'model_name'],
  [...P, 'task'],
  [...P, 'hyperparameters', 'molecule_features'],
  ...HYPER.map((k) => [...P, 'hyperparameters', k]),
];

const fid = (path: Path) => `t-${path.slice(1).join('-')}`;

/** A labelled control with its 422 messages under it (aria-invalid, aria-describedby). */
function Field({
  path,
  also = [],
  label,
  problem,
  hint,
  children,
}: {
  path: Path;
  also?: Path[];
  label: string;
  problem: Problem | null;
  hint?: string;
  children: (aria: object) => ReactNode;
}) {
  const id = fid(path);
  const issues = [path, ...also].flatMap((p) => issuesAt(problem, p));
  const described = [issues.length ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': issues.length > 0 || undefined, 'aria-describedby': described || undefined })}
      {hint && (
        <p className="muted small hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={issues} />
    </div>
  );
}

export function TrainForm({ onSubmitted }: { onSubmitted: (processId: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState<Header | null>(null);
  const [smilesCol, setSmilesCol] = useState('');
  const [targetCol, setTargetCol] = useState('');
  const [name, setName] = useState('');
  const [task, setTask] = useState<'regression' | 'classification'>('regression');
  const [hyper, setHyper] = useState<Record<Hyper, string>>({ epochs: '30', hidden_size: '300', ensemble_size: '1', depth: '', ffn_layers: '', batch_size: '' });
  const [features, setFeatures] = useState<'none' | 'rdkit_2d'>('none');
  const [uploaded, setUploaded] = useState<{ file: File; id: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = () => setEstimate(null);

  async function chooseFile(f: File | null) {
    setFile(f);
    setHeader(null);
    changed();
    if (!f) return;
    try {
      const h = await readHeader(f);
      setHeader(h);
      const g = guessColumns(h.columns);
      setSmilesCol(g.smiles);
      setTargetCol(g.target);
      if (!name)
        setName(
          f.name
            .replace(/\.[^.]+$/, '')
            .replace(/[^A-Za-z0-9._-]+/g, '-')
            .slice(0, 64),
        );
    } catch (err) {
      setProblem(toProblem(err));
    }
  }

  async function artifactId(f: File): Promise<string> {
    if (uploaded?.file === f) return uploaded.id;
    setProgress(0);
    const a = await uploadFile(f, setProgress);
    setProgress(1);
    setUploaded({ file: f, id: a.id });
    return a.id;
  }

  async function run(e: FormEvent, submit: boolean) {
    e.preventDefault();
    setProblem(null);
    if (!file) return setProblem(localProblem(0, 'No training file', 'Choose a CSV file with a SMILES column and a target column first.'));
    setBusy(true);
    try {
      const hp: Record<string, unknown> = { molecule_features: features };
      for (const k of HYPER) if (hyper[k].trim() !== '') hp[k] = Number(hyper[k]);
      const payload: Payload = {
        model_name: name.trim(),
        task,
        input_artifact_id: await artifactId(file),
        smiles_column: smilesCol.trim(),
        target_column: targetCol.trim(),
        hyperparameters: hp as Payload['hyperparameters'],
      };
      if (!submit) setEstimate(await ok(api.POST('/api/v1/jobs/estimate', { body: { job_type: 'mpnn_train', payload } })));
      else {
        const r = await ok(api.POST('/api/v1/jobs/submit', { body: { job_type: 'mpnn_train', job_name: `train ${payload.model_name}`, payload } }));
        setEstimate(null);
        onSubmitted(r.process_id);
      }
    } catch (err) {
      if (!submit) setEstimate(null);
      setProgress((p) => (p === 1 ? p : null));
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  const rows = header ? `${header.complete ? '' : 'at least '}${header.sampleRows.toLocaleString('en-US')} data rows` : '';
  return (
    <form className="keyform trainform" onSubmit={(e) => void run(e, estimate !== null)} aria-labelledby="train-title">
      <fieldset>
        <legend id="train-title">Train a model</legend>
        <ProblemView problem={problem} fields={FIELDS} />
        <Field
          path={['body', 'file']}
          also={[[...P, 'input_artifact_id']]}
          label="Training file (CSV)"
          problem={problem}
          hint={header ? `Columns: ${header.columns.join(', ')}; ${rows}.` : 'A header line, a SMILES column and a target column; 50 to 50,000 rows.'}
        >
          {(aria) => <input {...aria} type="file" accept=".csv,.txt,text/csv" onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)} />}
        </Field>
        {progress !== null && (
          <p className="row small">
            <progress max={1} value={progress} aria-label="Upload progress" /> <span className="muted">{progress === 1 ? 'uploaded' : `${Math.round(progress * 100)}%`}</span>
          </p>
        )}
        <datalist id="csv-columns">
          {header?.columns.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <div className="grid2">
          <Field path={[...P, 'smiles_column']} label="SMILES column" problem={problem}>
            {(aria) => (
              <input
                {...aria}
                list="csv-columns"
                value={smilesCol}
                onChange={(e) => {
                  setSmilesCol(e.target.value);
                  changed();
                }}
              />
            )}
          </Field>
          <Field path={[...P, 'target_column']} label="Target column" problem={problem}>
            {(aria) => (
              <input
                {...aria}
                list="csv-columns"
                value={targetCol}
                onChange={(e) => {
                  setTargetCol(e.target.value);
                  changed();
                }}
              />
            )}
          </Field>
          <Field path={[...P, 'model_name']} label="Model name" problem={problem} hint="1 to 64 of A-Z a-z 0-9 . _ -">
            {(aria) => (
              <input
                {...aria}
                value={name}
                maxLength={64}
                onChange={(e) => {
                  setName(e.target.value);
                  changed();
                }}
              />
            )}
          </Field>
          <Field path={[...P, 'task']} label="Task" problem={problem}>
            {(aria) => (
              <select
                {...aria}
                value={task}
                onChange={(e) => {
                  setTask(e.target.value as typeof task);
                  changed();
                }}
              >
                <option value="regression">regression (a number)</option>
                <option value="classification">classification (targets 0 or 1)</option>
              </select>
            )}
          </Field>
        </div>
        <div className="grid-hyper two">
          {HYPER.slice(0, 3).map((k) => (
            <HyperField key={k} k={k} value={hyper[k]} problem={problem} onChange={(v) => (setHyper({ ...hyper, [k]: v }), changed())} />
          ))}
          <Field path={[...P, 'hyperparameters', 'molecule_features']} label="Molecule features" problem={problem}>
            {(aria) => (
              <select
                {...aria}
                value={features}
                onChange={(e) => {
                  setFeatures(e.target.value as typeof features);
                  changed();
                }}
              >
                <option value="none">none (the graph only)</option>
                <option value="rdkit_2d">rdkit_2d (RDKit descriptors)</option>
              </select>
            )}
          </Field>
        </div>
        <details className="more">
          <summary>More hyperparameters</summary>
          <div className="grid-hyper">
            {HYPER.slice(3).map((k) => (
              <HyperField key={k} k={k} value={hyper[k]} problem={problem} onChange={(v) => (setHyper({ ...hyper, [k]: v }), changed())} />
            ))}
          </div>
        </details>
        {estimate && (
          <p className="notice" role="status">
            Estimate: <strong>{usd(estimate.cost)}</strong> reserved, about {numberText(estimate.expected_runtime_sec, 1)} s on {estimate.resource} ({usd(estimate.rate_per_sec)}/s,{' '}
            {estimate.tier_name} tier){typeof estimate.assumptions.rows === 'number' ? `, for ${estimate.assumptions.rows.toLocaleString('en-US')} data rows` : ''}.
          </p>
        )}
        <div className="row buttons">
          <button type="button" className={estimate ? 'secondary' : undefined} disabled={busy} onClick={(e) => void run(e, false)}>
            Estimate
          </button>
          <button type="submit" disabled={busy || !estimate}>
            Train
          </button>
        </div>
      </fieldset>
    </form>
  );
}

function HyperField({ k, value, problem, onChange }: { k: Hyper; value: string; problem: Problem | null; onChange: (v: string) => void }) {
  const [min, max, def] = HYPER_RANGE[k];
  return (
    <Field path={[...P, 'hyperparameters', k]} label={HYPER_LABEL[k]} problem={problem}>
      {(aria) => (
        <input
          {...aria}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          placeholder={`${def} (${min} to ${max})`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
