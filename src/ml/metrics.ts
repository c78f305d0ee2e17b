// Evaluation metrics: rmse, mae, r2 (regression); roc_auc, accuracy (classification, targets
// 0/1, predictions probabilities).

export function rmse(y: ArrayLike<number>, p: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += ((y[i] as number) - (p[i] as number)) ** 2;
  return Math.sqrt(s / y.length);
}

export function mae(y: ArrayLike<number>, p: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += Math.abs((y[i] as number) - (p[i] as number));
  return s / y.length;
}

/** Coefficient of determination, 1 - SS_res / SS_tot (sklearn's r2_score); null for constant targets. */
export function r2(y: ArrayLike<number>, p: ArrayLike<number>): number | null {
  let mean = 0;
  for (let i = 0; i < y.length; i++) mean += y[i] as number;
  mean /= y.length;
  let res = 0;
  let tot = 0;
  for (let i = 0; i < y.length; i++) {
    res += ((y[i] as number) - (p[i] as number)) ** 2;
    tot += ((y[i] as number) - mean) ** 2;
  }
  return tot > 0 ? 1 - res / tot : null;
}

/** Area under the ROC curve (ties counted half, as sklearn's roc_auc_score); null when one class is missing. */
export function rocAuc(y: ArrayLike<number>, p: ArrayLike<number>): number | null {
  const idx = Array.from({ length: y.length }, (_, i) => i).sort((a, b) => (p[a] as number) - (p[b] as number));
  let pos = 0;
  let neg = 0;
  for (let i = 0; i < y.length; i++) {
    if (y[i] === 1) pos++;
    else neg++;
  }
  if (pos === 0 || neg === 0) return null;
  // sum of the ranks of the positives (average ranks over ties)
  let rankSum = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && p[idx[j + 1] as number] === p[idx[i] as number]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (y[idx[k] as number] === 1) rankSum += avgRank;
    i = j + 1;
  }
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Share of predictions on the right side of 0.5. */
export function accuracy(y: ArrayLike<number>, p: ArrayLike<number>): number {
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (((p[i] as number) >= 0.5 ? 1 : 0) === y[i]) ok++;
  return ok / y.length;
}

export interface RegressionMetrics {
  rmse: number;
  mae: number;
  r2: number | null;
}
export interface ClassificationMetrics {
  roc_auc: number | null;
  accuracy: number;
}

export function regressionMetrics(y: ArrayLike<number>, p: ArrayLike<number>): RegressionMetrics {
  return { rmse: rmse(y, p), mae: mae(y, p), r2: r2(y, p) };
}

export function classificationMetrics(y: ArrayLike<number>, p: ArrayLike<number>): ClassificationMetrics {
  return { roc_auc: rocAuc(y, p), accuracy: accuracy(y, p) };
}
