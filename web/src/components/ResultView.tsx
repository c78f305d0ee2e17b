// A job's result as tables (docs/console.md, "Jobs"): its `summary` as name/value rows, and its
// `items` (one per molecule for the cheminformatics types) as a table of their plain values, one
// level of nested objects flattened (properties.mw -> "mw"), with a depiction (POST /depict) of
// the first molecules when the items carry SMILES. Values that are neither (a docking result's
// receptor and box, an item's charges or conformer list) are compact JSON boxes that open.
// Items with 3D structures (molblocks: conformers, optimised geometries, docking poses, scan
// points) are shown in the 3D viewer, one item at a time.
import { useEffect, useId, useState } from 'react';
import { api, ok } from '../api/client.ts';
import { Viewer3D } from './Viewer3D.tsx';
import { itemStructures, receptorOf } from './viewer3d/structures.ts';

const MAX_ROWS = 200;
const MAX_DEPICT = 50;

type Row = Record<string, unknown>;
/** A value shown as a JSON box (neither plain nor flattened). */
class Json {
  constructor(readonly value: unknown) {}
}
const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isMolblock = (v: unknown) => typeof v === 'string' && /M {2}END/.test(v);
const show = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : typeof v === 'string' || typeof v === 'boolean' ? String(v) : '–');

/** The item's plain values, nested objects flattened one level (a `pass` flag stands for a check); the rest as JSON. Molblocks go to the 3D view. */
function flatten(item: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(item)) {
    if (k === 'index' || isMolblock(v)) continue;
    if (plain(v)) out[k] = v;
    else if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Row)) {
        if (plain(v2)) out[k2] = v2;
        else if (v2 && typeof v2 === 'object' && 'pass' in v2) out[k2] = (v2 as { pass: unknown }).pass ? 'pass' : 'fail';
        else if (v2 !== undefined) out[k2] = new Json(v2);
      }
    else if (v !== undefined) out[k] = new Json(v);
  }
  return out;
}

/** JSON without molblocks (they are drawn in 3D, and a table cell is no place for 40 lines of coordinates). */
const text = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (k === 'molblock' && typeof x === 'string' ? '(in the 3D view)' : x), 2);

/** A nested value as a compact, collapsible JSON box: its size closed, its JSON open. */
export function JsonBox({ value, name }: { value: unknown; name: string }) {
  const what = Array.isArray(value) ? `${value.length} item${value.length === 1 ? '' : 's'}` : value && typeof value === 'object' ? `${Object.keys(value).length} fields` : 'value';
  return (
    <details className="json-box">
      <summary>
        {what}
        <span className="sr-only"> of {name.replace(/_/g, ' ')}</span>
      </summary>
      <pre tabIndex={0} aria-label={`${name.replace(/_/g, ' ')} as JSON`}>
        {text(value)}
      </pre>
    </details>
  );
}

function Cell({ value, name }: { value: unknown; name: string }) {
  return value instanceof Json ? <JsonBox value={value.value} name={name} /> : <>{show(value)}</>;
}

/** `artifactId`: the job's result artifact (a docking result's receptor is its `receptor` port). */
export function ResultView({ result, artifactId = null }: { result: Row; artifactId?: string | null }) {
  const items = Array.isArray(result.items) ? (result.items as Row[]).slice(0, MAX_ROWS).map(flatten) : [];
  const summary = result.summary && typeof result.summary === 'object' ? Object.entries(result.summary as Row).filter(([, v]) => v !== undefined) : [];
  const columns = [...new Set(items.flatMap((i) => Object.keys(i)))];
  const smiles = items.map((i) => (typeof i.smiles === 'string' ? i.smiles : ''));
  const [svgs, setSvgs] = useState<(string | null)[]>([]);
  const sets = itemStructures(result);
  const receptor = receptorOf(result, artifactId);
  const [picked, setPicked] = useState(0);
  const pickId = useId();

  const key = smiles.slice(0, MAX_DEPICT).join('\n');
  useEffect(() => {
    const list = key ? key.split('\n') : [];
    if (!list.length || list.every((s) => !s)) return;
    ok(api.POST('/api/v1/depict', { body: { smiles: list.map((s) => s || 'C'), width: 160, height: 120 } })).then(
      (d) => setSvgs(d.items.map((x, n) => (list[n] ? (x.svg ?? null) : null))),
      () => setSvgs([]),
    );
  }, [key]);

  // Top-level fields beside summary and items (method, seed; receptor, box, ports as JSON).
  const rest = Object.entries(result).filter(([k, v]) => k !== 'summary' && k !== 'items' && v !== undefined);
  const rows = [...summary, ...rest];
  const set = sets[Math.min(picked, sets.length - 1)];
  return (
    <div className="result">
      <h3>Result</h3>
      {rows.length > 0 && (
        <table className="props">
          <caption className="sr-only">Summary</caption>
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k.replace(/_/g, ' ')}</th>
                <td>{plain(v) ? show(v) : <JsonBox value={v} name={k} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {set && (
        <section aria-labelledby={`${pickId}-h`}>
          <h3 id={`${pickId}-h`}>3D structures</h3>
          {sets.length > 1 && (
            <div className="field viewer3d-pick">
              <label htmlFor={`${pickId}-item`}>Molecule</label>
              <select id={`${pickId}-item`} value={picked} onChange={(e) => setPicked(Number(e.target.value))}>
                {sets.map((s, n) => (
                  <option key={s.index} value={n}>
                    {s.name} ({s.structures.length} {s.kind.toLowerCase()}
                    {s.structures.length === 1 ? '' : 's'})
                  </option>
                ))}
              </select>
            </div>
          )}
          <Viewer3D key={set.index} set={set} receptor={set.kind === 'Pose' ? receptor : null} />
        </section>
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
                      <Cell value={item[c]} name={c} />
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
