// The quantum-chemistry job types' common part (docs/engines.md): the payload checks at submit
// (sizes, charge and multiplicity of inline structures), the estimate, and one calculation of
// a prepared structure by the method's engine (xtb or MOPAC).
import { invalid } from '../../../errors.js';
import type { StructureInfoOutcome } from '../../../chem/jobs/types.js';
import type { EstimateContext, RunContext } from '../../job-type.js';
import { engineEstimate, type EngineTask } from './calibration.js';
import { runMopac } from '../../../engines/qm/mopac.js';
import { runXtb, type XtbOptions, type XtbResult } from '../../../engines/qm/xtb.js';
import { prepare } from '../../../engines/prepare.js';
import { ItemFailure, type EngineTools, type Prepared, type Structure } from '../../../engines/tools.js';
import { countStructures, maxAtoms, spinOf, spinProblem, XTB_METHODS, type QmMethod, type QmPayload } from './payload.js';
import { runItems, type ItemOutput } from './run.js';
import { checkStructure, loadStructures } from './structures.js';

export type QmResult = XtbResult;

/** One calculation by either engine: xtb's options, any QM method (MOPAC's PRECISE is always on: it takes no optimisation `level`). */
export type QmCall = Omit<XtbOptions, 'method'> & { method: QmMethod };

export function methodOf(p: QmPayload): QmMethod {
  return p.method ?? 'gfn2';
}

/** One calculation with the method's engine. */
export function runQm(tools: EngineTools, dir: string, s: Prepared, c: QmCall): Promise<QmResult> {
  if (XTB_METHODS.includes(c.method)) return runXtb(tools, dir, s, { ...c, method: c.method as 'gfn2' | 'gfn1' | 'gfnff' });
  return runMopac(tools, dir, s, { ...c, method: c.method as 'pm7' | 'pm6' });
}

/** The charge and multiplicity of a structure, or an ItemFailure when they do not fit its electrons. */
export function chargeAndSpin(p: Pick<QmPayload, 'charge' | 'multiplicity'>, s: Structure): { charge: number; multiplicity: number } {
  const charge = p.charge ?? s.info.formalCharge;
  const electrons = s.info.electrons + s.info.formalCharge - charge;
  const spin = spinOf(electrons, p.multiplicity);
  if (!spin.ok) throw new ItemFailure('charge_multiplicity', spinProblem('the structure', electrons, charge, spin));
  return { charge, multiplicity: spin.multiplicity };
}

/**
 * The checks a JSON schema cannot make, and the estimate: inline structures are read by RDKit
 * on the chemistry pool, so that a charge and multiplicity that do not fit a structure's
 * electrons is a 422 before anything is reserved, and the estimate counts their atoms. An
 * uploaded set is checked when the job runs (item errors).
 */
export async function qmEstimate(p: QmPayload, ctx: EstimateContext, task: EngineTask, extraSteps = 1) {
  const n = await countStructures(p, ctx);
  const method = methodOf(p);
  let atoms: number[] = [];
  if (p.molecules && ctx.structureInfo) {
    const infos = await ctx.structureInfo(p.molecules);
    checkSpins(p, infos);
    atoms = infos.map((i) => (i.error ? 0 : Math.min(i.atoms, maxAtoms(method))));
  }
  return engineEstimate(method, task, n, atoms, extraSteps);
}

/**
 * Inline structures whose charge and multiplicity cannot fit their electrons: a 422 before
 * anything is reserved. Unreadable or oversized structures are item errors when the job runs
 * (one bad structure never fails the others); a charge and multiplicity that cannot fit is the
 * request's mistake.
 */
export function checkSpins(p: Pick<QmPayload, 'molecules' | 'charge' | 'multiplicity'>, infos: StructureInfoOutcome[]): void {
  infos.forEach((info, i) => {
    if (info.error) return;
    const charge = p.charge ?? info.formalCharge;
    const electrons = info.electrons + info.formalCharge - charge;
    const spin = spinOf(electrons, p.multiplicity);
    if (spin.ok) return;
    // No electrons: the charge given, else the structure itself (a bare proton) is the mistake.
    const at = spin.noElectrons ? (p.charge !== undefined ? ['charge'] : ['molecules', i]) : [p.multiplicity !== undefined ? 'multiplicity' : 'charge'];
    throw invalid(
      at,
      spinProblem(`structure ${i}`, electrons, charge, spin),
      at[0] === 'molecules' ? p.molecules![i]! : (p.multiplicity ?? p.charge ?? null),
      'charge_multiplicity',
    );
  });
}

export type QmRunContext = RunContext<QmPayload>;

/** Seconds one engine call may take: the job's runtime limit is the real bound; this stops a single hung call. */
export const QM_CALL_MS = 30 * 60_000;

/** One structure of a QM job, ready for its calculations. */
export interface QmItem {
  s: Structure;
  tools: EngineTools;
  dir: string;
  /** Its charge and multiplicity. */
  spin: { charge: number; multiplicity: number };
  /** Its 3D structure, by Open Babel. */
  prepared: Prepared;
  /** The job's structures. */
  total: number;
}

/**
 * Runs `work` on each of the job's structures (runItems, labelled `label`), each first checked
 * for the payload's method, given its charge and multiplicity, and prepared in 3D.
 */
export async function runQmItems(ctx: QmRunContext, label: string, work: (item: QmItem) => Promise<ItemOutput>) {
  const p = ctx.payload;
  const method = methodOf(p);
  const structures = await loadStructures(ctx);
  return runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label }, async (s, tools, dir) => {
    checkStructure(s, method);
    const spin = chargeAndSpin(p, s);
    return work({ s, tools, dir, spin, prepared: await prepare(s, tools, dir), total: structures.length });
  });
}
