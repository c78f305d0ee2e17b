// The molecular graph the D-MPNN featuriser reads: chem's reader of RDKit MinimalLib's JSON
// (src/chem/molgraph.ts, readMolGraph), and the three bond properties that JSON does not carry,
// derived here as RDKit derives them:
//
// - in ring: a bond is in a ring when it is not a bridge of the graph (every bond on a cycle
//   lies on at least one ring of RDKit's SSSR, which is a cycle basis);
// - conjugated: RDKit's setConjugation (ConjugHybrid.cpp): aromatic bonds, and around every
//   atom that can take part in conjugation with 2 or 3 substituents, each multiple bond paired
//   with each other bond to a neighbour that can too (isAtomConjugCand, countAtomElec);
// - double-bond stereo as RDKit's bond stereo value: the JSON gives cis/trans relative to its
//   stereo atoms; RDKit (legacy stereo perception, as the SMILES parser runs it) labels the bond
//   E/Z from the highest CIP-ranked neighbour at each end, which the JSON's cipRanks give.
//
// Checked against native RDKit over the fixture molecules (docs/models.md, "Featurisation").
import type { MolGraph } from '../chem/molgraph.js';
import valenceJson from './data/valence.json' with { type: 'json' };

/** RDKit's BondStereo values (rdchem.BondStereo). */
export const STEREO = { NONE: 0, ANY: 1, Z: 2, E: 3, CIS: 4, TRANS: 5 } as const;

/** The molecule as chem's reader read it, with the degrees and the bond properties derived here. */
export interface MlGraph extends MolGraph {
  /** explicit neighbours (RDKit getDegree) */
  degree: Int16Array;
  inRing: Uint8Array;
  conjugated: Uint8Array;
  /** RDKit BondStereo value (STEREO) */
  stereo: Int8Array;
}

/** [default valence (-1: none), outer-shell electrons, allowed valences] per atomic number, from RDKit 2022.09's periodic table. */
const VALENCE = new Map<number, [number, number, number[]]>((valenceJson.elements as [number, number, number, number[]][]).map(([z, dv, nouter, list]) => [z, [dv, nouter, list]]));
export const defaultValence = (z: number): number => VALENCE.get(z)?.[0] ?? -1;
export const outerElectrons = (z: number): number => VALENCE.get(z)?.[1] ?? 0;
export const allowedValences = (z: number): number[] => VALENCE.get(z)?.[2] ?? [-1];

/** The D-MPNN's view of a molecule graph (chem's readMolGraph): degrees, ring bonds, conjugation and bond stereo added. */
export function mlGraph(mol: MolGraph): MlGraph {
  const nb = mol.nBonds;
  const g: MlGraph = { ...mol, degree: new Int16Array(mol.n), inRing: new Uint8Array(nb), conjugated: new Uint8Array(nb), stereo: new Int8Array(nb) };
  for (let b = 0; b < nb; b++) {
    const a = g.bondA[b] as number;
    const c = g.bondB[b] as number;
    g.degree[a] = (g.degree[a] ?? 0) + 1;
    g.degree[c] = (g.degree[c] ?? 0) + 1;
  }
  markRingBonds(g);
  markConjugation(g);
  for (let b = 0; b < nb; b++) g.stereo[b] = bondStereo(g, b, g.stereoLabel[b] ?? 'unspecified', g.stereoAtoms[b], g.cipRanks);
  return g;
}

/** For each atom, its [neighbour, bond] pairs in bond order (RDKit's atomBonds order for a parsed SMILES). */
export function adjacency(g: MlGraph): [number, number][][] {
  const adj: [number, number][][] = Array.from({ length: g.n }, () => []);
  for (let b = 0; b < g.nBonds; b++) {
    const a = g.bondA[b] as number;
    const c = g.bondB[b] as number;
    adj[a]?.push([c, b]);
    adj[c]?.push([a, b]);
  }
  return adj;
}

/** Marks every bond that is not a bridge (Tarjan's low-link, iterative). */
function markRingBonds(g: MlGraph): void {
  const adj = adjacency(g);
  const disc = new Int32Array(g.n).fill(-1);
  const low = new Int32Array(g.n);
  const isBridge = new Uint8Array(g.nBonds);
  let time = 0;
  for (let root = 0; root < g.n; root++) {
    if (disc[root] !== -1) continue;
    // stack of [atom, bond it was reached by, next neighbour position]
    const stack: [number, number, number][] = [[root, -1, 0]];
    disc[root] = low[root] = time++;
    while (stack.length) {
      const top = stack[stack.length - 1] as [number, number, number];
      const [v, viaBond, pos] = top;
      const nbrs = adj[v] ?? [];
      if (pos < nbrs.length) {
        top[2] = pos + 1;
        const [w, bond] = nbrs[pos] as [number, number];
        if (bond === viaBond) continue;
        if (disc[w] === -1) {
          disc[w] = low[w] = time++;
          stack.push([w, bond, 0]);
        } else {
          low[v] = Math.min(low[v] as number, disc[w] as number);
        }
      } else {
        stack.pop();
        const parent = stack[stack.length - 1];
        if (parent) {
          const p = parent[0];
          low[p] = Math.min(low[p] as number, low[v] as number);
          if ((low[v] as number) > (disc[p] as number)) isBridge[viaBond] = 1;
        }
      }
    }
  }
  for (let b = 0; b < g.nBonds; b++) g.inRing[b] = isBridge[b] ? 0 : 1;
}

