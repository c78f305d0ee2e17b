// Running an engine job's items (docs/engines.md, "The engine runtime"): each structure in a
// scratch directory of its own, the engines through runEngine (process group, threads, memory,
// time and output bounds), their logs kept (bounded) for the result artifact, and the result
// assembled as the contract says: {job_type, method, items} with one item per structure in
// input order, an SDF port of the structures, a CSV table and the logs.
import { engineCall } from '../../../engines/discovery.js';
import { sdfRecord } from '../../../engines/molblock.js';
import { runEngine } from '../../../engines/process.js';
import { makeScratch, removeScratch } from '../../../engines/scratch.js';
import { ItemFailure, type EngineTools, type Structure } from '../../../engines/tools.js';
import { suffixedRecordId } from '../../../record-ids.js';
import type { OutputRecord, RunContext, JobOutput } from '../../job-type.js';
import { JobAborted, JobInputError } from '../../job-type.js';
import { checkAborted } from '../molecule-jobs.js';
import { smilesOf } from './structures.js';

/** Log text kept per item and for the whole job. */
const LOG_PER_ITEM = 64 * 1024;
const LOG_TOTAL = 4 * 1024 * 1024;

export class EngineLogs {
  private total = 0;
  readonly byItem = new Map<number, string[]>();
  add(index: number, text: string): void {
    if (this.total >= LOG_TOTAL) return;
    const list = this.byItem.get(index) ?? [];
    const used = list.reduce((n, s) => n + s.length, 0);
    const room = Math.min(LOG_PER_ITEM - used, LOG_TOTAL - this.total);
    if (room <= 0) return;
    const piece = text.length > room ? `${text.slice(0, room)}\n[... log cut ...]\n` : text;
    list.push(piece);
    this.total += piece.length;
    this.byItem.set(index, list);
  }
}

/** The engine tools of one item: every run's command, exit and output go to its log. */
export function toolsFor(ctx: RunContext<unknown>, logs: EngineLogs, index: number, perCallTimeoutMs: number): EngineTools {
  const threads = Math.max(1, ctx.resource.vcpu);
  return {
    threads,
    async run(engine, args, cwd, opts = {}) {
      const found = ctx.deps.engines?.[engine];
      if (!found?.available || !found.path) throw new Error(`${engine} is not available on this worker`);
      const t = opts.threads ?? threads;
      // An engine with a launcher (NWChem through mpirun) gets it in front, with its environment.
      const r = await runEngine(
        engineCall(found, args, {
          cwd,
          input: opts.input,
          threads: t,
          timeoutMs: Math.min(opts.timeoutMs ?? perCallTimeoutMs, perCallTimeoutMs),
          signal: ctx.signal,
          onStdout: opts.onStdout,
          env: opts.env,
        }),
      );
      logs.add(
        index,
        `$ ${engine} ${args.map((a) => a.replace(cwd + '/', '')).join(' ')}\n# exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}, ${r.ms} ms\n${r.stdout}${r.stderr ? `\n# stderr\n${r.stderr}` : ''}\n`,
      );
      if (r.timedOut) throw new ItemFailure('timeout', `${engine} did not finish within ${Math.round((opts.timeoutMs ?? perCallTimeoutMs) / 1000)} s`);
      return r;
    },
  };
}

/** What one item gives: its fields in the result, its structures for the SDF port, its row in the table. */
export interface ItemOutput {
  fields: Record<string, unknown>;
  /** Molblocks for the structures port, each with SDF properties. */
  structures: { molblock: string; props: Record<string, string | number | null> }[];
  row: Record<string, string | number | null>;
  /** The item's rows of the table, when it has several (a scan: one per point); else `row`. */
  rows?: Record<string, string | number | null>[];
}

export interface ItemResult {
  index: number;
  id: string;
  name: string | null;
  /** The structure's SMILES: as given, or RDKit's of a molblock (null when RDKit cannot read the molblock). */
  smiles: string | null;
  error: string | null;
  detail: string | null;
  fields: Record<string, unknown>;
}

/**
 * Runs `work` for every structure, `concurrency` at a time (a structure's engines use the
 * job's threads, so one at a time unless the engine is single-threaded), each in its own
 * scratch directory. An ItemFailure is that item's error; an abort stops the job.
 */
