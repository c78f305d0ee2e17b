// Trains Crucible's public models (docs/models.md, "Public models") from data/public and writes
// models/public/<id>/model.bin and card.json: a 5-member D-MPNN ensemble per data set on a
// seeded random 80/10/10 split, beside two baselines trained on the same split (the mean of
// the training targets; ridge regression on RDKit descriptors). Members are trained in worker
// threads, two at a time by default; each is deterministic for its seed, so the files are the
// same on every run on one machine.
//
//   npm run models:train                       both models
//   npm run models:train -- --only esol-logs   one of them
//   npm run models:train -- --threads 1        members one after the other
//   npm run models:train -- --sweep            the hyperparameter comparison on the validation split only
//   npm run models:train -- --sweep --split-seeds 0,1,2   ... averaged over three splits
//   npm run models:train -- --sweep --settings 1,2         only those settings of SWEEP (0-based)
//   npm run models:train -- --spread           also train and test on split seeds 1 and 2: the card's spread
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { readCsvTable } from '../../src/ml/csv.js';
import { describeMoleculeFeatures } from '../../src/ml/mol-features.js';
import {
  descriptorMatrix,
  getRDKit,
  loadModel,
  meanBaseline,
  mergeModels,
  predict,
  prepareData,
  regressionMetrics,
  ridgeBaseline,
  serializeModel,
  splitData,
  trainModel,
  type TrainOptions,
  type TrainingRow,
} from '../../src/ml/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MEMBERS = 5;
const SEED = 0;
const SPLIT = { type: 'random' as const, sizes: [0.8, 0.1, 0.1] as [number, number, number], seed: 0 };

interface Dataset {
  id: string;
  name: string;
  file: string;
  smilesColumn: string;
  targetColumn: string;
  target: string;
  units: string;
  /** `doi`: the data set's paper, which /papers/cite cites for a prediction with the model (its catalog entry in src/modules/papers/catalog.json) */
  source: { name: string; citation: string; doi: string; redistributed_in: string; licence: string };
  /** chosen on the validation split (--sweep; docs/models.md) */
  options: TrainOptions;
}

const MOLECULENET = 'Z. Wu et al., "MoleculeNet: a benchmark for molecular machine learning", Chem. Sci. 2018, 9, 513-530';

const DATASETS: Dataset[] = [
  {
    id: 'esol-logs',
    name: 'Aqueous solubility (ESOL)',
    file: 'data/public/esol.csv',
    smilesColumn: 'smiles',
    targetColumn: 'measured log solubility in mols per litre',
    target: 'measured aqueous solubility, log10 of mol/L (log S)',
    units: 'log10(mol/L)',
    source: {
      name: 'ESOL (Delaney), MoleculeNet delaney-processed.csv',
      citation: 'J. S. Delaney, "ESOL: Estimating Aqueous Solubility Directly from Molecular Structure", J. Chem. Inf. Comput. Sci. 2004, 44, 1000-1005',
      doi: '10.1021/ci034243x',
      redistributed_in: MOLECULENET,
      licence: 'no licence statement in the data or its MoleculeNet distribution (data/public/LICENSES.md)',
    },
    options: { hidden_size: 300, epochs: 50, aggregation: 'mean', molecule_features: 'rdkit_2d' },
  },
  {
    id: 'freesolv-dg-hyd',
    name: 'Hydration free energy (FreeSolv)',
    file: 'data/public/freesolv.csv',
    smilesColumn: 'smiles',
    targetColumn: 'expt',
    target: 'experimental hydration free energy (gas to water)',
    units: 'kcal/mol',
    source: {
      name: 'FreeSolv (Mobley lab), MoleculeNet SAMPL.csv',
      citation:
        'D. L. Mobley and J. P. Guthrie, "FreeSolv: a database of experimental and calculated hydration free energies, with input files", J. Comput.-Aided Mol. Des. 2014, 28, 711-720',
      doi: '10.1007/s10822-014-9747-x',
      redistributed_in: MOLECULENET,
      licence: 'no licence statement in the data or its MoleculeNet distribution (data/public/LICENSES.md)',
    },
    options: { hidden_size: 300, epochs: 50, aggregation: 'mean', molecule_features: 'rdkit_2d' },
  },
];

