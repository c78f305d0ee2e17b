// Running a utility (docs/utilities.md): the molecules gathered (inline or from an uploaded
// set), the work done in the chemistry pool in chunks (progress between chunks, a stop
// honoured there), and one result document per tool with `items` in input order. Used by
// POST /utilities/run and by the asynchronous request's job; errors in the input are
// AppErrors located relative to the tool's `input`.
import { invalid, within } from '../../errors.js';
import type { ChemPool, ItemOutcome } from '../pool.js';
import type { KindInput, KindMap, KindOptions, KindOutput } from '../kinds.js';
import { MAX_ASYNC_MOLECULES, type ToolInput, type ToolName } from './schemas.js';
import type { FingerprintParams, InputFormat, ItemFailure } from './types.js';

export interface ToolContext {
  pool: ChemPool;
  /** The molecules of one of the caller's uploaded sets (AppErrors located relative to the artifact field). */
  readMolecules(artifactId: string, port?: string): AsyncIterable<{ smiles: string; id?: string; name?: string }>;
  signal?: AbortSignal;
  /** Called between chunks with the fraction done. */
  progress?(fraction: number, message: string): void;
  /** Most pool threads used at once (a job uses its resource's vCPUs). */
  parallel?: number;
}

/** Items per pool call: progress and a stop are seen between them. */
const CHUNK = 1000;

type Failure = { error: ItemFailure['error'] | 'failed'; detail: string };

/** A pool outcome's value, or the item's failure (a crash or timeout of the item is `failed`). */
function unwrap<T>(o: ItemOutcome<T>): { value: T; failure: null } | { value: null; failure: Failure } {
  return o.ok ? { value: o.value, failure: null } : { value: null, failure: { error: 'failed', detail: o.message } };
}

async function runChunked<K extends keyof KindMap>(
  ctx: ToolContext,
  kind: K,
  items: KindInput<K>[],
  options: KindOptions<K>,
  label: string,
  done = 0,
  total = items.length,
): Promise<ItemOutcome<KindOutput<K>>[]> {
  const out: ItemOutcome<KindOutput<K>>[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    ctx.signal?.throwIfAborted();
    out.push(...(await ctx.pool.runItems(kind, items.slice(i, i + CHUNK), options, ctx.parallel)));
    ctx.progress?.((done + out.length) / Math.max(1, total), `${label}: ${done + out.length} of ${total}`);
  }
  return out;
}

/** A molecule of an uploaded set: its record id and name (null when it has none). */
export interface MoleculeLabel {
  id: string;
  name: string | null;
}

/** The molecules to work on, and their set's ids and names (null for an inline list). */
export interface Gathered {
  molecules: string[];
  labels: MoleculeLabel[] | null;
}

/**
 * `molecules`, or the molecules of `input_artifact_id` (exactly one of the two) with their
 * record ids and names: every item of a result that comes from a set carries them
 * (docs/utilities.md, "Inputs").
 */
export async function gatherMolecules(
  ctx: ToolContext,
  input: { molecules?: string[]; input_artifact_id?: string; port?: string },
  field = 'molecules',
  artifactField = 'input_artifact_id',
): Promise<Gathered> {
  const inline = input.molecules;
  const artifact = input.input_artifact_id;
  if (inline && artifact) throw invalid(['input', artifactField], `Give ${field} or ${artifactField}, not both`, artifact);
  if (inline) return { molecules: inline, labels: null };
  if (!artifact) throw invalid(['input', field], `Field required (or give ${artifactField})`, null, 'missing');
  return within(['input'], async () => {
    const molecules: string[] = [];
    const labels: MoleculeLabel[] = [];
    for await (const m of ctx.readMolecules(artifact, input.port)) {
      if (molecules.length === MAX_ASYNC_MOLECULES)
        throw invalid([artifactField], `The set has more than ${MAX_ASYNC_MOLECULES} molecules, the most one request takes`, artifact, 'too_long');
      molecules.push(m.smiles);
      labels.push({ id: m.id ?? String(labels.length), name: m.name ?? null });
    }
    return { molecules, labels };
  });
}

