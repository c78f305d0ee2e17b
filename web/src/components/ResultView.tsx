// A job's result as tables (docs/console.md, "Jobs"): its `summary` as name/value rows, and its
// `items` (one per molecule for the cheminformatics types) as a table of their plain values, one
// level of nested objects flattened (properties.mw -> "mw"), with a depiction (POST /depict) of
// the first molecules when the items carry SMILES. Each number is shown at the precision of its
// field's unit and each column named with its unit (lib/units.ts). An item's lists are tables of
// their own below it: lists of numbers of one length side by side (a frequencies job's modes and
// IR intensities), lists of records one row each (conformers, poses, scan points). The plots the
// job wrote (its `svg` ports: IR spectra, scan profiles) are shown as images. Values that are
// neither (a docking result's receptor and box, an item's charges) are compact JSON boxes that
// open. Items with 3D structures (molblocks: conformers, optimised geometries, docking poses, scan
// points) are shown in the 3D viewer, one item at a time.
import { useEffect, useId, useMemo, useState } from 'react';
import { api, ok } from '../api/client.ts';
import { fieldLabel, formatValue } from '../lib/units.ts';
import { Plots } from './Plots.tsx';
import { Viewer3D } from './Viewer3D.tsx';
import { PoseDiagram, type PoseChecksView } from './PoseDiagram.tsx';
import { cubesOf, itemName, itemStructures, receptorOf } from './viewer3d/structures.ts';

const MAX_ROWS = 200;
const MAX_DEPICT = 50;
/** Items whose lists get tables; rows per list table. */
const MAX_LIST_ITEMS = 20;
const MAX_LIST_ROWS = 1000;

type Row = Record<string, unknown>;
/** A value shown as a JSON box (neither plain nor flattened). */
class Json {
  constructor(readonly value: unknown) {}
}
/** A list shown as its own table below the row. */
class List {
  constructor(readonly length: number) {}
}
const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isMolblock = (v: unknown) => typeof v === 'string' && /M {2}END/.test(v);
const isRecord = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v);
const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
const records = (v: unknown): v is Row[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);
/** A label without its unit ("Frequencies (cm⁻¹)" -> "Frequencies"). */
const bare = (name: string) => fieldLabel(name).replace(/ \([^)]*\)$/, '');

/** The item's plain values, nested objects flattened one level (a `pass` flag stands for a check); lists as tables below; the rest as JSON. Molblocks go to the 3D view. */
function flatten(item: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(item)) {
    if (k === 'index' || isMolblock(v)) continue;
    if (plain(v)) out[k] = v;
    else if (numbers(v) || records(v)) out[k] = new List(v.length);
    else if (isRecord(v))
      for (const [k2, v2] of Object.entries(v)) {
        if (plain(v2)) out[k2] = v2;
        else if (isRecord(v2) && 'pass' in v2) out[k2] = v2.pass ? 'pass' : 'fail';
        else if (v2 !== undefined) out[k2] = new Json(v2);
      }
    else if (v !== undefined) out[k] = new Json(v);
  }
  return out;
}