/** Hyperparameters compared by --sweep, one member each, judged on the validation RMSE only (over the --split-seeds). */
const SWEEP: TrainOptions[] = [
  { hidden_size: 128, epochs: 50 },
  { hidden_size: 300, epochs: 50 },
  { hidden_size: 300, epochs: 50, molecule_features: 'rdkit_2d' },
  { hidden_size: 300, epochs: 50, aggregation: 'mean', molecule_features: 'rdkit_2d' },
  { hidden_size: 300, epochs: 100, patience: 25, molecule_features: 'rdkit_2d' },
];

function readRows(d: Dataset): TrainingRow[] {
  return readCsvTable(fs.readFileSync(path.join(ROOT, d.file), 'utf8')).map((r) => ({ smiles: (r[d.smilesColumn] ?? '').trim(), target: r[d.targetColumn] ?? '' }));
}

interface Job {
  dataset: string;
  options: TrainOptions;
  /** the split's seed (SPLIT.seed unless given) */
  splitSeed?: number;
  /** gradient threads of the training (1 when members train two at a time) */
  threads: number;
}
interface JobResult {
  model: Uint8Array;
  duration_s: number;
  best_epoch: number;
  val_rmse: number | null;
  test_rows: number[];
  val_rows: number[];
}

async function runJob(job: Job): Promise<JobResult> {
  const d = DATASETS.find((x) => x.id === job.dataset);
  if (!d) throw new Error(`unknown data set ${job.dataset}`);
  const r = await trainModel(readRows(d), { ...job.options, split: { ...SPLIT, seed: job.splitSeed ?? SPLIT.seed } }, undefined, undefined, { threads: job.threads });
  const m = r.model.config.members[0];
  return {
    model: serializeModel(r.model),
    duration_s: r.duration_ms / 1000,
    best_epoch: m?.best_epoch ?? 0,
    val_rmse: m?.val_metric ?? null,
    test_rows: r.split_rows.test,
    val_rows: r.split_rows.val,
  };
}

/**
 * This script as a worker thread: on Node 20 a worker does not inherit tsx's loader, so a
 * bootstrap registers it in the thread and then loads this file (src/chem/worker-tsx.mjs does
 * the same for the chemistry pool).
 */
