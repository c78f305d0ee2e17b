// Calibration of the `mpnn_train` estimate (src/compute/types/mpnn-cost.ts; docs/jobs.md,
// "Calibration of the training estimate"):
//
//   node --import tsx scripts/calibrate-mpnn.ts [--quick]
//
// Trains on the first n rows of data/public/esol.csv through the job's own worker thread
// (src/compute/types/mpnn-train-thread.ts, run by runInThread as the job runs it) for a few small
// configurations (rows, epochs, hidden size, depth, ensemble size, batch size), measures each
// run's CPU time (process.cpuUsage: both of the job's threads, its own and its gradient thread)
// and wall-clock time, and fits the CPU time (the wall-clock time of a training at nice 10 on a
// shared machine swings with the other load, 1.0 to 2.5 times its CPU time; the estimate's
// safety factor covers that, and two threads on an idle machine make wall-clock time the shorter)
//
//   seconds = base + perRow x rows + steps x (perStep + perStepH x h^2)
//           + molEpochs x depthFactor(d) x (perMol + perMolH x h + perMolH2 x h^2)
//
// (steps = members x epochs x training batches; molEpochs = members x epochs x rows) by least
// squares, a term that comes out negative dropped. Prints the measurements, the fit, the
// current constants with the work and estimate they give against each measurement, so that the
// constants in mpnn-cost.ts can be checked or replaced. --quick runs the first four
// configurations only; --only 0,3 the ones listed (the two 1,000-row configurations at the end
// check the fit beyond the rows it was made on and are left out of the default run).
import fs from 'node:fs';
import os from 'node:os';
import { parse } from 'csv-parse/sync';
import { runInThread } from '../src/compute/threads.js';
import { MPNN_COST, trainingShape, trainingSeconds, trainingWorkSec, type TrainingShape, type TrainingSize } from '../src/compute/types/mpnn-cost.js';
import type { TrainThreadInput, TrainThreadOutput } from '../src/compute/types/mpnn-train-thread.js';