/** The id and name of molecule `index` when it came from a set, to spread into its item. */
const labelOf = (labels: MoleculeLabel[] | null, index: number): MoleculeLabel | Record<string, never> => labels?.[index] ?? {};

const errorFields = (f: Failure | null) => ({ error: f?.error ?? null, detail: f?.detail ?? null });

function fingerprintParams(i: { type?: string; radius?: number; n_bits?: number; features?: boolean; input_format?: InputFormat }): FingerprintParams {
  if (i.features) throw invalid(['input', 'features'], 'Morgan feature invariants (FCFP) are not available in RDKit MinimalLib; leave features false', true);
  const type = (i.type ?? 'morgan') as FingerprintParams['type'];
  return { type, radius: i.radius ?? 2, nBits: type === 'maccs' ? 167 : (i.n_bits ?? 2048), inputFormat: i.input_format ?? 'auto' };
}

/** The on-bit indices of a packed fingerprint (bit i is bit i & 7 of byte i >> 3), ascending; zero bytes are skipped. */
export function onBits(fp: Uint8Array, nBits: number): number[] {
  const on: number[] = [];
  const bytes = Math.min(fp.length, (nBits + 7) >> 3);
  for (let b = 0; b < bytes; b++) {
    let v = fp[b]!;
    while (v !== 0) {
      const low = v & -v;
      const i = (b << 3) + 31 - Math.clz32(low);
      if (i < nBits) on.push(i);
      v ^= low;
    }
  }
  return on;
}

function encodeFp(fp: Uint8Array, format: 'bits' | 'hex' | 'base64', on: number[]): number[] | string {
  if (format === 'hex') return Buffer.from(fp.buffer, fp.byteOffset, fp.byteLength).toString('hex');
  if (format === 'base64') return Buffer.from(fp.buffer, fp.byteOffset, fp.byteLength).toString('base64');
  return on;
}

async function convertTool(ctx: ToolContext, input: ToolInput<'convert'>) {
  const { molecules, labels } = await gatherMolecules(ctx, input);
  const outputs = input.outputs ?? ['smiles', 'inchi', 'inchikey'];
  const res = await runChunked(ctx, 'utility_convert', molecules, { inputFormat: input.input_format ?? 'auto', outputs }, 'converted');
  const items = res.map((o, index) => {
    const r = unwrap(o);
    const failure = r.failure ?? r.value?.failure ?? null;
    const values = r.value?.values ?? Object.fromEntries(outputs.map((k) => [k, null]));
    return { index, ...labelOf(labels, index), ...values, ...errorFields(failure) };
  });
  return { outputs, items, counts: counts(items) };
}

function counts(items: { error: unknown }[]) {
  const failed = items.filter((i) => i.error !== null).length;
  return { molecules: items.length, ok: items.length - failed, failed };
}

async function fingerprintsTool(ctx: ToolContext, input: ToolInput<'fingerprints'>) {
  const params = fingerprintParams(input);
  const format = input.format ?? 'bits';
  const { molecules, labels } = await gatherMolecules(ctx, input);
  const res = await runChunked(ctx, 'utility_fingerprint', molecules, params, 'fingerprinted');
  const items = res.map((o, index) => {
    const r = unwrap(o);
    const failure = r.failure ?? r.value?.failure ?? null;
    const fp = r.value?.fp ?? null;
    const on = fp ? onBits(fp, params.nBits) : null;
    return {
      index,
      ...labelOf(labels, index),
      fingerprint: fp && on ? encodeFp(fp, format, on) : null,
      on_bits: on ? on.length : null,
      ...errorFields(failure),
    };
  });
  return { fingerprint: describeFp(params), format, items, counts: counts(items) };
}

function describeFp(p: FingerprintParams) {
  return { type: p.type, ...(p.type === 'morgan' ? { radius: p.radius } : {}), n_bits: p.nBits };
}

