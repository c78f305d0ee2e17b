// Bemis-Murcko scaffolds with RDKit MinimalLib, which has no MurckoScaffold: the framework is
// computed on the graph as RDKit's MurckoDecompose computes it, and the scaffold molecule is
// built from the edited JSON and written as canonical SMILES by MinimalLib.
//
// RDKit keeps the ring atoms and the atoms on the shortest paths between rings (in a graph,
// the non-ring atoms left after repeatedly stripping non-ring atoms with at most one
// neighbour), plus any other atom joined to a kept atom by a double bond (C=O on a ring); every
// other atom goes. A framework atom that loses a neighbour has its H count set as RDKit sets it
// (an aromatic heteroatom gets one H: n-methylpyrrole -> c1cc[nH]c1; any other takes RDKit's
// valence model's implicit Hs, hydrogensAfterLoss). Stereo and isotopes are dropped, as
// MurckoScaffoldSmiles(includeChirality=False) writes them. A molecule without rings has the
// empty scaffold "".
// test/ml/scaffold.test.ts checks kept atoms and SMILES against native RDKit.
import type { Mol } from '@rdkit/rdkit';
import { parseSmiles } from '../chem/depict.js';
import { readMolGraph, type JsonAtom, type JsonBond } from '../chem/molgraph.js';
import { adjacency, allowedValences, mlGraph, outerElectrons, type MlGraph } from './molgraph.js';
import type { RDKitModule } from '../chem/rdkit.js';

/** Indices of the atoms RDKit's MurckoDecompose keeps, ascending. */
export function scaffoldAtoms(g: MlGraph): number[] {
  return murckoAtoms(g).kept;
}

/** The kept atoms, and which of them are the framework (rings and linkers) rather than double-bonded to it. */
function murckoAtoms(g: MlGraph): { kept: number[]; framework: Uint8Array } {
  const adj = adjacency(g);
  const ringAtom = new Uint8Array(g.n);
  for (let b = 0; b < g.nBonds; b++) {
    if (!g.inRing[b]) continue;
    ringAtom[g.bondA[b] as number] = 1;
    ringAtom[g.bondB[b] as number] = 1;
  }
  // strip non-ring atoms with at most one remaining neighbour until none is left
  const alive = new Uint8Array(g.n).fill(1);
  const remaining = new Int32Array(g.n);
  for (let i = 0; i < g.n; i++) remaining[i] = adj[i]?.length ?? 0;
  const queue: number[] = [];
  for (let i = 0; i < g.n; i++) if (!ringAtom[i] && (remaining[i] as number) <= 1) queue.push(i);
  while (queue.length) {
    const i = queue.pop() as number;
    if (!alive[i]) continue;
    alive[i] = 0;
    for (const [j] of adj[i] ?? []) {
      if (!alive[j]) continue;
      remaining[j] = (remaining[j] as number) - 1;
      if (!ringAtom[j] && (remaining[j] as number) <= 1) queue.push(j);
    }
  }
  const kept: number[] = [];
  for (let i = 0; i < g.n; i++) {
    if (alive[i]) {
      kept.push(i);
      continue;
    }
    // an atom double-bonded to a keeper stays (exocyclic =O, =N, =C)
    if ((adj[i] ?? []).some(([j, b]) => alive[j] && !g.aromaticBond[b] && g.order[b] === 2)) kept.push(i);
  }
  return { kept, framework: alive };
}

/** Elements SMILES writes without brackets (their H count follows the valence model). */
const ORGANIC_SUBSET = new Set([5, 6, 7, 8, 9, 15, 16, 17, 35, 53]);

/** RDKit's isEarlyAtom: elements left of carbon take hydrogens as H- (the charge counts the other way). */
function isEarlyAtom(z: number): boolean {
  if (z <= 1) return false;
  const nouter = outerElectrons(z);
  return nouter < 4 || (nouter === 4 && z > 14);
}

/** RDKit's implicit H count (Atom::calcImplicitValence) of an atom with explicit valence `ev` (bonds and explicit Hs). */
function implicitHs(z: number, chg: number, nRad: number, ev: number, aromatic: boolean): number {
  const valences = allowedValences(z);
  const dv = valences[0] ?? -1;
  if (z === 0 || dv === -1) return 0;
  let c = z === 6 && chg > 0 ? -chg : chg;
  if (isEarlyAtom(z)) c = -c;
  const x = ev + nRad;
  if (aromatic) return x <= dv + c ? dv + c - x : 0;
  for (const v of valences) {
    if (v < 0) break;
    if (x <= v + c) return v + c - x;
  }
  return 0;
}

