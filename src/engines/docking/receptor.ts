// Docking receptors (docs/engines.md, "Docking"): a PDB file read in TypeScript (is it a
// protein? where are its atoms? which hetero groups does it hold?), filtered (waters and hetero
// groups out unless kept, first model, first alternate location), then given hydrogens at the
// job's pH and written as a rigid PDBQT by Open Babel. The PDBQT is cached on the machine by the
// SHA-256 of the file and the preparation options, so a library docked against one receptor
// (one job or many) prepares it once. Reading a file is linear in its size (about a second for
// 50 MB): jobs read it in a thread of its own (receptor-reader.ts), never on the event loop; the
// preparation's file work here is asynchronous (docs/reliability.md, "No request stalls the server").
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listFew } from '../../errors.js';
import { lastLines, type EngineTools } from '../tools.js';

/** Residues of proteins (with common variants) and nucleic acids: a receptor needs at least one. */
const POLYMER_RESIDUES = new Set(
  (
    'ALA ARG ASN ASP CYS GLN GLU GLY HIS ILE LEU LYS MET PHE PRO SER THR TRP TYR VAL ' +
    'HID HIE HIP HSD HSE HSP CYX CYM ASH GLH LYN ARN MSE SEC PYL ACE NME NH2 UNK ' +
    'A C G U I DA DC DG DT DI'
  ).split(' '),
);
/** Residue names of water. */
export const WATER_RESIDUES = new Set(['HOH', 'WAT', 'DOD', 'H2O', 'TIP', 'TIP3', 'SOL']);
/** Elements AutoDock Vina has atom types for (its AutoDock types: C, A, N, NA, OA, SA, HD, ..., Zn, Fe). */
export const VINA_ELEMENTS = new Set(['H', 'D', 'C', 'N', 'O', 'P', 'S', 'F', 'CL', 'BR', 'I', 'SI', 'MG', 'MN', 'ZN', 'CA', 'FE']);
/** A receptor file larger than this is refused (413). */
export const MAX_RECEPTOR_BYTES = 50 * 1024 * 1024;

/** What a job learns from reading a receptor file (it crosses from the reader's thread). */
export interface ReceptorSummary {
  /** ATOM records (and HETATM kept) after filtering. */
  atoms: number;
  /** Hydrogens among them. */
  hydrogens: number;
  /** Polymer residues read. */
  residues: number;
  /** Hetero groups removed: residue name -> number of groups (waters under HOH). */
  removed: Record<string, number>;
  /** Hetero groups kept: residue name -> number of groups. */
  kept: Record<string, number>;
  /** The groups removed, each `RESNAME CHAIN NUMBER` in file order (the first MAX_LISTED_GROUPS; `removed` counts them all). */
  removedGroups: string[];
}

/** Removed groups listed by name and place at most (a receptor's waters can be thousands). */
export const MAX_LISTED_GROUPS = 2_000;

export interface ReceptorInfo extends ReceptorSummary {
  /** Coordinates of the kept heavy atoms, x y z flattened. */
  coords: Float64Array;
  /** The heavy atoms of the first group of each hetero residue name (kept or not), x y z flattened, for a box around a site. */
  sites: Map<string, Float64Array>;
  /** The filtered PDB text (hydrogens as in the file). */
  filtered: string;
}

/** Why a file is not a usable receptor (a 422 at submit, a job error at run). */
export class ReceptorProblem extends Error {}

function num(s: string): number {
  const t = s.trim();
  return t === '' ? NaN : Number(t);
}

/** The element of a PDB atom line: columns 77-78, else guessed from the atom name. */
function elementOf(line: string): string {
  const e = line.slice(76, 78).trim();
  if (e) return e.toUpperCase();
  const name = line.slice(12, 16);
  return (/^[A-Za-z]/.test(name) ? name.slice(0, 2) : name.slice(1, 2)).trim().toUpperCase();
}

/**
 * Reads and filters a receptor PDB file: the first model only, atoms without an alternate
 * location or with the first one, selenomethionine read as methionine, waters and hetero groups
 * removed unless their residue name is in `keep` (HOH keeps waters). Throws ReceptorProblem for a
 * file that is not a protein (or nucleic acid) structure in the PDB format.
 */
