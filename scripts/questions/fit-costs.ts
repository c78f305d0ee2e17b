// Refits the questions' CPU model (src/compute/types/kit/questions.ts, QUESTION_COSTS; docs/questions.md,
// "Estimates") to the runtimes of jobs run through the API on an idle machine, one molecule a job:
//   npm run bench:engines -- --only Q --q-out rows.json        (runs the jobs), or
//   node --import tsx scripts/questions/estimate-terms.ts runtimes.csv > rows.json   (earlier runtimes)
//   node --import tsx scripts/questions/fit-costs.ts rows.json [more-rows.json ...]
// The figures of docs/questions.md, "Estimates": node --import tsx scripts/questions/fit-costs.ts
//   bench/data/questions-idle-2026-11-30-0841.json bench/data/questions-idle-2026-11-30-1347.json
// A job's runtime is modelled as rdkitRun x RDKit runs + optimisations x (optimisationBase +
// optimisationPerAtom x atoms^atomsPower) + hessianScale x the Hessians' seconds (the terms the
// estimate records in its assumptions), fitted on the squared log of model / runtime (an estimate
// twice too high costs as much as one half too low) for each power of 2, 2.5 and 3, the best kept.
// Prints the fit, each job's estimate / charge under it (the estimate is overhead + safety x the
// model; the charge the runtime, at most the estimate), and the same with the job left out of the fit.
// bde rows (radicals) are left out of that fit; with its costs fixed, the radicals' share of an
// optimisation (RADICAL_SHARE, src/compute/types/bde.ts) is fitted to them on the same loss.
import fs from 'node:fs';
import { OVERHEAD_SEC, SAFETY } from '../../src/compute/types/kit/calibration.js';
import { optimisationSec, QUESTION_COSTS } from '../../src/compute/types/kit/questions.js';

interface Row {
  type: string;
  molecule: string;
  runtimeSec: number;
  assumptions: { structures: number; rdkit_runs: number; gfn2_optimisations: number; gfn2_hessians: number; atoms_total: number; hessian_sec: number; radical_share?: number };
}
type Costs = typeof QUESTION_COSTS;

const model = (c: Costs, r: Row) =>
  c.rdkitRun * r.assumptions.rdkit_runs + r.assumptions.gfn2_optimisations * optimisationSec(r.assumptions.atoms_total, c) + c.hessianScale * r.assumptions.hessian_sec;
const loss = (c: Costs, rows: Row[]) => rows.reduce((s, r) => s + Math.log(model(c, r) / r.runtimeSec) ** 2, 0);
const FREE = ['rdkitRun', 'optimisationBase', 'optimisationPerAtom', 'hessianScale'] as const;

/** Nelder-Mead over the logarithms of the free coefficients (so each stays positive), from `start`. */
function minimise(rows: Row[], power: number, start: Costs): Costs {
  const costs = (v: number[]): Costs => ({ ...start, atomsPower: power, ...Object.fromEntries(FREE.map((k, j) => [k, Math.exp(v[j]!)])) });
  const f = (v: number[]) => loss(costs(v), rows);
  let simplex = [FREE.map((k) => Math.log(start[k]))];
  for (let j = 0; j < FREE.length; j++) simplex.push(simplex[0]!.map((x, i) => (i === j ? x + 1 : x)));
  let values = simplex.map(f);
  for (let it = 0; it < 4000; it++) {
    const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
    simplex = order.map((i) => simplex[i]!);
    values = order.map((i) => values[i]!);
    const n = FREE.length;
    const centroid = simplex[0]!.map((_, j) => simplex.slice(0, n).reduce((s, p) => s + p[j]!, 0) / n);
    const at = (t: number) => centroid.map((c, j) => c + t * (simplex[n]![j]! - c));
    const reflected = at(-1);
    const fr = f(reflected);
    if (fr < values[0]!) {
      const expanded = at(-2);
      const fe = f(expanded);
      [simplex[n], values[n]] = fe < fr ? [expanded, fe] : [reflected, fr];
    } else if (fr < values[n - 1]!) [simplex[n], values[n]] = [reflected, fr];
    else {
      const contracted = at(0.5);
      const fc = f(contracted);
      if (fc < values[n]!) [simplex[n], values[n]] = [contracted, fc];
      else {
        simplex = simplex.map((p) => p.map((x, j) => simplex[0]![j]! + 0.5 * (x - simplex[0]![j]!)));
        values = simplex.map(f);
      }
    }
  }
  return costs(simplex[values.indexOf(Math.min(...values))]!);
}

