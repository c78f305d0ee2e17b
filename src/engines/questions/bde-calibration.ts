// The bond dissociation enthalpy calibration lines (docs/questions.md, "Bond energy calibration"):
// written by scripts/questions/calibrate-bde.ts from data/public/bde/train.csv; do not edit by hand.
export interface BdeLine {
  slope: number;
  intercept: number;
  /** Bonds fitted, and the leave-one-out mean absolute error (kcal/mol). */
  n: number;
  looMae: number;
}

export const BDE_LINES: Readonly<Record<string, BdeLine>> = {
  gfn2: { slope: 0.61641, intercept: 25.9238, n: 16, looMae: 7.447 },
  b3lyp: { slope: 0.97426, intercept: 5.5885, n: 16, looMae: 1.503 },
};
