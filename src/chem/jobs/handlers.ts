// Worker-side handlers of the compute-job task kinds (registered in src/chem/worker.ts):
// molecules read as SMILES or molblocks, Morgan fingerprints and Tanimoto similarity,
// substructure matching, and the two Butina passes. Every RDKit object is deleted in a
// finally block (WASM objects are not garbage-collected).
import { molblockCoordinateProblem } from '../formats/coordinates.js';
import type { Mol } from '@rdkit/rdkit';
import { parseSmiles, tooManyAtoms } from '../depict.js';
import type { RDKitModule } from '../rdkit.js';
import { MAX_INPUT_CHARS, tooLargeToParse } from '../limits.js';
import { ELEMENTS } from '../properties/data.js';
import { readMolGraph } from '../molgraph.js';
import { popcount, tanimotoBytes } from '../similarity.js';
import { butinaAssign, butinaCount } from './butina.js';
import type {
  ButinaAssignOptions,
  JobKindMap,
  ButinaAssignOutcome,
  ButinaCountOutcome,
  ButinaOptions,
  MoleculeError,
  MolSmilesOutcome,
  StructureInfoOptions,
  StructureInfoOutcome,
  MorganFpOutcome,
  MorganParams,
  MorganSimilarityOptions,
  MorganSimilarityOutcome,
  QueryFormat,
  RowRange,
  SubstructureMatchOptions,
  SubstructureMatchOutcome,
  SubstructureQueryOutcome,
} from './types.js';

/** A molblock (from an SDF upload) longer than this is too_large without being parsed. */
const MAX_MOLBLOCK_CHARS = 200_000;
/** A substructure query longer than this is refused. */
export const MAX_QUERY_CHARS = 2_000;

/** Molecule inputs of the job kinds: SMILES (as everywhere) or a V2000/V3000 molblock. */
export function isMolblock(input: string): boolean {
  return input.includes('\n') && /^M {2}END\s*$/m.test(input);
}

type Read = { mol: Mol; fromMolblock: boolean } | { mol: null; error: MoleculeError };

/** Reads a molecule with the rules of /describe and /depict (SMILES only, size limits), plus molblocks. */
function readMolecule(rdkit: RDKitModule, input: string): Read {
  const molblock = isMolblock(input);
  if (input.length > (molblock ? MAX_MOLBLOCK_CHARS : MAX_INPUT_CHARS)) return { mol: null, error: 'too_large' };
  if (!molblock && tooLargeToParse(input) !== null) return { mol: null, error: 'too_large' };
  let mol: Mol | null;
  if (molblock) {
    // NaN, Infinity or absurd coordinates (RDKit takes them in V3000): never on to the engines.
    if (molblockCoordinateProblem(input) !== null) return { mol: null, error: 'unparseable' };
    mol = rdkit.get_mol(input);
    if (mol && (!mol.is_valid() || mol.get_num_atoms() === 0)) {
      mol.delete();
      mol = null;
    }
  } else mol = parseSmiles(rdkit, input);
  if (!mol) return { mol: null, error: 'unparseable' };
  if (tooManyAtoms(mol)) {
    mol.delete();
    return { mol: null, error: 'too_large' };
  }
  return { mol, fromMolblock: molblock };
}

export function molSmiles(rdkit: RDKitModule, input: string): MolSmilesOutcome {
  const r = readMolecule(rdkit, input);
  if (!r.mol) return { smiles: null, error: r.error };
  try {
    return { smiles: r.mol.get_smiles(), error: null };
  } finally {
    r.mol.delete();
  }
}

function fpDetails(p: MorganParams): string {
  return JSON.stringify({ radius: p.radius, nBits: p.nBits });
}

function morganBytes(mol: Mol, p: MorganParams): Uint8Array {
  const raw = mol.get_morgan_fp_as_uint8array(fpDetails(p)) as Uint8Array;
  // A copy that owns its memory (the view may point into the WASM heap).
  return Uint8Array.from(raw);
}

export function morganFp(rdkit: RDKitModule, input: string, p: MorganParams): MorganFpOutcome {
  const r = readMolecule(rdkit, input);
  if (!r.mol) return { fp: null, bits: 0, smiles: null, error: r.error };
  try {
    const fp = morganBytes(r.mol, p);
    return { fp, bits: popcount(fp), smiles: r.fromMolblock ? r.mol.get_smiles() : null, error: null };
  } finally {
    r.mol.delete();
  }
}