export function readReceptor(text: string, keep: readonly string[] = []): ReceptorInfo {
  const keepSet = new Set(keep.map((k) => k.trim().toUpperCase()));
  const out: string[] = [];
  const coords: number[] = [];
  const removed: Record<string, number> = {};
  const removedGroups: string[] = [];
  const kept: Record<string, number> = {};
  const residues = new Set<string>();
  const groups = new Set<string>();
  const unsupported = new Map<string, string>();
  const sites = new Map<string, number[]>();
  const firstGroup = new Map<string, string>();
  let atoms = 0;
  let hydrogens = 0;
  let atomRecords = 0;
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const rec = line.slice(0, 6);
    if (rec === 'ENDMDL') break;
    if (rec === 'TER   ' || rec.startsWith('TER')) {
      out.push('TER');
      continue;
    }
    const isAtom = rec === 'ATOM  ';
    const isHet = rec === 'HETATM';
    if (!isAtom && !isHet) continue;
    const alt = line[16] ?? ' ';
    if (alt !== ' ' && alt !== 'A' && alt !== '1') continue;
    let resName = line.slice(17, 20).trim().toUpperCase();
    const resKey = `${line.slice(21, 22)}:${line.slice(22, 27)}:${resName}`;
    const x = num(line.slice(30, 38));
    const y = num(line.slice(38, 46));
    const z = num(line.slice(46, 54));
    if (![x, y, z].every(Number.isFinite)) throw new ReceptorProblem(`line ${lineNo} is an atom record without valid coordinates (columns 31-54): "${line.slice(0, 60)}"`);
    // What the PDB format's 8.3 columns can hold; beyond it (1e8 fits the columns as text) Vina fails after the charge.
    if (![x, y, z].every((v) => v >= -999.999 && v <= 9999.999))
      throw new ReceptorProblem(
        `line ${lineNo} places an atom at (${x}, ${y}, ${z}) A, beyond what the PDB format holds (-999.999 to 9999.999 A in columns 31-54): "${line.slice(0, 60)}"`,
      );
    let l = line;
    if (isHet && resName === 'MSE') {
      // Selenomethionine is methionine with Se for S: read as the protein residue it is.
      const seName = line.slice(12, 16).trim().toUpperCase() === 'SE';
      l = `ATOM  ${line.slice(6, 12)}${seName ? ' SD ' : line.slice(12, 16)}${line.slice(16, 17)}MET${line.slice(20, 76).padEnd(56)}${seName || elementOf(line) === 'SE' ? ' S' : line.slice(76, 78)}`;
      resName = 'MET';
    }
    const polymer = l.startsWith('ATOM  ');
    if (polymer) {
      atomRecords++;
      if (POLYMER_RESIDUES.has(resName)) residues.add(resKey);
    } else {
      const water = WATER_RESIDUES.has(resName);
      const name = water ? 'HOH' : resName;
      const wanted = keepSet.has(name) || keepSet.has(resName);
      const tally = wanted ? kept : removed;
      if (!groups.has(resKey)) {
        groups.add(resKey);
        tally[name] = (tally[name] ?? 0) + 1;
        if (!wanted && removedGroups.length < MAX_LISTED_GROUPS) removedGroups.push(`${resName} ${line.slice(21, 22).trim() || '_'} ${line.slice(22, 27).trim()}`);
        if (!firstGroup.has(name)) firstGroup.set(name, resKey);
      }
      if (firstGroup.get(name) === resKey && !['H', 'D'].includes(elementOf(l))) {
        const site = sites.get(name) ?? [];
        site.push(x, y, z);
        sites.set(name, site);
      }
      if (!wanted) continue;
    }
    const element = elementOf(l);
    if (!VINA_ELEMENTS.has(element)) {
      const where = `${l.slice(17, 20).trim()} ${l.slice(21, 22)} ${l.slice(22, 26).trim()}`;
      unsupported.set(element, unsupported.get(element) ?? where);
    }
    atoms++;
    if (element !== 'H' && element !== 'D') coords.push(x, y, z);
    else hydrogens++;
    out.push(l);
  }
  if (atomRecords === 0)
    throw new ReceptorProblem(
      text.includes('@<TRIPOS>') || /V[23]000/.test(text) || text.includes('$$$$')
        ? 'the receptor is not a PDB file (it looks like a MOL2, MOL or SDF file): upload the protein as a PDB file'
        : 'the receptor file has no ATOM records: it is not a protein structure in the PDB format',
    );
  if (residues.size === 0) throw new ReceptorProblem('the receptor file has ATOM records but no amino-acid or nucleotide residue: it is not a protein structure');
  if (unsupported.size)
    throw new ReceptorProblem(
      `the receptor holds atoms AutoDock Vina has no type for: ${listFew([...unsupported].map(([e, r]) => `${e || '(no element)'} (${r})`))}; leave their groups out of keep_hetero, or give elements in columns 77-78`,
    );
  out.push('END');
  return {
    atoms,
    hydrogens,
    residues: residues.size,
    coords: Float64Array.from(coords),
    removed,
    kept,
    removedGroups,
    sites: new Map([...sites].map(([k, v]) => [k, Float64Array.from(v)])),
    filtered: out.join('\n') + '\n',
  };
}

