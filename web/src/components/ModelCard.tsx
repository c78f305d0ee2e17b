// A model's card (docs/console.md, "Models"): its metrics (with the mean and ridge baselines when the
// card has them), the molecule features it uses, its data rows and split, its hyperparameters and
// applicability domain. Three shapes come in: a public model's card.json (GET /models/public), a
// trained model's `model_card` (GET /jobs/result of its mpnn_train job), and a user model's
// `model_info` (GET /user-models/mpnn); `cardFrom*` turn each into one shape.
import { numberText } from '../lib/units.ts';

type Obj = Record<string, unknown>;

export interface MetricRow {
  label: string;
  values: Obj;
}

export interface Card {
  reference: string; // public/<id> or user/<name>
  name: string;
  task: string;
  target: string;
  units: string | null;
  metrics: MetricRow[];
  features: string;
  descriptors: string[];
  data: [string, string][];
  hyperparameters: Obj;
  domain: string | null;
  source: string | null;
}

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): string => (typeof v === 'number' ? v.toLocaleString('en-US') : '–');

function features(mf: Obj, hyper: Obj): { features: string; descriptors: string[] } {
  const set = str(mf.set) ?? str(hyper.molecule_features) ?? 'none';
  const descriptors = Array.isArray(mf.descriptors) ? mf.descriptors.map(String) : [];
  if (set === 'none') return { features: 'none: the molecular graph only (atom and bond features)', descriptors };
  return {
    features: `${set}${descriptors.length ? ` (${descriptors.length} descriptors)` : ''}: ${str(mf.description) ?? 'appended before the feed-forward network'}`,
    descriptors,
  };
}

function domainText(ad: Obj): string | null {
  if (str(ad.description)) return str(ad.description);
  if (typeof ad.threshold !== 'number') return null;
  return `in domain when the highest Tanimoto similarity to a training molecule (${str(ad.fingerprint) ?? 'morgan'}, radius ${count(ad.radius)}) is at least ${ad.threshold}`;
}

/** A public model's card.json (GET /models/public). */
export function cardFromPublic(c: Obj): Card {
  const target = obj(c.target);
  const metrics = obj(c.metrics);
  const rows: MetricRow[] = [];
  for (const [part, label] of [
    ['test', 'test'],
    ['validation', 'validation'],
  ] as const) {
    const m = obj(metrics[part]);
    if (m.model) rows.push({ label: `Model (${label})`, values: obj(m.model) });
    if (m.mean_baseline) rows.push({ label: `Mean baseline (${label})`, values: obj(m.mean_baseline) });
    if (m.ridge_baseline) rows.push({ label: `Ridge baseline (${label})`, values: obj(m.ridge_baseline) });
  }
  const split = obj(c.split);
  const td = obj(c.training_data);
  const hyper = obj(c.hyperparameters);
  return {
    reference: `public/${String(c.id)}`,
    name: str(c.name) ?? String(c.id),
    task: str(c.task) ?? '',
    target: str(target.description) ?? str(target.column) ?? '',
    units: str(target.units),
    metrics: rows,
    ...features(obj(c.molecule_features), hyper),
    data: [
      ['Data set', str(td.name) ?? '–'],
      ['Rows in the file', count(td.rows_in_file)],
      ['Rows used', count(td.size)],
      ['Duplicates dropped', count(td.duplicates_dropped)],
      ['Split', `${str(split.type) ?? '–'}: ${count(split.train)} train, ${count(split.validation)} validation, ${count(split.test)} test (seed ${count(split.seed)})`],
    ],
    hyperparameters: hyper,
    domain: domainText(obj(c.applicability_domain)),
    source: [str(td.citation), str(td.doi) && `doi:${str(td.doi)}`].filter(Boolean).join(' ') || null,
  };
}

function userData(c: Obj): [string, string][] {
  const data = obj(c.data);
  const split = obj(c.split);
  const rows: [string, string][] = [];
  if (typeof data.rows === 'number') {
    rows.push(
      ['Rows in the file', count(data.rows)],
      ['Rows used', count(data.used)],
      ['Unreadable SMILES', count(data.unreadable)],
      ['Duplicates dropped', count(data.duplicates)],
    );
  }
  rows.push(['Split', `${str(split.type) ?? '–'}: ${count(c.n_train)} train, ${count(c.n_val)} validation, ${count(c.n_test)} test (seed ${count(split.seed)})`]);
  return rows;
}

