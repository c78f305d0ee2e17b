// A raw receptor in docking (docs/structure.md, "Docking a raw receptor"): a receptor given
// without hydrogens is prepared as receptor_prepare prepares one (PDBFixer's missing atoms, then
// PDB2PQR with PROPKA's protonation states at the job's pH) before Open Babel writes its PDBQT,
// unless the payload asks for Open Babel's own hydrogens. The result says which ran and what changed.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { EngineName } from '../../../engines/catalog.js';
import { hasHydrogens, RECEPTOR_PDB, type ReceptorSummary } from '../../../engines/docking/receptor.js';
import { prepareProtein, type Change, type Protonation } from '../../../engines/receptor/prepare.js';
import type { EngineTools } from '../../../engines/tools.js';

export const receptorProtonationField = {
  receptor_protonation: Type.Optional(
    Type.Union([Type.Literal('propka'), Type.Literal('openbabel')], {
      default: 'propka',
      description:
        "A receptor given without hydrogens: propka prepares it as receptor_prepare does (PDBFixer's missing atoms, PDB2PQR with PROPKA's protonation states at ph); openbabel adds Open Babel's hydrogens at ph. A receptor with its hydrogens keeps them either way",
    }),
  ),
};

/** The engines the preparation of a raw receptor needs. */
export const PROTONATION_ENGINES: EngineName[] = ['pdbfixer', 'pdb2pqr'];

export interface RawReceptorPreparation {
  by: 'pdbfixer+pdb2pqr';
  ph: number;
  hydrogens_added: number;
  changes: Change[];
  protonation: Protonation[];
}

/**
 * Prepares the receptor file in `dir` (RECEPTOR_PDB) in place when it has no hydrogens and PROPKA
 * is asked for: the prepared file replaces it; null when nothing was done. The content's hash
 * changes with it, so Open Babel's cached PDBQT of the raw file is never taken for this one.
 */
export async function protonateRawReceptor(
  tools: EngineTools,
  dir: string,
  o: { info: Pick<ReceptorSummary, 'atoms' | 'hydrogens'>; ph: number | null; mode: 'propka' | 'openbabel'; sha256: string },
): Promise<{ preparation: RawReceptorPreparation; sha256: string; info: Pick<ReceptorSummary, 'atoms' | 'hydrogens'> } | null> {
  if (o.mode !== 'propka' || o.ph === null || hasHydrogens(o.info)) return null;
  const work = path.join(dir, 'protonation');
  fs.mkdirSync(work, { recursive: true });
  await fs.promises.copyFile(path.join(dir, RECEPTOR_PDB), path.join(work, RECEPTOR_PDB));
  const p = await prepareProtein(tools, work, { input: RECEPTOR_PDB, ph: o.ph, fill: true, removed: [], removedMore: 0 });
  await fs.promises.copyFile(p.file, path.join(dir, RECEPTOR_PDB));
  const sha256 = crypto.createHash('sha256').update(`${o.sha256} pdbfixer+pdb2pqr ph ${o.ph}`).digest('hex');
  return {
    preparation: { by: 'pdbfixer+pdb2pqr', ph: o.ph, hydrogens_added: p.hydrogens, changes: p.changes, protonation: p.protonation },
    sha256,
    info: { atoms: p.atoms, hydrogens: p.hydrogens },
  };
}