export interface Box {
  center: [number, number, number];
  size: [number, number, number];
}

/** Receptor heavy atoms inside the box. */
export function atomsInBox(coords: Float64Array, box: Box): number {
  let n = 0;
  for (let i = 0; i < coords.length; i += 3) {
    let inside = true;
    for (let k = 0; k < 3 && inside; k++) inside = Math.abs(coords[i + k]! - box.center[k]!) <= box.size[k]! / 2;
    if (inside) n++;
  }
  return n;
}

/** The extent of the receptor's heavy atoms, for messages. */
export function extentOf(coords: Float64Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, coords[i + k]!);
      max[k] = Math.max(max[k]!, coords[i + k]!);
    }
  return { min, max };
}

// ------------------------------------------------------------------ preparation and its cache

/** Bumped when the preparation changes, so that older cached receptors are not reused. */
const PREPARATION_VERSION = 1;
const CACHE_FILES = 64;
const CACHE_BYTES = 2 * 1024 ** 3;

/**
 * Where prepared receptors are cached: `<data dir>/cache/receptors` (the instance's cache
 * directory, JobDeps.cacheDir), never a folder that other instances on the machine share.
 */
export function receptorCacheDir(cacheDir: string | undefined): string {
  return path.join(cacheDir ?? path.join(os.tmpdir(), `crucible-${process.pid}`), 'receptors');
}

/** Whether a receptor comes with its hydrogens (a prepared structure): at least one per four heavy atoms. */
export function hasHydrogens(info: Pick<ReceptorSummary, 'atoms' | 'hydrogens'>): boolean {
  return info.hydrogens * 4 >= info.atoms - info.hydrogens;
}

/**
 * The PDB text Open Babel prepares: the filtered file as it is when it has its hydrogens,
 * otherwise without any (Open Babel adds them all at the job's pH).
 */
export function preparationInput(info: ReceptorInfo): string {
  if (hasHydrogens(info)) return info.filtered;
  return info.filtered
    .split('\n')
    .filter((l) => !isHydrogenRecord(l))
    .join('\n');
}

export interface PreparedReceptor {
  /** The PDBQT, written in the job's directory (receptor.pdbqt). */
  file: string;
  /** `kept` (the file's own) or `added` (at the job's pH). */
  hydrogens: 'kept' | 'added';
  /** Atoms in the PDBQT (polar hydrogens kept, the others merged as AutoDock wants). */
  atoms: number;
  /** Prepared before for the same user (the cache is each user's own). */
  cached: boolean;
  key: string;
}

const inflight = new Map<string, Promise<unknown>>();
/** The preparation input in a job's directory (the reader's thread writes it there). */
export const RECEPTOR_PDB = 'receptor.pdb';

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * The receptor as a rigid PDBQT (Open Babel -xr) in `dir`/receptor.pdbqt, from its
 * preparationInput: `input`, or `dir`/receptor.pdb as the reader's thread wrote it. A receptor with its hydrogens (at least one
 * per four heavy atoms: a prepared structure) keeps them as they are; otherwise Open Babel adds
 * them all at `ph` (its pH model, -p; -h when ph is null). Open Babel runs on one thread: with
 * more, and on proteins that already carry hydrogens, its placement of hydrogens varies from run
 * to run, and Vina's poses with it. Cached by the SHA-256 of the file and the options; a request
 * for a key being prepared waits for that preparation and copies its result.
 */
