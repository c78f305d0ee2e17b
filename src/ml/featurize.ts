// chemprop v2's default featurisation (SimpleMoleculeMolGraphFeaturizer with
// MultiHotAtomFeaturizer.v2() and MultiHotBondFeaturizer()), computed from RDKit MinimalLib.
//
// Atom, 72 values: one-hot with an unknown slot of atomic number (1..36 and 53), total degree
// (0..5), formal charge (-1, -2, 1, 2, 0), chiral tag (0..3), total H count (0..4) and
// hybridisation (S, SP, SP2, SP2D, SP3, SP3D, SP3D2); aromatic flag; 0.01 * mass.
// Bond, 14 values: null-bond flag (never set for a real bond), bond type (single, double,
// triple, aromatic; no unknown slot), conjugated, in ring, stereo (0..5) with an unknown slot.
//
// The atoms, charges, H counts, isotopes, chiral tags and aromaticity come from Mol.get_json();
// hybridisation from RDKit's SMARTS hybridisation primitives ([^0] S ... [^5] SP3D2: SP2D has
// no primitive and falls in the unknown slot); ring membership, conjugation and E/Z from
// molgraph.ts. test/ml/featurize.test.ts checks every value against native RDKit
// (docs/models.md, "Featurisation"). Every WASM object is deleted in a finally block.
import type { Mol } from '@rdkit/rdkit';
import { parseSmiles } from '../chem/depict.js';
import { element, isotopeMass } from '../chem/properties/data.js';
import { readMolGraph } from '../chem/molgraph.js';
import { mlGraph, type MlGraph } from './molgraph.js';

import type { RDKitModule } from '../chem/rdkit.js';

/** Bumped whenever a feature changes: a model records the version it was trained with. */
export const FEATURIZER_VERSION = 'chemprop-v2-default/1';

const ATOMIC_NUMS = [...Array.from({ length: 36 }, (_, i) => i + 1), 53];
const DEGREES = 6;
const FORMAL_CHARGES = [-1, -2, 1, 2, 0];
const CHIRAL_TAGS = 4;
const NUM_HS = 5;
const HYBRIDIZATIONS = 7;

/** Offsets of each atom sub-feature in the atom vector. */
const A_NUM = 0;
const A_DEGREE = A_NUM + ATOMIC_NUMS.length + 1;
const A_CHARGE = A_DEGREE + DEGREES + 1;
const A_CHIRAL = A_CHARGE + FORMAL_CHARGES.length + 1;
const A_HS = A_CHIRAL + CHIRAL_TAGS + 1;
const A_HYBRID = A_HS + NUM_HS + 1;
const A_AROMATIC = A_HYBRID + HYBRIDIZATIONS + 1;
const A_MASS = A_AROMATIC + 1;
export const ATOM_FDIM = A_MASS + 1;

const B_TYPE = 1;
const B_CONJ = B_TYPE + 4;
const B_RING = B_CONJ + 1;
const B_STEREO = B_RING + 1;
const STEREOS = 6;
export const BOND_FDIM = B_STEREO + STEREOS + 1;

/**
 * SMARTS hybridisation primitive -> position in chemprop v2's list (S, SP, SP2, SP2D, SP3,
 * SP3D, SP3D2). An atom none of them matches (RDKit UNSPECIFIED, OTHER, SP2D) is unknown.
 */
const HYBRID_QUERIES: [string, number][] = [
  ['[^0]', 0],
  ['[^1]', 1],
  ['[^2]', 2],
  ['[^3]', 4],
  ['[^4]', 5],
  ['[^5]', 6],
];

/** The features of one molecule: atoms in RDKit's order, bonds as RDKit lists them. */
export interface MolFeatures {
  nAtoms: number;
  nBonds: number;
  /** nAtoms x ATOM_FDIM, row-major */
  atoms: Float32Array;
  /** nBonds x BOND_FDIM, row-major (one row per undirected bond) */
  bonds: Float32Array;
  /** 2 x nBonds: begin and end atom of each bond */
  bondAtoms: Int32Array;
  /** normalised molecule features (mol-features.ts), for a model that takes them */
  extra?: Float32Array;
}

/** The parsed hybridisation queries, deleted by `release`. */
export class HybridisationQueries {
  private readonly queries: [Mol, number][] = [];

  constructor(rdkit: RDKitModule) {
    try {
      for (const [smarts, slot] of HYBRID_QUERIES) {
        const q = rdkit.get_qmol(smarts);
        if (!q) throw new Error(`RDKit cannot parse the SMARTS ${smarts}`);
        this.queries.push([q, slot]);
      }
    } catch (err) {
      this.release();
      throw err;
    }
  }

