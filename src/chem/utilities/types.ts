// Types of the utility task kinds (docs/utilities.md): what one item of each tool takes and
// gives back in a chemistry worker. Types only: src/chem/kinds.ts merges UtilityKindMap into the
// pool's registry and handlers.ts implements it.

/** Why one molecule gave no result; `detail` says it in words. */
export type UtilityItemError = 'unparseable' | 'too_large' | 'unsupported_format' | 'failed';

export interface ItemFailure {
  error: UtilityItemError;
  detail: string;
}

export type InputFormat = 'auto' | 'smiles' | 'molblock' | 'inchi';

export const CONVERT_OUTPUTS = ['smiles', 'cxsmiles', 'kekule_smiles', 'molblock', 'molblock_v3000', 'inchi', 'inchikey', 'formula', 'json'] as const;
export type ConvertOutput = (typeof CONVERT_OUTPUTS)[number];

export interface ConvertOptions {
  inputFormat: InputFormat;
  outputs: ConvertOutput[];
}

export type ConvertOutcome = { values: Partial<Record<ConvertOutput, unknown>>; failure: null } | { values: null; failure: ItemFailure };

export const FINGERPRINT_TYPES = ['morgan', 'rdkit', 'atom_pair', 'topological_torsion', 'maccs', 'pattern'] as const;
export type FingerprintType = (typeof FINGERPRINT_TYPES)[number];

export interface FingerprintParams {
  type: FingerprintType;
  radius: number;
  nBits: number;
  inputFormat: InputFormat;
}

/** A fingerprint as packed bytes: bit i is bit (i % 8) of byte floor(i / 8), least significant first. */
export type FingerprintOutcome = { fp: Uint8Array; failure: null } | { fp: null; failure: ItemFailure };

export type SimilarityMetric = 'tanimoto' | 'dice' | 'cosine';

export interface SimilarityOptions {
  /** The library's fingerprints, null where a library molecule could not be read. */
  library: (Uint8Array | null)[];
  metric: SimilarityMetric;
  threshold: number;
  topK: number;
}

export interface SimilarityHit {
  index: number;
  score: number;
}

export interface SimilarityOutcome {
  hits: SimilarityHit[];
  /** Library molecules at or above the threshold (hits holds the best top_k of them). */
  above: number;
}

export interface SubstructureOptions {
  query: string;
  queryFormat: 'smarts' | 'smiles';
  useChirality: boolean;
  maxMatches: number;
  svg: boolean;
  inputFormat: InputFormat;
}

export type SubstructureOutcome = { matched: boolean; matches: number[][]; svg: string | null; failure: null } | { matched: false; matches: null; svg: null; failure: ItemFailure };

export interface QueryCheck {
  format: 'smarts' | 'smiles' | null;
  detail: string | null;
}

export interface McsInput {
  molecules: string[];
  inputFormat: InputFormat;
  timeoutSec: number;
  atomCompare: 'elements' | 'any' | 'isotopes';
  bondCompare: 'order' | 'any' | 'order_exact';
  ringMatchesRingOnly: boolean;
  completeRingsOnly: boolean;
  matchValences: boolean;
  matchChiralTag: boolean;
}

export interface McsOutcome {
  smarts: string | null;
  numAtoms: number;
  numBonds: number;
  timedOut: boolean;
  /** Per input molecule: the MCS's atoms in it, or why it was left out. */
  items: ({ atoms: number[]; failure: null } | { atoms: null; failure: ItemFailure })[];
}

export interface RGroupsInput {
  cores: string[];
  molecules: string[];
  inputFormat: InputFormat;
  onlyMatchAtRGroups: boolean;
}

export type RGroupsItem =
  { matched: true; core: string; rgroups: Record<string, string>; failure: null } | { matched: false; core: null; rgroups: null; failure: ItemFailure | null };

export interface RGroupsOutcome {
  /** Index of a core that is not a valid SMARTS or SMILES, with why; the decomposition did not run. */
  badCore: { index: number; detail: string } | null;
  columns: string[];
  items: RGroupsItem[];
}

export interface UtilityKindMap {
  utility_convert: { input: string; options: ConvertOptions; output: ConvertOutcome };
  utility_fingerprint: { input: string; options: FingerprintParams; output: FingerprintOutcome };
  utility_similarity: { input: Uint8Array; options: SimilarityOptions; output: SimilarityOutcome };
  utility_query: { input: string; options: { format: 'auto' | 'smarts' | 'smiles' }; output: QueryCheck };
  utility_substructure: { input: string; options: SubstructureOptions; output: SubstructureOutcome };
  utility_mcs: { input: McsInput; options: Record<string, never>; output: McsOutcome };
  utility_rgroups: { input: RGroupsInput; options: Record<string, never>; output: RGroupsOutcome };
}
