// What a DFT or Hartree-Fock calculation is asked and what it gives (docs/engines.md, "DFT"),
// whichever engine runs it; psi4.ts and nwchem.ts write the input and read the output, run.ts
// chooses between them.
import { memoryLimit } from '../process.js';
import type { BasisSet, DftEngine, DftMethod } from './methods.js';

/** Psi4 1.3's conversion factors (CODATA 2014), used for both engines so that their figures compare. */
export const BOHR_ANGSTROM = 0.52917721067;
export const HARTREE_EV = 27.21138602;

/** Cube files a calculation may write: the HOMO, the LUMO, the electron density. */
export type CubeKind = 'homo' | 'lumo' | 'density';

export interface DftCall {
  method: DftMethod;
  basis: BasisSet;
  /** An implicit solvent (COSMO with its dielectric constant; NWChem only). */
  solvent?: string | null;
  charge: number;
  multiplicity: number;
  /** Geometry optimisation, with at most this many steps (the engine's default when absent). */
  optimize?: { maxIterations?: number };
  /** SCF iterations at most (100 when absent). */
  scfMaxIterations?: number;
  /** Cube files to write (Psi4 only). */
  cubes?: readonly CubeKind[];
  timeoutMs?: number;
}

export interface DftResult {
  engine: DftEngine;
  energyHartree: number;
  homoEv: number | null;
  lumoEv: number | null;
  gapEv: number | null;
  dipoleDebye: number | null;
  /** Mulliken charges per atom. */
  mulliken: number[] | null;
  /** Löwdin charges per atom (null where the engine gives none to useful precision). */
  lowdin: number[] | null;
  /** Orbital energies, lowest first (the alpha orbitals of an open shell). */
  orbitalEnergiesEv: number[];
  /** The beta orbitals of an open shell, else null. */
  orbitalEnergiesBetaEv: number[] | null;
  /** The final geometry in the input's atom order (the input's when not optimised). */
  molblock: string;
  converged: boolean | null;
  /** Optimisation steps (null for a single point). */
  iterations: number | null;
  /** Basis functions of the calculation. */
  basisFunctions: number | null;
  /** Cube files written, by kind: paths in the calculation's directory. */
  cubes: Partial<Record<CubeKind, string>>;
}

/** SCF iterations when the payload says nothing. */
export const DEFAULT_SCF_ITERATIONS = 100;

/** Memory an engine is told it may use, MB: 60% of the runtime's address-space limit for its threads (the rest is the program's own). */
export function engineMemoryMb(threads: number): number {
  return Math.floor((0.6 * memoryLimit(threads)) / 1024 ** 2);
}

/** The HOMO and LUMO of occupied counts `na`, `nb` over orbital energies (Hartree), in eV. */
export function frontier(epsA: readonly number[], epsB: readonly number[] | null, na: number, nb: number): { homoEv: number | null; lumoEv: number | null; gapEv: number | null } {
  const homos = [na > 0 ? epsA[na - 1] : undefined, epsB && nb > 0 ? epsB[nb - 1] : undefined].filter((x): x is number => x !== undefined);
  const lumos = [epsA[na], epsB ? epsB[nb] : undefined].filter((x): x is number => x !== undefined);
  const homo = homos.length ? Math.max(...homos) * HARTREE_EV : null;
  const lumo = lumos.length ? Math.min(...lumos) * HARTREE_EV : null;
  const round = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);
  return { homoEv: round(homo), lumoEv: round(lumo), gapEv: homo !== null && lumo !== null ? round(lumo - homo) : null };
}

/** Orbital energies in eV (6 decimals). */
export function toEv(eps: readonly number[]): number[] {
  return eps.map((e) => Math.round(e * HARTREE_EV * 1e6) / 1e6);
}