export async function runItems(
  ctx: RunContext<unknown>,
  structures: Structure[],
  opts: { perCallTimeoutMs: number; concurrency?: number; label: string },
  work: (s: Structure, tools: EngineTools, dir: string) => Promise<ItemOutput>,
): Promise<{ items: ItemResult[]; outputs: (ItemOutput | null)[]; logs: EngineLogs }> {
  const logs = new EngineLogs();
  const items: ItemResult[] = new Array<ItemResult>(structures.length);
  const outputs: (ItemOutput | null)[] = new Array<ItemOutput | null>(structures.length).fill(null);
  let next = 0;
  let done = 0;
  const one = async () => {
    for (;;) {
      const k = next++;
      const s = structures[k];
      if (!s) return;
      checkAborted(ctx.signal);
      const dir = makeScratch(`${opts.label}${s.index}`);
      const base = { index: s.index, id: s.id, name: s.name ?? null, smiles: smilesOf(s) };
      try {
        const out = await work(s, toolsFor(ctx, logs, s.index, opts.perCallTimeoutMs), dir);
        outputs[k] = out;
        items[k] = { ...base, error: null, detail: null, fields: out.fields };
      } catch (err) {
        if (err instanceof JobAborted || ctx.signal.aborted) throw ctx.signal.reason instanceof JobAborted ? ctx.signal.reason : err;
        if (err instanceof JobInputError) throw err;
        if (!(err instanceof ItemFailure)) throw err;
        items[k] = { ...base, error: err.code, detail: err.message, fields: err.molblock ? { molblock: err.molblock } : {} };
      } finally {
        removeScratch(dir);
      }
      done++;
      ctx.progress(0.02 + (0.96 * done) / structures.length, `${done} of ${structures.length} structures`, { done, total: structures.length }, false);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, structures.length)) }, one));
  return { items, outputs, logs };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The job's output: the result document (items in input order) and the ports `structures`
 * (SDF, one record per structure, each its own record in the artifact), `table` (CSV of the
 * scalar fields, one row per item) and `logs` (the engines' output per item).
 */
export function engineOutput(
  jobType: string,
  method: string,
  run: { items: ItemResult[]; outputs: (ItemOutput | null)[]; logs: EngineLogs },
  extra: Record<string, unknown> = {},
  structuresPort = 'structures',
): JobOutput {
  const items = run.items.map((it) => ({ index: it.index, id: it.id, name: it.name, error: it.error, detail: it.detail, ...it.fields }));
  // Every row says which molecule it is: its index, id, name and SMILES (docs/engines.md, "Structures").
  const columns = ['index', 'id', 'name', 'smiles', 'error', ...new Set(run.outputs.flatMap((o) => (o ? (o.rows ?? [o.row]).flatMap((r) => Object.keys(r)) : [])))];
  const rows = run.items.flatMap((it, k) => {
    const who = { index: it.index, id: it.id, name: it.name, smiles: it.smiles, error: it.error };
    const own = run.outputs[k] ? (run.outputs[k]!.rows ?? [run.outputs[k]!.row]) : [];
    return (own.length ? own : [{}]).map((r) => ({ ...who, ...r }) as Record<string, unknown>);
  });
  const table = [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';
  const structureRecords: OutputRecord[] = [];
  run.outputs.forEach((o, k) => {
    const it = run.items[k]!;
    (o?.structures ?? []).forEach((st, j) => {
      const id = o!.structures.length > 1 ? suffixedRecordId(it.id, `-${j + 1}`) : it.id;
      structureRecords.push({
        id,
        files: { primary: { name: 'structure.sdf', content: sdfRecord(st.molblock, it.name ?? id, { index: it.index, ...st.props }), contentType: 'chemical/x-mdl-sdfile' } },
        metrics: Object.fromEntries(Object.entries({ index: it.index, ...st.props }).filter((e): e is [string, number] => typeof e[1] === 'number')),
      });
    });
  });
  const logRecords: OutputRecord[] = [...run.logs.byItem].map(([index, parts]) => ({
    id: String(index),
    files: { primary: { name: 'engine.log', content: parts.join('\n'), contentType: 'text/plain' } },
  }));
  return {
    result: {
      job_type: jobType,
      method,
      ...extra,
      summary: { structures: items.length, completed: items.filter((i) => !i.error).length, errors: items.filter((i) => i.error).length },
      items,
      ports: {
        [structuresPort]: 'the structures as SDF records (one per structure, with their figures as SDF fields), usable as input_artifact_id of engine jobs',
        table: 'a CSV table of the figures, one row per input structure, each with its index, id, name and SMILES',
        logs: "each structure's engine output (bounded)",
      },
    },
    ports: {
      [structuresPort]: { format: 'sdf', kind: 'molecules', records: structureRecords },
      table: { format: 'csv', kind: 'table', records: [{ id: 'table', files: { primary: { name: `${jobType}.csv`, content: table, contentType: 'text/csv' } } }] },
      logs: { format: 'text', kind: 'logs', records: logRecords },
    },
  };
}
