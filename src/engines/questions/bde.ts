// Bond dissociation enthalpies (docs/questions.md, "Bond dissociation energies"): homolytic, in the
// gas phase at 298.15 K. The parent's lowest conformer by GFN2 (RDKit's conformers, each
// optimised); each bond broken on that structure into its two radicals (or a radical and an
// atom), each optimised with GFN2 (doublets); enthalpies from GFN2's harmonic thermochemistry
// (an atom: E + 5/2 RT); with a DFT method, the electronic energies are DFT single points on the
// GFN2 geometries and GFN2 gives the thermal part. Raw BDE = H(A) + H(B) - H(AB); the reported
// one goes through the method's calibration line (bde-calibration.ts).
import { readMolblock, readMolblockAtoms, subsetMolblock } from '../molblock.js';
import { runDft } from '../dft/run.js';
import { KCAL_PER_HARTREE, R_KCAL } from '../qm/ensemble.js';
import { xtbVibrations } from '../qm/hessian.js';
import { runXtb } from '../qm/xtb.js';
import { runRdkit } from '../rdkit/program.js';
import { ItemFailure, type EngineTools, type Prepared, type Structure } from '../tools.js';
import { lowestEnergy, type Form } from './forms.js';

const TEMPERATURE_K = 298.15;
/** Conformers of the parent RDKit embeds, and how many of the lowest GFN2 optimises. */
export const BDE_CONFORMERS = 10;
export const BDE_KEEP = 3;
/** The most bonds a job breaks per molecule. */
export const MAX_BONDS = 40;

/** The energies: GFN2 alone, or a DFT single point (B3LYP/def2-SVP, Psi4) on each GFN2 geometry. */
export type BdeMethod = 'gfn2' | 'b3lyp';

export interface BondRequest {
  atoms: [number, number];
  equivalent: number;
  elements?: [string, string];
  error?: string;
}

export interface BondEnergy {
  atoms: [number, number];
  elements: [string, string];
  equivalent: number;
  /** The method's own BDE (kcal/mol). */
  raw_kcal_mol: number;
}

interface Species {
  molblock: string;
  symbols: string[];
  enthalpyHartree: number;
}

/** The bonds to break and the parent's conformers, from the RDKit program. */
export function bondsOf(tools: EngineTools, dir: string, input: string, bonds: [number, number][] | undefined, conformers: number) {
  return runRdkit<{ smiles: string; atoms: number; bonds: BondRequest[]; molblocks: string[] }>(tools, dir, { command: 'bonds', smiles: input, bonds, conformers });
}

/** The enthalpy of one species at its geometry (already optimised with GFN2): GFN2's, or DFT's energy plus GFN2's thermal part. */
async function enthalpy(tools: EngineTools, dir: string, s: Structure, molblock: string, multiplicity: number, method: BdeMethod, gfn2Energy: number): Promise<number> {
  const atoms = readMolblockAtoms(molblock);
  const prepared: Prepared = { ...s, molblock, ...atoms };
  let thermal: number;
  if (atoms.symbols.length === 1) thermal = (2.5 * R_KCAL * TEMPERATURE_K) / KCAL_PER_HARTREE;
  else {
    const v = await xtbVibrations(tools, dir, prepared, { method: 'gfn2', charge: 0, multiplicity, temperatureK: TEMPERATURE_K });
    thermal = v.enthalpyHartree - v.energyHartree;
  }
  if (method === 'gfn2') return gfn2Energy + thermal;
  const d = await runDft('psi4', tools, dir, prepared, { method: 'b3lyp', basis: 'def2-svp', charge: 0, multiplicity });
  return d.energyHartree + thermal;
}

/**
 * A species at its lowest GFN2 structure from the `candidates` (each optimised; an atom: a single
 * point), and its enthalpy. A radical cut from the parent can sit on a saddle (an allyl radical
 * with its CH2 turned out of conjugation: 19.5 kcal/mol above the planar one), so RDKit's own
 * conformers of the radical are candidates too.
 */
