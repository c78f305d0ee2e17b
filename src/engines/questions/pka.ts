// pKa and charge state (docs/questions.md, "pKa"): the sites of the SMARTS catalogue, each one's
// micro pKa from the GFN2/ALPB(water) energies of its protonated and deprotonated forms (the
// lowest of a few RDKit conformers each, optimised) through its class's calibration line, then
// the microstates' populations at the pH.
//
// A site is computed with the other sites as they are at its own pKa: first every site from the
// neutral molecule; then each site again where another site would have changed before it (an
// acid of lower pKa deprotonated, a base of higher pKa protonated), so that a zwitterion's acid
// is computed next to the protonated amine and a diamine's second pKa next to the first cation.
// The microstates are the sites taken as independent with those pKa values.
import { runRdkit } from '../rdkit/program.js';
import { ItemFailure, type EngineTools, type Structure } from '../tools.js';
import { conformersToEmbed, lowestEnergy, type Form } from './forms.js';
import { PKA_LINES, type PkaLine } from './pka-calibration.js';
import { MAX_SITES, SITE_CATALOGUE, type SiteKind } from './sites.js';

const KCAL_PER_HARTREE = 627.5094740631;

export interface FoundSite {
  atom_index: number;
  element: string;
  class: string;
  kind: SiteKind;
  hydrogens: number;
}

export interface SitePka {
  atom_index: number;
  element: string;
  kind: SiteKind;
  class: string;
  /** For a base, the pKa of its conjugate acid; null when its class has no calibration. */
  pka: number | null;
  reason: string | null;
  /** ΔE = E(deprotonated) - E(protonated), kcal/mol, in the site's context (null without a calibration). */
  delta_kcal: number | null;
}

export interface Microstate {
  smiles: string;
  charge: number;
  fraction: number;
}

export interface PkaResult {
  smiles: string;
  sites: SitePka[];
  microstates: Microstate[];
  dominant_smiles: string;
  dominant_charge: number;
  /** The dominant microstate's lowest structure (GFN2/ALPB), when it was one of the forms computed. */
  dominant_molblock: string | null;
  /** GFN2 geometry optimisations run. */
  optimisations: number;
}

export interface PkaOptions {
  ph: number;
  /** Conformers RDKit embeds per form (by default from the rotatable bonds), and how many of the lowest xtb optimises. */
  conformers?: number;
  keep: number;
}

/** The pKa of a site of `line`'s class from ΔE (kcal/mol) and its hydrogens. */
export function pkaOf(line: PkaLine, deltaKcal: number, hydrogens: number): number {
  return line.slope * deltaKcal + line.intercept + (line.perHydrogen ?? 0) * hydrogens + (hydrogens === 0 ? (line.tertiary ?? 0) : 0);
}

/** Conformers of each form optimised with GFN2 (the lowest by force field), in the job and in its calibration. */
export const PKA_KEEP = 5;

/** Microstates kept: those of at least this fraction, at most MAX_MICROSTATES of them. */
const MIN_FRACTION = 1e-3;
const MAX_MICROSTATES = 16;

/** The fraction of each site changed at `ph` (an acid deprotonated, a base protonated). */
export function changedFraction(kind: SiteKind, pka: number, ph: number): number {
  return kind === 'acid' ? 1 / (1 + 10 ** (pka - ph)) : 1 / (1 + 10 ** (ph - pka));
}

/** Independent sites: the states of at least MIN_FRACTION, most abundant first. */
export function microstateVectors(sites: { kind: SiteKind; pka: number }[], ph: number): { state: number[]; fraction: number }[] {
  let states: { state: number[]; fraction: number }[] = [{ state: [], fraction: 1 }];
  for (const s of sites) {
    const f = changedFraction(s.kind, s.pka, ph);
    states = states
      .flatMap((x) => [
        { state: [...x.state, 0], fraction: x.fraction * (1 - f) },
        { state: [...x.state, 1], fraction: x.fraction * f },
      ])
      .filter((x) => x.fraction >= MIN_FRACTION / 10);
  }
  return states
    .filter((x) => x.fraction >= MIN_FRACTION)
    .sort((a, b) => b.fraction - a.fraction)
    .slice(0, MAX_MICROSTATES);
}

/** Whether site j has changed before site i does (at pH = pKa_i): ties go to the lower index. */
function changedBefore(j: { kind: SiteKind; pka: number; index: number }, i: { pka: number; index: number }): boolean {
  if (j.pka === i.pka) return j.index < i.index;
  return j.kind === 'acid' ? j.pka < i.pka : j.pka > i.pka;
}

/** The GFN2/ALPB(water) energy (Hartree) of each protonation state of `sites` (1: the site changed): the lowest of its conformers. */
export async function stateEnergies(
  tools: EngineTools,
  dir: string,
  s: Structure,
  sites: readonly FoundSite[],
  states: number[][],
  o: { conformers: number; keep: number },
): Promise<{ energies: number[]; molblocks: string[]; optimisations: number }> {
  const forms = await runRdkit<Form[]>(tools, dir, { command: 'forms', smiles: s.input, sites, states, conformers: o.conformers });
  const energies: number[] = [];
  const molblocks: string[] = [];
  let optimisations = 0;
  for (const form of forms) {
    const e = await lowestEnergy(tools, dir, s, form, { solvent: 'water', keep: o.keep });
    optimisations += e.optimised;
    energies.push(e.energyHartree);
    molblocks.push(e.molblock);
  }
  return { energies, molblocks, optimisations };
}

