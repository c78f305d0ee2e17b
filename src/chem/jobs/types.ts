// Types of the chemistry task kinds that compute jobs use (properties, depict,
// similarity_search, substructure_search, cluster). Types only: src/chem/kinds.ts imports
// them into the pool's kind registry, and src/chem/jobs/handlers.ts implements them.

/** Per-molecule errors of the job kinds (the /describe and /depict codes where they overlap). */
export type MoleculeError = 'unparseable' | 'too_large' | 'failed';

/** Morgan fingerprint parameters (the job types fix radius 2, 2048 bits). */
export interface MorganParams {
  radius: number;
  nBits: number;
}

/** `mol_smiles`: a molecule given as SMILES or as a molblock (SDF uploads) -> SMILES. */
export interface MolSmilesOutcome {
  /** RDKit's SMILES of the molecule (with stereo read from the molblock); null on error. */
  smiles: string | null;
  error: MoleculeError | null;
}

/** `morgan_fp`: one molecule -> its Morgan bit vector. */
export interface MorganFpOutcome {
  /** The bit vector, nBits / 8 bytes, bit i in byte i >> 3 at (1 << (i & 7)) (RDKit MinimalLib's layout). */
  fp: Uint8Array | null;
  /** Number of bits set. */
  bits: number;
  /** For a molblock input, its SMILES (else null: the input was a SMILES already). */
  smiles: string | null;
  error: MoleculeError | null;
}

/** `morgan_similarity` options: the query's bit vector (from `morgan_fp`). */
export interface MorganSimilarityOptions extends MorganParams {
  query: Uint8Array;
}

export interface MorganSimilarityOutcome {
  /** Tanimoto similarity to the query, 0..1; null on error. */
  similarity: number | null;
  smiles: string | null;
  error: MoleculeError | null;
}

/** How a substructure query is read. `auto`: SMARTS first, then SMILES. */
export type QueryFormat = 'auto' | 'smarts' | 'smiles';

/** `substructure_query`: validates a query; the job reads it once before any molecule. */
export interface SubstructureQueryOutcome {
  /** How it was read (`smarts` or `smiles`), or null when it could not be read. */
  format: 'smarts' | 'smiles' | null;
  /** Atoms of the query molecule. */
  atoms: number;
  error: string | null;
}

export interface SubstructureMatchOptions {
  query: string;
  /** The format substructure_query found. */
  format: 'smarts' | 'smiles';
  /** Honour tetrahedral stereo in matching (RDKit useChirality; default false). */
  useChirality: boolean;
}

export interface SubstructureMatchOutcome {
  matched: boolean;
  /** Atom indices (in the molecule as parsed) of the first match, in query atom order. */
  atoms: number[] | null;
  /** Bond indices of the first match. */
  bonds: number[] | null;
  /** Number of unique matches (RDKit's default: uniquified, at most 1000). */
  count: number;
  smiles: string | null;
  error: MoleculeError | null;
}

/**
 * Fingerprints of the molecules being clustered, in shared memory (each task gets views of the
 * same buffers), ordered by number of bits set (so that the Tanimoto bound
 * min(a, b) / max(a, b) limits each molecule's candidate neighbours to a contiguous window):
 * `perm` Int32 n (position -> the molecule's index), `rank` Int32 n (index -> position),
 * `popcounts` Int32 n (bits set, ascending by position), `onBits` the set bits of all
 * molecules one after the other by position (Uint16), `offsets` Int32 n + 1 (position k's bits
 * are onBits[offsets[k] .. offsets[k+1])).
 */
export interface FingerprintTable {
  n: number;
  nBits: number;
  perm: SharedArrayBuffer;
  rank: SharedArrayBuffer;
  popcounts: SharedArrayBuffer;
  onBits: SharedArrayBuffer;
  offsets: SharedArrayBuffer;
}

export interface ButinaOptions {
  table: FingerprintTable;
  /** Distance threshold: j is a neighbour of i when 1 - Tanimoto(i, j) <= cutoff. */
  cutoff: number;
  /** Int32 n: neighbour counts by molecule index (filled by butina_count with Atomics.add). */
  counts: SharedArrayBuffer;
  /** An item returns when it has run this long (ms), with how far it got. */
  budgetMs: number;
}

