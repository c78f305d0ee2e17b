// The inputs of a docking job (docs/engines.md, "Docking"): the payload's
// rules beyond its schema, the receptor (an uploaded PDB file or an RCSB PDB entry), the box (given,
// or around an uploaded reference ligand) and the estimate. At submit the receptor and the box are
// checked (422 for a file that is not a protein, a box that misses it or passes 126 A; 413 for a
// receptor over 50 MB; 422 for a PDB ID RCSB PDB does not have); at run the same problems are
// job errors (JobInputError). The files are read in the receptor reader's thread, never on the
// event loop (src/engines/docking/receptor-reader.ts).
import { AppError, invalid } from '../../../errors.js';
import { JobInputError, type Estimate, type EstimateContext, type RunContext } from '../../job-type.js';
import type { JobPdbFile, JobPdbFiles } from '../../ports.js';
import { OVERHEAD_SEC, SAFETY } from './calibration.js';
import type { StructurePayload } from './payload.js';
import { AUTO_SITE, ITS_LIGAND, MAX_BOX_SIDE } from '../../../engines/docking/box.js';
import { pocketsOfFile } from './pockets.js';
import { MAX_RECEPTOR_BYTES, ReceptorProblem, type Box, type ReceptorSummary } from '../../../engines/docking/receptor.js';
import { readReceptorOffLoop, referenceBoxOffLoop, type FileSource } from '../../../engines/docking/receptor-reader.js';

export { MAX_BOX_SIDE };
/** Ligands one job docks (a larger library goes through a workflow, in parts). */
export const MAX_LIGANDS = 1_000;
export const DEFAULT_SEED = 42;
export const DEFAULT_PADDING = 4;

export interface DockingPayload extends StructurePayload {
  receptor_artifact_id?: string;
  pdb_id?: string;
  keep_hetero?: string[];
  box?: { center: number[]; size: number[] };
  reference_ligand_artifact_id?: string;
  box_site?: string;
  padding?: number;
  exhaustiveness?: number;
  num_modes?: number;
  seed?: number;
  ph?: number | null;
}

/** A job's receptor: an uploaded PDB file or an RCSB PDB entry (docking, pockets). */
export interface ReceptorPayload {
  receptor_artifact_id?: string;
  pdb_id?: string;
}

/** Exactly one of receptor_artifact_id and pdb_id. */
export function checkReceptorPayload(p: ReceptorPayload): void {
  if (p.receptor_artifact_id === undefined && p.pdb_id === undefined)
    throw invalid(['receptor_artifact_id'], 'Field required: give the receptor as receptor_artifact_id (an uploaded PDB file) or pdb_id', null, 'missing');
  if (p.receptor_artifact_id !== undefined && p.pdb_id !== undefined) throw invalid(['pdb_id'], 'Give either receptor_artifact_id or pdb_id, not both', p.pdb_id);
}

/** Exactly one receptor and one box; padding only with a reference ligand; at most 1,000 inline ligands. */
export function checkDockingPayload(p: DockingPayload): void {
  checkReceptorPayload(p);
  const boxes = (['box', 'reference_ligand_artifact_id', 'box_site'] as const).filter((k) => p[k] !== undefined);
  if (boxes.length === 0)
    throw invalid(
      ['box'],
      'Field required: give the box as {center, size}, or reference_ligand_artifact_id (an uploaded ligand pose) or box_site (a hetero group of the receptor, or "auto": the best pocket) with padding',
      null,
      'missing',
    );
  if (boxes.length > 1) throw invalid([boxes[1]!], `Give one of box, reference_ligand_artifact_id and box_site, not ${boxes.join(' and ')}`, p[boxes[1]!]);
  if (p.padding !== undefined && p.box_site === AUTO_SITE)
    throw invalid(['padding'], 'padding applies to reference_ligand_artifact_id and box_site as a hetero group, not to box_site "auto" (a pocket\'s box is its own)', p.padding);
  if (p.padding !== undefined && p.box !== undefined) throw invalid(['padding'], 'padding applies to reference_ligand_artifact_id and box_site only', p.padding);
  if (p.molecules && p.molecules.length > MAX_LIGANDS)
    throw invalid(
      ['molecules'],
      `one docking job takes at most ${MAX_LIGANDS} ligands, not ${p.molecules.length}: dock a larger library through a workflow, in parts of at most ${MAX_LIGANDS} (one docking step per part; docs/workflows.md)`,
      p.molecules.length,
      'too_long',
    );
}

