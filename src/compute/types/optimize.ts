// `optimize` and `singlepoint` (docs/engines.md, "Optimisation and single points"): a geometry optimisation,
// or the energy and electronic properties at the given geometry, with GFN2-xTB, GFN1-xTB or
// GFN-FF (xtb) or PM7 or PM6 (MOPAC), in the gas phase or an implicit solvent. Result items:
// molblock, energy_hartree, homo_lumo_gap_ev, dipole_debye, charges, converged, iterations.
import { Type, type Static } from '@sinclair/typebox';
import type { JobType } from '../job-type.js';
import { methodOf, qmEstimate, runQm, runQmItems } from './kit/qm.js';
import { qmFields, structureFields, type QmPayload } from './kit/payload.js';
import { engineOutput } from './kit/run.js';
import { OptimizeResult, SinglepointResult } from './kit/results.js';
import { engineJob } from './kit/engine-job.js';

const Payload = Type.Object({ ...structureFields(), ...qmFields() }, { additionalProperties: false });
type Payload = Static<typeof Payload> & QmPayload;

/** Methods named for /papers/cite: the method, the solvation model, and Open Babel (3D structures). */
export function qmMethods(p: QmPayload): string[] {
  const m = methodOf(p);
  const solvation = p.solvent ? [m === 'pm7' || m === 'pm6' ? 'cosmo' : 'alpb'] : [];
  return [m, ...solvation, 'openbabel'];
}

function qmJob(name: 'optimize' | 'singlepoint'): JobType<Payload> {
  const optimizing = name === 'optimize';
  return engineJob<Payload>(name, { structures: 'molecules', table: 'table' }, 'method', {
    summary: optimizing
      ? 'Geometry optimisation with GFN2-xTB, GFN1-xTB, GFN-FF (xtb) or PM7, PM6 (MOPAC), in the gas phase or an implicit solvent'
      : 'Energy, HOMO-LUMO gap, dipole and partial charges at the given geometry (xtb or MOPAC)',
    payload: Payload,
    result: optimizing ? OptimizeResult : SinglepointResult,
    methods: ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6', 'alpb', 'cosmo', 'openbabel'],
    methodsOf: qmMethods,
    estimate: (p, ctx) => qmEstimate(p, ctx, optimizing ? 'optimize' : 'singlepoint'),
    async run(ctx) {
      const p = ctx.payload;
      const method = methodOf(p);
      const run = await runQmItems(ctx, name, async ({ tools, dir, spin, prepared }) => {
        const r = await runQm(tools, dir, prepared, { method, solvent: p.solvent, ...spin, optimize: optimizing ? { maxIterations: p.max_iterations } : undefined });
        const heat = (r as { heatOfFormationKcal?: number }).heatOfFormationKcal;
        const fields = {
          molblock: r.molblock,
          energy_hartree: r.energyHartree,
          ...(heat !== undefined ? { heat_of_formation_kcal_mol: heat } : {}),
          homo_lumo_gap_ev: r.gapEv,
          dipole_debye: r.dipoleDebye,
          charges: r.charges,
          charge: spin.charge,
          multiplicity: spin.multiplicity,
          ...(optimizing ? { converged: r.converged, iterations: r.iterations } : {}),
        };
        const scalars = { energy_hartree: r.energyHartree, homo_lumo_gap_ev: r.gapEv, dipole_debye: r.dipoleDebye, ...(optimizing ? { iterations: r.iterations } : {}) };
        return { fields, structures: [{ molblock: r.molblock, props: scalars }], row: scalars };
      });
      return engineOutput(name, method, run, { solvent: p.solvent ?? null });
    },
  });
}

export const optimizeJob = qmJob('optimize');
export const singlepointJob = qmJob('singlepoint');