function workerUrl(): URL {
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(import.meta.url)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Runs the jobs in `threads` worker threads, results in job order. */
async function runJobs(jobs: Job[], threads: number, label: (j: Job) => string): Promise<JobResult[]> {
  const results: JobResult[] = new Array<JobResult>(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i] as Job;
      const started = performance.now();
      results[i] = await new Promise<JobResult>((resolve, reject) => {
        const w = new Worker(workerUrl(), { workerData: job });
        w.once('message', (m: JobResult) => resolve(m));
        w.once('error', reject);
        w.once('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
      });
      console.log(
        `  ${label(job)}: best epoch ${results[i].best_epoch}, validation RMSE ${results[i].val_rmse?.toFixed(4)}, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, jobs.length) }, lane));
  return results;
}

const round = (x: number | null | undefined, digits = 4) => (x === null || x === undefined ? null : Number(x.toFixed(digits)));
const roundMetrics = (m: { rmse: number; mae: number; r2: number | null }) => ({ rmse: round(m.rmse), mae: round(m.mae), r2: round(m.r2) });

/** The ensemble of `d` trained on the split of `splitSeed`, evaluated beside the baselines on the same split. */
async function trainEnsemble(d: Dataset, threads: number, splitSeed: number) {
  console.log(`${d.id}: ${MEMBERS} members, ${threads} thread(s), split seed ${splitSeed}`);
  const started = performance.now();
  const jobs = Array.from({ length: MEMBERS }, (_, k) => ({ dataset: d.id, options: { ...d.options, seed: SEED + k }, splitSeed, threads: threads > 1 ? 1 : 2 }));
  const parts = await runJobs(jobs, threads, (j) => `member seed ${String(j.options.seed)}`);
  const model = mergeModels(parts.map((p) => loadModel(p.model)));
  const trainSeconds = (performance.now() - started) / 1000;

  const rows = readRows(d);
  const rdkit = await getRDKit();
  const { data, report } = prepareData(rdkit, rows, 'regression');
  const split = splitData(rdkit, data, { ...SPLIT, seed: splitSeed });
  const part = (idx: number[]) => idx.map((i) => data[i]!);
  const [train, val, test] = [part(split.train), part(split.val), part(split.test)];
  if (JSON.stringify(test.map((t) => t.row)) !== JSON.stringify(parts[0]!.test_rows)) throw new Error("the baselines would not see the models' split");
  const evaluate = async (set: typeof test) => {
    const p = await predict(
      model,
      set.map((t) => t.canonical),
    );
    return regressionMetrics(
      set.map((t) => t.target),
      p.map((x) => x.prediction ?? Number.NaN),
    );
  };
  const dm = descriptorMatrix(
    rdkit,
    data.map((t) => t.canonical),
  );
  const xy = (idx: number[]) => ({ x: idx.map((i) => dm.rows[i]!), y: idx.map((i) => data[i]!.target) });
  const ridge = ridgeBaseline(xy(split.train), xy(split.val), xy(split.test), dm.names);
  const mean = meanBaseline(
    train.map((t) => t.target),
    val.map((t) => t.target),
    test.map((t) => t.target),
  );
  const [testMetrics, valMetrics] = [await evaluate(test), await evaluate(val)];
  console.log(
    `${d.id}, split seed ${splitSeed}: test RMSE ${testMetrics.rmse.toFixed(3)} (mean ${mean.test_metrics.rmse.toFixed(3)}, ridge ${ridge.test_metrics.rmse.toFixed(3)}) ${d.units}; trained in ${trainSeconds.toFixed(0)} s`,
  );
  return { model, report, dm, train, val, test, ridge, mean, testMetrics, valMetrics, trainSeconds };
}

/** Trains the public model of `d` on SPLIT (and, with `spreadSeeds`, on those split seeds too, for the card's spread) and writes its files. */
async function trainPublic(d: Dataset, threads: number, spreadSeeds: number[]): Promise<void> {
  const { model, report, dm, train, val, test, ridge, mean, testMetrics, valMetrics, trainSeconds } = await trainEnsemble(d, threads, SPLIT.seed);
  const spread = [
    { split_seed: SPLIT.seed, test: { model: roundMetrics(testMetrics), ridge_baseline: roundMetrics(ridge.test_metrics), mean_baseline: roundMetrics(mean.test_metrics) } },
  ];
  for (const seed of spreadSeeds.filter((x) => x !== SPLIT.seed)) {
    const r = await trainEnsemble(d, threads, seed);
    spread.push({
      split_seed: seed,
      test: { model: roundMetrics(r.testMetrics), ridge_baseline: roundMetrics(r.ridge.test_metrics), mean_baseline: roundMetrics(r.mean.test_metrics) },
    });
  }
  const stats = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return { mean: round(m), sd: round(Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length)), min: round(Math.min(...xs)), max: round(Math.max(...xs)) };
  };

  const bin = serializeModel(model);
  const dir = path.join(ROOT, 'models', 'public', d.id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.bin'), bin);
  const c = model.config;
  const card = {
    id: d.id,
    name: d.name,
    version: '1.0.0',
    task: c.task,
    target: { description: d.target, column: d.targetColumn, units: d.units },
    model: 'D-MPNN (directed message passing on bonds; Yang et al., J. Chem. Inf. Model. 2019, 59, 3370), chemprop v2 architecture and defaults unless stated',
    featurizer_version: c.featurizer_version,
    architecture: c.architecture,
    hyperparameters: c.hyperparameters,
    molecule_features: describeMoleculeFeatures(c.molecule_features),
    ensemble: c.members.map((m) => ({ seed: m.seed, best_epoch: m.best_epoch, epochs_run: m.epochs_run, validation_rmse: round(m.val_metric) })),
    training_data: {
      name: d.source.name,
      file: d.file,
      rows_in_file: report.rows,
      size: report.used,
      unreadable_smiles: report.unreadable,
      duplicates_dropped: report.duplicates,
      citation: d.source.citation,
      doi: d.source.doi,
      redistributed_in: d.source.redistributed_in,
      licence: d.source.licence,
    },
    split: { type: SPLIT.type, sizes: SPLIT.sizes, seed: SPLIT.seed, train: train.length, validation: val.length, test: test.length },
    target_scaler: c.scaler,
    metrics: {
      test: { model: roundMetrics(testMetrics), mean_baseline: roundMetrics(mean.test_metrics), ridge_baseline: roundMetrics(ridge.test_metrics) },
      validation: { model: roundMetrics(valMetrics), mean_baseline: roundMetrics(mean.val_metrics), ridge_baseline: roundMetrics(ridge.val_metrics) },
      units: d.units,
      split_spread:
        spread.length > 1
          ? {
              description: `the same ensemble recipe trained and tested on ${spread.length} random 80/10/10 splits (seeds ${spread.map((x) => x.split_seed).join(', ')}); test RMSE in ${d.units}`,
              runs: spread,
              model_rmse: stats(spread.map((x) => x.test.model.rmse ?? Number.NaN)),
              ridge_rmse: stats(spread.map((x) => x.test.ridge_baseline.rmse ?? Number.NaN)),
              mean_rmse: stats(spread.map((x) => x.test.mean_baseline.rmse ?? Number.NaN)),
            }
          : null,
    },
    baselines: {
      mean: { description: mean.name, mean: round(mean.detail.mean as number) },
      ridge: {
        description: `${ridge.name} (MinimalLib Mol.get_descriptors(), standardised on the training split; closed form; penalty chosen on the validation split)`,
        lambda: ridge.detail.lambda,
        descriptors: dm.names,
      },
    },
    applicability_domain: {
      ...c.applicability_domain,
      description: `in domain when the highest Tanimoto similarity of the molecule's Morgan fingerprint (radius ${c.applicability_domain.radius}, ${c.applicability_domain.n_bits} bits) to the ${c.applicability_domain.training_molecules} training molecules is at least ${c.applicability_domain.threshold}`,
    },
    uncertainty: "standard deviation of the ensemble members' predictions (population)",
    created_with: c.created_with,
    files: { model: 'model.bin', sha256: crypto.createHash('sha256').update(bin).digest('hex') },
    size_bytes: bin.length,
  };
  fs.writeFileSync(path.join(dir, 'card.json'), JSON.stringify(card, null, 2) + '\n');
  console.log(`${d.id}: wrote ${path.relative(ROOT, dir)} (${(bin.length / 1e6).toFixed(2)} MB, trained in ${trainSeconds.toFixed(0)} s)`);
  if (spread.length > 1) console.log(`${d.id}: test RMSE over split seeds: ${JSON.stringify(card.metrics.split_spread?.model_rmse)}`);
}

async function sweep(d: Dataset, threads: number, splitSeeds: number[], only: number[] | null): Promise<void> {
  const settings = SWEEP.filter((_, i) => !only || only.includes(i));
  console.log(`${d.id}: sweep, one member (seed ${SEED}) per setting and split seed ${splitSeeds.join(', ')}, validation RMSE`);
  const jobs = settings.flatMap((options) => splitSeeds.map((splitSeed) => ({ dataset: d.id, options: { ...options, seed: SEED }, splitSeed, threads: threads > 1 ? 1 : 2 })));
  const results = await runJobs(jobs, threads, (j) => `${JSON.stringify(j.options)} split seed ${String(j.splitSeed)}`);
  for (const [i, options] of settings.entries()) {
    const v = results.slice(i * splitSeeds.length, (i + 1) * splitSeeds.length).map((r) => r.val_rmse ?? Number.NaN);
    console.log(`  ${JSON.stringify(options)}: mean validation RMSE ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(4)} (${v.map((x) => x.toFixed(3)).join(', ')})`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const only = opt('--only');
  const threads = Number(opt('--threads') ?? Math.max(1, Math.min(2, os.availableParallelism())));
  const sets = DATASETS.filter((d) => !only || d.id === only);
  if (!sets.length) throw new Error(`no data set ${only}; known: ${DATASETS.map((d) => d.id).join(', ')}`);
  const splitSeeds = (opt('--split-seeds') ?? String(SPLIT.seed)).split(',').map(Number);
  const spreadSeeds = args.includes('--spread') ? (opt('--spread-seeds') ?? '0,1,2').split(',').map(Number) : [];
  for (const d of sets) await (args.includes('--sweep') ? sweep(d, threads, splitSeeds, opt('--settings')?.split(',').map(Number) ?? null) : trainPublic(d, threads, spreadSeeds));
}

if (isMainThread) {
  await main();
} else {
  parentPort?.postMessage(await runJob(workerData as Job));
}