export interface ReceptorInput {
  sha256: string;
  info: ReceptorSummary;
  source: Record<string, unknown>;
}

/** Submit: a pdb_id RCSB PDB cannot give, as the API answers it. */
function pdbError(a: Exclude<JobPdbFile, { status: 'found' }>): AppError {
  if (a.status === 'not_found' || a.status === 'invalid_query')
    return invalid(['pdb_id'], `PDB entry ${a.pdb_id} was not found at RCSB PDB (or it has no PDB-format file)`, a.pdb_id, 'not_found');
  if (a.status === 'disabled')
    return new AppError('source-disabled', `pdb_id needs the rcsb lookup source, which is disabled on this server; upload the receptor as a PDB file (receptor_artifact_id)`);
  return new AppError(
    'unavailable',
    `RCSB PDB could not be reached for ${a.pdb_id} (${'detail' in a ? a.detail : a.status}); try again later, or upload the receptor as a PDB file (receptor_artifact_id)`,
    { retry: 'upstream' },
  );
}

async function fetchPdb(pdb: JobPdbFiles | undefined, id: string): Promise<Extract<JobPdbFile, { status: 'found' }> | Exclude<JobPdbFile, { status: 'found' }>> {
  if (!pdb) return { status: 'disabled', pdb_id: id.toUpperCase(), detail: 'no PDB file source on this server' };
  return pdb.fetch(id);
}

type BoxField = 'box' | 'reference_ligand_artifact_id' | 'box_site';

/** A problem of the inputs, at the payload field it is about. */
class InputProblem extends Error {
  constructor(
    readonly field: 'receptor' | BoxField,
    message: string,
  ) {
    super(message);
  }
}

interface Files {
  /** The receptor's file and its source fields, or null when it cannot be read here (a workflow's check). */
  receptor: { file: FileSource; source: Record<string, unknown> } | null;
  /** The reference ligand's file, a problem (too large), or null. */
  reference: FileSource | string | null;
}

/**
 * The receptor and the box, read in the reader's thread (receptor-reader.ts: never on the event
 * loop). Problems in the order a user fixes them: the receptor, the reference ligand, the site,
 * a box that misses the receptor; each an InputProblem at its field.
 */
async function readInputs(p: DockingPayload, files: Files, preparation: string | null): Promise<{ receptor: ReceptorInput | null; box: Box | null; site: string | null }> {
  const padding = p.padding ?? DEFAULT_PADDING;
  const reference = typeof files.reference === 'string' || files.reference === null ? files.reference : await referenceBoxOffLoop(files.reference, padding);
  const given: Box | null = p.box ? (p.box as Box) : typeof reference === 'object' ? reference : null;
  if (!files.receptor) {
    if (typeof reference === 'string') throw new InputProblem('reference_ligand_artifact_id', reference);
    return { receptor: null, box: given, site: null };
  }
  const keep = p.keep_hetero ?? [];
  const site = p.box_site === undefined || p.box_site === AUTO_SITE ? null : p.box_site;
  const r = await readReceptorOffLoop(files.receptor.file, { keep: [...keep], preparation, box: given, site, padding }).catch((err: unknown) => {
    throw err instanceof ReceptorProblem ? new InputProblem('receptor', err.message) : err;
  });
  if (typeof reference === 'string') throw new InputProblem('reference_ligand_artifact_id', reference);
  if (r.siteProblem) throw new InputProblem('box_site', r.siteProblem);
  const at: BoxField = p.box ? 'box' : p.box_site !== undefined ? 'box_site' : 'reference_ligand_artifact_id';
  if (r.miss) throw new InputProblem(at, r.miss);
  const receptor = { sha256: r.sha256, info: r.info, source: files.receptor.source };
  return { receptor, box: r.box, site: r.site };
}

const tooLarge = (what: string, size: number) => `the ${what} file is ${size} bytes; at most ${MAX_RECEPTOR_BYTES} bytes (50 MB)`;

/**
 * Submit: reads the receptor and the reference ligand (when the context can: a workflow's check
 * has no file access, and its step jobs are checked when they are submitted) and checks them.
 * `site` is the residue name the box is around (box_site, "ligand" resolved).
 */
