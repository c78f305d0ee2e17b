// The inputs of a docking job (docs/engines.md, "Docking"; contract section 13): the payload's
// rules beyond its schema, the receptor (an uploaded PDB file or an RCSB PDB entry), the box (given,
// or around an uploaded reference ligand) and the estimate. At submit the receptor and the box are
// checked (422 for a file that is not a protein, a box that misses it or passes 126 A; 413 for a
// receptor over 50 MB; 422 for a PDB ID RCSB PDB does not have); at run the same problems are
// job errors (JobInputError).
import { AppError, invalid } from '../../../errors.js';
import { JobInputError, type Estimate, type EstimateContext, type RunContext } from '../../job-type.js';
import type { JobPdbFile, JobPdbFiles } from '../../ports.js';
import { OVERHEAD_SEC, SAFETY } from './calibration.js';
import type { StructurePayload } from './payload.js';
import { atomsInBox, extentOf, MAX_RECEPTOR_BYTES, readReceptor, ReceptorProblem, sha256, type Box, type ReceptorInfo } from './receptor.js';

/** A box side may be at most this long (AutoDock's grid limit the contract keeps). */
export const MAX_BOX_SIDE = 126;
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

/** Exactly one receptor and one box; padding only with a reference ligand; at most 1,000 inline ligands. */
export function checkDockingPayload(p: DockingPayload): void {
  if (p.receptor_artifact_id === undefined && p.pdb_id === undefined)
    throw invalid(['receptor_artifact_id'], 'Field required: give the receptor as receptor_artifact_id (an uploaded PDB file) or pdb_id', null, 'missing');
  if (p.receptor_artifact_id !== undefined && p.pdb_id !== undefined) throw invalid(['pdb_id'], 'Give either receptor_artifact_id or pdb_id, not both', p.pdb_id);
  const boxes = (['box', 'reference_ligand_artifact_id', 'box_site'] as const).filter((k) => p[k] !== undefined);
  if (boxes.length === 0)
    throw invalid(
      ['box'],
      'Field required: give the box as {center, size}, or reference_ligand_artifact_id (an uploaded ligand pose) or box_site (a hetero group of the receptor) with padding',
      null,
      'missing',
    );
  if (boxes.length > 1) throw invalid([boxes[1]!], `Give one of box, reference_ligand_artifact_id and box_site, not ${boxes.join(' and ')}`, p[boxes[1]!]);
  if (p.padding !== undefined && p.box !== undefined) throw invalid(['padding'], 'padding applies to reference_ligand_artifact_id and box_site only', p.padding);
  if (p.molecules && p.molecules.length > MAX_LIGANDS)
    throw invalid(
      ['molecules'],
      `one docking job takes at most ${MAX_LIGANDS} ligands, not ${p.molecules.length}: dock a larger library through a workflow, in parts of at most ${MAX_LIGANDS} (one docking step per part; docs/workflows.md)`,
      p.molecules.length,
      'too_long',
    );
}

