// The cost model of an `mpnn_train` job (docs/jobs.md, "Calibration of the training estimate"):
// the CPU seconds of the job's training threads (its own and its gradient thread) as a function
// of the rows, epochs, ensemble size, batch size, hidden size and depth, with constants fitted by
// scripts/calibrate-mpnn.ts to measured runs on the reference machine. The work that grows with
// the data is multiplied by a safety factor (a training at nice 10 on a loaded machine takes up
// to about 2.5 times its CPU time; on an idle one its two threads take less); the threads' start
// (`base`, measured on the loaded machine and the same for any data) is counted once; plus the
// job's fixed overhead. Re-run the script and
// replace the constants when the training code changes speed.

export const MPNN_COST = {
  /** When and where the constants were measured (docs/jobs.md). */
  measured: '2026-11-27, 2 x AMD EPYC (shared: load average 6 to 11), Node 20.20, the fused D-MPNN engine with its gradient thread (scripts/calibrate-mpnn.ts)',
  /** CPU seconds of a training whatever its size: the threads' start (RDKit MinimalLib, WebAssembly), serialising the model. */
  base: 3.44,
  /** Per input row: reading and featurising, the test predictions and the applicability-domain fingerprints. */
  perRow: 0.0027,
  /** Per optimiser step (one training batch): handing the batch to the gradient thread, Adam... */
  perStep: 0.00303,
  /** ...and what grows with the square of the hidden size (the weights; fitted to 0 on the reference machine). */
  perStepH2: 0,
  /** Per molecule and epoch (training molecules, plus a third of the validation molecules), at depth 3. */
  perMol: 0.000143,
  perMolH: 0,
  perMolH2: 2.49e-8,
  /** Multiplier on the fitted work beyond `base`: the machine may be loaded, the molecules larger than ESOL's. */
  SAFETY: 2,
  /** Seconds outside the thread: claim, reading the training file, the result artifact, registering the model. */
  overheadSec: 2,
} as const;

export interface TrainingSize {
  rows: number;
  epochs: number;
  hidden_size: number;
  depth: number;
  ensemble_size: number;
  batch_size: number;
  /** The share of the rows trained on: 1 - val_fraction - test_fraction. */
  train_fraction: number;
  /** The share of the rows in the validation set (default 0.1). */
  val_fraction?: number;
}

/** The quantities the cost model multiplies. */
export interface TrainingShape {
  rows: number;
  hidden_size: number;
  /** Message passing scales with the depth: depth + 1 bond-level layers (input, depth - 1 hidden, output), relative to depth 3. */
  depthFactor: number;
  /** Optimiser steps: members x epochs x training batches. */
  steps: number;
  /** Molecule passes: members x epochs x (training rows + validation rows / 3). */
  molEpochs: number;
}

export function trainingShape(t: TrainingSize): TrainingShape {
  const train = Math.max(1, Math.round(t.rows * t.train_fraction));
  const val = Math.round(t.rows * (t.val_fraction ?? 0.1));
  const members = t.ensemble_size * t.epochs;
  return {
    rows: t.rows,
    hidden_size: t.hidden_size,
    depthFactor: (t.depth + 1) / 4,
    steps: members * Math.ceil(train / t.batch_size),
    molEpochs: members * (train + val / 3),
  };
}

/** The fitted CPU seconds of the training thread (no safety, no overhead). */
export function trainingWorkSec(s: TrainingShape): number {
  const c = MPNN_COST;
  const h = s.hidden_size;
  return c.base + c.perRow * s.rows + s.steps * (c.perStep + c.perStepH2 * h * h) + s.molEpochs * s.depthFactor * (c.perMol + c.perMolH * h + c.perMolH2 * h * h);
}

/** The expected runtime of the job: overhead + base + SAFETY x the rest of the fitted work, in seconds (3 decimals). */
export function trainingSeconds(s: TrainingShape): number {
  const c = MPNN_COST;
  return Math.round((c.overheadSec + c.base + c.SAFETY * (trainingWorkSec(s) - c.base)) * 1000) / 1000;
}
