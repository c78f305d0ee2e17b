// One DFT or Hartree-Fock calculation by the engine chosen for it (docs/engines.md, "DFT"):
// Psi4 or NWChem, each in the calculation's scratch directory with the job's threads.
import type { EngineTools, Prepared } from '../tools.js';
import type { DftEngine } from './methods.js';
import { runNwchem } from './nwchem.js';
import { runPsi4 } from './psi4.js';
import type { DftCall, DftResult } from './types.js';

export function runDft(engine: DftEngine, tools: EngineTools, dir: string, s: Prepared, c: DftCall): Promise<DftResult> {
  return engine === 'psi4' ? runPsi4(tools, dir, s, c) : runNwchem(tools, dir, s, c);
}
