// Worker-side handlers of the utility task kinds (registered in src/chem/worker.ts):
// convert, fingerprints, similarity and substructure, one molecule (or one query) per item;
// MCS and R-groups are in groups.ts. Every RDKit object is deleted in a finally block (WASM
// objects are not garbage-collected).
import type { Mol } from '@rdkit/rdkit';
import { depictHighlighted } from '../depict.js';
import type { RDKitModule } from '../rdkit.js';
import { bitOverlap, tanimotoBytes } from '../similarity.js';
import { composition, formatFormula } from '../properties/mass.js';
import { readMolGraph } from '../molgraph.js';
import { mcsItem, rgroupsItem } from './groups.js';
import { withMolecule } from './read.js';
import type {
  ConvertOptions,
  ConvertOutcome,
  ConvertOutput,
  FingerprintOutcome,
  FingerprintParams,
  ItemFailure,
  QueryCheck,
  SimilarityOptions,
  SimilarityOutcome,
  SubstructureOptions,
  SubstructureOutcome,
  UtilityKindMap,
} from './types.js';

/** RDKit's CalcMolFormula notation (charge appended), from the molecule's JSON graph. */
function formulaOf(mol: Mol): string {
  const g = readMolGraph(mol.get_json());
  let charge = 0;
  for (let i = 0; i < g.n; i++) charge += g.chg[i] ?? 0;
  return formatFormula(composition(g), charge);
}

function convertOne(rdkit: RDKitModule, mol: Mol, out: ConvertOutput): unknown {
  switch (out) {
    case 'smiles':
      return mol.get_smiles();
    case 'cxsmiles':
      return mol.get_cxsmiles();
    case 'kekule_smiles':
      return mol.get_smiles(JSON.stringify({ doKekule: true }));
    case 'molblock':
      return mol.get_v2Kmolblock();
    case 'molblock_v3000':
      return mol.get_v3Kmolblock();
    case 'inchi':
      return mol.get_inchi() || null;
    case 'inchikey': {
      const inchi = mol.get_inchi();
      return inchi ? rdkit.get_inchikey_for_inchi(inchi) || null : null;
    }
    case 'formula':
      return formulaOf(mol);
    case 'json':
      return JSON.parse(mol.get_json()) as unknown;
  }
}

export function convert(rdkit: RDKitModule, input: string, o: ConvertOptions): ConvertOutcome {
  return withMolecule<ConvertOutcome>(
    rdkit,
    input,
    o.inputFormat,
    (mol) => ({ values: Object.fromEntries(o.outputs.map((k) => [k, convertOne(rdkit, mol, k)])), failure: null }),
    (failure) => ({ values: null, failure }),
  );
}

/** The packed fingerprint of a molecule (a copy that owns its memory: the view may point into the WASM heap). */
function fingerprintBytes(mol: Mol, p: FingerprintParams): Uint8Array {
  const bits = `{"nBits":${p.nBits | 0}}`;
  let raw: Uint8Array;
  switch (p.type) {
    case 'morgan':
      raw = mol.get_morgan_fp_as_uint8array(`{"radius":${p.radius | 0},"nBits":${p.nBits | 0}}`) as Uint8Array;
      break;
    case 'rdkit':
      raw = mol.get_rdkit_fp_as_uint8array(JSON.stringify({ minPath: 1, maxPath: 7, nBits: p.nBits })) as Uint8Array;
      break;
    case 'atom_pair':
      raw = mol.get_atom_pair_fp_as_uint8array(bits) as Uint8Array;
      break;
    case 'topological_torsion':
      raw = mol.get_topological_torsion_fp_as_uint8array(bits) as Uint8Array;
      break;
    case 'pattern':
      raw = mol.get_pattern_fp_as_uint8array(bits) as Uint8Array;
      break;
    case 'maccs':
      raw = mol.get_maccs_fp_as_uint8array() as Uint8Array;
      break;
  }
  return raw.slice();
}

export function fingerprint(rdkit: RDKitModule, input: string, p: FingerprintParams): FingerprintOutcome {
  return withMolecule<FingerprintOutcome>(
    rdkit,
    input,
    p.inputFormat,
    (mol) => ({ fp: fingerprintBytes(mol, p), failure: null }),
    (failure) => ({ fp: null, failure }),
  );
}

/** RDKit's TanimotoSimilarity, DiceSimilarity and CosineSimilarity of two bit vectors of one length (two empty ones: 1, 0 and 0, as RDKit). */
export function bitSimilarity(a: Uint8Array, b: Uint8Array, metric: SimilarityOptions['metric']): number {
  if (metric === 'tanimoto') return tanimotoBytes(a, b);
  const { common, na, nb } = bitOverlap(a, b);
  if (metric === 'dice') return na + nb === 0 ? 0 : (2 * common) / (na + nb);
  return na * nb === 0 ? 0 : common / Math.sqrt(na * nb);
}

