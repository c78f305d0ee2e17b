// The bond dissociation enthalpy calibration lines (docs/engines.md, "Bond energy calibration"):
// written by scripts/questions/calibrate-bde.ts from data/public/bde/train.csv; do not edit by hand.
export interface BdeLine {
  slope: number;
  intercept: number;
  /** Bonds fitted, and the leave-one-out mean absolute error (kcal/mol). */
  n: number;
  looMae: number;
}

export const BDE_LINES: Readonly<Record<string, BdeLine>> = {
  gfn2: { slope: 0.60064, intercept: 27.1382, n: 16, looMae: 8.318 },
  b3lyp: { slope: 0.97499, intercept: 4.5308, n: 16, looMae: 2.447 },
};