export function morganSimilarity(rdkit: RDKitModule, input: string, o: MorganSimilarityOptions): MorganSimilarityOutcome {
  const r = readMolecule(rdkit, input);
  if (!r.mol) return { similarity: null, smiles: null, error: r.error };
  try {
    return { similarity: tanimotoBytes(morganBytes(r.mol, o), o.query), smiles: r.fromMolblock ? r.mol.get_smiles() : null, error: null };
  } finally {
    r.mol.delete();
  }
}

// ------------------------------------------------------------------ substructure

function parseQuery(rdkit: RDKitModule, query: string, format: 'smarts' | 'smiles'): Mol | null {
  if (query.trim() === '' || query.length > MAX_QUERY_CHARS || /[\n\r\0]/.test(query)) return null;
  if (format === 'smiles') return parseSmiles(rdkit, query);
  if (query.trimStart().startsWith('{')) return null; // get_qmol would read JSON too
  const q = rdkit.get_qmol(query);
  if (!q) return null;
  if (!q.is_valid() || q.get_num_atoms() === 0) {
    q.delete();
    return null;
  }
  return q;
}

/** Reads a query: SMARTS first under `auto` (any SMILES that is also valid SMARTS is read as SMARTS), else SMILES. */
export function substructureQuery(rdkit: RDKitModule, query: string, opts: { format: QueryFormat }): SubstructureQueryOutcome {
  const tries: ('smarts' | 'smiles')[] = opts.format === 'auto' ? ['smarts', 'smiles'] : [opts.format];
  for (const f of tries) {
    const q = parseQuery(rdkit, query, f);
    if (!q) continue;
    try {
      return { format: f, atoms: q.get_num_atoms(), error: null };
    } finally {
      q.delete();
    }
  }
  const what = opts.format === 'auto' ? 'SMARTS or SMILES' : opts.format.toUpperCase();
  const why = query.length > MAX_QUERY_CHARS ? `longer than ${MAX_QUERY_CHARS} characters` : `not a valid ${what}`;
  return { format: null, atoms: 0, error: `the query is ${why}` };
}

/** The parsed query of the current task's options, kept between items (one per thread). */
let cachedQuery: { key: string; mol: Mol } | null = null;

function queryMol(rdkit: RDKitModule, o: SubstructureMatchOptions): Mol {
  const key = `${o.format}\u0000${o.query}`;
  if (cachedQuery?.key === key) return cachedQuery.mol;
  cachedQuery?.mol.delete();
  cachedQuery = null;
  const mol = parseQuery(rdkit, o.query, o.format);
  if (!mol) throw new Error(`the query is not a valid ${o.format.toUpperCase()}`);
  cachedQuery = { key, mol };
  return mol;
}

interface MatchJson {
  atoms?: number[];
  bonds?: number[];
}

export function substructureMatch(rdkit: RDKitModule, input: string, o: SubstructureMatchOptions): SubstructureMatchOutcome {
  const q = queryMol(rdkit, o);
  const r = readMolecule(rdkit, input);
  if (!r.mol) return { matched: false, atoms: null, bonds: null, count: 0, smiles: null, error: r.error };
  try {
    const details = JSON.stringify({ useChirality: o.useChirality });
    const smiles = r.fromMolblock ? r.mol.get_smiles() : null;
    const first = JSON.parse(r.mol.get_substruct_match(q, details) || '{}') as MatchJson;
    if (!first.atoms || first.atoms.length === 0) return { matched: false, atoms: null, bonds: null, count: 0, smiles, error: null };
    const all = JSON.parse(r.mol.get_substruct_matches(q, details) || '[]') as MatchJson[] | MatchJson;
    const count = Array.isArray(all) ? all.length : all.atoms ? 1 : 0;
    return { matched: true, atoms: first.atoms, bonds: first.bonds ?? [], count: Math.max(1, count), smiles, error: null };
  } finally {
    r.mol.delete();
  }
}

// ------------------------------------------------------------------ Butina (no RDKit)

function butinaCountItem(_rdkit: RDKitModule, range: RowRange, o: ButinaOptions): ButinaCountOutcome {
  return butinaCount(range, o);
}

function butinaAssignItem(_rdkit: RDKitModule, pos: number, o: ButinaAssignOptions): ButinaAssignOutcome {
  return butinaAssign(pos, o);
}

type JobHandler<K extends keyof JobKindMap> = (rdkit: RDKitModule, input: JobKindMap[K]['input'], options: JobKindMap[K]['options']) => JobKindMap[K]['output'];

/** The handlers of the compute-job kinds, merged into the worker's registry (src/chem/worker.ts). */
const EMPTY_INFO = { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null };