/** One query's hits in the library: score >= threshold, best first (ties by library order), at most top_k. */
export function similarity(_rdkit: RDKitModule, query: Uint8Array, o: SimilarityOptions): SimilarityOutcome {
  const hits: { index: number; score: number }[] = [];
  for (let i = 0; i < o.library.length; i++) {
    const fp = o.library[i];
    if (!fp) continue;
    const score = bitSimilarity(query, fp, o.metric);
    if (score >= o.threshold) hits.push({ index: i, score });
  }
  const above = hits.length;
  hits.sort((x, y) => y.score - x.score || x.index - y.index);
  return { hits: hits.slice(0, o.topK), above };
}

function parseQueryAs(rdkit: RDKitModule, query: string, format: 'smarts' | 'smiles'): Mol | null {
  if (query.trim() === '' || /[\n\r\0]/.test(query) || query.trimStart().startsWith('{')) return null;
  const q = format === 'smarts' ? rdkit.get_qmol(query) : rdkit.get_mol(query);
  if (q && (!q.is_valid() || q.get_num_atoms() === 0)) {
    q.delete();
    return null;
  }
  return q;
}

/** Which format a query reads as (`auto`: SMARTS first, then SMILES), or why it reads as neither. */
export function checkQuery(rdkit: RDKitModule, query: string, o: { format: 'auto' | 'smarts' | 'smiles' }): QueryCheck {
  const tries: ('smarts' | 'smiles')[] = o.format === 'auto' ? ['smarts', 'smiles'] : [o.format];
  for (const f of tries) {
    const q = parseQueryAs(rdkit, query, f);
    if (q) {
      q.delete();
      return { format: f, detail: null };
    }
  }
  return { format: null, detail: `RDKit cannot read the query as ${o.format === 'auto' ? 'SMARTS or SMILES' : o.format.toUpperCase()}` };
}

/** The parsed query of the current task, kept between its items (one per thread). */
let cached: { key: string; mol: Mol } | null = null;

function queryMol(rdkit: RDKitModule, o: SubstructureOptions): Mol {
  const key = `${o.queryFormat}\u0000${o.query}`;
  if (cached?.key === key) return cached.mol;
  cached?.mol.delete();
  cached = null;
  const mol = parseQueryAs(rdkit, o.query, o.queryFormat);
  if (!mol) throw new Error(`the query is not a valid ${o.queryFormat.toUpperCase()}`);
  cached = { key, mol };
  return mol;
}

export function substructure(rdkit: RDKitModule, input: string, o: SubstructureOptions): SubstructureOutcome {
  const q = queryMol(rdkit, o);
  const failed = (failure: ItemFailure): SubstructureOutcome => ({ matched: false, matches: null, svg: null, failure });
  return withMolecule<SubstructureOutcome>(
    rdkit,
    input,
    o.inputFormat,
    (mol) => {
      const details = JSON.stringify({ useChirality: o.useChirality, maxMatches: o.maxMatches });
      const raw = JSON.parse(mol.get_substruct_matches(q, details) || '[]') as { atoms?: number[]; bonds?: number[] }[] | { atoms?: number[] };
      const all = (Array.isArray(raw) ? raw : [raw]).filter((m) => m.atoms && m.atoms.length > 0) as { atoms: number[]; bonds?: number[] }[];
      let svg: string | null = null;
      if (o.svg && all.length > 0) {
        const atoms = [...new Set(all.flatMap((m) => m.atoms))];
        const bonds = [...new Set(all.flatMap((m) => m.bonds ?? []))];
        // /depict's drawing of the molecule (same options and sanitizer) with the matches highlighted.
        svg = depictHighlighted(mol, { atoms, bonds }).svg;
      }
      return { matched: all.length > 0, matches: all.map((m) => m.atoms), svg, failure: null };
    },
    failed,
  );
}

type UtilityHandler<K extends keyof UtilityKindMap> = (rdkit: RDKitModule, input: UtilityKindMap[K]['input'], options: UtilityKindMap[K]['options']) => UtilityKindMap[K]['output'];

/** The utility handlers, merged into the worker's registry (src/chem/worker.ts). */
export const UTILITY_HANDLERS: { [K in keyof UtilityKindMap]: UtilityHandler<K> } = {
  utility_convert: convert,
  utility_fingerprint: fingerprint,
  utility_similarity: similarity,
  utility_query: checkQuery,
  utility_substructure: substructure,
  utility_mcs: (rdkit, input) => mcsItem(rdkit, input),
  utility_rgroups: (rdkit, input) => rgroupsItem(rdkit, input),
};