async function similarityTool(ctx: ToolContext, input: ToolInput<'similarity'>) {
  const params = fingerprintParams(input);
  const { molecules: library, labels } = await gatherMolecules(
    ctx,
    { molecules: input.library, input_artifact_id: input.library_artifact_id, port: input.port },
    'library',
    'library_artifact_id',
  );
  const total = library.length + input.queries.length * 2;
  const libFps = await runChunked(ctx, 'utility_fingerprint', library, params, 'library fingerprinted', 0, total);
  const queryFps = await runChunked(ctx, 'utility_fingerprint', input.queries, params, 'queries fingerprinted', library.length, total);
  const fps = libFps.map((o) => (o.ok ? o.value.fp : null));
  const libraryErrors = libFps.flatMap((o, index) => {
    const r = unwrap(o);
    const f = r.failure ?? r.value?.failure ?? null;
    return f ? [{ index, ...labelOf(labels, index), ...errorFields(f) }] : [];
  });
  const searchable = queryFps.map((o) => (o.ok && o.value.fp ? o.value.fp : new Uint8Array(0)));
  const options = { library: fps, metric: input.metric ?? 'tanimoto', threshold: input.threshold ?? 0, topK: input.top_k ?? 10 };
  const found = await runChunked(ctx, 'utility_similarity', searchable, options, 'queries searched', library.length + input.queries.length, total);
  const items = queryFps.map((o, index) => {
    const q = unwrap(o);
    const failure = q.failure ?? q.value?.failure ?? null;
    const s = failure ? null : unwrap(found[index]!);
    const bad = failure ?? s?.failure ?? null;
    return {
      index,
      query: input.queries[index]!,
      // Each hit names its library molecule: the SMILES as given, and a set's record id and name.
      hits: bad ? null : (s?.value?.hits ?? []).map((h) => ({ index: h.index, ...labelOf(labels, h.index), smiles: library[h.index]!, score: h.score })),
      above_threshold: bad ? null : (s?.value?.above ?? 0),
      ...errorFields(bad),
    };
  });
  return {
    fingerprint: describeFp(params),
    metric: options.metric,
    threshold: options.threshold,
    top_k: options.topK,
    library_size: library.length,
    library_errors: libraryErrors,
    items,
    counts: counts(items),
  };
}

async function substructureTool(ctx: ToolContext, input: ToolInput<'substructure'>) {
  const { molecules, labels } = await gatherMolecules(ctx, input);
  const check = unwrap(await ctx.pool.run('utility_query', input.query, { format: input.query_format ?? 'auto' }));
  const format = check.value?.format;
  if (!format) throw invalid(['input', 'query'], check.value?.detail ?? check.failure?.detail ?? 'RDKit cannot read the query', input.query, 'smarts_parsing');
  const options = {
    query: input.query,
    queryFormat: format,
    useChirality: input.use_chirality ?? false,
    maxMatches: input.max_matches ?? 1000,
    svg: input.svg ?? false,
    inputFormat: input.input_format ?? 'auto',
  };
  const res = await runChunked(ctx, 'utility_substructure', molecules, options, 'matched');
  const items = res.map((o, index) => {
    const r = unwrap(o);
    const failure = r.failure ?? r.value?.failure ?? null;
    const v = failure ? null : r.value;
    return {
      index,
      ...labelOf(labels, index),
      matched: v?.matched ?? false,
      matches: v?.matches ?? null,
      ...(options.svg ? { svg: v?.svg ?? null } : {}),
      ...errorFields(failure),
    };
  });
  return { query: input.query, query_format: format, matched: items.filter((i) => i.matched).length, items, counts: counts(items) };
}

async function mcsTool(ctx: ToolContext, input: ToolInput<'mcs'>) {
  if (input.molecules.length < 2) throw invalid(['input', 'molecules'], 'List should have at least 2 items', input.molecules, 'too_short');
  const r = unwrap(
    await ctx.pool.run(
      'utility_mcs',
      {
        molecules: input.molecules,
        inputFormat: input.input_format ?? 'auto',
        timeoutSec: input.timeout_sec ?? 2,
        atomCompare: input.atom_compare ?? 'elements',
        bondCompare: input.bond_compare ?? 'order',
        ringMatchesRingOnly: input.ring_matches_ring_only ?? false,
        completeRingsOnly: input.complete_rings_only ?? false,
        matchValences: input.match_valences ?? false,
        matchChiralTag: input.match_chiral_tag ?? false,
      },
      {},
    ),
  );
  if (!r.value) throw new Error(`the MCS search failed: ${r.failure.detail}`);
  const v = r.value;
  const items = v.items.map((it, index) => ({ index, atoms: it.atoms, ...errorFields(it.failure) }));
  return { smarts: v.smarts, num_atoms: v.numAtoms, num_bonds: v.numBonds, timed_out: v.timedOut, items, counts: counts(items) };
}

