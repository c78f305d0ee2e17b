// The energy of one chemical form (docs/questions.md): RDKit's 3D
// conformers of it (src/engines/rdkit/program.ts), the lowest few by force field each optimised
// with GFN2-xTB in ALPB solvent, and the lowest of those.
import fs from 'node:fs';
import path from 'node:path';
import { readMolblockAtoms } from '../molblock.js';
import { runXtb, type XtbOptions } from '../qm/xtb.js';
import { ItemFailure, type EngineTools, type Prepared, type Structure } from '../tools.js';

/** A form as the RDKit program gives it: its SMILES, total charge and conformers (lowest force-field energy first). */
export interface Form {
  smiles: string;
  charge: number;
  molblocks: string[];
}

export interface FormEnergy {
  energyHartree: number;
  /** The lowest structure, optimised. */
  molblock: string;
  /** Conformers optimised. */
  optimised: number;
}

/** Conformers RDKit embeds per form, from the rotatable bonds. */
export function conformersToEmbed(rotatable: number): number {
  return Math.min(30, 4 + 4 * rotatable);
}

/** The lowest GFN2 (or `method`) energy over the first `keep` conformers of `form`, each optimised in `solvent` (multiplicity from its electrons). */
export async function lowestEnergy(
  tools: EngineTools,
  dir: string,
  s: Structure,
  form: Form,
  o: { solvent: string | null; keep: number; multiplicity?: number; method?: XtbOptions['method'] },
): Promise<FormEnergy> {
  let best: FormEnergy | null = null;
  let lastFailure: ItemFailure | null = null;
  const work = path.join(dir, 'form');
  fs.mkdirSync(work, { recursive: true });
  const tried = form.molblocks.slice(0, o.keep);
  for (const molblock of tried) {
    const prepared: Prepared = { ...s, molblock, ...readMolblockAtoms(molblock) };
    try {
      const r = await runXtb(tools, work, prepared, {
        method: o.method ?? 'gfn2',
        solvent: o.solvent,
        charge: form.charge,
        multiplicity: o.multiplicity ?? 1,
        optimize: { level: 'normal' },
      });
      if (!best || r.energyHartree < best.energyHartree) best = { energyHartree: r.energyHartree, molblock: r.molblock, optimised: 0 };
    } catch (err) {
      if (!(err instanceof ItemFailure)) throw err;
      lastFailure = err;
    }
  }
  if (!best) throw lastFailure ?? new ItemFailure('engine_failed', `RDKit gave no 3D structure of ${form.smiles}`);
  return { ...best, optimised: tried.length };
}