export async function prepareReceptor(
  r: { sha256: string; info: Pick<ReceptorSummary, 'atoms' | 'hydrogens'>; input?: string; keep: readonly string[]; ph: number | null },
  tools: EngineTools,
  dir: string,
  obabelVersion: string,
  cache: { dir: string | undefined; userId: string },
): Promise<PreparedReceptor> {
  const keepH = hasHydrogens(r.info);
  const hydrogens: PreparedReceptor['hydrogens'] = keepH ? 'kept' : 'added';
  // Keyed by the user too: prepared_from_cache must never tell whether someone else docked the same file.
  const key = sha256(JSON.stringify([PREPARATION_VERSION, obabelVersion, cache.userId, r.sha256, [...r.keep].map((k) => k.toUpperCase()).sort(), keepH ? 'kept' : r.ph]));
  const cached = path.join(receptorCacheDir(cache.dir), `${key}.pdbqt`);
  const output = path.join(dir, 'receptor.pdbqt');
  const fromCache = async (): Promise<PreparedReceptor | null> => {
    try {
      await fs.promises.copyFile(cached, output);
      const now = new Date();
      await fs.promises.utimes(cached, now, now).catch(() => undefined);
      return { file: output, hydrogens, atoms: await countAtoms(output), cached: true, key };
    } catch {
      return null; // not cached (yet)
    }
  };
  const hit = await fromCache();
  if (hit) return hit;
  const other = inflight.get(key);
  if (other) {
    await other.catch(() => undefined);
    const shared = await fromCache();
    if (shared) return shared;
  }
  const own = (async () => {
    if (r.input !== undefined) await fs.promises.writeFile(path.join(dir, RECEPTOR_PDB), r.input);
    const add = keepH ? [] : r.ph === null ? ['-h'] : ['-p', String(r.ph)];
    const res = await tools.run('obabel', [RECEPTOR_PDB, '-xr', ...add, '-O', 'receptor.pdbqt'], dir, { timeoutMs: 600_000, threads: 1 });
    const atoms = await countAtoms(output).catch(() => 0);
    if (atoms === 0) throw new ReceptorProblem(`Open Babel could not prepare the receptor: ${lastLines(res.stderr || res.stdout)}`);
    await store(cached, output);
    return { file: output, hydrogens, atoms, cached: false, key };
  })();
  if (!inflight.has(key)) {
    inflight.set(key, own);
    void own.catch(() => undefined).finally(() => inflight.delete(key));
  }
  return own;
}

function isHydrogenRecord(l: string): boolean {
  return (l.startsWith('ATOM  ') || l.startsWith('HETATM')) && ['H', 'D'].includes(elementOf(l));
}

/** Atom records of a PDBQT file, read as a stream (a chunk at a time, never the whole file at once). */
export async function countAtoms(file: string): Promise<number> {
  let n = 0;
  let carry = '';
  const stream = fs.createReadStream(file, { encoding: 'latin1', highWaterMark: 1 << 16 });
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = carry + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      if (text.startsWith('ATOM  ', start) || text.startsWith('HETATM', start)) n++;
      start = nl + 1;
    }
    // A line longer than a chunk needs only its first six characters.
    carry = text.length - start > 6 ? text.slice(start, start + 6) : text.slice(start);
  }
  if (carry.startsWith('ATOM  ') || carry.startsWith('HETATM')) n++;
  return n;
}

/** Copies a prepared PDBQT into the cache atomically and keeps the cache within its bounds (oldest used first out). */
async function store(file: string, from: string): Promise<void> {
  try {
    const dir = path.dirname(file);
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.promises.copyFile(from, tmp);
    await fs.promises.rename(tmp, file);
    const names = (await fs.promises.readdir(dir)).filter((n) => n.endsWith('.pdbqt'));
    const entries = (
      await Promise.all(
        names.map(async (n) => {
          const st = await fs.promises.stat(path.join(dir, n)).catch(() => null);
          return st ? [{ p: path.join(dir, n), t: st.mtimeMs, size: st.size }] : [];
        }),
      )
    )
      .flat()
      .sort((a, b) => b.t - a.t);
    let bytes = 0;
    for (const [i, e] of entries.entries()) {
      bytes += e.size;
      if (i >= CACHE_FILES || bytes > CACHE_BYTES) await fs.promises.rm(e.p, { force: true });
    }
  } catch {
    /* a cache that cannot be written costs a preparation next time, nothing else */
  }
}
