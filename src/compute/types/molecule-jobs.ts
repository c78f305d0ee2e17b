// What the chemistry job types (properties, depict, similarity_search, substructure_search,
// cluster) share: the molecule-library payload fields (inline SMILES or an uploaded molecule
// set), its checks at estimate time, reading it at run time, chunked runs on the chemistry
// pool with progress and cancellation, per-item error bookkeeping, and a temporary JSON-lines
// spool that keeps per-molecule output on disk until the result artifact is written.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Type, type TProperties } from '@sinclair/typebox';
import type { ChemPool, ItemOutcome } from '../../chem/pool.js';
import type { KindInput, KindOptions, KindOutput, TaskKind } from '../../chem/kinds.js';
import { isMolblock } from '../../chem/jobs/handlers.js';
import { AppError, invalid } from '../../errors.js';
import { suffixedRecordId } from '../../record-ids.js';
import { JobAborted, JobInputError, type Estimate, type EstimateContext, type JobType, type OutputRecord, type PortType, type RunContext } from '../job-type.js';
import { linearEstimate, type CostName } from './calibration.js';
import { errorFields, portsField, resultSchema } from './result-parts.js';

/** Molecules per job at most, inline or from an uploaded set. */
export const MAX_MOLECULES = 100_000;
/** Characters per inline SMILES at most (as /describe and /depict). */
export const MAX_SMILES_CHARS = 2_000;
/** Per-molecule items written inline into result.json at most (the ports always have all of them). */
export const INLINE_ITEMS = 1_000;
/** Per-molecule errors listed in result.json at most (the ports and counts have all of them). */
export const MAX_LISTED_ERRORS = 1_000;
/** Morgan fingerprints of every job type: radius 2, 2048 bits (RDKit GetMorganFingerprintAsBitVect(m, 2, 2048)). */
export const MORGAN = { radius: 2, nBits: 2048 } as const;

/**
 * The workflow ports of a job type that takes molecules (docs/workflows.md): an uploaded set by
 * input_artifact_id and port, or given inline in the payload field `inline` (SMILES, or an engine
 * job's structures); and its `outputs`.
 */
export function moleculePorts(outputs: Record<string, PortType>, inline: 'smiles' | 'molecules' = 'smiles') {
  return { inputs: { molecules: { type: 'molecules' as const, field: 'input_artifact_id', portField: 'port', inline } }, outputs };
}

/**
 * A chemistry job type over a molecule library (properties, depict, filter, similarity_search,
 * substructure_search, cluster): it runs on the chemistry pool, takes its molecules inline or as a
 * molecule set and gives `outputs`; its result document is `job_type`, the `result` fields, then
 * its ports and its per-item errors.
 */
export function libraryJob<P extends LibraryPayload>(
  name: string,
  outputs: Record<string, PortType>,
  def: Omit<JobType<P>, 'name' | 'ports' | 'runsOn' | 'result'> & { result: { fields: TProperties; description: string } },
): JobType<P> {
  const result = resultSchema(name, { ...def.result.fields, ports: portsField(Object.keys(outputs)), ...errorFields }, def.result.description);
  return { ...def, name, ports: moleculePorts(outputs), runsOn: 'chem-pool', result };
}

/** The payload fields naming the molecules a job works on (exactly one of smiles and input_artifact_id). */
export function libraryFields(what = 'The molecules') {
  return {
    smiles: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_SMILES_CHARS }), {
        minItems: 1,
        maxItems: MAX_MOLECULES,
        description: `${what}, as SMILES (1 to ${MAX_MOLECULES.toLocaleString('en-US')}, each at most ${MAX_SMILES_CHARS} characters; the 1 MiB JSON body cap limits inline lists in practice: larger sets come by input_artifact_id). Exactly one of smiles and input_artifact_id`,
      }),
    ),
    input_artifact_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `${what}, as an uploaded molecule set (POST /artifacts with mode=molecules: .smi, .csv or .sdf), at most ${MAX_MOLECULES.toLocaleString('en-US')} molecules. Exactly one of smiles and input_artifact_id`,
      }),
    ),
    port: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The port of input_artifact_id holding the molecules (needed only when the artifact has several molecule sets)' }),
    ),
  };
}

export interface LibraryPayload {
  smiles?: string[];
  input_artifact_id?: string;
  port?: string;
}