async function rgroupsTool(ctx: ToolContext, input: ToolInput<'rgroups'>) {
  const r = unwrap(
    await ctx.pool.run(
      'utility_rgroups',
      { cores: input.cores, molecules: input.molecules, inputFormat: input.input_format ?? 'auto', onlyMatchAtRGroups: input.only_match_at_rgroups ?? false },
      {},
    ),
  );
  if (!r.value) throw new Error(`the R-group decomposition failed: ${r.failure.detail}`);
  const v = r.value;
  if (v.badCore) throw invalid(['input', 'cores', v.badCore.index], v.badCore.detail, input.cores[v.badCore.index], 'smarts_parsing');
  const items = v.items.map((it, index) => ({ index, matched: it.matched, core: it.core, rgroups: it.rgroups, ...errorFields(it.failure) }));
  return { columns: v.columns, items, unmatched: items.filter((i) => !i.matched && i.error === null).map((i) => i.index), counts: counts(items) };
}

const TOOLS: { [T in ToolName]: (ctx: ToolContext, input: ToolInput<T>) => Promise<Record<string, unknown>> } = {
  convert: convertTool,
  fingerprints: fingerprintsTool,
  similarity: similarityTool,
  substructure: substructureTool,
  mcs: mcsTool,
  rgroups: rgroupsTool,
};

/**
 * The input problems a request can be refused for before any work (so that an asynchronous
 * request does not fail later for them): both or neither of a list and its artifact, an
 * unavailable fingerprint option, a query or core that RDKit cannot read.
 */
export async function precheckTool(ctx: ToolContext, tool: ToolName, input: ToolInput<ToolName>): Promise<void> {
  const i = input as { molecules?: string[]; input_artifact_id?: string; library?: string[]; library_artifact_id?: string; features?: boolean };
  const either = (list: string, artifact: string) => {
    const has = (k: string) => (i as Record<string, unknown>)[k] !== undefined;
    if (has(list) && has(artifact)) throw invalid(['input', artifact], `Give ${list} or ${artifact}, not both`, (i as Record<string, unknown>)[artifact]);
    if (!has(list) && !has(artifact)) throw invalid(['input', list], `Field required (or give ${artifact})`, null, 'missing');
  };
  if (tool === 'similarity') either('library', 'library_artifact_id');
  else if (tool !== 'mcs' && tool !== 'rgroups') either('molecules', 'input_artifact_id');
  if (tool === 'fingerprints' || tool === 'similarity') fingerprintParams(i);
  if (tool === 'substructure') {
    const s = input as ToolInput<'substructure'>;
    const check = unwrap(await ctx.pool.run('utility_query', s.query, { format: s.query_format ?? 'auto' }));
    if (!check.value?.format) throw invalid(['input', 'query'], check.value?.detail ?? check.failure?.detail ?? 'RDKit cannot read the query', s.query, 'smarts_parsing');
  }
  if (tool === 'rgroups') {
    const cores = (input as ToolInput<'rgroups'>).cores;
    const checks = await ctx.pool.runItems('utility_query', cores, { format: 'auto' });
    const bad = checks.findIndex((o) => !o.ok || !o.value.format);
    if (bad >= 0) throw invalid(['input', 'cores', bad], 'RDKit cannot read the core as SMARTS or SMILES', cores[bad], 'smarts_parsing');
  }
}

/** Runs a tool on a validated input (its schema's defaults applied or not). */
export function runTool<T extends ToolName>(ctx: ToolContext, tool: T, input: ToolInput<T>): Promise<Record<string, unknown>> {
  return TOOLS[tool](ctx, input);
}
