// What the chemistry-question job types share (docs/questions.md): the
// checks of a structure before any engine runs (closed shell, organic elements), the estimate
// of their GFN2 optimisations, and their `method` field.
import { Type } from '@sinclair/typebox';
import type { StructureInfoOutcome } from '../../../chem/jobs/types.js';
import { ItemFailure, type Structure } from '../../../engines/tools.js';
import type { Estimate } from '../../job-type.js';
import { ASSUMED_ATOMS, costSec, ENGINE_COSTS, OVERHEAD_SEC, SAFETY } from './calibration.js';
import { checkStructure } from './structures.js';

/** The elements of organic molecules whose protonation and tautomers the calibration covers. */
const ORGANIC = new Set(['H', 'B', 'C', 'N', 'O', 'F', 'Si', 'P', 'S', 'Cl', 'Se', 'Br', 'I']);

export const gfn2Only = (description = 'gfn2: GFN2-xTB (xtb) geometries and energies; the calibration is for it alone') =>
  Type.Optional(Type.Literal('gfn2', { default: 'gfn2', description }));

/** Why a structure cannot be asked `question` (an ItemFailure): unreadable, too large, a radical, a metal. */
export function checkQuestion(s: Structure, question: string, o: { closedShell: boolean }): void {
  checkStructure(s, 'gfn2');
  const metals = s.info.elements.filter((e) => !ORGANIC.has(e));
  if (metals.length) throw new ItemFailure('unsupported_element', `${question} is calibrated on organic molecules: ${metals.join(', ')} is outside it`);
  if (o.closedShell && s.info.electrons % 2 === 1)
    throw new ItemFailure('radical', `${question} is computed for closed-shell molecules: this one has an odd number of electrons (a radical)`);
}

/**
 * The CPU model of the questions' work (docs/questions.md, "Estimates"), fitted to the jobs'
 * runtimes of two idle runs on ten drugs of 20 to 68 atoms by scripts/questions/fit-costs.ts: seconds per RDKit
 * program run (Python, RDKit's import, the embedding), a GFN2 optimisation from an RDKit conformer
 * (base + perAtom x atoms^power, ALPB water included) and the scale of the `frequencies` cost row
 * for each GFN2 Hessian.
 */
export const QUESTION_COSTS = { rdkitRun: 0.233, optimisationBase: 0.372, optimisationPerAtom: 1.85e-5, atomsPower: 3, hessianScale: 1.13 };

/** CPU seconds of one GFN2 optimisation of a structure of `atoms` atoms. */
export function optimisationSec(atoms: number, c = QUESTION_COSTS): number {
  return c.optimisationBase + c.optimisationPerAtom * atoms ** c.atomsPower;
}

/** An estimate of structures each needing `rdkitRuns` RDKit runs and `optimisations` GFN2 optimisations of its size. */
export function questionEstimate(
  question: string,
  infos: (Pick<StructureInfoOutcome, 'atoms'> | null)[],
  per: (i: number) => { rdkitRuns: number; optimisations: number; hessians?: number },
): Estimate {
  let total = 0;
  let optimisations = 0;
  let hessians = 0;
  // The model's terms, for its refit (scripts/questions/fit-costs.ts): RDKit runs, atoms, Hessian seconds.
  let runs = 0;
  let atomsTotal = 0;
  let hessianSec = 0;
  infos.forEach((info, i) => {
    const { rdkitRuns, optimisations: k, hessians: hk = 0 } = per(i);
    optimisations += k;
    hessians += hk;
    runs += rdkitRuns;
    const atoms = info?.atoms ?? ASSUMED_ATOMS;
    atomsTotal += atoms;
    const hessian = hk * costSec(ENGINE_COSTS.gfn2!.frequencies, atoms);
    hessianSec += hessian;
    total += rdkitRuns * QUESTION_COSTS.rdkitRun + k * optimisationSec(atoms) + QUESTION_COSTS.hessianScale * hessian;
  });
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * total) * 1000) / 1000,
    assumptions: {
      structures: infos.length,
      question,
      gfn2_optimisations: Math.round(optimisations * 10) / 10,
      gfn2_hessians: hessians,
      rdkit_runs: runs,
      atoms_total: atomsTotal,
      hessian_sec: Math.round(hessianSec * 1000) / 1000,
      model: `overhead + ${SAFETY} x (RDKit runs x ${QUESTION_COSTS.rdkitRun} s + GFN2 optimisations x (${QUESTION_COSTS.optimisationBase} + ${QUESTION_COSTS.optimisationPerAtom} x atoms^${QUESTION_COSTS.atomsPower}) s + ${QUESTION_COSTS.hessianScale} x GFN2 Hessians as frequencies jobs) (docs/questions.md, "Estimates")`,
    },
  };
}

/** Conformers a form is expected to keep after pruning, of at most `keep`: one per rigid form, one more per rotatable bond (measured on ten drugs). */
export function expectedConformers(rotatable: number, keep: number): number {
  return Math.min(keep, 1 + rotatable);
}