/** Rules a JSON schema cannot say well: exactly one source, port only with an artifact. 422 at payload.<field>. */
export function checkLibrary(p: LibraryPayload): void {
  const hasList = p.smiles !== undefined;
  const hasArtifact = p.input_artifact_id !== undefined;
  if (!hasList && !hasArtifact) {
    throw invalid(['smiles'], 'Field required: give the molecules as smiles (a list of SMILES) or as input_artifact_id (an uploaded molecule set)', null, 'missing');
  }
  if (hasList && hasArtifact) {
    throw invalid(['input_artifact_id'], 'Give either smiles or input_artifact_id, not both', p.input_artifact_id);
  }
  if (p.port !== undefined && !hasArtifact) throw invalid(['port'], 'port applies to input_artifact_id only', p.port);
}

/** Molecules a job will read (checks the payload, counts an uploaded set without reading it). */
export async function countLibrary(p: LibraryPayload, ctx: EstimateContext): Promise<{ n: number; source: 'smiles' | 'artifact' }> {
  checkLibrary(p);
  if (p.smiles) return { n: p.smiles.length, source: 'smiles' };
  const n = await ctx.countMolecules(p.input_artifact_id!, p.port);
  if (n === 0) throw invalid(['input_artifact_id'], `artifact ${p.input_artifact_id} holds no molecules`, p.input_artifact_id);
  if (n > MAX_MOLECULES) {
    throw invalid(['input_artifact_id'], `artifact ${p.input_artifact_id} holds ${n} molecules; a job takes at most ${MAX_MOLECULES}`, p.input_artifact_id, 'too_long');
  }
  return { n, source: 'artifact' };
}

/**
 * The estimate of a job over a molecule library (docs/jobs.md): `costs` per molecule (reading an
 * uploaded set added), plus `pairSec(n)` of pairwise work spread over the vCPUs; `more` goes
 * into the assumptions before the `model`.
 */
export async function libraryEstimate(
  p: LibraryPayload,
  ctx: EstimateContext,
  costs: CostName[],
  opts: { pairSec?: (n: number) => number; more?: (n: number) => Record<string, unknown>; model?: string } = {},
): Promise<Estimate> {
  const { n, source } = await countLibrary(p, ctx);
  return {
    expectedRuntimeSec: linearEstimate(n, source === 'artifact' ? ['readArtifact', ...costs] : costs, ctx.resource.vcpu, opts.pairSec?.(n)),
    assumptions: { molecules: n, input: source, ...opts.more?.(n), model: opts.model ?? 'overhead + molecules x per-molecule cost (docs/jobs.md)' },
  };
}

/** Why a substructure query cannot be SMARTS (or SMILES) text, from its shape alone; null when it may be. */
export function smartsShapeError(q: string): string | null {
  if (q.trim() === '') return 'empty query';
  if (/[\n\r\0]/.test(q)) return 'the query has a line break';
  if (q.trim() !== q) return 'the query has leading or trailing whitespace';
  let depth = 0;
  const rings = new Map<string, number>();
  for (let i = 0; i < q.length; i++) {
    const c = q.charAt(i);
    if (c === '[') {
      let j = i + 1;
      let nest = 0;
      // Recursive SMARTS $(...) may hold brackets; skip to the matching ']'.
      for (; j < q.length; j++) {
        if (q[j] === '(') nest++;
        else if (q[j] === ')') nest--;
        else if (q[j] === ']' && nest <= 0) break;
      }
      if (j >= q.length) return `unclosed '[' at position ${i + 1}`;
      if (j === i + 1) return `empty bracket atom '[]' at position ${i + 1}`;
      i = j;
    } else if (c === ']') return `unexpected ']' at position ${i + 1}`;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return `unmatched ')' at position ${i + 1}`;
    } else if (c >= '0' && c <= '9') rings.set(c, (rings.get(c) ?? 0) + 1);
    else if (c === '%') {
      const m = /^%(\d\d)|^%\((\d{1,5})\)/.exec(q.slice(i));
      if (!m) return `malformed ring bond '%' at position ${i + 1}`;
      const label = `%${m[1] ?? m[2]}`;
      rings.set(label, (rings.get(label) ?? 0) + 1);
      i += m[0].length - 1;
    }
  }
  if (depth > 0) return "unclosed '('";
  for (const [label, count] of rings) if (count % 2) return `ring bond ${label} is not closed`;
  return null;
}

// ------------------------------------------------------------------ run time

export function chemPool(ctx: RunContext<unknown>): ChemPool {
  return ctx.deps.chem;
}