/** RDKit Bond::getValenceContrib(atom) for the bond types a parsed SMILES has (dative and zero bonds count 0 here). */
function valenceContrib(g: MlGraph, b: number): number {
  if (g.aromaticBond[b]) return 1.5;
  return g.order[b] ?? 1;
}

/** RDKit MolOps::countAtomElec: electrons the atom can give to a pi system (only its sign matters here). */
function countAtomElec(g: MlGraph, adj: [number, number][][], i: number): number {
  const z = g.z[i] as number;
  const dv = defaultValence(z);
  if (dv <= 1) return -1;
  let degree = (g.degree[i] as number) + (g.hs[i] as number);
  for (const [, b] of adj[i] ?? []) if (Math.round(valenceContrib(g, b)) === 0) degree--;
  if (degree > 3) return -1;
  const nlp = Math.max(outerElectrons(z) - dv - (g.chg[i] as number), 0);
  // RDKit lowers a result above 1 to 1 for atoms with a triple bond; the sign does not change.
  return dv - degree + nlp - (g.nRad[i] as number);
}

/** RDKit isAtomConjugCand (ConjugHybrid.cpp). */
function conjugationCandidate(g: MlGraph, adj: [number, number][][], i: number): boolean {
  const z = g.z[i] as number;
  const nouter = outerElectrons(z);
  const totalDegree = (g.degree[i] as number) + (g.hs[i] as number);
  return (z <= 10 || (nouter !== 5 && nouter !== 6) || (nouter === 6 && totalDegree < 2)) && countAtomElec(g, adj, i) > 0;
}

/** RDKit MolOps::setConjugation. */
function markConjugation(g: MlGraph): void {
  const adj = adjacency(g);
  for (let b = 0; b < g.nBonds; b++) g.conjugated[b] = g.aromaticBond[b] as number;
  const candidate = new Uint8Array(g.n);
  for (let i = 0; i < g.n; i++) candidate[i] = conjugationCandidate(g, adj, i) ? 1 : 0;
  for (let i = 0; i < g.n; i++) {
    if (!candidate[i]) continue;
    const sbo = (g.degree[i] as number) + (g.hs[i] as number);
    if (sbo < 2 || sbo > 3) continue;
    const bonds = adj[i] ?? [];
    for (const [, b1] of bonds) {
      if (valenceContrib(g, b1) < 1.5) continue;
      for (const [other, b2] of bonds) {
        if (b1 === b2) continue;
        if ((g.degree[other] as number) + (g.hs[other] as number) > 3) continue;
        if (candidate[other]) {
          g.conjugated[b1] = 1;
          g.conjugated[b2] = 1;
        }
      }
    }
  }
}

/** The neighbour of `atom` (other than `exclude`) with the highest CIP rank, or -1 when two tie. */
function topRanked(g: MlGraph, atom: number, exclude: number, ranks: number[]): number {
  let best = -1;
  let bestRank = -1;
  let tie = false;
  for (let b = 0; b < g.nBonds; b++) {
    const a = g.bondA[b] as number;
    const c = g.bondB[b] as number;
    const other = a === atom ? c : c === atom ? a : -1;
    if (other < 0 || other === exclude) continue;
    const r = ranks[other] ?? -1;
    if (r > bestRank) {
      best = other;
      bestRank = r;
      tie = false;
    } else if (r === bestRank) tie = true;
  }
  return tie ? -1 : best;
}

/** RDKit's bond stereo value of bond b, from the JSON's cis/trans label. */
function bondStereo(g: MlGraph, b: number, label: string, stereoAtoms: [number, number] | undefined, ranks: number[] | undefined): number {
  if (label === 'either') return STEREO.ANY;
  if (label !== 'cis' && label !== 'trans') return STEREO.NONE;
  if (!stereoAtoms || !ranks) return label === 'cis' ? STEREO.CIS : STEREO.TRANS;
  const a = g.bondA[b] as number;
  const c = g.bondB[b] as number;
  let [sa, sc] = stereoAtoms;
  // the stereo atoms are listed begin side first
  if (!isNeighbour(g, a, sa)) [sa, sc] = [sc, sa];
  const ta = topRanked(g, a, c, ranks);
  const tc = topRanked(g, c, a, ranks);
  if (ta < 0 || tc < 0) return label === 'cis' ? STEREO.CIS : STEREO.TRANS;
  const flips = (ta === sa ? 0 : 1) + (tc === sc ? 0 : 1);
  const cis = (label === 'cis') !== (flips === 1);
  return cis ? STEREO.Z : STEREO.E;
}

function isNeighbour(g: MlGraph, a: number, x: number): boolean {
  for (let b = 0; b < g.nBonds; b++) {
    if ((g.bondA[b] === a && g.bondB[b] === x) || (g.bondB[b] === a && g.bondA[b] === x)) return true;
  }
  return false;
}
