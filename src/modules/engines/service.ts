// What GET /engines reports (docs/engines.md): per engine, whether any live compute worker
// found it, where and which version, and the job types this server's workers can run with it.
import { ENGINE_NAMES, ENGINES, type EngineName } from '../../engines/catalog.js';
import { enginePaperMethods } from '../../engines/dft/methods.js';
import type { Engines } from '../../engines/discovery.js';
import { RUNNABLE_TYPES } from '../../compute/registry.js';
import { workersStore } from '../../compute/workers-store.js';
import type { Database } from '../../db/database.js';

/** The methods each engine runs, as the papers catalog names them. */
export const ENGINE_METHODS: Readonly<Record<EngineName, readonly string[]>> = {
  xtb: ['gfn2', 'gfn1', 'gfnff', 'alpb'],
  mopac: ['pm7', 'pm6', 'cosmo'],
  obabel: ['openbabel'],
  vina: ['vina', 'vina12'],
  psi4: enginePaperMethods('psi4'),
  nwchem: enginePaperMethods('nwchem'),
  rdkit: ['rdkit'],
  pdbfixer: ['pdbfixer'],
  pdb2pqr: ['pdb2pqr', 'propka'],
  plip: ['plip'],
};

/** Whether a worker that found `engines` can run some job of `type` (one of its engine sets complete). */
function canRun(engineSets: readonly (readonly EngineName[])[], engines: Engines): boolean {
  return engineSets.some((set) => set.every((e) => engines[e]?.available));
}

export class EngineService {
  constructor(private readonly db: Database) {}

  async list() {
    const live = await workersStore.live(this.db);
    return {
      workers: live.length,
      engines: ENGINE_NAMES.map((name) => {
        const having = live.filter((w) => w.engines[name]?.available);
        const first = having[0]?.engines[name];
        const jobTypes = [...RUNNABLE_TYPES.values()]
          .filter((t) => (t.engineSets ?? []).some((set) => set.includes(name)))
          .filter((t) =>
            having.some((w) =>
              canRun(
                (t.engineSets ?? []).filter((set) => set.includes(name)),
                w.engines,
              ),
            ),
          )
          .map((t) => t.name);
        return {
          name,
          available: having.length > 0,
          version: first?.version ?? null,
          path: first?.path ?? null,
          job_types: [...new Set(jobTypes)],
          methods: [...ENGINE_METHODS[name]],
          debian_package: ENGINES[name].debianPackage,
          workers: having.length,
          summary: ENGINES[name].summary,
        };
      }),
    };
  }
}