/** Throws JobAborted when the job was cancelled or hit its runtime limit. */
export function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof JobAborted ? signal.reason : new JobAborted('cancelled');
}

/** One molecule of a job's library. `index` is its position in the input (0-based). */
export interface LibraryItem {
  index: number;
  /** Inline: the index as a string; uploaded set: the record id (made unique within the job). */
  id: string;
  name?: string;
  /** The SMILES the job works on (an SDF molecule's SMILES, converted by RDKit). */
  smiles: string;
  /** The input as given when it was not a SMILES (a molblock). */
  original?: string;
  /** Why the molecule is not usable (a molblock RDKit could not read); set by loadLibrary. */
  error?: string;
}

export interface ItemError {
  index: number;
  id: string;
  smiles: string;
  error: string;
  message?: string;
}

/** Per-item errors: counts by code, and the first MAX_LISTED_ERRORS listed. */
export class ErrorLog {
  readonly counts: Record<string, number> = {};
  readonly listed: ItemError[] = [];
  total = 0;
  add(item: LibraryItem, error: string, message?: string): void {
    this.total++;
    this.counts[error] = (this.counts[error] ?? 0) + 1;
    if (this.listed.length < MAX_LISTED_ERRORS)
      this.listed.push({ index: item.index, id: item.id, smiles: clip(item.original ?? item.smiles), error, ...(message ? { message } : {}) });
  }
  /** Logs an item whose pool outcome has no value: its own error code (else `fallback`), or how the call failed. Returns the code. */
  failed(item: LibraryItem, out: ItemOutcome<{ error?: string | null }>, fallback = 'failed'): string {
    const code = out.ok ? (out.value.error ?? fallback) : failureCode(out);
    this.add(item, code, out.ok ? undefined : out.message);
    return code;
  }
  /** The counts of `codes` and, as `failed`, of every other error (result.json's summary). */
  breakdown(codes: readonly string[] = ['unparseable', 'too_large']): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of codes) out[c] = this.counts[c] ?? 0;
    out.failed = this.total - codes.reduce((sum, c) => sum + (this.counts[c] ?? 0), 0);
    return out;
  }
  toJSON() {
    return { errors: this.listed, errors_listed: this.listed.length, errors_total: this.total };
  }
}

