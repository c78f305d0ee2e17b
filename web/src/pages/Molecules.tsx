// Molecules (docs/console.md): paste SMILES, draw a structure (openchemlib's editor, loaded only
// when Draw is opened) or open a .smi/.csv/.sdf/.mol file, then each molecule's depiction
// (POST /depict), properties with the Lipinski/Veber checks and PAINS/Brenk alerts highlighted
// (POST /describe), and the public models' predictions with their uncertainty (POST
// /inference/predict). POST /describe takes SMILES only: molfiles are converted in the browser.
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { components } from 'crucible-client';
import { api, ok } from '../api/client.ts';
import { toProblem, type Problem } from '../api/problem.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';
import { parseLines, readMoleculeFile, toLines } from '../components/sketcher/records.ts';
import { numberText } from '../lib/units.ts';
import './Molecules.css';

// The editor and openchemlib are their own chunks, requested when Draw is opened.
const Sketcher = lazy(() => import('../components/Sketcher.tsx'));

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

interface FileNote {
  name: string;
  read: number;
  used: number;
  problems: string[];
}

const EXAMPLE = 'CC(=O)Oc1ccccc1C(=O)O aspirin\nO=C1C(=Cc2ccccc2)C(=O)c2ccccc12 2-benzylidene-indandione';
/** POST /describe and /depict take 1 to 20 SMILES a call; larger sets belong in the Library. */
const MAX = 20;

/** A 422's issues at the SMILES list, each named by its line (loc ["body","smiles",3] is line 4). */
function smilesIssues(problem: Problem | null, lines: { name: string | null }[]): string[] {
  const issues = (problem?.status === 422 ? problem.errors : undefined) ?? [];
  return issues
    .filter((i) => i.loc[0] === 'body' && i.loc[1] === 'smiles')
    .map((i) => {
      const k = i.loc[2];
      if (typeof k !== 'number') return i.msg;
      const name = lines[k]?.name;
      return `line ${k + 1}${name ? ` (${name})` : ''}: ${i.msg}`;
    });
}

export default function Molecules() {
  const inputId = useId();
  const drawId = useId();
  const [text, setText] = useState(EXAMPLE);
  const [rows, setRows] = useState<Row[]>([]);
  const [models, setModels] = useState<Model[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [toSketch, setToSketch] = useState<{ smiles: string; key: number } | null>(null);
  const [sketches, setSketches] = useState(0);
  const [file, setFile] = useState<FileNote | null>(null);
  const drawRef = useRef<HTMLElement>(null);

  useEffect(() => {
    ok(api.GET('/api/v1/inference/models'))
      .then((m) => setModels(m.models.filter((x) => x.kind === 'public')))
      .catch((err: unknown) => setProblem(toProblem(err)));
  }, []);

  async function describe(value: string) {
    setBusy(true);
    setProblem(null);
    const lines = parseLines(value);
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

  function submit(e: FormEvent) {
    e.preventDefault();
    void describe(text);
  }

  /** The drawn structure joins the list (named "sketch N") and the list is described. */
  function takeSketch(smiles: string) {
    const n = sketches + 1;
    setSketches(n);
    const next = [text.trim(), `${smiles} sketch ${n}`].filter(Boolean).join('\n');
    setText(next);
    void describe(next);
  }

  function editInSketcher(smiles: string) {
    setDrawing(true);
    setToSketch({ smiles, key: Date.now() });
    requestAnimationFrame(() => drawRef.current?.scrollIntoView({ block: 'start' }));
  }

  async function openFile(input: HTMLInputElement) {
    const f = input.files?.[0];
    if (!f) return;
    setProblem(null);
    try {
      const read = await readMoleculeFile(f);
      const used = read.molecules.slice(0, MAX);
      setFile({ name: f.name, read: read.molecules.length, used: used.length, problems: read.problems });
      const next = toLines(used);
      setText(next);
      if (used.length) await describe(next);
      else setRows([]);
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      input.value = ''; // the same file may be opened again
    }
  }

  const fieldErrors = smilesIssues(problem, parseLines(text));
  return (
    <section aria-labelledby="molecules-title">
      <h1 id="molecules-title">Molecules</h1>
      <form onSubmit={submit} className="stack">
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
          <button type="button" className="secondary" aria-expanded={drawing} aria-controls={drawId} onClick={() => setDrawing(!drawing)}>
            {drawing ? 'Hide the editor' : 'Draw'}
          </button>
          <label className="file">
            Open a .smi, .csv, .sdf or .mol file
            <input type="file" accept=".smi,.csv,.sdf,.sd,.mol,.txt" onChange={(e) => void openFile(e.currentTarget)} />
          </label>
        </div>
      </form>
      {file && <FileReport note={file} />}
      <section id={drawId} ref={drawRef} className="draw" aria-label="Draw a structure" hidden={!drawing}>
        {drawing && (
          <Suspense fallback={<p className="muted">Loading the structure editor…</p>}>
            <Sketcher load={toSketch} onUse={takeSketch} />
          </Suspense>
        )}
      </section>
      <ProblemView problem={problem} fields={[['body', 'smiles']]} />
      <div className="cards">
        {rows.map((r, i) => (
          <MoleculeCard key={`${i}-${r.input}`} row={r} line={i + 1} onEdit={editInSketcher} />
        ))}
      </div>
    </section>
  );
}

/** What a file gave: how many molecules were read and used, and each record that could not be read. */
function FileReport({ note }: { note: FileNote }) {
  const { name, read, used, problems } = note;
  return (
    <div className={problems.length ? 'problem file-report' : 'notice file-report'} role={problems.length ? 'alert' : 'status'}>
      <p>
        <strong>{name}</strong>: {read} {read === 1 ? 'molecule' : 'molecules'} read
        {used < read && `; the first ${used} are described here (the Library takes whole sets)`}
        {problems.length > 0 && `; ${problems.length} ${problems.length === 1 ? 'record' : 'records'} could not be read`}
      </p>
      {problems.length > 0 && (
        <ul>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MoleculeCard({ row, line, onEdit }: { row: Row; line: number; onEdit: (smiles: string) => void }) {
  const { description: d, depiction } = row;
  const title = row.name ?? d.canonical_smiles ?? row.input;
  if (!d.properties) {
    return (
      <article className="card bad" aria-label={title}>
        <h2 className="mono">{row.name ?? row.input}</h2>
        <p className="field-error">
          Line {line}
          {row.name ? (
            <>
              {' '}
              (<span className="mono">{row.input}</span>)
            </>
          ) : null}
          : {d.error}
          {d.detail ? `: ${d.detail}` : ''}
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
      <button type="button" className="link small" onClick={() => onEdit(d.canonical_smiles ?? row.input)}>
        Edit in the sketcher
      </button>
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
            <td>{numberText(p.mw, 2)} g/mol</td>
          </tr>
          <tr>
            <th scope="row">cLogP</th>
            <td>{numberText(p.clogp, 2)}</td>
          </tr>
          <tr>
            <th scope="row">TPSA</th>
            <td>{numberText(p.tpsa, 1)} Å²</td>
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
            <td>{numberText(p.qed, 2)}</td>
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
                  {item?.prediction == null
                    ? (item?.error ?? '–')
                    : `${numberText(item.prediction, 2)} ± ${numberText(item.uncertainty, 2)}${model.units ? ` ${model.units}` : ''}`}
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