export async function checkDockingInputs(
  p: DockingPayload & ReceptorPayload,
  ctx: EstimateContext,
): Promise<{ receptor: ReceptorInput | null; box: Box | null; site: string | null }> {
  const files: Files = { receptor: null, reference: null };
  if (p.pdb_id !== undefined && ctx.pdb) {
    const a = await fetchPdb(ctx.pdb, p.pdb_id);
    if (a.status !== 'found') throw pdbError(a);
    files.receptor = { file: a.text, source: { pdb_id: a.pdb_id } };
  } else if (p.receptor_artifact_id !== undefined && ctx.readFile) {
    const f = await ctx.readFile(p.receptor_artifact_id, MAX_RECEPTOR_BYTES);
    if (f.content === null)
      throw new AppError('payload-too-large', `the receptor file is ${f.size} bytes; a receptor may have at most ${MAX_RECEPTOR_BYTES} bytes (50 MB)`, {
        extra: { limit_bytes: MAX_RECEPTOR_BYTES, size_bytes: f.size },
      });
    files.receptor = { file: f.content, source: { artifact_id: p.receptor_artifact_id } };
  }
  if (p.reference_ligand_artifact_id !== undefined && ctx.readFile) {
    const f = await ctx.readFile(p.reference_ligand_artifact_id, MAX_RECEPTOR_BYTES);
    files.reference = f.content ?? `the reference ligand file is ${f.size} bytes`;
  }
  try {
    return await readInputs(p, files, null);
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    const field = err.field === 'receptor' ? (p.pdb_id !== undefined ? 'pdb_id' : 'receptor_artifact_id') : err.field;
    throw invalid([field], err.message, p[field] ?? null);
  }
}

/**
 * Run: the receptor and the box, their problems as job errors; the text Open Babel prepares is
 * written to `receptorPdb` (prepareReceptor's input).
 */
export async function dockingInputs(ctx: RunContext<DockingPayload>, receptorPdb: string): Promise<{ receptor: ReceptorInput; box: Box; boxSource: Record<string, unknown> }> {
  const p = ctx.payload;
  const read = await readAtRun(ctx, receptorPdb);
  const padding = p.padding ?? DEFAULT_PADDING;
  if (p.box_site === AUTO_SITE) {
    // "auto": the best pocket of the receptor as docked (docs/structure.md, "Pockets").
    ctx.progress(0.005, 'finding the pockets of the receptor');
    const search = await pocketsOfFile(receptorPdb, 1, ctx);
    const best = search.pockets[0];
    if (!best) throw new JobInputError('box_site "auto": the receptor has no pocket (no cluster of buried grid points); give a box or a box_site');
    const { rank, volume_a3, score, residues } = best;
    return {
      receptor: read.receptor!,
      box: { center: best.center, size: best.size },
      boxSource: { from: 'pockets', box_site: AUTO_SITE, pocket: { rank, volume_a3, score, residues } },
    };
  }
  const boxSource: Record<string, unknown> = p.box
    ? { from: 'payload' }
    : p.box_site !== undefined
      ? { from: 'site', box_site: read.site, ...(p.box_site === ITS_LIGAND ? { asked: ITS_LIGAND } : {}), padding }
      : { from: 'reference_ligand', reference_ligand_artifact_id: p.reference_ligand_artifact_id, padding };
  return { receptor: read.receptor!, box: read.box!, boxSource };
}

/** Run: the receptor alone (pockets), its problems as job errors; its text written to `receptorPdb`. */
export async function receptorAtRun(ctx: RunContext<ReceptorPayload>, receptorPdb: string): Promise<ReceptorInput> {
  return (await readAtRun(ctx, receptorPdb)).receptor!;
}

