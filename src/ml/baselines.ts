// Baselines a model card sets beside the D-MPNN, trained on the same split: the mean of the
// training targets, and ridge regression on RDKit descriptors (MinimalLib's
// Mol.get_descriptors(): every descriptor it gives, standardised with the training set's mean
// and standard deviation), closed form, with the ridge penalty chosen on the validation split.
import { parseSmiles } from '../chem/depict.js';
import { regressionMetrics, type RegressionMetrics } from './metrics.js';
import { rawDescriptors } from './mol-features.js';
import type { RDKitModule } from '../chem/rdkit.js';

export interface BaselineResult {
  name: string;
  test_metrics: RegressionMetrics;
  val_metrics: RegressionMetrics;
  /** settings chosen on the validation split */
  detail: Record<string, unknown>;
}

/** Predicts the training mean for everything. */
export function meanBaseline(trainY: readonly number[], valY: readonly number[], testY: readonly number[]): BaselineResult {
  const mean = trainY.reduce((a, b) => a + b, 0) / trainY.length;
  return {
    name: 'mean of the training targets',
    val_metrics: regressionMetrics(
      valY,
      valY.map(() => mean),
    ),
    test_metrics: regressionMetrics(
      testY,
      testY.map(() => mean),
    ),
    detail: { mean },
  };
}

/** Descriptor names (sorted) and one row per SMILES (null when RDKit cannot read it). */
export function descriptorMatrix(rdkit: RDKitModule, smiles: readonly string[]): { names: string[]; rows: (number[] | null)[] } {
  let names: string[] | null = null;
  const rows = smiles.map((s) => {
    const mol = parseSmiles(rdkit, s);
    if (!mol) return null;
    try {
      const d = rawDescriptors(mol, names);
      names ??= d.names;
      return Array.from(d.values);
    } finally {
      mol.delete();
    }
  });
  return { names: names ?? [], rows };
}

/** Solves (A + lambda I) x = b for a symmetric positive semi-definite A (Cholesky). */
function solveRidge(a: Float64Array, b: Float64Array, d: number, lambda: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = (a[i * d + j] as number) + (i === j ? lambda : 0);
      for (let k = 0; k < j; k++) s -= (l[i * d + k] as number) * (l[j * d + k] as number);
      l[i * d + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / (l[j * d + j] as number);
    }
  }
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i] as number;
    for (let k = 0; k < i; k++) s -= (l[i * d + k] as number) * (y[k] as number);
    y[i] = s / (l[i * d + i] as number);
  }
  const x = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = y[i] as number;
    for (let k = i + 1; k < d; k++) s -= (l[k * d + i] as number) * (x[k] as number);
    x[i] = s / (l[i * d + i] as number);
  }
  return x;
}

/** The ridge penalties tried: 10^-3 .. 10^4 in half decades. */
export const RIDGE_LAMBDAS = Array.from({ length: 15 }, (_, i) => 10 ** (-3 + i / 2));

/**
 * Ridge regression on standardised features (non-finite values and constant columns count as
 * the training mean, i.e. 0 once standardised), intercept = training target mean.
 */
export function ridgeBaseline(
  train: { x: readonly number[][]; y: readonly number[] },
  val: { x: readonly number[][]; y: readonly number[] },
  test: { x: readonly number[][]; y: readonly number[] },
  featureNames: readonly string[] = [],
): BaselineResult {
  const d = train.x[0]?.length ?? 0;
  const mean = new Float64Array(d);
  const std = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const col = train.x.map((r) => r[j] as number).filter(Number.isFinite);
    const m = col.length ? col.reduce((a, b) => a + b, 0) / col.length : 0;
    const v = col.length ? col.reduce((a, b) => a + (b - m) ** 2, 0) / col.length : 0;
    mean[j] = m;
    std[j] = v > 0 ? Math.sqrt(v) : 0;
  }
  const scale = (r: readonly number[]) => Float64Array.from(r, (v, j) => (Number.isFinite(v) && (std[j] as number) > 0 ? (v - (mean[j] as number)) / (std[j] as number) : 0));
  const xs = train.x.map(scale);
  const yMean = train.y.reduce((a, b) => a + b, 0) / train.y.length;
  const xtx = new Float64Array(d * d);
  const xty = new Float64Array(d);
  for (const [n, r] of xs.entries()) {
    const yc = (train.y[n] as number) - yMean;
    for (let i = 0; i < d; i++) {
      const ri = r[i] as number;
      if (ri === 0) continue;
      xty[i] = (xty[i] as number) + ri * yc;
      for (let j = 0; j < d; j++) xtx[i * d + j] = (xtx[i * d + j] as number) + ri * (r[j] as number);
    }
  }
  const predictor = (w: Float64Array) => (rows: readonly number[][]) =>
    rows.map((r) => {
      const z = scale(r);
      let s = yMean;
      for (let j = 0; j < d; j++) s += (w[j] as number) * (z[j] as number);
      return s;
    });
  let best: { lambda: number; w: Float64Array; rmse: number } | null = null;
  for (const lambda of RIDGE_LAMBDAS) {
    const w = solveRidge(xtx, xty, d, lambda);
    const rmse = regressionMetrics(val.y, predictor(w)(val.x)).rmse;
    if (!best || rmse < best.rmse) best = { lambda, w, rmse };
  }
  if (!best) throw new Error('no ridge penalty to try');
  const predict = predictor(best.w);
  return {
    name: 'ridge regression on RDKit descriptors',
    val_metrics: regressionMetrics(val.y, predict(val.x)),
    test_metrics: regressionMetrics(test.y, predict(test.x)),
    detail: { lambda: best.lambda, lambdas_tried: RIDGE_LAMBDAS.length, descriptors: featureNames.length || d, descriptor_names: featureNames },
  };
}
