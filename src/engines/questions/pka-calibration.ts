// The pKa calibration lines (docs/questions.md, "pKa calibration"): written by
// scripts/calibrate-pka.ts from data/pka/train.csv; do not edit by hand.
export interface PkaLine {
  slope: number;
  intercept: number;
  /** Per hydrogen on the site atom of the neutral molecule (aliphatic amines). */
  perHydrogen?: number;
  /** Added for a site with no hydrogen in the neutral molecule (a tertiary amine). */
  tertiary?: number;
  /** Molecules fitted, and the leave-one-out mean absolute error. */
  n: number;
  looMae: number;
}

export const PKA_LINES: Readonly<Record<string, PkaLine>> = {
  'carboxylic acid': { slope: 0.18464, intercept: -18.4872, n: 17, looMae: 0.318 },
  phenol: { slope: 0.24196, intercept: -23.7217, n: 12, looMae: 0.545 },
  'aliphatic amine': { slope: 0.33395, intercept: -26.5018, perHydrogen: -1.9361, tertiary: -2.9019, n: 14, looMae: 0.753 },
  'aromatic nitrogen': { slope: 0.40332, intercept: -41.1819, n: 7, looMae: 0.572 },
  aniline: { slope: 0.2924, intercept: -27.3166, n: 6, looMae: 0.668 },
};