const quick = process.argv.includes('--quick');
const esol = (parse(fs.readFileSync(new URL('../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!.trim(),
  target: Number(r['measured log solubility in mols per litre']),
}));

/** A training size without its split shares (the script trains on every row given). */
type Config = Omit<TrainingSize, 'train_fraction' | 'val_fraction'>;

const CONFIGS: Config[] = [
  { rows: 60, epochs: 2, hidden_size: 32, depth: 2, ensemble_size: 1, batch_size: 16 },
  { rows: 100, epochs: 2, hidden_size: 64, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 2, hidden_size: 64, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 10, hidden_size: 64, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 5, hidden_size: 300, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 10, hidden_size: 300, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 5, hidden_size: 128, depth: 3, ensemble_size: 2, batch_size: 50 },
  { rows: 500, epochs: 5, hidden_size: 300, depth: 6, ensemble_size: 1, batch_size: 50 },
  { rows: 500, epochs: 5, hidden_size: 64, depth: 3, ensemble_size: 1, batch_size: 8 },
  { rows: 300, epochs: 5, hidden_size: 600, depth: 3, ensemble_size: 1, batch_size: 50 },
  { rows: 1000, epochs: 20, hidden_size: 300, depth: 3, ensemble_size: 1, batch_size: 50 },
];
/** The configurations of a default run (the last one checks the fit beyond the rows it was made on). */
const DEFAULT_RUN = 10;
/** Runs of each configuration: the one with the least CPU time is kept (another process's burst of load only slows one). */
const REPEATS = 2;

const cpuSec = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function run(c: Config): Promise<{ cpu: number; wall: number }> {
  const input: TrainThreadInput = {
    rows: esol.slice(0, c.rows),
    options: {
      task: 'regression',
      depth: c.depth,
      hidden_size: c.hidden_size,
      epochs: c.epochs,
      ensemble_size: c.ensemble_size,
      batch_size: c.batch_size,
      seed: 0,
      patience: null,
      split: { type: 'random', sizes: [0.8, 0.1, 0.1], seed: 0 },
    },
  };
  const c0 = cpuSec();
  const w0 = performance.now();
  await runInThread<TrainThreadInput, TrainThreadOutput>(new URL('../src/compute/types/mpnn-train-thread.ts', import.meta.url), input, {
    signal: new AbortController().signal,
    progress: () => {},
  });
  return { cpu: cpuSec() - c0, wall: (performance.now() - w0) / 1000 };
}

/** Columns of the cost model for one shape (the same terms as trainingSeconds). */
function columns(s: TrainingShape): number[] {
  const h = s.hidden_size;
  const g = s.depthFactor;
  return [1, s.rows, s.steps, s.steps * h * h, s.molEpochs * g, s.molEpochs * g * h, s.molEpochs * g * h * h];
}
const NAMES = ['base', 'perRow', 'perStep', 'perStepH2', 'perMol', 'perMolH', 'perMolH2'] as const;

/** Least squares over the columns still in `keep`; a negative coefficient is dropped and the fit repeated. */
function fit(xs: number[][], ys: number[]): number[] {
  let keep = xs[0]!.map((_, j) => j);
  for (;;) {
    const m = keep.length;
    const A = keep.map((j) => keep.map((k) => xs.reduce((t, x) => t + x[j]! * x[k]!, 0)));
    const b = keep.map((j) => xs.reduce((t, x, i) => t + x[j]! * ys[i]!, 0));
    // Gaussian elimination with partial pivoting.
    for (let i = 0; i < m; i++) {
      let p = i;
      for (let r = i + 1; r < m; r++) if (Math.abs(A[r]![i]!) > Math.abs(A[p]![i]!)) p = r;
      [A[i], A[p]] = [A[p]!, A[i]!];
      [b[i], b[p]] = [b[p]!, b[i]!];
      for (let r = i + 1; r < m; r++) {
        const f = A[r]![i]! / A[i]![i]!;
        for (let k = i; k < m; k++) A[r]![k]! -= f * A[i]![k]!;
        b[r]! -= f * b[i]!;
      }
    }
    const sol = new Array<number>(m).fill(0);
    for (let i = m - 1; i >= 0; i--) {
      let t = b[i]!;
      for (let k = i + 1; k < m; k++) t -= A[i]![k]! * sol[k]!;
      sol[i] = t / A[i]![i]!;
    }
    const neg = sol.findIndex((v) => v < 0);
    if (neg < 0) {
      const out = new Array<number>(xs[0]!.length).fill(0);
      keep.forEach((j, i) => (out[j] = sol[i]!));
      return out;
    }
    keep = keep.filter((_, i) => i !== neg);
  }
}

console.log(
  `calibrate-mpnn: ${new Date().toISOString()}, ${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const measured: { c: Config; s: TrainingShape; cpu: number; wall: number }[] = [];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',').map(Number) : null;
for (const c of only ? only.map((i) => CONFIGS[i]!) : CONFIGS.slice(0, quick ? 4 : DEFAULT_RUN)) {
  const runs: { cpu: number; wall: number }[] = [];
  for (let k = 0; k < REPEATS; k++) runs.push(await run(c));
  const r = runs.reduce((a, b) => (b.cpu < a.cpu ? b : a));
  const s = trainingShape({
    rows: c.rows,
    epochs: c.epochs,
    hidden_size: c.hidden_size,
    depth: c.depth,
    ensemble_size: c.ensemble_size,
    batch_size: c.batch_size,
    train_fraction: 0.8,
  });
  measured.push({ c, s, ...r });
  console.log(
    `  rows ${String(c.rows).padStart(4)} epochs ${String(c.epochs).padStart(2)} h ${String(c.hidden_size).padStart(3)} depth ${c.depth} members ${c.ensemble_size} batch ${String(c.batch_size).padStart(3)}:` +
      ` cpu ${r.cpu.toFixed(2).padStart(6)} s  wall ${r.wall.toFixed(2).padStart(6)} s  (runs, cpu/wall: ${runs.map((x) => `${x.cpu.toFixed(2)}/${x.wall.toFixed(2)}`).join(', ')})`,
  );
}
// Fewer runs than terms (--only) cannot be fitted: the current constants are checked alone.
const coef =
  measured.length >= NAMES.length
    ? fit(
        measured.map((m) => columns(m.s)),
        measured.map((m) => m.cpu),
      )
    : NAMES.map(() => Number.NaN);
const fitted = Object.fromEntries(NAMES.map((n, i) => [n, Number(coef[i]!.toPrecision(3))]));
console.log('fit (CPU seconds):', JSON.stringify(fitted));
console.log('current constants:', JSON.stringify(MPNN_COST));
console.log('config                                  cpu s  wall s   fit s  fit/cpu  work s  work/cpu  estimate s  estimate/wall');
for (const m of measured) {
  const f = columns(m.s).reduce((t, x, i) => t + x * coef[i]!, 0);
  const work = trainingWorkSec(m.s);
  const est = trainingSeconds(m.s);
  const label = `n${m.c.rows} e${m.c.epochs} h${m.c.hidden_size} d${m.c.depth} m${m.c.ensemble_size} b${m.c.batch_size}`;
  console.log(
    `  ${label.padEnd(36)} ${m.cpu.toFixed(2).padStart(6)} ${m.wall.toFixed(2).padStart(7)} ${f.toFixed(2).padStart(7)} ${(f / m.cpu).toFixed(2).padStart(8)} ${work.toFixed(2).padStart(7)} ${(work / m.cpu).toFixed(2).padStart(9)} ${est.toFixed(2).padStart(11)} ${(est / m.wall).toFixed(2).padStart(14)}`,
  );
}
