// The work of a pocket search's worker thread (src/compute/threads.ts; docs/structure.md,
// "Pockets"): reads the receptor as the docking reader wrote it (the job's receptor.pdb) and runs
// the LIGSITE grid search, about 0.2 s for a kinase domain: off the event loop.
import fs from 'node:fs';
import type { ThreadWork } from '../threads.js';
import { findPockets, type PocketSearch } from '../../engines/pockets/ligsite.js';
import { proteinAtoms } from '../../engines/pockets/protein-atoms.js';

export interface PocketsThreadInput {
  /** The receptor's filtered PDB text, a file in the job's directory. */
  file: string;
  maxPockets: number;
}

export type PocketsThreadOutput = PocketSearch & { atoms: number; ms: number };

const work: ThreadWork<PocketsThreadInput, PocketsThreadOutput> = (input) => {
  const t0 = performance.now();
  const atoms = proteinAtoms(fs.readFileSync(input.file, 'utf8'));
  const search = findPockets(atoms, input.maxPockets);
  return { ...search, atoms: atoms.elements.length, ms: Math.round(performance.now() - t0) };
};

export default work;
