// `optimize` and `singlepoint` (docs/engines.md, "Optimisation and single points", and "DFT"): a
// geometry optimisation, or the energy and electronic properties at the given geometry, with
// GFN2-xTB, GFN1-xTB or GFN-FF (xtb), PM7 or PM6 (MOPAC), or a DFT or HF method with a basis set
// (Psi4 or NWChem), in the gas phase or an implicit solvent. Result items: molblock,
// energy_hartree, homo_lumo_gap_ev, dipole_debye, charges, converged, iterations; DFT and HF
// items also engine, engine_version, method, basis.
import { Type, type Static } from '@sinclair/typebox';
import type { JobType, RunContext } from '../job-type.js';
import { methodOf, qmEstimate, QM_CALL_MS, runQm, runQmItems } from './kit/qm.js';
import { checkDftPayload, DFT_ENGINE_SETS, dftEngineOf, dftEngines, dftEstimateOf, dftFields, dftItemFields, isDft, runDftItem, type DftPayload } from './kit/dft.js';
import { ENGINE_SETS, enginesForMethod, qmFields, structureFields, type QmPayload } from './kit/payload.js';
import { engineOutput, runItems, type ItemOutput } from './kit/run.js';
import { OptimizeResult, SinglepointResult } from './kit/results.js';
import { loadStructures } from './kit/structures.js';
import { engineJob } from './kit/engine-job.js';
import { dftPaperMethods, enginePaperMethods, type DftMethod } from '../../engines/dft/methods.js';
import type { EngineTools, Structure } from '../../engines/tools.js';

const Payload = Type.Object({ ...structureFields(), ...qmFields(), ...dftFields() }, { additionalProperties: false });
type Payload = Static<typeof Payload> & DftPayload;

/** Methods named for /papers/cite: the method, the solvation model, and Open Babel (3D structures); for DFT the functional, dispersion, basis set, solvation and engine. */
export function qmMethods(p: DftPayload): string[] {
  if (isDft(p)) return [...dftPaperMethods(p.method, p.basis ?? 'def2-svp', p.solvent, dftEngineOf(p)), 'openbabel'];
  const m = methodOf(p as QmPayload);
  const solvation = p.solvent ? [m === 'pm7' || m === 'pm6' ? 'cosmo' : 'alpb'] : [];
  return [m, ...solvation, 'openbabel'];
}

/** Every method these types may cite (GET /papers). */
const METHODS = ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6', 'alpb', 'cosmo', 'openbabel', ...new Set([...enginePaperMethods('psi4'), ...enginePaperMethods('nwchem')])];

/** One structure with a DFT or HF method (Psi4 or NWChem). */
async function dft(ctx: RunContext<Payload>, optimizing: boolean, s: Structure, tools: EngineTools, dir: string): Promise<ItemOutput> {
  const p = ctx.payload as Payload & { method: DftMethod };
  const { r, spin } = await runDftItem(p, s, tools, dir, { optimize: optimizing ? { maxIterations: p.max_iterations } : undefined });
  const fields = {
    molblock: r.molblock,
    energy_hartree: r.energyHartree,
    homo_lumo_gap_ev: r.gapEv,
    homo_ev: r.homoEv,
    lumo_ev: r.lumoEv,
    dipole_debye: r.dipoleDebye,
    charges: r.mulliken,
    charge: spin.charge,
    multiplicity: spin.multiplicity,
    basis_functions: r.basisFunctions,
    ...(optimizing ? { converged: r.converged, iterations: r.iterations } : {}),
  };
  const scalars = { energy_hartree: r.energyHartree, homo_lumo_gap_ev: r.gapEv, dipole_debye: r.dipoleDebye, ...(optimizing ? { iterations: r.iterations } : {}) };
  return { fields, structures: [{ molblock: r.molblock, props: scalars }], row: scalars };
}

function qmJob(name: 'optimize' | 'singlepoint'): JobType<Payload> {
  const optimizing = name === 'optimize';
  const job = engineJob<Payload>(name, { structures: 'molecules', table: 'table' }, 'method', {
    summary: optimizing
      ? 'Geometry optimisation with GFN2-xTB, GFN1-xTB, GFN-FF (xtb), PM7, PM6 (MOPAC) or DFT and HF with a basis set (Psi4, NWChem), in the gas phase or an implicit solvent'
      : 'Energy, HOMO-LUMO gap, dipole and partial charges at the given geometry (xtb, MOPAC, or DFT and HF with Psi4 or NWChem)',
    payload: Payload,
    result: optimizing ? OptimizeResult : SinglepointResult,
    methods: METHODS,
    methodsOf: qmMethods,
    estimate: async (p, ctx) => {
      if (isDft(p)) return dftEstimateOf(p, ctx, optimizing ? 'optimize' : 'singlepoint');
      checkDftPayload(p);
      return qmEstimate(p as QmPayload, ctx, optimizing ? 'optimize' : 'singlepoint');
    },
    async run(ctx) {
      const p = ctx.payload;
      if (!isDft(p)) {
        const method = methodOf(p as QmPayload);
        const run = await runQmItems(ctx as RunContext<QmPayload>, name, async ({ tools, dir, spin, prepared }) => {
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
      }
      const structures = await loadStructures(ctx);
      const run = await runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label: name }, (s, tools, dir) => dft(ctx, optimizing, s, tools, dir));
      // Every item, failed or not, says what ran it (docs/engines.md, "DFT").
      const engine = dftEngineOf(p);
      const carried = dftItemFields(p, ctx.deps.engines?.[engine]?.version ?? null);
      for (const it of run.items) Object.assign(it.fields, carried);
      return engineOutput(name, p.method, run, { solvent: p.solvent ?? null, ...carried });
    },
  });
  // A DFT or HF method needs its engine (Psi4 or NWChem), not xtb or MOPAC.
  return { ...job, engines: (p) => (isDft(p) ? dftEngines(p) : enginesForMethod(methodOf(p as QmPayload))), engineSets: [...ENGINE_SETS, ...DFT_ENGINE_SETS] };
}

export const optimizeJob = qmJob('optimize');
export const singlepointJob = qmJob('singlepoint');