/** Whether a molblock's atoms are placed in 3D (some z not 0); V2000 and V3000. */
export function molblockHas3d(molblock: string): boolean {
  const lines = molblock.split('\n');
  if (/V3000/.test(lines[3] ?? '')) {
    let inAtoms = false;
    for (const l of lines) {
      if (/^M {2}V30 BEGIN ATOM/.test(l)) inAtoms = true;
      else if (/^M {2}V30 END ATOM/.test(l)) return false;
      else if (inAtoms && Math.abs(Number(l.trim().split(/\s+/)[6])) > 1e-4) return true;
    }
    return false;
  }
  const n = Number((lines[3] ?? '').slice(0, 3));
  for (let i = 0; i < n; i++) if (Math.abs(Number((lines[4 + i] ?? '').slice(20, 30))) > 1e-4) return true;
  return false;
}

/**
 * The bonds of a structure in the engines' atom numbering (docs/engines.md, "Structures"): the
 * input's atoms in order with its explicit hydrogens, then each atom's other hydrogens in atom
 * order, as Open Babel adds them; null when that count is not `atoms`.
 */
function engineBonds(rdkit: RDKitModule, input: string, atoms: number): [number, number][] | null {
  const mol = rdkit.get_mol(input, JSON.stringify({ removeHs: false }));
  if (!mol) return null;
  try {
    if (!mol.is_valid()) return null;
    const g = readMolGraph(mol.get_json());
    const bonds: [number, number][] = [];
    for (let b = 0; b < g.bondA.length; b++) bonds.push([g.bondA[b]!, g.bondB[b]!]);
    let next = g.n;
    for (let i = 0; i < g.n; i++) for (let h = 0; h < (g.hs[i] ?? 0); h++) bonds.push([i, next++]);
    return next === atoms ? bonds : null;
  } finally {
    mol.delete();
  }
}

export function structureInfo(rdkit: RDKitModule, input: string, options: StructureInfoOptions = {}): StructureInfoOutcome {
  const r = readMolecule(rdkit, input);
  if (!r.mol) return { ...EMPTY_INFO, error: r.error };
  const mol = r.mol;
  try {
    const g = readMolGraph(mol.get_json());
    const elements = new Set<string>();
    let atoms = 0;
    let electrons = 0;
    let charge = 0;
    let heavy = 0;
    for (let i = 0; i < g.n; i++) {
      const z = g.z[i] ?? 0;
      elements.add(ELEMENTS[z]?.symbol ?? '*');
      atoms += 1 + (g.hs[i] ?? 0);
      electrons += z + (g.hs[i] ?? 0);
      charge += g.chg[i] ?? 0;
      if (z !== 1) heavy++;
      if (g.hs[i]) elements.add('H');
    }
    return {
      atoms,
      heavy,
      elements: [...elements],
      formalCharge: charge,
      electrons: electrons - charge,
      has3d: r.fromMolblock && molblockHas3d(input),
      smiles: r.fromMolblock ? r.mol.get_smiles() : null,
      error: null,
      ...(options.bonds ? { bonds: engineBonds(rdkit, input, atoms) ?? undefined } : {}),
      ...(options.rotatable ? { rotatable: Number((JSON.parse(r.mol.get_descriptors()) as { NumRotatableBonds?: number }).NumRotatableBonds ?? 0) } : {}),
      ...(options.smarts ? { matches: options.smarts.map((q) => firstAtoms(rdkit, mol, q)) } : {}),
    };
  } finally {
    r.mol.delete();
  }
}

/** The first atom of each match of the SMARTS `query` in `mol`. */
function firstAtoms(rdkit: RDKitModule, mol: Mol, query: string): number[] {
  const q = rdkit.get_qmol(query);
  if (!q) throw new Error(`the SMARTS ${query} does not read`);
  try {
    const all = JSON.parse(mol.get_substruct_matches(q) || '[]') as MatchJson[] | MatchJson;
    return (Array.isArray(all) ? all : [all]).map((m) => m.atoms?.[0]).filter((a): a is number => a !== undefined);
  } finally {
    q.delete();
  }
}

export const JOB_HANDLERS: { [K in keyof JobKindMap]: JobHandler<K> } = {
  structure_info: (rdkit, input, options) => structureInfo(rdkit, input, options),
  mol_smiles: (rdkit, input) => molSmiles(rdkit, input),
  morgan_fp: morganFp,
  morgan_similarity: morganSimilarity,
  substructure_query: substructureQuery,
  substructure_match: substructureMatch,
  butina_count: butinaCountItem,
  butina_assign: butinaAssignItem,
};
