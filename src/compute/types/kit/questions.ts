// What the chemistry-question job types share (docs/questions.md): the
// checks of a structure before any engine runs (closed shell, organic elements), the estimate
// of their GFN2 optimisations, and their `method` field.
import { Type } from '@sinclair/typebox';
import type { StructureInfoOutcome } from '../../../chem/jobs/types.js';
import { ItemFailure, type Structure } from '../../../engines/tools.js';
import type { Estimate } from '../../job-type.js';
import { costSec, ENGINE_COSTS, OVERHEAD_SEC, SAFETY, ASSUMED_ATOMS } from './calibration.js';
import { checkStructure } from './structures.js';

/** The elements of organic molecules whose protonation and tautomers the calibration covers. */
const ORGANIC = new Set(['H', 'B', 'C', 'N', 'O', 'F', 'Si', 'P', 'S', 'Cl', 'Se', 'Br', 'I']);

export const gfn2Only = () =>
  Type.Optional(Type.Literal('gfn2', { default: 'gfn2', description: 'gfn2: GFN2-xTB (xtb) geometries and energies; the calibration is for it alone' }));

/** Why a structure cannot be asked `question` (an ItemFailure): unreadable, too large, a radical, a metal. */
export function checkQuestion(s: Structure, question: string, o: { closedShell: boolean }): void {
  checkStructure(s, 'gfn2');
  const metals = s.info.elements.filter((e) => !ORGANIC.has(e));
  if (metals.length) throw new ItemFailure('unsupported_element', `${question} is calibrated on organic molecules: ${metals.join(', ')} is outside it`);
  if (o.closedShell && s.info.electrons % 2 === 1)
    throw new ItemFailure('radical', `${question} is computed for closed-shell molecules: this one has an odd number of electrons (a radical)`);
}

/** Seconds of one RDKit program run (Python and RDKit's import, the embedding). */
export const RDKIT_RUN_SEC = 1;
/** GFN2 optimisations in ALPB water take longer than in the gas phase by this factor (measured on the pKa set). */
export const ALPB_FACTOR = 1.3;

/** An estimate of structures each needing `rdkitRuns` RDKit runs and `optimisations` GFN2 optimisations of its size. */
export function questionEstimate(
  question: string,
  infos: (Pick<StructureInfoOutcome, 'atoms'> | null)[],
  per: (i: number) => { rdkitRuns: number; optimisations: number },
): Estimate {
  const c = ENGINE_COSTS.gfn2!.optimize;
  let total = 0;
  let optimisations = 0;
  infos.forEach((info, i) => {
    const { rdkitRuns, optimisations: k } = per(i);
    optimisations += k;
    total += rdkitRuns * RDKIT_RUN_SEC + k * ALPB_FACTOR * costSec(c, info?.atoms ?? ASSUMED_ATOMS);
  });
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * total) * 1000) / 1000,
    assumptions: {
      structures: infos.length,
      question,
      gfn2_optimisations: optimisations,
      model: `overhead + ${SAFETY} x (RDKit runs x ${RDKIT_RUN_SEC} s + GFN2 optimisations x ${ALPB_FACTOR} x (base + k2 x atoms^2 + k3 x atoms^3)) (docs/jobs.md)`,
    },
  };
}

/** Conformers a form is expected to keep after pruning, of at most `keep`: one per rigid form, more with rotatable bonds. */
export function expectedConformers(rotatable: number, keep: number): number {
  return Math.min(keep, 1 + 2 * rotatable);
}