async function readAtRun(ctx: RunContext<DockingPayload>, receptorPdb: string) {
  const p = ctx.payload;
  const fail = (what: string, err: unknown): never => {
    throw new JobInputError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  };
  const files: Files = { receptor: null, reference: null };
  if (p.pdb_id !== undefined) {
    const a = await fetchPdb(ctx.deps.pdb, p.pdb_id);
    if (a.status !== 'found') throw new JobInputError(`the receptor ${p.pdb_id}: ${pdbError(a).message}`);
    files.receptor = { file: a.text, source: { pdb_id: a.pdb_id, source: a.source, url: a.url, license: a.license, attribution: a.attribution } };
  } else {
    const f = await ctx.readFile(p.receptor_artifact_id!, MAX_RECEPTOR_BYTES).catch((e: unknown) => fail('the receptor file cannot be read', e));
    if (f.content === null) throw new JobInputError(tooLarge('receptor', f.size));
    files.receptor = { file: f.content, source: { artifact_id: p.receptor_artifact_id } };
  }
  if (p.reference_ligand_artifact_id !== undefined) {
    const f = await ctx.readFile(p.reference_ligand_artifact_id, MAX_RECEPTOR_BYTES).catch((e: unknown) => fail('the reference ligand cannot be read', e));
    files.reference = f.content ?? tooLarge('reference ligand', f.size);
  }
  return readInputs(p, files, receptorPdb).catch((err: unknown) => {
    if (err instanceof InputProblem) throw new JobInputError(err.message);
    return fail('the receptor file cannot be read', err);
  });
}

// ------------------------------------------------------------------ the estimate

/**
 * Seconds of one Vina run: exhaustiveness x K x (heavy atoms + 10 x torsions)^2 on one thread,
 * divided among min(threads, exhaustiveness) threads (each Monte Carlo run is one thread's), plus
 * the grid (about proportional to the box volume). K is fitted to p59 into 5X72 (24 heavy atoms,
 * 2 torsions: 2.3 CPU s per unit of exhaustiveness) and imatinib into 1IEP (37, 7: 16 CPU s),
 * docs/engines.md, "Docking".
 */
export const VINA_K = 1.1e-3;
export const GRID_SEC_PER_A3 = 1e-5;
/** Receptor preparation (Open Babel, once per receptor and machine). */
export const RECEPTOR_SEC = 3;
/** A ligand's 3D build, protonation and PDBQT (Open Babel). */
export const LIGAND_PREP_SEC = 1;
/** Heavy atoms assumed for a ligand not read at submit (an uploaded set); torsions are assumed heavy / 5. */
export const ASSUMED_HEAVY = 30;

export function vinaSeconds(heavy: number, torsions: number, exhaustiveness: number, threads: number, volume: number): number {
  const oneThread = exhaustiveness * VINA_K * (heavy + 10 * torsions) ** 2;
  return oneThread / Math.max(1, Math.min(threads, exhaustiveness)) + GRID_SEC_PER_A3 * volume;
}

export function dockingEstimate(
  p: DockingPayload,
  n: number,
  heavy: number[],
  threads: number,
  box: Box | null,
  site: string | null = null,
  torsions: (number | null)[] = [],
): Estimate {
  const exh = p.exhaustiveness ?? 8;
  const volume = box ? box.size[0] * box.size[1] * box.size[2] : 20 ** 3;
  const sizes = heavy.length ? heavy : Array<number>(n).fill(ASSUMED_HEAVY);
  // Torsions: RDKit's rotatable bonds of an inline ligand (read at submit), else heavy atoms / 5.
  const torsionsOf = (h: number, k: number) => torsions[k] ?? Math.round(h / 5);
  const calc = sizes.reduce((t, h, k) => t + LIGAND_PREP_SEC + vinaSeconds(h, torsionsOf(h, k), exh, threads, volume), 0);
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + RECEPTOR_SEC + SAFETY * calc) * 1000) / 1000,
    assumptions: {
      ligands: n,
      heavy_atoms: heavy.length
        ? { min: Math.min(...heavy), max: Math.max(...heavy), total: heavy.reduce((a, b) => a + b, 0) }
        : `${ASSUMED_HEAVY} per ligand (an uploaded set is sized when it runs)`,
      torsions: torsions.length ? sizes.map((h, k) => torsionsOf(h, k)) : 'heavy atoms / 5',
      exhaustiveness: exh,
      threads,
      box_volume_a3: Math.round(volume),
      ...(box ? { box: { center: box.center, size: box.size, ...(site ? { box_site: site } : {}) } } : {}),
      model: `overhead + receptor + ${SAFETY} x ligands x (preparation + exhaustiveness x k x (heavy + 10 x torsions)^2 / min(threads, exhaustiveness) + grid) (docs/engines.md, "Docking")`,
    },
  };
}