  /** Hybridisation slot per atom (HYBRIDIZATIONS = unknown). */
  slots(mol: Mol, nAtoms: number): Uint8Array {
    const out = new Uint8Array(nAtoms).fill(HYBRIDIZATIONS);
    const details = JSON.stringify({ maxMatches: nAtoms + 1 });
    for (const [q, slot] of this.queries) {
      const parsed = JSON.parse(mol.get_substruct_matches(q, details)) as unknown;
      if (!Array.isArray(parsed)) continue;
      for (const m of parsed as { atoms: number[] }[]) {
        const a = m.atoms[0];
        if (a !== undefined) out[a] = slot;
      }
    }
    return out;
  }

  release(): void {
    for (const [q] of this.queries.splice(0)) q.delete();
  }
}

/** Runs fn with the hybridisation queries, deleting them afterwards. */
export function withHybridisationQueries<T>(rdkit: RDKitModule, fn: (q: HybridisationQueries) => T): T {
  const q = new HybridisationQueries(rdkit);
  try {
    return fn(q);
  } finally {
    q.release();
  }
}

const oneHot = (value: number, count: number): number => (value >= 0 && value < count ? value : count);

function atomMass(z: number, isotope: number): number {
  if (isotope) return isotopeMass(z, isotope);
  try {
    return element(z).atomic_weight;
  } catch {
    return 0;
  }
}

/** Features of a parsed graph with its hybridisation slots. */
export function featuresOf(g: MlGraph, hybrid: Uint8Array): MolFeatures {
  const atoms = new Float32Array(g.n * ATOM_FDIM);
  for (let i = 0; i < g.n; i++) {
    const o = i * ATOM_FDIM;
    const z = g.z[i] as number;
    const hs = g.hs[i] as number;
    const numIdx = ATOMIC_NUMS.indexOf(z);
    atoms[o + A_NUM + (numIdx < 0 ? ATOMIC_NUMS.length : numIdx)] = 1;
    atoms[o + A_DEGREE + oneHot((g.degree[i] as number) + hs, DEGREES)] = 1;
    const chgIdx = FORMAL_CHARGES.indexOf(g.chg[i] as number);
    atoms[o + A_CHARGE + (chgIdx < 0 ? FORMAL_CHARGES.length : chgIdx)] = 1;
    atoms[o + A_CHIRAL + oneHot(g.chiral[i] as number, CHIRAL_TAGS)] = 1;
    atoms[o + A_HS + oneHot(hs, NUM_HS)] = 1;
    atoms[o + A_HYBRID + (hybrid[i] ?? HYBRIDIZATIONS)] = 1;
    atoms[o + A_AROMATIC] = g.aromaticAtom[i] as number;
    atoms[o + A_MASS] = 0.01 * atomMass(z, g.isotope[i] as number);
  }
  const bonds = new Float32Array(g.nBonds * BOND_FDIM);
  const bondAtoms = new Int32Array(2 * g.nBonds);
  for (let b = 0; b < g.nBonds; b++) {
    const o = b * BOND_FDIM;
    const order = g.order[b] as number;
    const type = g.aromaticBond[b] ? 3 : order === 1 ? 0 : order === 2 ? 1 : order === 3 ? 2 : -1;
    if (type >= 0) bonds[o + B_TYPE + type] = 1;
    bonds[o + B_CONJ] = g.conjugated[b] as number;
    bonds[o + B_RING] = g.inRing[b] as number;
    bonds[o + B_STEREO + oneHot(g.stereo[b] as number, STEREOS)] = 1;
    bondAtoms[2 * b] = g.bondA[b] as number;
    bondAtoms[2 * b + 1] = g.bondB[b] as number;
  }
  return { nAtoms: g.n, nBonds: g.nBonds, atoms, bonds, bondAtoms };
}

/** Features of a parsed molecule. */
export function featurizeMol(mol: Mol, queries: HybridisationQueries): MolFeatures {
  const g = mlGraph(readMolGraph(mol.get_json()));
  return featuresOf(g, queries.slots(mol, g.n));
}

/** A SMILES read as every chemistry endpoint reads it: its features and canonical SMILES, or null when RDKit cannot read it. */
export interface ParsedMolecule {
  canonical: string;
  features: MolFeatures;
}

export function featurizeSmiles(rdkit: RDKitModule, smiles: string, queries: HybridisationQueries): ParsedMolecule | null {
  const mol = parseSmiles(rdkit, smiles);
  if (!mol) return null;
  try {
    return { canonical: mol.get_smiles(), features: featurizeMol(mol, queries) };
  } finally {
    mol.delete();
  }
}

/** Features of many SMILES (null for each one RDKit cannot read), sharing one set of queries. */
export function featurizeAll(rdkit: RDKitModule, smiles: readonly string[]): (ParsedMolecule | null)[] {
  return withHybridisationQueries(rdkit, (q) => smiles.map((s) => featurizeSmiles(rdkit, s, q)));
}
