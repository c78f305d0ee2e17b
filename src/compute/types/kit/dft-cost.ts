// Estimates of DFT and HF jobs (docs/jobs.md, "Calibration of the DFT estimates"): the CPU time
// of one SCF is modelled per engine as `base + k x N^p` seconds on one thread, N the basis
// functions, with the exponent and factor fitted to measured runs (bench/lib/dft.ts);
// an optimisation is a number of gradient steps growing with the atoms; threads shorten it with
// a parallel efficiency. The figures carry the engine estimates' safety factor.
import type { BasisSet, DftEngine, DftMethod } from '../../../engines/dft/methods.js';
import type { Estimate } from '../../job-type.js';
import { OVERHEAD_SEC, PREPARE_SEC, SAFETY } from './calibration.js';

export type DftTask = 'singlepoint' | 'optimize' | 'properties';

interface ScfCost {
  /** The program's start and set-up, CPU seconds. */
  base: number;
  /** Seconds per N^p. */
  k: number;
  p: number;
}

/**
 * One B3LYP single point, one thread, by engine (docs/jobs.md, "Calibration of the DFT
 * estimates"): Psi4 fitted to ten drugs of 10 to 37 heavy atoms (N 199 to 673) run directly on an
 * idle machine (npm run bench:engines -- --only F); NWChem (its SCF direct) from ibuprofen's
 * B3LYP-D3(BJ)/def2-SVP single points in the same benchmark's re-ranking, about 200 s each.
 */
export const SCF_COSTS: Readonly<Record<DftEngine, ScfCost>> = {
  psi4: { base: 2.9, k: 2.885e-5, p: 2.55 },
  nwchem: { base: 1.5, k: 9.2e-5, p: 2.55 },
};

/** Hartree-Fock needs no exchange-correlation grid; the GGAs no exact exchange: cheaper than B3LYP (a share of its cost). */
const METHOD_FACTOR: Partial<Record<DftMethod, number>> = { hf: 0.7, pbe: 0.8 };
/** A gradient costs about this many single points; the properties add one more pass (charges, cubes). */
const GRADIENT_FACTOR = 1.5;
const PROPERTIES_FACTOR = 1.3;
/** Optimisation steps of a structure of `atoms` atoms from Open Babel's geometry. */
export function optimizationSteps(atoms: number): number {
  return Math.ceil(4 + atoms / 3);
}
/** Of each further thread, the share that shortens the run. */
const PARALLEL_EFFICIENCY = 0.7;
/** Basis functions assumed for a structure whose size is not known at submit (an uploaded set: about 25 heavy atoms with def2-SVP). */
export const ASSUMED_FUNCTIONS = 400;

/** CPU seconds of one SCF with `functions` basis functions on one thread. */
export function scfSeconds(engine: DftEngine, method: DftMethod, functions: number): number {
  const c = SCF_COSTS[engine];
  return c.base + (METHOD_FACTOR[method] ?? 1) * c.k * functions ** c.p;
}

/** Expected runtime of a DFT job of `n` structures (their basis functions when known), `steps` calculations each. */
export function dftEstimate(o: {
  method: DftMethod;
  basis: BasisSet;
  engine: DftEngine;
  task: DftTask;
  n: number;
  functions: number[];
  threads: number;
  steps?: number;
}): Estimate {
  const sizes = o.functions.length ? o.functions : Array<number>(o.n).fill(ASSUMED_FUNCTIONS);
  const speedup = 1 + PARALLEL_EFFICIENCY * (Math.max(1, o.threads) - 1);
  const calc = sizes.reduce((t, f) => {
    const sp = scfSeconds(o.engine, o.method, f);
    // Atoms from functions: about 10 per atom with these basis sets (only the step count needs it).
    const one = o.task === 'optimize' ? optimizationSteps(f / 10) * GRADIENT_FACTOR * sp + sp : o.task === 'properties' ? PROPERTIES_FACTOR * sp : sp;
    return t + PREPARE_SEC + ((o.steps ?? 1) * one) / speedup;
  }, 0);
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * calc) * 1000) / 1000,
    assumptions: {
      structures: o.n,
      basis_functions: o.functions.length
        ? { min: Math.min(...o.functions), max: Math.max(...o.functions), total: o.functions.reduce((a, b) => a + b, 0) }
        : `${ASSUMED_FUNCTIONS} per structure (an uploaded set is sized when it runs)`,
      method: o.method,
      basis: o.basis,
      engine: o.engine,
      calculations_per_structure: o.steps ?? 1,
      model: `overhead + ${SAFETY} x structures x (3D preparation + calculations x SCF / speed-up), SCF = ${SCF_COSTS[o.engine].base} + ${SCF_COSTS[o.engine].k} x N^${SCF_COSTS[o.engine].p} CPU s for N basis functions; an optimisation (4 + atoms / 3) gradients of 1.5 SCF each and a final SCF (docs/jobs.md)`,
    },
  };
}
