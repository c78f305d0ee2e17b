// Cost model of the chemistry job types: a fixed overhead plus measured per-molecule costs
// (and, for clustering, a per-pair cost). The figures come from scripts/calibrate-jobs.ts on
// the reference machine; docs/jobs.md has the method, the date and the raw measurements.
//
// An estimate is the expected runtime: it is reserved from the wallet at submit, it caps the
// charge, and it sets the runtime limit (3 x expected + 60 s). Under-estimating would stop
// long jobs at the limit, over-estimating only reserves more than is charged; the figures are
// therefore multiplied by SAFETY.

export const CALIBRATION = {
  /** When and where the figures were measured (docs/jobs.md). */
  measured: '2026-11-22, 2 x Intel Xeon (shared, load average 17-20), Node 20.20, RDKit MinimalLib 2026.09.1',
  /** Seconds every job costs whatever its size: claim, chemistry pool start, result artifact, bookkeeping. */
  overheadSec: 2,
  /** CPU milliseconds per molecule on one chemistry thread (scripts/calibrate-jobs.ts, rounded up). */
  perMoleculeMs: {
    /** Reading a molecule of an uploaded set (0.03 ms) plus converting an SDF molblock to SMILES (1.0 ms). */
    readArtifact: 1.05,
    /** Writing one record (about 1 KB of JSON or a SMILES line) into the result artifact. */
    writeRecord: 0.65,
    /** describe kind (all MolecularProperties). */
    describe: 3.8,
    /** depict kind (one 300 x 220 SVG) plus the extra cost of writing an SVG record. */
    depict: 2.7,
    /** morgan_fp / morgan_similarity (parse + Morgan r=2 2048 bits + Tanimoto). */
    fingerprint: 0.5,
    /** substructure_match (parse + match; the broader of two typical queries). */
    substructure: 0.4,
  },
  /** Butina: CPU nanoseconds per n^2 (both passes together; the denser cutoff of two). */
  butinaPairNs: 33,
  /** Multiplier applied to every measured figure: the machine may be loaded, molecules larger. */
  SAFETY: 2,
} as const;

export type CostName = keyof typeof CALIBRATION.perMoleculeMs;

/**
 * Costs that run on the chemistry threads, spread over as many of them as the job's resource
 * has vCPUs; the others (reading the input set, writing result records) run on one.
 */
const PARALLEL: ReadonlySet<CostName> = new Set<CostName>(['describe', 'depict', 'fingerprint', 'substructure']);

/**
 * Expected seconds for `n` molecules at the given per-molecule costs (ms) on a resource with
 * `vcpu` vCPUs, plus `parallelExtraSec` of work that also spreads over them (clustering's
 * pairwise pass), overhead and safety included.
 */
export function linearEstimate(n: number, costs: CostName[], vcpu: number, parallelExtraSec = 0): number {
  let serialMs = 0;
  let parallelMs = 0;
  for (const c of costs) {
    if (PARALLEL.has(c)) parallelMs += CALIBRATION.perMoleculeMs[c];
    else serialMs += CALIBRATION.perMoleculeMs[c];
  }
  const workSec = (CALIBRATION.SAFETY * n * (serialMs + parallelMs / vcpu)) / 1000 + parallelExtraSec / vcpu;
  return Math.round((CALIBRATION.overheadSec + workSec) * 1000) / 1000;
}