/** The heavy atoms' coordinates of a ligand file: SDF/MOL (V2000, V3000), MOL2 or PDB. */
export function ligandCoords(text: string): [number, number, number][] {
  const out: [number, number, number][] = [];
  const lines = text.replace(/\r/g, '').split('\n');
  const push = (el: string, x: number, y: number, z: number) => {
    if (!/^(H|D)$/i.test(el) && [x, y, z].every(Number.isFinite)) out.push([x, y, z]);
  };
  // A molfile's counts line: the fourth line, "aaabbb..." (V2000, which some writers leave unsaid).
  const v2000 = /^[ \d]{3}[ \d]{3}/.test(lines[3] ?? '') && !/V3000/.test(lines[3]!) && Number(lines[3]!.slice(0, 3)) > 0 ? 3 : -1;
  if (v2000 >= 0) {
    const n = Number(lines[v2000]!.slice(0, 3));
    for (const l of lines.slice(v2000 + 1, v2000 + 1 + n)) push(l.slice(31, 34).trim(), Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30)));
    return out;
  }
  if (lines.some((l) => l.startsWith('M  V30 BEGIN ATOM'))) {
    let on = false;
    for (const l of lines) {
      if (l.startsWith('M  V30 BEGIN ATOM')) on = true;
      else if (l.startsWith('M  V30 END ATOM')) break;
      else if (on) {
        const t = l.slice(7).trim().split(/\s+/);
        push(t[1] ?? '', Number(t[2]), Number(t[3]), Number(t[4]));
      }
    }
    return out;
  }
  const mol2 = lines.findIndex((l) => l.startsWith('@<TRIPOS>ATOM'));
  if (mol2 >= 0) {
    for (const l of lines.slice(mol2 + 1)) {
      if (l.startsWith('@<TRIPOS>')) break;
      const t = l.trim().split(/\s+/);
      if (t.length >= 6) push((t[5] ?? '').split('.')[0]!, Number(t[2]), Number(t[3]), Number(t[4]));
    }
    return out;
  }
  for (const l of lines) {
    if (!l.startsWith('ATOM  ') && !l.startsWith('HETATM')) continue;
    const el = l.slice(76, 78).trim() || l.slice(12, 14).trim();
    push(el, Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54)));
  }
  return out;
}

/** The box around a ligand: the extent of its heavy atoms plus `padding` on every side. */
export function boxAround(coords: [number, number, number][], padding: number): Box {
  const min = [0, 1, 2].map((k) => Math.min(...coords.map((c) => c[k]!)));
  const max = [0, 1, 2].map((k) => Math.max(...coords.map((c) => c[k]!)));
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    center: [0, 1, 2].map((k) => r((min[k]! + max[k]!) / 2)) as Box['center'],
    size: [0, 1, 2].map((k) => r(Math.max(1, max[k]! - min[k]! + 2 * padding))) as Box['size'],
  };
}

/** The problem a reference ligand's text has, or its box. */
function referenceBox(text: string, padding: number): Box | string {
  const coords = ligandCoords(text);
  if (!coords.length) return 'the reference ligand has no atoms with coordinates: upload a pose as SDF, MOL, MOL2 or PDB';
  if (coords.length > 2 && coords.every((c) => Math.abs(c[2]) < 1e-4)) return 'the reference ligand is 2D (all z are 0): upload its 3D pose';
  return boundedBox(coords, padding, 'the reference ligand');
}

function boundedBox(coords: [number, number, number][], padding: number, what: string): Box | string {
  const box = boxAround(coords, padding);
  const big = box.size.findIndex((s) => s > MAX_BOX_SIDE);
  if (big >= 0) return `the box around ${what} would be ${box.size[big]} A along ${'xyz'[big]}; at most ${MAX_BOX_SIDE} A`;
  return box;
}

/** The box around a hetero group of the receptor (its first group of that residue name), or the problem. */
function siteBox(info: ReceptorInfo, site: string, padding: number): Box | string {
  const coords = info.sites.get(site.toUpperCase());
  if (!coords?.length) {
    const names = [...info.sites.keys()].filter((n) => n !== 'HOH');
    return `the receptor has no hetero group ${site.toUpperCase()} (${names.length ? `its hetero groups: ${names.join(', ')}` : 'it has no hetero groups'})`;
  }
  return boundedBox(coords, padding, `${site.toUpperCase()}`);
}

