// Molecular properties of one SMILES with RDKit MinimalLib (WASM), as a pure library for a
// worker thread: describeMolecule(rdkit, smiles). Every field is pinned to its RDKit
// definition; docs/chemistry.md lists them, and test/chem/properties.test.ts checks them
// against native RDKit (test/fixtures/chem/reference.json).
//
// Every RDKit object created here is deleted in a finally block: WASM objects are not
// garbage-collected. Query molecules (SMARTS) are parsed once per module (queries.ts).
import { QED_DATA, type Prefilter } from './data.js';
import { clean, massSpecHints, composition, formatFormula } from './mass.js';
import { classCounts, cycleRank, readMolGraph, type MolGraph } from '../molgraph.js';
import { qedFromProperties, type QedProperties } from './qed.js';
import { compiledQueries, type CompiledFilter, type CompiledQuery, type JSMol } from './queries.js';
import type { RDKitModule } from '../rdkit.js';
import { explainSmiles } from '../explain.js';
import { tooLargeToParse, tooManyAtomsDetail } from '../limits.js';
import type { DescribeResult, MolecularProperties, MoleculeIdentifiers, RuleCheck } from './schema.js';

export { releaseQueries } from './queries.js';
export type { DescribeResult, MolecularProperties } from './schema.js';

/** Inputs longer than this many characters are refused with `too_large` (before parsing). */
export const MAX_SMILES_LENGTH = 2000;
/** Molecules with more heavy atoms (atomic number > 1) than this are refused with `too_large`. */
export const MAX_HEAVY_ATOMS = 200;

// lib ES2023 without DOM types does not declare WebAssembly; it is there at run time.
const WasmRuntimeError = (globalThis as unknown as { WebAssembly?: { RuntimeError: new () => Error } }).WebAssembly?.RuntimeError;

/** A trap or abort inside the WASM module: the instance is unusable afterwards. */
function isWasmAbort(err: unknown): boolean {
  return WasmRuntimeError !== undefined && err instanceof WasmRuntimeError;
}

/**
 * Parses the ~720 query molecules (PAINS, Brenk, QED) of this module instance now rather than
 * on the first describeMolecule call (a few hundred ms): call it when a worker starts.
 */
export function warmUp(rdkit: RDKitModule): void {
  compiledQueries(rdkit);
}

/** MinimalLib's get_mol also reads molblocks and JSON; the API takes SMILES only. */
function isSmilesText(s: string): boolean {
  return !/[\n\r\0]/.test(s) && !s.trimStart().startsWith('{');
}

function hasMatch(mol: JSMol, q: JSMol): boolean {
  return mol.get_substruct_match(q) !== '{}';
}

/** Number of unique matches (RDKit default: uniquify, at most 1000). */
function countMatches(mol: JSMol, q: JSMol): number {
  const s = mol.get_substruct_matches(q);
  if (s.length <= 2) return 0;
  let n = 0;
  for (let i = s.indexOf('"atoms"'); i >= 0; i = s.indexOf('"atoms"', i + 7)) n++;
  return n;
}

/**
 * Whether a molecule can match a query at all, from atom counts per (element, aromatic)
 * class (see Prefilter). Exact: it only rules out queries that cannot match.
 */
function mayMatch(pf: Prefilter, classes: Int32Array, atoms: number): boolean {
  if (pf.atoms > atoms) return false;
  for (const [k, set] of pf.sets) {
    let c = 0;
    for (const cls of set) c += classes[cls] ?? 0; // (a class outside the table has no atoms)
    if (c < k) return false;
  }
  return true;
}

interface MatchContext {
  mol: JSMol;
  /** null: prefilter disabled */
  classes: Int32Array | null;
  atoms: number;
}

function may(ctx: MatchContext, q: CompiledQuery): boolean {
  return ctx.classes === null || mayMatch(q.prefilter, ctx.classes, ctx.atoms);
}

