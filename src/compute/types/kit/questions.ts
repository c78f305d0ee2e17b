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

/** CPU seconds of one RDKit program run (Python and RDKit's import, the embedding). */
export const RDKIT_RUN_SEC = 0.6;

/**
 * CPU seconds of one GFN2 optimisation from an RDKit conformer (in ALPB water for pka and
 * tautomers), by atoms: measured on ten drugs of 20 to 68 atoms (docs/questions.md, "Estimates"):
 * 0.6 to 0.9 s at 20 atoms, 1.3 to 2.7 s at 41, 4.6 to 6.3 s at 63 to 68.
 */
export function optimisationSec(atoms: number): number {
  return 0.25 + 0.0011 * atoms ** 2;
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
  infos.forEach((info, i) => {
    const { rdkitRuns, optimisations: k, hessians: hk = 0 } = per(i);
    optimisations += k;
    hessians += hk;
    const atoms = info?.atoms ?? ASSUMED_ATOMS;
    total += rdkitRuns * RDKIT_RUN_SEC + k * optimisationSec(atoms) + hk * costSec(ENGINE_COSTS.gfn2!.frequencies, atoms);
  });
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * total) * 1000) / 1000,
    assumptions: {
      structures: infos.length,
      question,
      gfn2_optimisations: optimisations,
      gfn2_hessians: hessians,
      model: `overhead + ${SAFETY} x (RDKit runs x ${RDKIT_RUN_SEC} s + GFN2 optimisations x (0.25 + 0.0011 x atoms^2) s + GFN2 Hessians as frequencies jobs) (docs/questions.md, "Estimates")`,
    },
  };
}

/** Conformers a form is expected to keep after pruning, of at most `keep`: one per rigid form, one more per rotatable bond (measured on ten drugs). */
export function expectedConformers(rotatable: number, keep: number): number {
  return Math.min(keep, 1 + rotatable);
}