export interface ReceptorInput {
  text: string;
  sha256: string;
  info: ReceptorInfo;
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

/** The receptor read; a ReceptorProblem is a 422 at `where` (submit) or a JobInputError (run, `where` null). */
function receptorFrom(text: string, keep: readonly string[], source: Record<string, unknown>, where: string[] | null): ReceptorInput {
  try {
    return { text, sha256: sha256(text), info: readReceptor(text, keep), source };
  } catch (err) {
    if (!(err instanceof ReceptorProblem)) throw err;
    if (where) throw invalid(where, err.message, source.artifact_id ?? source.pdb_id ?? null);
    throw new JobInputError(err.message);
  }
}

function boxMissing(box: Box, info: ReceptorInfo): string | null {
  if (atomsInBox(info.coords, box) > 0) return null;
  const e = extentOf(info.coords);
  const span = [0, 1, 2].map((k) => `${'xyz'[k]} ${e.min[k]!.toFixed(1)}..${e.max[k]!.toFixed(1)}`).join(', ');
  return `the box (center ${box.center.join(', ')}, size ${box.size.join(', ')} A) holds no atom of the receptor, whose atoms span ${span} A`;
}

/**
 * Submit: reads the receptor and the reference ligand (when the context can: a workflow's check
 * has no file access, and its step jobs are checked when they are submitted) and checks them.
 */
export async function checkDockingInputs(p: DockingPayload, ctx: EstimateContext): Promise<{ receptor: ReceptorInput | null; box: Box | null }> {
  let receptor: ReceptorInput | null = null;
  if (p.pdb_id !== undefined && ctx.pdb) {
    const a = await fetchPdb(ctx.pdb, p.pdb_id);
    if (a.status !== 'found') throw pdbError(a);
    receptor = receptorFrom(a.text, p.keep_hetero ?? [], { pdb_id: a.pdb_id }, ['pdb_id']);
  } else if (p.receptor_artifact_id !== undefined && ctx.readFile) {
    const f = await ctx.readFile(p.receptor_artifact_id, MAX_RECEPTOR_BYTES);
    if (f.text === null)
      throw new AppError('payload-too-large', `the receptor file is ${f.size} bytes; a receptor may have at most ${MAX_RECEPTOR_BYTES} bytes (50 MB)`, {
        extra: { limit_bytes: MAX_RECEPTOR_BYTES, size_bytes: f.size },
      });
    receptor = receptorFrom(f.text, p.keep_hetero ?? [], { artifact_id: p.receptor_artifact_id }, ['receptor_artifact_id']);
  }
  let box: Box | null = p.box ? (p.box as Box) : null;
  if (p.reference_ligand_artifact_id !== undefined && ctx.readFile) {
    const f = await ctx.readFile(p.reference_ligand_artifact_id, MAX_RECEPTOR_BYTES);
    const b = f.text === null ? `the reference ligand file is ${f.size} bytes` : referenceBox(f.text, p.padding ?? DEFAULT_PADDING);
    if (typeof b === 'string') throw invalid(['reference_ligand_artifact_id'], b, p.reference_ligand_artifact_id);
    box = b;
  }
  if (p.box_site !== undefined && receptor) {
    const b = siteBox(receptor.info, p.box_site, p.padding ?? DEFAULT_PADDING);
    if (typeof b === 'string') throw invalid(['box_site'], b, p.box_site);
    box = b;
  }
  if (box && receptor) {
    const miss = boxMissing(box, receptor.info);
    const at = p.box ? 'box' : p.box_site !== undefined ? 'box_site' : 'reference_ligand_artifact_id';
    if (miss) throw invalid([at], miss, p[at]);
  }
  return { receptor, box };
}

/** Run: the receptor and the box, their problems as job errors. */
export async function dockingInputs(ctx: RunContext<DockingPayload>): Promise<{ receptor: ReceptorInput; box: Box; boxSource: Record<string, unknown> }> {
  const p = ctx.payload;
  const fail = (what: string, err: unknown): never => {
    throw new JobInputError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  };
  let receptor: ReceptorInput;
  if (p.pdb_id !== undefined) {
    const a = await fetchPdb(ctx.deps.pdb, p.pdb_id);
    if (a.status !== 'found') throw new JobInputError(`the receptor ${p.pdb_id}: ${pdbError(a).message}`);
    const source = { pdb_id: a.pdb_id, source: a.source, url: a.url, license: a.license, attribution: a.attribution };
    receptor = receptorFrom(a.text, p.keep_hetero ?? [], source, null);
  } else {
    const text = await ctx.readText(p.receptor_artifact_id!, MAX_RECEPTOR_BYTES).catch((e: unknown) => fail('the receptor file cannot be read', e));
    receptor = receptorFrom(text, p.keep_hetero ?? [], { artifact_id: p.receptor_artifact_id }, null);
  }
  let box: Box;
  let boxSource: Record<string, unknown>;
  if (p.box) {
    box = p.box as Box;
    boxSource = { from: 'payload' };
  } else if (p.box_site !== undefined) {
    const padding = p.padding ?? DEFAULT_PADDING;
    const b = siteBox(receptor.info, p.box_site, padding);
    if (typeof b === 'string') throw new JobInputError(b);
    box = b;
    boxSource = { from: 'site', box_site: p.box_site.toUpperCase(), padding };
  } else {
    const text = await ctx.readText(p.reference_ligand_artifact_id!, MAX_RECEPTOR_BYTES).catch((e: unknown) => fail('the reference ligand cannot be read', e));
    const padding = p.padding ?? DEFAULT_PADDING;
    const b = referenceBox(text, padding);
    if (typeof b === 'string') throw new JobInputError(b);
    box = b;
    boxSource = { from: 'reference_ligand', reference_ligand_artifact_id: p.reference_ligand_artifact_id, padding };
  }
  const miss = boxMissing(box, receptor.info);
  if (miss) throw new JobInputError(miss);
  return { receptor, box, boxSource };
}

// ------------------------------------------------------------------ the estimate

/**
 * Seconds of one Vina run: exhaustiveness x K x (heavy atoms + 10 x torsions)^2 on one thread,
 * divided among min(threads, exhaustiveness) threads (each Monte Carlo run is one thread's), plus
 * the grid (about proportional to the box volume). K is fitted to p59 into 5X72 (24 heavy atoms,
 * 2 torsions: 2.3 CPU s per unit of exhaustiveness) and imatinib into 1IEP (37, 7: 16 CPU s),
 * docs/engines.md, "Docking".
 */
export const VINA_K = 1.4e-3;
export const GRID_SEC_PER_A3 = 1e-5;
/** Receptor preparation (Open Babel, once per receptor and machine). */
export const RECEPTOR_SEC = 3;
/** A ligand's 3D build, protonation and PDBQT (Open Babel). */
export const LIGAND_PREP_SEC = 2;
/** Heavy atoms assumed for a ligand not read at submit (an uploaded set); torsions are assumed heavy / 5. */
export const ASSUMED_HEAVY = 30;

export function vinaSeconds(heavy: number, torsions: number, exhaustiveness: number, threads: number, volume: number): number {
  const oneThread = exhaustiveness * VINA_K * (heavy + 10 * torsions) ** 2;
  return oneThread / Math.max(1, Math.min(threads, exhaustiveness)) + GRID_SEC_PER_A3 * volume;
}

export function dockingEstimate(p: DockingPayload, n: number, heavy: number[], threads: number, box: Box | null): Estimate {
  const exh = p.exhaustiveness ?? 8;
  const volume = box ? box.size[0] * box.size[1] * box.size[2] : 20 ** 3;
  const sizes = heavy.length ? heavy : Array<number>(n).fill(ASSUMED_HEAVY);
  const calc = sizes.reduce((t, h) => t + LIGAND_PREP_SEC + vinaSeconds(h, Math.round(h / 5), exh, threads, volume), 0);
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + RECEPTOR_SEC + SAFETY * calc) * 1000) / 1000,
    assumptions: {
      ligands: n,
      heavy_atoms: heavy.length
        ? { min: Math.min(...heavy), max: Math.max(...heavy), total: heavy.reduce((a, b) => a + b, 0) }
        : `${ASSUMED_HEAVY} per ligand (an uploaded set is sized when it runs)`,
      torsions: 'heavy atoms / 5',
      exhaustiveness: exh,
      threads,
      box_volume_a3: Math.round(volume),
      model:
        'overhead + receptor + 2 x ligands x (preparation + exhaustiveness x k x (heavy + 10 x torsions)^2 / min(threads, exhaustiveness) + grid) (docs/engines.md, "Docking")',
    },
  };
}