/** An item's lists as tables: lists of numbers of one length side by side, each list of records on its own; "#" numbers the rows. */
interface ListShown {
  key: string;
  title: string;
  columns: string[];
  rows: Row[];
  total: number;
}
function listTables(item: Row): ListShown[] {
  const out: ListShown[] = [];
  const byLength = new Map<number, string[]>();
  for (const [k, v] of Object.entries(item)) if (numbers(v)) byLength.set(v.length, [...(byLength.get(v.length) ?? []), k]);
  for (const [length, names] of byLength) {
    const rows = Array.from({ length: Math.min(length, MAX_LIST_ROWS) }, (_, i) => Object.fromEntries(names.map((k) => [k, (item[k] as number[])[i]])));
    out.push({ key: names.join(','), title: bare(names[0]!), columns: names, rows, total: length });
  }
  for (const [k, v] of Object.entries(item)) {
    if (!records(v)) continue;
    const rows = v.slice(0, MAX_LIST_ROWS).map((r) => Object.fromEntries(Object.entries(r).filter(([, x]) => plain(x) && !isMolblock(x))));
    out.push({ key: k, title: bare(k), columns: [...new Set(rows.flatMap((r) => Object.keys(r)))], rows, total: v.length });
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
  if (value instanceof Json) return <JsonBox value={value.value} name={name} />;
  if (value instanceof List) return <span className="muted">{value.length.toLocaleString()} (table below)</span>;
  return <>{formatValue(name, value)}</>;
}

/** One list of an item as a table (frequencies of ethanol, conformers of butane), in a region that scrolls. */
function ListTable({ title, columns, rows, total }: { title: string; columns: string[]; rows: Row[]; total: number }) {
  return (
    <div className="list-table">
      <h4>{title}</h4>
      <div className="table-wrap list-scroll" tabIndex={0} role="region" aria-label={title}>
        <table className="list result-table">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              {columns.map((c) => (
                <th scope="col" key={c} className="num">
                  {fieldLabel(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, n) => (
              <tr key={n}>
                <td>{n + 1}</td>
                {columns.map((c) => (
                  <td key={c} className={typeof r[c] === 'number' ? 'num' : undefined}>
                    {formatValue(c, r[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length && (
        <p className="muted small">
          The first {rows.length} of {total}; download the result for all.
        </p>
      )}
    </div>
  );
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
  const [pose, setPose] = useState(0);
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
  const raw = Array.isArray(result.items) ? (result.items as Row[]).filter(isRecord) : [];
  // The chosen item's cube files (properties_qm), one array per item and artifact: the viewer redraws when it changes.
  const cubeItem = set ? raw.find((item, k) => (typeof item.index === 'number' ? item.index : k) === set.index) : undefined;
  const cubes = useMemo(() => cubesOf(cubeItem, artifactId), [cubeItem, artifactId]);
  // A docking job's interaction diagrams (its `interactions` port) go beside the 3D view, one per pose.
  const diagrams = Boolean(artifactId && set?.kind === 'Pose' && isRecord(result.ports) && 'interactions' in result.ports);
  const shownPose = diagrams && cubeItem && Array.isArray(cubeItem.poses) ? (cubeItem.poses[pose] as Row | undefined) : undefined;
  const shownChecks = shownPose && isRecord(shownPose.checks) ? (shownPose.checks as unknown as PoseChecksView) : null;
  const lists = raw
    .slice(0, MAX_LIST_ITEMS)
    .map((item, n) => ({ name: itemName(item, n), tables: listTables(item) }))
    .filter((x) => x.tables.length > 0);
  // A plot record names its structure by its id and index (docs/engines.md): the item's name for the alt text.
  const nameOf = (index: number | null, id: string) => {
    const n = raw.findIndex((item, k) => (index !== null ? (typeof item.index === 'number' ? item.index : k) === index : item.id === id));
    return n >= 0 ? itemName(raw[n]!, n) : id;
  };
  return (
    <div className="result">
      <h3>Result</h3>
      {rows.length > 0 && (
        <table className="props">
          <caption className="sr-only">Summary</caption>
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{fieldLabel(k)}</th>
                <td>{plain(v) ? formatValue(k, v) : numbers(v) && v.length <= 12 ? v.join(', ') : <JsonBox value={v} name={k} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {artifactId && <Plots artifactId={artifactId} nameOf={nameOf} skip={diagrams ? ['interactions'] : []} />}
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
          {diagrams && cubeItem ? (
            <div className="viewer3d-pair">
              <Viewer3D key={set.index} set={set} receptor={receptor} cubes={cubes} onChosen={setPose} />
              <PoseDiagram artifactId={artifactId!} record={`${String(cubeItem.id)}-${pose + 1}`} title={`${set.name}, pose ${pose + 1}`} checks={shownChecks} />
            </div>
          ) : (
            <Viewer3D key={set.index} set={set} receptor={set.kind === 'Pose' ? receptor : null} cubes={cubes} />
          )}
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
                    {fieldLabel(c)}
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
      {lists.map(({ name, tables }) => tables.map((t) => <ListTable key={`${name}/${t.key}`} title={`${t.title} of ${name}`} columns={t.columns} rows={t.rows} total={t.total} />))}
      {raw.length > MAX_LIST_ITEMS && lists.length > 0 && <p className="muted small">The lists of the first {MAX_LIST_ITEMS} molecules; download the result for all.</p>}
    </div>
  );
}
