// Tautomers (docs/questions.md, "Tautomers"): RDKit's enumeration (its TautomerEnumerator, through
// the RDKit program), each tautomer's lowest conformer by GFN2 in the solvent, then the free
// energy (GFN2's harmonic thermochemistry at 298.15 K) of those within FREE_WINDOW_KCAL of the
// lowest, at most FREE_AT_MOST of them; the others keep their electronic energy. Populations by
// Boltzmann over what each has.
import { readMolblockAtoms } from '../molblock.js';
import { boltzmannWeights, KCAL_PER_HARTREE } from '../qm/ensemble.js';
import { xtbVibrations } from '../qm/hessian.js';
import { runRdkit } from '../rdkit/program.js';
import { ItemFailure, type EngineTools, type Structure } from '../tools.js';
import { lowestEnergy, type Form, type FormEnergy } from './forms.js';

export const MAX_TAUTOMERS = 200;
/** Conformers RDKit embeds per tautomer, and how many of the lowest xtb optimises. */
export const TAUTOMER_CONFORMERS = 8;
export const TAUTOMER_KEEP = 3;
/** Tautomers whose electronic energy is this close to the lowest get a free energy. */
export const FREE_WINDOW_KCAL = 10;
export const FREE_AT_MOST = 10;
const TEMPERATURE_K = 298.15;

export interface Tautomer {
  smiles: string;
  relative_kcal: number;
  fraction: number;
  /** What it is ranked by (Hartree): its free energy, or for an electronic one its energy plus the lowest's thermal part. */
  energy_hartree: number;
  /** free: GFN2's free energy at 298.15 K; electronic: outside the window, its energy alone. */
  energy: 'free' | 'electronic';
  molblock: string;
}

export interface TautomerEnumeration {
  count: number;
  over: boolean;
  canonical?: string;
  tautomers: Form[];
}

/** RDKit's tautomers of `input` (no structures when `conformers` is 0); `over` when there are more than `max`. */
export function enumerateTautomers(tools: EngineTools, dir: string, input: string, max: number, conformers: number): Promise<TautomerEnumeration> {
  return runRdkit<TautomerEnumeration>(tools, dir, { command: 'tautomers', smiles: input, max, conformers });
}

export async function rankTautomers(tools: EngineTools, dir: string, s: Structure, o: { solvent: string | null; max: number }): Promise<{ tautomers: Tautomer[]; count: number }> {
  const e = await enumerateTautomers(tools, dir, s.input, o.max, TAUTOMER_CONFORMERS);
  if (e.over) throw new ItemFailure('too_many_tautomers', `RDKit enumerates more than ${o.max} tautomers of this molecule (max_tautomers ${o.max}; at most ${MAX_TAUTOMERS})`);
  const lowest: (FormEnergy & { form: Form })[] = [];
  for (const form of e.tautomers) lowest.push({ form, ...(await lowestEnergy(tools, dir, s, form, { solvent: o.solvent, keep: TAUTOMER_KEEP })) });
  const e0 = Math.min(...lowest.map((t) => t.energyHartree));
  const byEnergy = [...lowest.keys()].sort((a, b) => lowest[a]!.energyHartree - lowest[b]!.energyHartree);
  const free = new Set(byEnergy.filter((i) => (lowest[i]!.energyHartree - e0) * KCAL_PER_HARTREE <= FREE_WINDOW_KCAL).slice(0, FREE_AT_MOST));
  const values: number[] = [];
  for (const [i, t] of lowest.entries()) {
    if (!free.has(i)) {
      values[i] = t.energyHartree;
      continue;
    }
    const prepared = { ...s, molblock: t.molblock, ...readMolblockAtoms(t.molblock) };
    const v = await xtbVibrations(tools, dir, prepared, { method: 'gfn2', solvent: o.solvent, charge: t.form.charge, multiplicity: 1, temperatureK: TEMPERATURE_K });
    values[i] = v.gibbsHartree;
  }
  // The electronic-only ones are placed by their energy above the lowest free one's electronic energy.
  const ref = byEnergy[0]!;
  const offset = values[ref]! - lowest[ref]!.energyHartree;
  const g = lowest.map((_, i) => (free.has(i) ? values[i]! : values[i]! + offset));
  const weights = boltzmannWeights(g, TEMPERATURE_K);
  const gMin = Math.min(...g);
  const out = lowest.map((t, i) => ({
    smiles: t.form.smiles,
    relative_kcal: Math.round((g[i]! - gMin) * KCAL_PER_HARTREE * 1000) / 1000,
    fraction: Math.round(weights[i]! * 1e4) / 1e4,
    energy_hartree: g[i]!,
    energy: free.has(i) ? ('free' as const) : ('electronic' as const),
    molblock: t.molblock,
  }));
  return { tautomers: out.sort((a, b) => a.relative_kcal - b.relative_kcal), count: e.count };
}