/**
 * The H count of a kept atom that lost neighbours, as MurckoDecompose leaves it. A ring or
 * linker atom: an aromatic heteroatom gets one H, any other has its fixed H count reset and
 * takes what the valence model gives. An atom kept only for its double bond to the framework
 * is left alone: a bracket atom (charged, an isotope, outside the organic subset, a
 * stereocentre; MinimalLib's JSON does not tell, so this is the rule) keeps its H count,
 * any other takes the lost valence back as hydrogens.
 */
function hydrogensAfterLoss(g: MlGraph, i: number, hs: number, lost: number, framework: boolean, bondValence: number): number {
  const z = g.z[i] as number;
  const chg = g.chg[i] as number;
  const aromatic = g.aromaticAtom[i] === 1;
  if (framework) {
    if (aromatic && z !== 6) return 1;
    return implicitHs(z, chg, g.nRad[i] as number, Math.round(bondValence + 0.1), aromatic);
  }
  const bracket = chg !== 0 || g.isotope[i] !== 0 || !ORGANIC_SUBSET.has(z) || g.chiral[i] !== 0;
  return bracket ? hs : hs + Math.round(lost);
}

/** The scaffold of a parsed molecule as MinimalLib canonical SMILES without stereo ("" when it has no ring). */
export function scaffoldOfMol(rdkit: RDKitModule, mol: Mol): string {
  const g = mlGraph(readMolGraph(mol.get_json()));
  const { kept, framework } = murckoAtoms(g);
  if (kept.length === 0) return '';
  const index = new Map<number, number>(kept.map((a, k) => [a, k]));
  const extraHs = new Float64Array(g.n);
  const keptValence = new Float64Array(g.n);
  const outBonds: JsonBond[] = [];
  for (let b = 0; b < g.nBonds; b++) {
    const a = g.bondA[b] as number;
    const c = g.bondB[b] as number;
    const ka = index.get(a);
    const kc = index.get(c);
    const valence = g.aromaticBond[b] ? 1.5 : (g.order[b] ?? 1);
    if (ka !== undefined && kc !== undefined) {
      keptValence[a] = (keptValence[a] as number) + valence;
      keptValence[c] = (keptValence[c] as number) + valence;
      outBonds.push({ bo: g.order[b] as number, atoms: [ka, kc] });
      continue;
    }
    if (ka !== undefined) extraHs[a] = (extraHs[a] as number) + valence;
    if (kc !== undefined) extraHs[c] = (extraHs[c] as number) + valence;
  }
  const outAtoms: JsonAtom[] = kept.map((i) => {
    const hs = g.hs[i] as number;
    const lost = extraHs[i] as number;
    return {
      z: g.z[i] as number,
      impHs: lost > 0 ? hydrogensAfterLoss(g, i, hs, lost, framework[i] === 1, keptValence[i] as number) : hs,
      chg: g.chg[i] as number,
      nRad: g.nRad[i] as number,
      isotope: 0,
      stereo: 'unspecified',
    };
  });
  const out = {
    rdkitjson: g.rdkitjson,
    defaults: { atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: 'unspecified' }, bond: { bo: 1, stereo: 'unspecified' } },
    molecules: [{ atoms: outAtoms, bonds: outBonds }],
  };
  const scaffold = rdkit.get_mol(JSON.stringify(out));
  if (!scaffold) return `!${kept.join(',')}`;
  try {
    if (!scaffold.is_valid()) return `!${kept.join(',')}`;
    return scaffold.get_smiles();
  } finally {
    scaffold.delete();
  }
}

/** The Bemis-Murcko scaffold SMILES of a SMILES, or null when RDKit cannot read it. */
export function murckoScaffold(rdkit: RDKitModule, smiles: string): string | null {
  const mol = parseSmiles(rdkit, smiles);
  if (!mol) return null;
  try {
    return scaffoldOfMol(rdkit, mol);
  } finally {
    mol.delete();
  }
}