async function species(tools: EngineTools, dir: string, s: Structure, candidates: string[], method: BdeMethod): Promise<Species> {
  const atoms = readMolblockAtoms(candidates[0]!);
  const electrons = atoms.symbols.reduce((t, sym) => t + (ATOMIC_NUMBER[sym] ?? 0), 0);
  const multiplicity = electrons % 2 === 1 ? 2 : 1;
  let best: { molblock: string; energy: number } | null = null;
  let failure: unknown = null;
  for (const molblock of atoms.symbols.length > 1 ? candidates : candidates.slice(0, 1)) {
    const prepared: Prepared = { ...s, molblock, ...readMolblockAtoms(molblock) };
    try {
      const opt = await runXtb(tools, dir, prepared, { method: 'gfn2', charge: 0, multiplicity, ...(atoms.symbols.length > 1 ? { optimize: { level: 'tight' as const } } : {}) });
      if (!best || opt.energyHartree < best.energy) best = { molblock: opt.molblock, energy: opt.energyHartree };
    } catch (err) {
      if (!(err instanceof ItemFailure)) throw err;
      failure = err;
    }
  }
  if (!best) throw failure;
  return { molblock: best.molblock, symbols: atoms.symbols, enthalpyHartree: await enthalpy(tools, dir, s, best.molblock, multiplicity, method, best.energy) };
}

const ATOMIC_NUMBER: Record<string, number> = { H: 1, B: 5, C: 6, N: 7, O: 8, F: 9, Si: 14, P: 15, S: 16, Cl: 17, Se: 34, Br: 35, I: 53 };

/** The two sides of bond [i, j] of `molblock`: the atoms each keeps (connected components once the bond is gone). */
export function sidesOf(molblock: string, i: number, j: number): [number[], number[]] {
  const mol = readMolblock(molblock);
  const next = mol.symbols.map(() => [] as number[]);
  for (const [a, b] of mol.bonds) {
    if ((a === i && b === j) || (a === j && b === i)) continue;
    next[a]!.push(b);
    next[b]!.push(a);
  }
  const reach = (start: number) => {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length) for (const n of next[stack.pop()!]!) if (!seen.has(n) && (seen.add(n), true)) stack.push(n);
    return [...seen].sort((a, b) => a - b);
  };
  const a = reach(i);
  if (a.includes(j)) throw new ItemFailure('invalid_bond', `breaking atoms ${i} and ${j} leaves one piece (a ring bond)`);
  return [a, reach(j)];
}

/** The raw BDE of each bond of `s` (its own order), the parent's structure, and the calculations run. */
export async function computeBdes(
  tools: EngineTools,
  dir: string,
  s: Structure,
  o: { bonds?: [number, number][]; method: BdeMethod },
): Promise<{ bonds: BondEnergy[]; parent: string; smiles: string }> {
  const found = await bondsOf(tools, dir, s.input, o.bonds, BDE_CONFORMERS);
  const bad = found.bonds.find((b) => b.error);
  if (bad) throw new ItemFailure('invalid_bond', `bond [${bad.atoms.join(', ')}]: ${bad.error}`);
  if (found.bonds.length > MAX_BONDS) throw new ItemFailure('too_many_bonds', `${found.bonds.length} bonds to break: a bde job takes at most ${MAX_BONDS} per molecule`);
  const form: Form = { smiles: found.smiles, charge: 0, molblocks: found.molblocks };
  const best = await lowestEnergy(tools, dir, s, form, { solvent: null, keep: BDE_KEEP });
  const parent = await species(tools, dir, s, [best.molblock], o.method);
  const mol = readMolblock(parent.molblock);
  const fragments = await runRdkit<{ bond: [number, number]; sides: { atoms: number[]; smiles: string; molblocks: string[] }[] }[]>(tools, dir, {
    command: 'fragments',
    smiles: s.input,
    bonds: found.bonds.map((b) => b.atoms),
    conformers: BDE_CONFORMERS,
  });
  const cache = new Map<string, Species>();
  const out: BondEnergy[] = [];
  for (const [k, b] of found.bonds.entries()) {
    const [i, j] = b.atoms;
    const sides = sidesOf(parent.molblock, i, j);
    let h = 0;
    for (const side of sides) {
      // A lone atom (H, Cl...) is the same whichever bond gave it.
      const key = side.length === 1 ? `atom ${parent.symbols[side[0]!]}` : side.join(',');
      let sp = cache.get(key);
      if (!sp) {
        const own = fragments[k]!.sides.find((f) => f.atoms.length === side.length && f.atoms.every((a, n) => a === side[n]))?.molblocks ?? [];
        sp = await species(tools, dir, s, [subsetMolblock(mol, side), ...own.slice(0, BDE_KEEP)], o.method);
        cache.set(key, sp);
      }
      h += sp.enthalpyHartree;
    }
    out.push({
      atoms: [i, j],
      elements: b.elements ?? [parent.symbols[i]!, parent.symbols[j]!],
      equivalent: b.equivalent,
      raw_kcal_mol: (h - parent.enthalpyHartree) * KCAL_PER_HARTREE,
    });
  }
  return { bonds: out, parent: parent.molblock, smiles: found.smiles };
}
