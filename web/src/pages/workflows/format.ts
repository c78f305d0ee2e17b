// Small helpers of the Workflows page (docs/console.md, "Workflows"): money and times, the
// critical path of an estimate, and a step result's rows as plain table cells.
import type { components } from 'crucible-client';

export type Spec = components['schemas']['WorkflowSpec'];
export type Template = components['schemas']['WorkflowTemplates']['templates'][number];
export type Estimate = components['schemas']['WorkflowEstimate'];
export type Run = components['schemas']['WorkflowRun'];
export type RunStep = Run['steps'][number];
export type RunStatus = components['schemas']['WorkflowRunStatus'];
export type RunSummary = components['schemas']['WorkflowRunSummary'];
export type RunOutputs = components['schemas']['WorkflowRunOutputs'];

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

import { numberText } from '../../lib/units.ts';
export { usd } from '../../lib/units.ts';
export const secs = (n: number | null | undefined) => (n == null ? '–' : `${numberText(n, 1)} s`);
/** A name's words and unit, as the job form labels fields (lib/units.ts): "temperature_k" -> "Temperature (K)". */
export { fieldLabel as humanize } from '../../lib/units.ts';

/** The steps a step reads from (`$steps.<id>.outputs.<port>` among its inputs and params). */
function parents(step: Spec['steps'][number]): string[] {
  const refs = [...Object.values(step.inputs ?? {}), ...Object.values(step.params ?? {})].filter((v): v is string => typeof v === 'string');
  return [...new Set(refs.map((r) => /^\$steps\.([^.]+)\.outputs\./.exec(r)?.[1]).filter((x): x is string => !!x))];
}

/**
 * The longest chain of steps by their estimated runtimes (the run's expected time: independent
 * steps run in parallel), as step ids in order.
 */
export function criticalPath(spec: Spec, estimate: Estimate): string[] {
  const runtime = new Map(estimate.steps.map((s) => [s.step_id, s.expected_runtime_sec]));
  const byId = new Map(spec.steps.map((s) => [s.id, s]));
  const best = new Map<string, { time: number; path: string[] }>();
  const visit = (id: string, seen: Set<string>): { time: number; path: string[] } => {
    const known = best.get(id);
    if (known) return known;
    if (seen.has(id)) return { time: 0, path: [] };
    seen.add(id);
    let top = { time: 0, path: [] as string[] };
    for (const p of parents(byId.get(id)!)) {
      if (!byId.has(p)) continue;
      const r = visit(p, seen);
      if (r.time > top.time) top = r;
    }
    const out = { time: top.time + (runtime.get(id) ?? 0), path: [...top.path, id] };
    best.set(id, out);
    return out;
  };
  let longest = { time: -1, path: [] as string[] };
  for (const s of spec.steps) {
    const r = visit(s.id, new Set());
    if (r.time > longest.time) longest = r;
  }
  return longest.path;
}

export type Cell = string | number | boolean | null;
export type Row = Record<string, unknown>;
const plain = (v: unknown): v is Cell => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The rows of a step's result that an output port holds: the port's own list, else `items`, `kept` or `assignments`. */
export function rowsOf(result: Row, port: string): Row[] {
  for (const k of [port, 'items', 'kept', 'assignments', 'hits', 'matches']) {
    const v = result[k];
    if (Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) return v as Row[];
  }
  return [];
}

/** A row's plain values, nested objects flattened one level (a check's `pass` as pass/fail); `svg` kept apart. */
export function flatten(item: Row): { cells: Record<string, Cell>; svg: string | null } {
  const cells: Record<string, Cell> = {};
  let svg: string | null = null;
  for (const [k, v] of Object.entries(item)) {
    if (k === 'index') continue;
    if (k === 'svg' && typeof v === 'string') svg = v;
    else if (plain(v)) cells[k] = v;
    else if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Row)) {
        const key = k2 in cells || k2 in item ? `${k} ${k2}` : k2;
        if (plain(v2)) cells[key] = v2;
        else if (v2 && typeof v2 === 'object' && 'pass' in v2) cells[key] = (v2 as { pass: unknown }).pass ? 'pass' : 'fail';
      }
  }
  return { cells, svg };
}

/** The plain values of a result's `summary`. */
export function summaryOf(result: Row): [string, Cell][] {
  const s = result.summary;
  return s && typeof s === 'object' ? Object.entries(s as Row).filter((e): e is [string, Cell] => plain(e[1])) : [];
}

export const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