/** A trained model's `model_card` (GET /jobs/result); `val` is the result's val_metrics. */
export function cardFromResult(c: Obj, val?: unknown): Card {
  const hyper = obj(c.hyperparameters);
  const metrics: MetricRow[] = [{ label: Number(c.n_test) > 0 ? 'Model (test)' : 'Model (validation)', values: obj(c.metrics) }];
  if (val && Number(c.n_test) > 0) metrics.push({ label: 'Model (validation)', values: obj(val) });
  return {
    reference: str(c.model) ?? `user/${String(c.name)}`,
    name: String(c.name),
    task: str(c.task) ?? '',
    target: str(c.target) ?? '',
    units: str(c.units),
    metrics,
    ...features(obj(c.molecule_features), hyper),
    data: userData(c),
    hyperparameters: hyper,
    domain: domainText(obj(c.applicability_domain)),
    source: null,
  };
}

/** A user model's `model_info` (GET /user-models/mpnn). */
export function cardFromInfo(name: string, info: Obj): Card {
  const hyper = obj(info.hyperparameters);
  return {
    reference: `user/${name}`,
    name,
    task: str(info.task) ?? '',
    target: str(info.target) ?? '',
    units: str(info.units),
    metrics: [{ label: Number(info.n_test) > 0 ? 'Model (test)' : 'Model (validation)', values: obj(info.metrics) }],
    ...features({}, hyper),
    data: userData(info),
    hyperparameters: hyper,
    domain: null,
    source: str(info.created_at) && `Trained ${new Date(String(info.created_at)).toLocaleString()}`,
  };
}

const METRIC_NAMES: Record<string, string> = { rmse: 'RMSE', mae: 'MAE', r2: 'R²', roc_auc: 'ROC AUC', accuracy: 'Accuracy' };

/** 4 significant digits, or a dash. */
export function metric(v: unknown): string {
  return numberText(v, 4, { significant: true });
}

export function ModelCard({ card, headingLevel = 2 }: { card: Card; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const keys = [...new Set(card.metrics.flatMap((r) => Object.keys(r.values)))];
  const slug = card.reference.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    <article className="card model-card" aria-labelledby={`card-${slug}`}>
      <H id={`card-${slug}`}>
        {card.name} <span className="muted small mono">{card.reference}</span>
      </H>
      <p className="small">
        {card.task} of <strong>{card.target}</strong>
        {card.units ? ` (${card.units})` : ''}
      </p>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={`Metrics of ${card.name}`}>
        <table className="list metrics">
          <caption className="sr-only">Metrics of {card.name}</caption>
          <thead>
            <tr>
              <th scope="col">Predictor</th>
              {keys.map((k) => (
                <th scope="col" key={k}>
                  {METRIC_NAMES[k] ?? k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {card.metrics.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                {keys.map((k) => (
                  <td key={k} data-metric={k}>
                    {metric(r.values[k])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="card-grid">
        <table className="props">
          <caption>Data</caption>
          <tbody>
            {card.data.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="props">
          <caption>Hyperparameters</caption>
          <tbody>
            {Object.entries(card.hyperparameters)
              .filter(([, v]) => v !== null && typeof v !== 'object')
              .map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k.replace(/_/g, ' ')}</th>
                  <td>{String(v)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <p className="small">
        <strong>Molecule features:</strong> {card.features}
      </p>
      {card.descriptors.length > 0 && (
        <details className="small">
          <summary>The {card.descriptors.length} descriptors</summary>
          <p className="mono wrap">{card.descriptors.join(', ')}</p>
        </details>
      )}
      {card.domain && (
        <p className="small">
          <strong>Applicability domain:</strong> {card.domain}
        </p>
      )}
      {card.source && <p className="muted small">{card.source}</p>}
    </article>
  );
}
