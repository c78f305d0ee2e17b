// Molecules (docs/console.md): paste SMILES (or open a .smi file), then each molecule's depiction
// (POST /depict), properties with the Lipinski/Veber checks and PAINS/Brenk alerts highlighted
// (POST /describe), and the public models' predictions with their uncertainty (POST
// /inference/predict). The sketcher (Ketcher) is to come, loaded lazily on this page only.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src/generated/openapi.ts';
import { api, ok } from '../api/client.ts';
import { issuesAt, toProblem, type Problem } from '../api/problem.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';

type Description = components['schemas']['Description'];
type Depiction = components['schemas']['Depiction'];
type Model = components['schemas']['InferenceModels']['models'][number];
type Prediction = components['schemas']['PredictionItem'];

interface Row {
  input: string;
  name: string | null;
  description: Description;
  depiction: Depiction | undefined;
  predictions: { model: Model; item: Prediction | undefined }[];
}

const EXAMPLE = 'CC(=O)Oc1ccccc1C(=O)O aspirin\nO=C1C(=Cc2ccccc2)C(=O)c2ccccc12 2-benzylidene-indandione';

/** One molecule a line: SMILES, then an optional name after whitespace (the .smi layout). */
function parseLines(text: string): { smiles: string; name: string | null }[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [smiles = '', ...name] = l.split(/\s+/);
      return { smiles, name: name.join(' ') || null };
    });
}