function filterMatches(ctx: MatchContext, f: CompiledFilter): boolean {
  if (!may(ctx, f)) return false;
  // RDKit SmartsMatcher::hasMatch: a plain HasSubstructMatch when the counts are the
  // defaults (min 1, no max), otherwise the number of unique matches within [min, max].
  if (f.minCount <= 1 && f.maxCount === null) return hasMatch(ctx.mol, f.query);
  const n = countMatches(ctx.mol, f.query);
  return n >= f.minCount && (f.maxCount === null || n <= f.maxCount);
}

function matchedAtoms(mol: JSMol, q: JSMol, n: number): Uint8Array {
  const flags = new Uint8Array(n);
  const s = mol.get_substruct_matches(q);
  if (s.length <= 2) return flags;
  for (const m of JSON.parse(s) as { atoms: number[] }[]) for (const a of m.atoms) flags[a] = 1;
  return flags;
}

interface Descriptors {
  exactmw: number;
  amw: number;
  NumHBA: number;
  NumHBD: number;
  NumRotatableBonds: number;
  NumAromaticRings: number;
  NumHeavyAtoms: number;
  tpsa: number;
  CrippenClogP: number;
}

function cleanOrNull(x: number | null): number | null {
  return x === null ? null : clean(x);
}

function ruleCheck(violations: string[], allowed: number): RuleCheck {
  return { pass: violations.length <= allowed, violations };
}

interface ComputeOptions {
  /** skip queries the molecule provably cannot match (default true; tests compare both) */
  prefilter?: boolean;
}

function compute(rdkit: RDKitModule, mol: JSMol, g: MolGraph, opts: ComputeOptions = {}): MolecularProperties {
  const queries = compiledQueries(rdkit);
  const ctx: MatchContext = { mol, classes: opts.prefilter === false ? null : classCounts(g), atoms: g.n };
  const d = JSON.parse(mol.get_descriptors()) as Descriptors;

  let charge = 0;
  let heavy = 0;
  for (let i = 0; i < g.n; i++) {
    charge += g.chg[i] ?? 0;
    if ((g.z[i] ?? 0) > 1) heavy++;
  }

  const mw = clean(d.amw);
  const clogp = clean(d.CrippenClogP);
  const tpsa = clean(d.tpsa);
  const hba = d.NumHBA;
  const hbd = d.NumHBD;
  const rotatable = d.NumRotatableBonds;

  // QED (rdkit.Chem.QED.properties): the molecule is already H-depleted (RemoveHs) by get_mol.
  let acceptors = 0;
  for (const q of queries.qedAcceptors) if (may(ctx, q)) acceptors += countMatches(mol, q.query);
  let alerts = 0;
  for (const q of queries.qedAlerts) if (may(ctx, q) && hasMatch(mol, q.query)) alerts++;
  const qedProps: QedProperties = {
    MW: mw,
    ALOGP: clogp,
    HBA: acceptors,
    HBD: hbd,
    PSA: tpsa,
    // RDKit's default NumRotatableBonds is the Strict definition QED asks for
    ROTB: rotatable,
    // len(GetSSSR(DeleteSubstructs(mol, AliphaticRings)))
    AROM: cycleRank(g, matchedAtoms(mol, queries.aliphaticRings, g.n)),
    ALERTS: alerts,
  };

  const pains: string[] = [];
  for (const f of queries.pains) if (filterMatches(ctx, f)) pains.push(f.name);
  const brenk: string[] = [];
  for (const f of queries.brenk) if (filterMatches(ctx, f)) brenk.push(f.name);

  const lipinski: string[] = [];
  if (mw > 500) lipinski.push('mw>500');
  if (clogp > 5) lipinski.push('clogp>5');
  if (hbd > 5) lipinski.push('hbd>5');
  if (hba > 10) lipinski.push('hba>10');
  const veber: string[] = [];
  if (rotatable > 10) veber.push('rotatable_bonds>10');
  if (tpsa > 140) veber.push('tpsa>140');

  return {
    formula: formatFormula(composition(g), charge),
    mw,
    monoisotopic_mass: clean(d.exactmw),
    clogp,
    tpsa,
    hba,
    hbd,
    rotatable_bonds: rotatable,
    aromatic_rings: d.NumAromaticRings,
    heavy_atoms: heavy,
    formal_charge: charge,
    qed: cleanOrNull(qedFromProperties(qedProps, QED_DATA.weights.mean)),
    lipinski: ruleCheck(lipinski, 1),
    veber: ruleCheck(veber, 0),
    alerts: { pains, brenk },
    ms: massSpecHints(g),
  };
}

