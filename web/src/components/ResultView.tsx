// A job's result as tables (docs/console.md, "Jobs"): its `summary` as name/value rows, and its
// `items` (one per molecule for the cheminformatics types) as a table of their plain values, one
// level of nested objects flattened (properties.mw -> "mw"), with a depiction (POST /depict) of
// the first molecules when the items carry SMILES.
import { useEffect, useState } from 'react';
import { api, ok } from '../api/client.ts';

const MAX_ROWS = 200;
const MAX_DEPICT = 50;

type Row = Record<string, unknown>;
const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const show = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : typeof v === 'string' || typeof v === 'boolean' ? String(v) : '–');

/** The item's plain values, nested objects flattened one level (a `pass` flag stands for a check). */
function flatten(item: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(item)) {
    if (k === 'index') continue;
    if (plain(v)) out[k] = v;
    else if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Row)) {
        if (plain(v2)) out[k2] = v2;
        else if (v2 && typeof v2 === 'object' && 'pass' in v2) out[k2] = (v2 as { pass: unknown }).pass ? 'pass' : 'fail';
      }
  }
  return out;
}

export function ResultView({ result }: { result: Row }) {
  const items = Array.isArray(result.items) ? (result.items as Row[]).slice(0, MAX_ROWS).map(flatten) : [];
  const summary = result.summary && typeof result.summary === 'object' ? Object.entries(result.summary as Row).filter(([, v]) => plain(v)) : [];
  const columns = [...new Set(items.flatMap((i) => Object.keys(i)))];
  const smiles = items.map((i) => (typeof i.smiles === 'string' ? i.smiles : ''));
  const [svgs, setSvgs] = useState<(string | null)[]>([]);

  const key = smiles.slice(0, MAX_DEPICT).join('\n');
  useEffect(() => {
    const list = key ? key.split('\n') : [];
    if (!list.length || list.every((s) => !s)) return;
    ok(api.POST('/api/v1/depict', { body: { smiles: list.map((s) => s || 'C'), width: 160, height: 120 } })).then(
      (d) => setSvgs(d.items.map((x, n) => (list[n] ? (x.svg ?? null) : null))),
      () => setSvgs([]),
    );
  }, [key]);

  const rest = Object.entries(result).filter(([k, v]) => k !== 'summary' && k !== 'items' && plain(v));
  return (
    <div className="result">
      <h3>Result</h3>
      {(summary.length > 0 || rest.length > 0) && (
        <table className="props">
          <caption className="sr-only">Summary</caption>
          <tbody>
            {[...summary, ...rest].map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k.replace(/_/g, ' ')}</th>
                <td>{show(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {items.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Result rows">
          <table className="list result-table">
            <caption className="sr-only">Result rows</caption>
            <thead>
              <tr>
                {svgs.some(Boolean) && <th scope="col">Structure</th>}
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {c.replace(/_/g, ' ')}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((item, n) => (
                <tr key={n}>
                  {svgs.some(Boolean) && (
                    <td>
                      {svgs[n] && (
                        <img
                          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgs[n])}`}
                          alt={`Structure of ${String(item.name ?? item.smiles)}`}
                          width={160}
                          height={120}
                        />
                      )}
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c} className={c === 'smiles' ? 'mono' : undefined}>
                      {show(item[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {Array.isArray(result.items) && result.items.length > MAX_ROWS && <p className="muted">The first {MAX_ROWS} rows; download the result artifact for all.</p>}
    </div>
  );
}