/** The sites of the catalogue in a molecule (its neutral form), its SMILES, charge and rotatable bonds. */
export function findSites(tools: EngineTools, dir: string, input: string) {
  return runRdkit<{ smiles: string; charge: number; rotatable: number; sites: FoundSite[] }>(tools, dir, { command: 'sites', smiles: input, catalogue: SITE_CATALOGUE });
}

/** The pKa values and charge state of one closed-shell molecule. */
export async function computePka(tools: EngineTools, dir: string, s: Structure, o: PkaOptions): Promise<PkaResult> {
  const found = await findSites(tools, dir, s.input);
  if (found.sites.length > MAX_SITES) throw new ItemFailure('too_many_sites', `${found.sites.length} ionisable sites: a pka job takes at most ${MAX_SITES} per molecule`);
  const calibrated = found.sites.filter((x) => PKA_LINES[x.class]);
  const n = calibrated.length;
  const energies = new Map<string, number>();
  const structures = new Map<string, string>();
  let optimisations = 0;
  const key = (state: number[]) => state.join('');
  /** The energies of the states not yet known. */
  const compute = async (states: number[][]) => {
    const todo = [...new Map(states.filter((x) => !energies.has(key(x))).map((x) => [key(x), x])).values()];
    if (!todo.length) return;
    const r = await stateEnergies(tools, dir, s, calibrated, todo, { ...o, conformers: o.conformers ?? conformersToEmbed(found.rotatable) });
    optimisations += r.optimisations;
    r.energies.forEach((e, i) => energies.set(key(todo[i]!), e));
    r.molblocks.forEach((m, i) => structures.set(key(todo[i]!), m));
  };
  const unit = (i: number, base: number[] = new Array<number>(n).fill(0)) => base.map((v, j) => (j === i ? 1 - v : v));
  /** ΔE (kcal/mol) of site i in the context `ctx` (site i unchanged there): deprotonated less protonated. */
  const delta = (i: number, ctx: number[]) => {
    const unchanged = energies.get(key(ctx))!;
    const changed = energies.get(key(unit(i, ctx)))!;
    const d = (changed - unchanged) * KCAL_PER_HARTREE;
    return calibrated[i]!.kind === 'acid' ? d : -d;
  };
  const pkas: number[] = [];
  const deltas: number[] = [];
  if (n) {
    const neutral = new Array<number>(n).fill(0);
    await compute([neutral, ...calibrated.map((_, i) => unit(i))]);
    calibrated.forEach((site, i) => {
      deltas[i] = delta(i, neutral);
      pkas[i] = pkaOf(PKA_LINES[site.class]!, deltas[i]!, site.hydrogens);
    });
    // Each site again next to the sites that change before it.
    const first = calibrated.map((site, i) => ({ kind: site.kind, pka: pkas[i]!, index: i }));
    const contexts = first.map((si) => first.map((sj) => (sj.index !== si.index && changedBefore(sj, si) ? 1 : 0)));
    const needed = contexts.flatMap((ctx, i) => (ctx.some((v) => v) ? [ctx, unit(i, ctx)] : []));
    await compute(needed);
    contexts.forEach((ctx, i) => {
      if (!ctx.some((v) => v)) return;
      deltas[i] = delta(i, ctx);
      pkas[i] = pkaOf(PKA_LINES[calibrated[i]!.class]!, deltas[i]!, calibrated[i]!.hydrogens);
    });
  }
  const round2 = (v: number) => Math.round(v * 100) / 100;
  const sites: SitePka[] = found.sites.map((site) => {
    const i = calibrated.indexOf(site);
    return {
      atom_index: site.atom_index,
      element: site.element,
      kind: site.kind,
      class: site.class,
      pka: i >= 0 ? round2(pkas[i]!) : null,
      reason: i >= 0 ? null : `no calibration for the class ${site.class}: its pKa is not estimated (docs/questions.md, "pKa")`,
      delta_kcal: i >= 0 ? Math.round(deltas[i]! * 1000) / 1000 : null,
    };
  });
  const vectors = microstateVectors(
    calibrated.map((site, i) => ({ kind: site.kind, pka: pkas[i]! })),
    o.ph,
  );
  const named = await runRdkit<Form[]>(tools, dir, { command: 'forms', smiles: s.input, sites: calibrated, states: vectors.map((v) => v.state), conformers: 0 });
  const microstates = vectors.map((v, i) => ({ smiles: named[i]!.smiles, charge: named[i]!.charge, fraction: Math.round(v.fraction * 1e4) / 1e4 }));
  return {
    smiles: found.smiles,
    sites,
    microstates,
    dominant_smiles: microstates[0]!.smiles,
    dominant_charge: microstates[0]!.charge,
    dominant_molblock: structures.get(key(vectors[0]!.state)) ?? null,
    optimisations,
  };
}