export default function Molecules() {
  const inputId = useId();
  const [text, setText] = useState(EXAMPLE);
  const [rows, setRows] = useState<Row[]>([]);
  const [models, setModels] = useState<Model[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  useEffect(() => {
    ok(api.GET('/api/v1/inference/models'))
      .then((m) => setModels(m.models.filter((x) => x.kind === 'public')))
      .catch((err: unknown) => setProblem(toProblem(err)));
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const lines = parseLines(text);
    const smiles = lines.map((l) => l.smiles);
    try {
      // The server validates the list (empty, too many, too long): its 422 is shown at the field.
      const described = await ok(api.POST('/api/v1/describe', { body: { smiles } }));
      const [depicted, ...predicted] = await Promise.all([
        ok(api.POST('/api/v1/depict', { body: { smiles, width: 280, height: 200 } })),
        ...models.map((m) => ok(api.POST('/api/v1/inference/predict', { body: { model: m.model, smiles, uncertainty: true } }))),
      ]);
      setRows(
        described.items.map((d, i) => ({
          input: smiles[i] ?? '',
          name: lines[i]?.name ?? null,
          description: d,
          depiction: depicted.items[i],
          predictions: models.map((m, k) => ({ model: m, item: predicted[k]?.predictions[i] })),
        })),
      );
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  async function openFile(file: File | undefined) {
    if (!file) return;
    const content = await file.text();
    // .smi: as is; .csv: the smiles column (and a name column when there is one).
    if (/\.csv$/i.test(file.name)) {
      const [head = '', ...body] = content.split(/\r?\n/);
      const cols = head.split(',').map((c) => c.trim().toLowerCase());
      const s = cols.indexOf('smiles');
      const n = cols.indexOf('name');
      setText(
        body
          .filter(Boolean)
          .map((l) => l.split(','))
          .map((c) => `${c[s] ?? ''}${n >= 0 && c[n] ? ` ${c[n]}` : ''}`)
          .join('\n'),
      );
    } else setText(content);
  }

  const fieldErrors = issuesAt(problem, ['body', 'smiles']);
  return (
    <section aria-labelledby="molecules-title">
      <h1 id="molecules-title">Molecules</h1>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <label htmlFor={inputId}>SMILES, one molecule a line (a name may follow after a space)</label>
        <textarea
          id={inputId}
          rows={4}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={fieldErrors.length > 0}
          aria-describedby={fieldErrors.length ? `${inputId}-error` : undefined}
        />
        <FieldError id={`${inputId}-error`} messages={fieldErrors} />
        <div className="row">
          <button type="submit" disabled={busy}>
            {busy ? 'Working…' : 'Describe'}
          </button>
          <label className="file">
            Open a .smi or .csv file
            <input type="file" accept=".smi,.csv,.txt" onChange={(e) => void openFile(e.target.files?.[0])} />
          </label>
        </div>
      </form>
      <ProblemView problem={problem} fields={[['body', 'smiles']]} />
      <div className="cards">
        {rows.map((r, i) => (
          <MoleculeCard key={`${i}-${r.input}`} row={r} />
        ))}
      </div>
    </section>
  );
}

function fmt(n: number | null | undefined, digits = 2): string {
  return n === null || n === undefined ? '–' : n.toFixed(digits);
}

function MoleculeCard({ row }: { row: Row }) {
  const { description: d, depiction } = row;
  const title = row.name ?? d.canonical_smiles ?? row.input;
  if (!d.properties) {
    return (
      <article className="card bad" aria-label={title}>
        <h2 className="mono">{row.input}</h2>
        <p className="field-error">
          {d.error}: {d.detail}
        </p>
      </article>
    );
  }
  const p = d.properties;
  const alerts = [...p.alerts.pains.map((a) => `PAINS: ${a}`), ...p.alerts.brenk.map((a) => `Brenk: ${a}`)];
  return (
    <article className="card" aria-label={title}>
      <h2>{title}</h2>
      <p className="mono small wrap">{d.canonical_smiles}</p>
      {depiction?.svg ? (
        <img className="depiction" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(depiction.svg)}`} alt={`Structure of ${title}`} width={280} height={200} />
      ) : (
        <p className="muted">No depiction{depiction?.detail ? `: ${depiction.detail}` : ''}</p>
      )}
      <div className={alerts.length ? 'alerts' : 'alerts none'} role={alerts.length ? 'note' : undefined}>
        {alerts.length ? (
          <>
            <strong>Structural alerts</strong>
            <ul>
              {alerts.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </>
        ) : (
          'No PAINS or Brenk alerts'
        )}
      </div>
      <table className="props">
        <caption className="sr-only">Properties of {title}</caption>
        <tbody>
          <tr>
            <th scope="row">Formula</th>
            <td>{p.formula}</td>
          </tr>
          <tr>
            <th scope="row">MW</th>
            <td>{fmt(p.mw)} g/mol</td>
          </tr>
          <tr>
            <th scope="row">cLogP</th>
            <td>{fmt(p.clogp)}</td>
          </tr>
          <tr>
            <th scope="row">TPSA</th>
            <td>{fmt(p.tpsa, 1)} Å²</td>
          </tr>
          <tr>
            <th scope="row">H-bond donors / acceptors</th>
            <td>
              {p.hbd} / {p.hba}
            </td>
          </tr>
          <tr>
            <th scope="row">Rotatable bonds</th>
            <td>{p.rotatable_bonds}</td>
          </tr>
          <tr>
            <th scope="row">Aromatic rings</th>
            <td>{p.aromatic_rings}</td>
          </tr>
          <tr>
            <th scope="row">QED</th>
            <td>{fmt(p.qed)}</td>
          </tr>
          <tr className={p.lipinski.pass ? '' : 'flag'}>
            <th scope="row">Lipinski</th>
            <td>{p.lipinski.pass ? 'pass' : `fails: ${p.lipinski.violations.join(', ')}`}</td>
          </tr>
          <tr className={p.veber.pass ? '' : 'flag'}>
            <th scope="row">Veber</th>
            <td>{p.veber.pass ? 'pass' : `fails: ${p.veber.violations.join(', ')}`}</td>
          </tr>
        </tbody>
      </table>
      {row.predictions.length > 0 && (
        <table className="props">
          <caption>Public models</caption>
          <tbody>
            {row.predictions.map(({ model, item }) => (
              <tr key={model.model}>
                <th scope="row">{model.name}</th>
                <td>
                  {item?.prediction == null ? (item?.error ?? '–') : `${fmt(item.prediction)} ± ${fmt(item.uncertainty)}${model.units ? ` ${model.units}` : ''}`}
                  {item?.in_domain === false && <span className="badge warn">outside the training domain</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
