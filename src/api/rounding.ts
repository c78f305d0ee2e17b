// Estimates and expected runtimes as the API presents them (jobs, workflows, the Assistant's
// tools): money to the micro-dollar, times to the millisecond, so that sums and products of
// floating-point numbers show no noise (6.071999999999999 s is shown as 6.072).

/** USD rounded to the micro-dollar. */
export const roundUsd = (usdAmount: number): number => Math.round(usdAmount * 1_000_000) / 1_000_000;

/** Seconds rounded to the millisecond. */
export const roundSec = (seconds: number): number => Math.round(seconds * 1000) / 1000;
