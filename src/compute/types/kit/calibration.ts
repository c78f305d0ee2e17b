// Estimates of engine jobs (docs/jobs.md, "Calibration of the engine estimates"): the time of
// one calculation is modelled per method and task as `base + k2 x atoms^2 + k3 x atoms^3`
// seconds on one thread, plus the 3D preparation of each structure; the figures come from
// measuring the engines on this project's reference molecules (scripts/calibrate-engines.ts)
// and the bench's jobs on an idle machine (npm run bench:engines -- --only E), times SAFETY.
import type { Estimate } from '../../job-type.js';

export type EngineTask = 'singlepoint' | 'optimize' | 'frequencies' | 'scan_point' | 'conformer' | 'reactivity';

interface Cost {
  base: number;
  perAtom2: number;
  /** Optimisations: cycles grow with the atoms too, so their cost has a cubic part. */
  perAtom3?: number;
}

/** Seconds of one calculation of `atoms` atoms at cost `c`. */
export function costSec(c: Cost, atoms: number): number {
  return c.base + c.perAtom2 * atoms ** 2 + (c.perAtom3 ?? 0) * atoms ** 3;
}

/** A cost as [base, perAtom2], or [base, perAtom2, perAtom3]. */
type CostRow = [number, number] | [number, number, number];

const cost = ([base, perAtom2, perAtom3 = 0]: CostRow): Cost => ({ base, perAtom2, perAtom3 });

/** A method's costs: every task but `reactivity`, which only GFN2 runs (docs/engines.md, "Reactivity"). */
type TaskCosts = Record<Exclude<EngineTask, 'reactivity'>, Cost> & { reactivity?: Cost };

function costsByTask(singlepoint: CostRow, optimize: CostRow, frequencies: CostRow, scanPoint: CostRow, conformer: CostRow, reactivity?: CostRow): TaskCosts {
  return {
    singlepoint: cost(singlepoint),
    optimize: cost(optimize),
    frequencies: cost(frequencies),
    scan_point: cost(scanPoint),
    conformer: cost(conformer),
    ...(reactivity ? { reactivity: cost(reactivity) } : {}),
  };
}

/**
 * CPU seconds per calculation, one thread: base + perAtom2 x atoms^2 + perAtom3 x atoms^3,
 * measured by scripts/calibrate-engines.ts (docs/jobs.md, "Calibration of the engine
 * estimates"): the fits rounded up, never below what the largest reference molecule took; GFN2's
 * the unrounded fits and the bench's idle runtimes. A row per method: singlepoint, optimize, frequencies, scan_point, conformer,
 * and for GFN2 reactivity (an optimisation, then --vomega and --vfukui: six single points).
 */
export const ENGINE_COSTS: Readonly<Record<string, Readonly<TaskCosts>>> = {
  gfn2: costsByTask([0.02, 0.00004], [0.02, 0.00004, 0.000025], [1, 0, 0.00008], [0.02, 0, 0.000045], [0.15, 0.0012], [0.25, 0.00028, 0.000025]),
  gfn1: costsByTask([0.05, 0.0001], [0.1, 0.00025, 0.000025], [0.3, 0.015], [0.3, 0.0035], [0.15, 0.001]),
  gfnff: costsByTask([0.05, 0.00002], [0.05, 0.00001, 0.0000005], [0.1, 0.00012], [0.08, 0.00008], [0.08, 0.00008]),
  pm7: costsByTask([0.02, 0.00005], [0.05, 0.0045, 0.000015], [0.1, 0.011], [0.05, 0.0015], [0.05, 0.0015]),
  pm6: costsByTask([0.02, 0.00005], [0.05, 0.005, 0.00001], [0.1, 0.0135], [0.05, 0.0015], [0.05, 0.0015]),
};

/** Open Babel's 3D build of one structure (--gen3d), seconds (0.23 to 0.27 s for aspirin to metamizole). */
export const PREPARE_SEC = 0.25;
/** Claim, result artifact, bookkeeping. */
export const OVERHEAD_SEC = 0.1;
/**
 * The molecules may be larger or floppier than those measured; the charge is the runtime, at most
 * the estimate, so the estimate sits above the expected time but within 2x of it on an idle machine
 * (docs/jobs.md, "Calibration of the engine estimates").
 */
export const SAFETY = 1.25;
/** Atoms assumed for a structure whose size is not known at submit (an uploaded set). */
export const ASSUMED_ATOMS = 40;