export function clip(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The per-item error code of a pool outcome that did not return (timeout, crash). */
export function failureCode(o: ItemOutcome<unknown>): string {
  return o.ok ? 'failed' : o.failure === 'timeout' ? 'timeout' : 'failed';
}

/** Pool threads a job may use at once: its resource's vCPUs, at most the pool's threads. */
export function jobLanes(ctx: RunContext<unknown>, pool: ChemPool): number {
  return Math.max(1, Math.min(pool.threads, ctx.resource.vcpu));
}

/** Items per pool call: enough to keep the job's threads busy, few enough that cancel and API requests are not held up. */
function chunkSize(pool: ChemPool, lanes: number): number {
  return Math.max(8, lanes * pool.maxBatch * 2);
}

/** The pool's outcome for item k; it returns one per item, in order. */
function outcomeAt<O>(outs: readonly O[], k: number): O {
  const out = outs[k];
  if (out === undefined) throw new Error(`the chem pool returned ${outs.length} outcomes; item ${k} has none`);
  return out;
}

/**
 * Runs items of a kind in chunks, with a cancel check before each, calling `each` in input
 * order. Items that are not usable (a molblock RDKit could not read) are not run: `each` gets
 * null for them.
 */
export async function runChunks<K extends TaskKind, T extends LibraryItem>(
  ctx: RunContext<unknown>,
  pool: ChemPool,
  kind: K,
  items: T[],
  input: (t: T) => KindInput<K>,
  options: KindOptions<K>,
  each: (t: T, out: ItemOutcome<KindOutput<K>> | null) => void | Promise<void>,
  progress?: (done: number) => void,
): Promise<void> {
  const lanes = jobLanes(ctx, pool);
  const size = chunkSize(pool, lanes);
  for (let at = 0; at < items.length; at += size) {
    checkAborted(ctx.signal);
    const chunk = items.slice(at, at + size);
    const run = chunk.filter(usable);
    const outs = run.length ? await pool.runItems(kind, run.map(input), options, lanes) : [];
    checkAborted(ctx.signal);
    let k = 0;
    for (const t of chunk) await each(t, usable(t) ? outcomeAt(outs, k++) : null);
    progress?.(at + chunk.length);
  }
}

/** A job's molecules (loadLibrary), with the log of their per-item errors. */
export interface Library {
  items: LibraryItem[];
  errors: ErrorLog;
  /**
   * Runs `kind` on every molecule's SMILES on the chemistry pool (runChunks), with progress
   * `label` from 5% to 95% of the job (or from `from` to `to`): `each` gets each molecule in input
   * order with its outcome, null for a molecule that could not be read.
   */
  run<K extends TaskKind>(
    kind: K,
    options: KindOptions<K>,
    progress: string | { label: string; from: number; to: number },
    each: (t: LibraryItem, out: ItemOutcome<KindOutput<K>> | null) => void | Promise<void>,
  ): Promise<void>;
}

/**
 * The job's molecules, in input order: the inline list, or the uploaded set read through
 * ctx.readMolecules (SDF molblocks converted to SMILES on the pool), with the log of the job's
 * per-item errors (those converting molblocks first). A set that is gone or is no molecule set
 * by now is the user's input problem (JobInputError).
 */
export async function loadLibrary(ctx: RunContext<LibraryPayload>, share = 0.05): Promise<Library> {
  const pool = chemPool(ctx);
  const errors = new ErrorLog();
  const items = await readLibrary(ctx, pool, errors, share);
  return {
    items,
    errors,
    run: (kind, options, progress, each) => {
      const { label, from, to } = typeof progress === 'string' ? { label: progress, from: 0.05, to: 0.95 } : progress;
      return runChunks(ctx, pool, kind, items, (t) => t.smiles, options, each, phase(ctx, items.length, from, to, label));
    },
  };
}

async function readLibrary(ctx: RunContext<LibraryPayload>, pool: ChemPool, errors: ErrorLog, share: number): Promise<LibraryItem[]> {
  const p = ctx.payload;
  if (p.smiles) return p.smiles.map((smiles, index) => ({ index, id: String(index), smiles }));
  const items: LibraryItem[] = [];
  const ids = new Set<string>();
  let molblocks: LibraryItem[] = [];
  const convert = async () => {
    const batch = molblocks;
    molblocks = [];
    checkAborted(ctx.signal);
    const outs = await pool.runItems(
      'mol_smiles',
      batch.map((t) => t.original!),
      {},
      jobLanes(ctx, pool),
    );
    batch.forEach((t, k) => {
      const out = outcomeAt(outs, k);
      if (out.ok && out.value.smiles) t.smiles = out.value.smiles;
      else {
        t.error = out.ok ? (out.value.error ?? 'failed') : failureCode(out);
        errors.add(t, t.error);
      }
    });
  };
  ctx.progress(0, 'reading the molecule set');
  try {
    let index = 0;
    for await (const m of ctx.readMolecules(p.input_artifact_id!, p.port)) {
      let id = m.id || String(index);
      for (let k = 2; ids.has(id); k++) id = suffixedRecordId(m.id || String(index), `~${k}`);
      ids.add(id);
      const item: LibraryItem = { index: index++, id, smiles: m.smiles, ...(m.name ? { name: m.name } : {}) };
      if (isMolblock(m.smiles)) {
        item.original = m.smiles;
        item.smiles = '';
        molblocks.push(item);
        if (molblocks.length >= 1000) await convert();
      }
      items.push(item);
      if (index > MAX_MOLECULES) throw new JobInputError(`artifact ${p.input_artifact_id} holds more than ${MAX_MOLECULES} molecules`);
      if (index % 1000 === 0) {
        checkAborted(ctx.signal);
        ctx.progress(0, `reading the molecule set: ${index} molecules`);
      }
    }
    await convert();
  } catch (err) {
    if (err instanceof AppError) throw new JobInputError(`input_artifact_id: ${err.message}`);
    throw err;
  }
  ctx.progress(share, `read ${items.length} molecules`);
  return items;
}

/** Whether an item is usable (a molblock that could not be converted is not; its error is logged already). */
export function usable(item: LibraryItem): boolean {
  return item.error === undefined;
}

/** Progress over the main phase, from `from` to `to` of the whole job. */
export function phase(ctx: RunContext<unknown>, total: number, from: number, to: number, label: string): (done: number) => void {
  return (done) => ctx.progress(from + ((to - from) * done) / Math.max(1, total), `${label}: ${done} of ${total}`);
}

/** A molecule set port (docs/jobs.md): one SMILES record per molecule, usable as a later job's input_artifact_id. */
export function moleculeSet(records: OutputRecord[]) {
  return { format: 'smiles', kind: 'molecules', records };
}

/** A molecule's record of a molecule set: its SMILES line (SMILES and name), its metrics and any more files. */
export function smilesRecord(m: { id: string; name?: string; smiles: string }, metrics: Record<string, number>, more: OutputRecord['files'] = {}): OutputRecord {
  return {
    id: m.id,
    files: { primary: { name: 'molecule.smi', content: `${m.smiles}\t${m.name ?? m.id}\n`, contentType: 'chemical/x-daylight-smiles' }, ...more },
    metrics,
  };
}

/** The `input` block of result.json. */
export function inputSummary(p: LibraryPayload, n: number) {
  return p.smiles ? { source: 'smiles', molecules: n } : { source: 'artifact', artifact_id: p.input_artifact_id, ...(p.port ? { port: p.port } : {}), molecules: n };
}

// ------------------------------------------------------------------ spool

const SPOOL_DIR = path.join(os.tmpdir(), 'crucible-job-spool');
/** Output held in memory up to this many characters of JSON lines; beyond it, all of it goes to the file. */
const SPOOL_MEMORY_CHARS = 1024 * 1024;

/**
 * Per-molecule output as JSON lines, so that a job over 100,000 molecules does not hold its
 * output in memory: kept in memory while small (up to SPOOL_MEMORY_CHARS: a small job makes no
 * file at all, which cost about a millisecond of the main thread per job in open, write, read
 * and delete), then in a temporary file. `records()` streams it back once (for the result
 * artifact) and deletes the file; the file is also deleted when the job is aborted.
 */
export class Spool<T> {
  private out: fs.WriteStream | null = null;
  /** The lines while the output is small (null once it went to the file). */
  private lines: string[] | null = [];
  private chars = 0;
  private count = 0;
  private closed = false;

  private constructor(
    private readonly file: string,
    signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.discard(), { once: true });
  }

  static create<T>(signal: AbortSignal): Spool<T> {
    return new Spool<T>(path.join(SPOOL_DIR, `${process.pid}-${crypto.randomBytes(8).toString('hex')}.jsonl`), signal);
  }

  get size(): number {
    return this.count;
  }

  async write(v: T): Promise<void> {
    this.count++;
    const line = `${JSON.stringify(v)}\n`;
    if (this.lines) {
      this.lines.push(line);
      this.chars += line.length;
      if (this.chars <= SPOOL_MEMORY_CHARS) return;
      // Too large for memory: everything so far, and what follows, goes to the file.
      fs.mkdirSync(SPOOL_DIR, { recursive: true, mode: 0o700 });
      this.out = fs.createWriteStream(this.file, { flags: 'wx', mode: 0o600 });
      this.out.on('error', () => undefined);
      const held = this.lines.join('');
      this.lines = null;
      return this.put(held);
    }
    return this.put(line);
  }

  private async put(text: string): Promise<void> {
    const out = this.out!;
    if (!out.write(text))
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => {
          out.off('drain', done);
          out.off('error', done);
          if (err) reject(err);
          else resolve();
        };
        out.on('drain', done);
        out.on('error', done);
      });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const out = this.out;
    if (out) await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  /** Streams the values back, then deletes the file. */
  async *read(): AsyncGenerator<T> {
    await this.close();
    try {
      if (this.lines) {
        for (const line of this.lines) yield JSON.parse(line) as T;
        return;
      }
      const rl = readline.createInterface({ input: fs.createReadStream(this.file), crlfDelay: Infinity });
      for await (const line of rl) if (line) yield JSON.parse(line) as T;
    } finally {
      this.discard();
    }
  }

  discard(): void {
    if (!this.closed) {
      this.closed = true;
      this.out?.destroy();
    }
    this.lines = this.lines && [];
    if (this.out) fs.rm(this.file, { force: true }, () => undefined);
  }
}

/** Maps an async iterable lazily. */
export async function* mapAsync<T, U>(src: AsyncIterable<T>, f: (t: T) => U | null): AsyncGenerator<U> {
  for await (const t of src) {
    const u = f(t);
    if (u !== null) yield u;
  }
}

/** A value of a CSV cell (absent values are empty cells). */
export type CsvValue = string | number | boolean | null | undefined;

/** RFC 4180 CSV field. */
export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