/**
 * Molecular properties of one SMILES. Never throws for bad input: the error slot says
 * `unparseable` (not a SMILES RDKit can read, or no atoms), `too_large` (over
 * MAX_SMILES_LENGTH characters or MAX_HEAVY_ATOMS heavy atoms) or `describe_failed` (RDKit
 * failed while computing). It throws only a WebAssembly.RuntimeError: the WASM module itself
 * aborted (out of memory, a trap), so this RDKit instance must not be used again; replace the
 * worker thread.
 */
export function describeMolecule(rdkit: RDKitModule, smiles: string, opts: DescribeOptions = {}): DescribeResult {
  return describe(rdkit, smiles, opts);
}

export interface DescribeOptions {
  /** Also return canonical SMILES, InChI and InChIKey (the /describe items). */
  identifiers?: boolean;
}

function describe(rdkit: RDKitModule, smiles: string, opts: ComputeOptions & DescribeOptions): DescribeResult {
  const fail = (error: 'unparseable' | 'too_large' | 'describe_failed', detail: string): DescribeResult => ({ properties: null, error, detail });
  if (typeof smiles !== 'string') return fail('unparseable', 'not a string');
  const large = smiles.length > MAX_SMILES_LENGTH ? `${smiles.length} characters; at most ${MAX_SMILES_LENGTH}` : tooLargeToParse(smiles);
  if (large) return fail('too_large', large);
  if (smiles.trim() === '') return fail('unparseable', 'empty input');
  if (!isSmilesText(smiles)) return fail('unparseable', 'not SMILES (line breaks, NUL, JSON or InChI)');
  let mol: JSMol | null = null;
  try {
    try {
      mol = rdkit.get_mol(smiles);
    } catch (err) {
      if (isWasmAbort(err)) throw err;
      mol = null;
    }
    if (!mol || !mol.is_valid() || mol.get_num_atoms() === 0) return fail('unparseable', mol && mol.get_num_atoms() === 0 ? 'no atoms' : explainSmiles(rdkit, smiles));
    const many = tooManyAtomsDetail(mol.get_num_atoms(true), 0);
    if (many) return fail('too_large', many);
    try {
      const g = readMolGraph(mol.get_json());
      const properties = compute(rdkit, mol, g, opts);
      return opts.identifiers ? { properties, error: null, detail: null, identifiers: identifiersOf(rdkit, mol) } : { properties, error: null, detail: null };
    } catch (err) {
      if (isWasmAbort(err)) throw err;
      return fail('describe_failed', `RDKit failed while computing: ${err instanceof Error ? err.message : String(err)}`);
    }
  } finally {
    mol?.delete();
  }
}

/** Canonical SMILES, standard InChI and InChIKey of a parsed molecule (InChI null where RDKit cannot make one, e.g. for `*`). */
function identifiersOf(rdkit: RDKitModule, mol: JSMol): MoleculeIdentifiers {
  const inchi = mol.get_inchi() || null;
  return { canonical_smiles: mol.get_smiles(), inchi, inchikey: inchi ? rdkit.get_inchikey_for_inchi(inchi) || null : null };
}

/** Internal pieces for tests and benchmarks. */
export const _internal = { compute, describe, readMolGraph };