function fit(rows: Row[]): Costs {
  const fits = [2, 2.5, 3].map((p) => minimise(rows, p, { ...QUESTION_COSTS, optimisationPerAtom: QUESTION_COSTS.optimisationPerAtom * 40 ** (QUESTION_COSTS.atomsPower - p) }));
  return fits.reduce((a, b) => (loss(b, rows) < loss(a, rows) ? b : a));
}

/** The job's estimate / charge under costs c: the charge is the runtime, at most the estimate. */
function ratio(c: Costs, r: Row): { ratio: number; estimate: number } {
  const estimate = OVERHEAD_SEC + SAFETY * model(c, r);
  return { ratio: estimate / Math.min(r.runtimeSec, estimate), estimate };
}

const files = process.argv.length > 2 ? process.argv.slice(2) : ['rows.json'];
const all = files.flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Row[]).filter((r) => r.assumptions.structures === 1);
const rows = all.filter((r) => r.type !== 'bde');
const c = fit(rows);
const rms = Math.sqrt(loss(c, rows) / rows.length);
console.log(
  `fit over ${rows.length} jobs: rdkitRun ${c.rdkitRun.toPrecision(3)} s, optimisation ${c.optimisationBase.toPrecision(3)} + ${c.optimisationPerAtom.toPrecision(3)} x atoms^${c.atomsPower} s, hessianScale ${c.hessianScale.toPrecision(3)}; rms log error ${rms.toFixed(3)} (x${Math.exp(rms).toFixed(2)})`,
);
const lines = rows.map((r, i) => ({ r, in: ratio(c, r), out: ratio(fit(rows.filter((_, j) => j !== i)), r) }));
for (const l of lines)
  console.log(
    `${l.r.type} ${l.r.molecule}: runtime ${l.r.runtimeSec.toFixed(1)} s, estimate ${l.in.estimate.toFixed(1)} s: estimate / charge ${l.in.ratio.toFixed(2)} (left out: estimate ${l.out.estimate.toFixed(1)} s, ${l.out.ratio.toFixed(2)})`,
  );
for (const type of [...new Set(rows.map((r) => r.type))]) {
  const of = lines.filter((l) => l.r.type === type);
  const range = (k: 'in' | 'out') => `${Math.min(...of.map((l) => l[k].ratio)).toFixed(2)} to ${Math.max(...of.map((l) => l[k].ratio)).toFixed(2)}`;
  const under = of.filter((l) => l.out.estimate < l.r.runtimeSec).length;
  console.log(`${type}: estimate / charge ${range('in')}; left out ${range('out')}, ${under} of ${of.length} estimates below the runtime`);
}

/**
 * A bde row's optimisations under another radical share: the estimate counted (conformers + 1) x
 * (1 + share x bonds), one Hessian per species (1 + bonds).
 */
function withShare(r: Row, share: number): Row {
  const bonds = r.assumptions.gfn2_hessians - 1;
  const parent = r.assumptions.gfn2_optimisations / (1 + (r.assumptions.radical_share ?? share) * bonds);
  return { ...r, assumptions: { ...r.assumptions, gfn2_optimisations: parent * (1 + share * bonds) } };
}
const bde = all.filter((r) => r.type === 'bde');
if (bde.length) {
  const shareLoss = (share: number) =>
    loss(
      c,
      bde.map((r) => withShare(r, share)),
    );
  // A grid of 0.1 to 3 in steps of 0.05 (one parameter: no simplex needed).
  const grid = Array.from({ length: 59 }, (_, k) => Math.round((0.1 + 0.05 * k) * 100) / 100);
  const share = grid.reduce((a, b) => (shareLoss(b) < shareLoss(a) ? b : a));
  console.log(`bde, the closed-shell fit fixed: radical share ${share}; rms log error ${Math.sqrt(shareLoss(share) / bde.length).toFixed(3)}`);
  const estimates = bde.map((r) => ({ r, e: OVERHEAD_SEC + SAFETY * model(c, withShare(r, share)) }));
  for (const { r, e } of estimates)
    console.log(`bde ${r.molecule}: runtime ${r.runtimeSec.toFixed(1)} s, estimate ${e.toFixed(1)} s: estimate / runtime ${(e / r.runtimeSec).toFixed(2)}`);
  const ratios = estimates.map(({ r, e }) => e / r.runtimeSec);
  console.log(`bde: estimate / runtime ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`);
}