/** `butina_count`: rows (positions of the table) from..to, each against the positions before it. */
export interface RowRange {
  from: number;
  to: number;
}

export interface ButinaCountOutcome {
  /** Rows done are from..next-1; next === to when the range is finished. */
  next: number;
  /** Pairs compared (for progress). */
  pairs: number;
}

export interface ButinaAssignOptions extends ButinaOptions {
  /** Int32 n: molecule indices by neighbour count descending, then index descending (RDKit's order). */
  order: SharedArrayBuffer;
  /** Uint8 n: 1 once a molecule is in a cluster. */
  seen: SharedArrayBuffer;
}

export interface ButinaAssignOutcome {
  /** Position in `order` to continue from (n when done). */
  next: number;
  /** Clusters formed by this item, each centroid first then members in index order. */
  clusters: number[][];
}

/** The compute-job kinds, merged into the pool's KindMap (src/chem/kinds.ts). */
/** `structure_info`: one molecule (SMILES or molblock) -> what an engine job checks before it runs (docs/engines.md). */
export interface StructureInfoOutcome {
  /** Atoms with every hydrogen (implicit ones counted). */
  atoms: number;
  heavy: number;
  /** The element symbols present, H included. */
  elements: string[];
  formalCharge: number;
  /** Sum of atomic numbers minus the formal charge. */
  electrons: number;
  /** A molblock whose coordinates are 3D (some z not 0). */
  has3d: boolean;
  /** For a molblock input, its SMILES (names and records); else null. */
  smiles: string | null;
  error: MoleculeError | null;
  /**
   * With options.bonds: the bonds [a, b] (0-based) in the engines' atom numbering: the input's
   * atoms in order (explicit hydrogens kept), then the hydrogens added to each atom, atom by atom.
   */
  bonds?: [number, number][];
  /** With options.rotatable: RDKit's rotatable bonds (NumRotatableBonds; a conformer search's estimate). */
  rotatable?: number;
  /** With options.smarts: per SMARTS, the first atom of each of its matches (a pKa job's sites at submit). */
  matches?: number[][];
}

/** Options of `structure_info`. */
export interface StructureInfoOptions {
  /** Report the bonds (engine numbering) too. */
  bonds?: boolean;
  /** Report the rotatable bonds too. */
  rotatable?: boolean;
  /** Report each SMARTS's matches too (the first atom of each match). */
  smarts?: string[];
}

export interface JobKindMap {
  /** One molecule (SMILES or molblock) -> atoms, elements, charge and electrons (engine jobs). */
  structure_info: { input: string; options: StructureInfoOptions; output: StructureInfoOutcome };
  /** One molecule (SMILES or molblock) -> SMILES (molblocks of SDF uploads before describe/depict). */
  mol_smiles: { input: string; options: Record<string, never>; output: MolSmilesOutcome };
  /** One molecule -> Morgan bit vector. */
  morgan_fp: { input: string; options: MorganParams; output: MorganFpOutcome };
  /** One molecule -> Tanimoto similarity of its Morgan bit vector to the query's. */
  morgan_similarity: { input: string; options: MorganSimilarityOptions; output: MorganSimilarityOutcome };
  /** One query (SMARTS or SMILES) -> how it reads, or why not. */
  substructure_query: { input: string; options: { format: QueryFormat }; output: SubstructureQueryOutcome };
  /** One molecule -> whether (and where) the query matches. */
  substructure_match: { input: string; options: SubstructureMatchOptions; output: SubstructureMatchOutcome };
  /** Butina pass 1 over a range of rows (time-sliced). */
  butina_count: { input: RowRange; options: ButinaOptions; output: ButinaCountOutcome };
  /** Butina pass 2 from a position of the order (time-sliced, sequential). */
  butina_assign: { input: number; options: ButinaAssignOptions; output: ButinaAssignOutcome };
}