/** Expected runtime of `n` structures (their atom counts when known), `steps` calculations each. */
export function engineEstimate(method: string, task: EngineTask, n: number, atoms: number[], steps = 1): Estimate {
  const c = ENGINE_COSTS[method]?.[task] ?? ENGINE_COSTS.gfn2!.optimize;
  const sizes = atoms.length ? atoms : Array<number>(n).fill(ASSUMED_ATOMS);
  const calc = sizes.reduce((t, a) => t + PREPARE_SEC + steps * costSec(c, a), 0);
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * calc) * 1000) / 1000,
    assumptions: {
      structures: n,
      atoms: atoms.length
        ? { min: Math.min(...atoms), max: Math.max(...atoms), total: atoms.reduce((a, b) => a + b, 0) }
        : `${ASSUMED_ATOMS} per structure (an uploaded set is sized when it runs)`,
      method,
      calculations_per_structure: steps,
      model: `overhead + ${SAFETY} x structures x (3D preparation + calculations x (base + k2 x atoms^2 + k3 x atoms^3)) (docs/jobs.md)`,
    },
  };
}

/** A conformer search's fixed work per structure (Confab, and the genetic algorithm where Confab cannot finish), CPU seconds. */
export const CONFORMER_GENERATE_SEC = 0.1;
/** Each candidate's own process and files beside its GFN-FF optimisation, seconds. */
export const CONFORMER_PER_CANDIDATE_SEC = 0.03;
/** Torsion states counted per rotatable bond (Confab's candidates: 3^rotors, e.g. ibuprofen's 4 rotors gave 80). */
export const STATES_PER_ROTOR = 3;
/** Share of the candidates whose GFN-FF minima go on to GFN2 after the pre-pruning (ibuprofen: 16 to 19 of 81 to 83), at least GFN2_AT_LEAST. */
export const GFN2_SHARE = 0.2;
/** GFN2 optimisations assumed at least (n-butane's 3 candidates: 2 distinct GFN-FF minima went on). */
export const GFN2_AT_LEAST = 2;
/** Rotatable bonds assumed for a structure of an uploaded set (its size is known only when it runs). */
export const ASSUMED_ROTORS = 6;

/**
 * Expected runtime of a conformer search (docs/jobs.md, "Calibration of the engine estimates"):
 * per structure the candidates the run will optimise, not the most it may generate: 3^rotors
 * candidates (RDKit's rotatable bonds at submit) up to `candidates`, each a GFN-FF optimisation,
 * and for GFN2 the fifth of them that the GFN-FF pre-pruning sends on (at least 2, at most
 * `gfn2Keep`), each a GFN2 optimisation.
 */
export function conformerEstimate(method: 'gfn2' | 'gfnff', n: number, infos: { atoms: number; rotors: number }[], o: { candidates: number; gfn2Keep: number }): Estimate {
  const sizes = infos.length ? infos : Array.from({ length: n }, () => ({ atoms: ASSUMED_ATOMS, rotors: ASSUMED_ROTORS }));
  const ff = ENGINE_COSTS.gfnff!.optimize;
  const qm = ENGINE_COSTS.gfn2!.optimize;
  let calc = 0;
  let candidates = 0;
  let toGfn2 = 0;
  for (const { atoms, rotors } of sizes) {
    const c = Math.max(1, Math.min(o.candidates, Math.round(STATES_PER_ROTOR ** Math.min(rotors, 12))));
    const g = method === 'gfn2' ? Math.min(c, o.gfn2Keep, Math.max(GFN2_AT_LEAST, Math.ceil(GFN2_SHARE * c))) : 0;
    candidates += c;
    toGfn2 += g;
    calc += PREPARE_SEC + CONFORMER_GENERATE_SEC + c * (CONFORMER_PER_CANDIDATE_SEC + costSec(ff, atoms)) + g * costSec(qm, atoms);
  }
  return {
    expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * calc) * 1000) / 1000,
    assumptions: {
      structures: n,
      atoms: infos.length
        ? { min: Math.min(...infos.map((i) => i.atoms)), max: Math.max(...infos.map((i) => i.atoms)), total: infos.reduce((a, b) => a + b.atoms, 0) }
        : `${ASSUMED_ATOMS} per structure (an uploaded set is sized when it runs)`,
      rotatable_bonds: infos.length ? infos.map((i) => i.rotors) : `${ASSUMED_ROTORS} per structure (an uploaded set is read when it runs)`,
      method,
      candidates_optimized: candidates,
      gfn2_optimizations: toGfn2,
      model: `overhead + ${SAFETY} x structures x (3D preparation + generation + candidates x (per candidate + GFN-FF optimisation) + GFN2 optimisations), candidates = min(3^rotatable bonds, 3 x max_conformers) (docs/jobs.md)`,
    },
  };
}
