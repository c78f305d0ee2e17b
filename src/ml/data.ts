// Training data: reading and checking the rows, and splitting them.
//
// Rows whose SMILES RDKit cannot read are skipped and counted; a row whose canonical SMILES
// repeats an earlier row's is a duplicate: the first is kept, the others counted. A target
// that is not a finite number (a numeric string counts: rows often come from CSV), beyond
// +-MAX_ABS_TARGET, or not 0/1 for classification, is an input error at ["rows", i, "target"];
// fewer than 50 usable rows is an input error at ["rows"].
import { invalidInput, type Issue } from '../errors.js';
import { featurizeSmiles, withHybridisationQueries, type MolFeatures } from './featurize.js';
import type { SplitOptions, Task } from './options.js';
import { Prng } from './prng.js';
import type { RDKitModule } from '../chem/rdkit.js';
import { murckoScaffold } from './scaffold.js';

export const MIN_ROWS = 50;
/**
 * The largest |target| accepted (docs/models.md, "Training data"): beyond it the squares of the
 * standard scaler's variance lose precision and then overflow (a million squared is 1e12; 1e308
 * squared is Infinity), and such values are raw concentrations or mistakes, to be log-transformed.
 */
export const MAX_ABS_TARGET = 1e6;

export interface TrainingRow {
  smiles: string;
  target: number | string;
}

/** A usable row: its place in the input, canonical SMILES, target and features. */
export interface Datum {
  row: number;
  smiles: string;
  canonical: string;
  target: number;
  features: MolFeatures;
}

export interface DataReport {
  rows: number;
  used: number;
  unreadable: number;
  /** input rows (0-based) skipped because RDKit cannot read their SMILES (the first 100) */
  unreadable_rows: number[];
  duplicates: number;
  /** input rows (0-based) dropped as repeats of an earlier row's structure (the first 100) */
  duplicate_rows: number[];
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * A training target as a number, or the issue with it (at `loc`): not a finite number
 * (`ml_target_not_numeric`), beyond +-MAX_ABS_TARGET (`ml_target_out_of_range`), or not 0/1 for
 * classification (`ml_target_not_binary`). Shared by prepareData and the checks at job submit.
 */
export function checkTarget(value: unknown, task: Task, loc: Issue['loc']): { target: number } | { issue: Issue } {
  const target = toNumber(value);
  if (target === null) return { issue: { type: 'ml_target_not_numeric', loc, msg: 'the target must be a finite number', input: value } };
  if (Math.abs(target) > MAX_ABS_TARGET) {
    return {
      issue: {
        type: 'ml_target_out_of_range',
        loc,
        msg: `the target must be within -${MAX_ABS_TARGET} and ${MAX_ABS_TARGET} (log-transform values as large as this)`,
        input: value,
      },
    };
  }
  if (task === 'classification' && target !== 0 && target !== 1)
    return { issue: { type: 'ml_target_not_binary', loc, msg: 'a classification target must be 0 or 1', input: value } };
  return { target };
}

/** Reads and checks the rows (see the file comment); throws an AppError ('invalid') with every problem found. */
export function prepareData(rdkit: RDKitModule, rows: readonly TrainingRow[], task: Task): { data: Datum[]; report: DataReport } {
  const issues: Issue[] = [];
  const data: Datum[] = [];
  const seen = new Set<string>();
  const report: DataReport = { rows: rows.length, used: 0, unreadable: 0, unreadable_rows: [], duplicates: 0, duplicate_rows: [] };
  withHybridisationQueries(rdkit, (queries) => {
    for (const [i, row] of rows.entries()) {
      const parsed = typeof row?.smiles === 'string' ? featurizeSmiles(rdkit, row.smiles.trim(), queries) : null;
      if (!parsed) {
        report.unreadable++;
        if (report.unreadable_rows.length < 100) report.unreadable_rows.push(i);
        continue;
      }
      const checked = checkTarget(row.target, task, ['rows', i, 'target']);
      if ('issue' in checked) {
        issues.push(checked.issue);
        continue;
      }
      const target = checked.target;
      if (seen.has(parsed.canonical)) {
        report.duplicates++;
        if (report.duplicate_rows.length < 100) report.duplicate_rows.push(i);
        continue;
      }
      seen.add(parsed.canonical);
      data.push({ row: i, smiles: row.smiles, canonical: parsed.canonical, target, features: parsed.features });
    }
  });
  if (!issues.length && data.length < MIN_ROWS) {
    issues.push({
      type: 'ml_too_few_rows',
      loc: ['rows'],
      msg: `at least ${MIN_ROWS} usable rows are needed; ${data.length} found (${report.unreadable} unreadable SMILES, ${report.duplicates} duplicates)`,
      input: rows.length,
    });
  }
  if (issues.length) throw invalidInput(issues.slice(0, 100));
  report.used = data.length;
  return { data, report };
}

export interface Split {
  train: number[];
  val: number[];
  test: number[];
}

/**
 * Splits items into train/validation/test. Random: a seeded shuffle cut at floor(share * n),
 * as chemprop. Scaffold: chemprop's balanced Bemis-Murcko scaffold split (scaffold sets larger
 * than half the validation or test share first, then the rest, each group shuffled with the
 * seed; a set goes to train while it fits, then validation, then test), so no scaffold is in
 * two parts. `scaffolds` gives each item's scaffold (needed for the scaffold split).
 */
export function splitIndices(n: number, split: SplitOptions, scaffolds?: readonly string[]): Split {
  const rng = new Prng(split.seed);
  const [fTrain, fVal] = split.sizes;
  if (split.type === 'random') {
    const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    const nTrain = Math.floor(fTrain * n);
    const nTrainVal = Math.floor((fTrain + fVal) * n);
    return { train: order.slice(0, nTrain), val: order.slice(nTrain, nTrainVal), test: order.slice(nTrainVal) };
  }
  if (!scaffolds || scaffolds.length !== n) throw new Error('a scaffold split needs the scaffold of every item');
  const trainSize = fTrain * n;
  const valSize = fVal * n;
  const testSize = split.sizes[2] * n;
  const groups = new Map<string, number[]>();
  for (const [i, s] of scaffolds.entries()) {
    const g = groups.get(s);
    if (g) g.push(i);
    else groups.set(s, [i]);
  }
  const sets = [...groups.values()];
  const big = sets.filter((s) => s.length > valSize / 2 || s.length > testSize / 2);
  const small = sets.filter((s) => !(s.length > valSize / 2 || s.length > testSize / 2));
  const ordered = [...rng.shuffle(big), ...rng.shuffle(small)];
  const out: Split = { train: [], val: [], test: [] };
  for (const s of ordered) {
    if (out.train.length + s.length <= trainSize) out.train.push(...s);
    else if (out.val.length + s.length <= valSize) out.val.push(...s);
    else out.test.push(...s);
  }
  return out;
}

/** Splits prepared data (computing scaffolds for a scaffold split). */
export function splitData(rdkit: RDKitModule, data: readonly Pick<Datum, 'canonical'>[], split: SplitOptions): Split & { scaffolds: string[] | null } {
  const scaffolds = split.type === 'scaffold' ? data.map((d) => murckoScaffold(rdkit, d.canonical) ?? '') : null;
  return { ...splitIndices(data.length, split, scaffolds ?? undefined), scaffolds };
}
