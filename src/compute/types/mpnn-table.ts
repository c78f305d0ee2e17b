// The training table of an `mpnn_train` job given as input_artifact_id (docs/models.md,
// "Training"): the user's uploaded CSV, read as a stream (src/ml/csv.ts: the event loop turns
// every 16 KiB) both at submit, where its header and its rows are checked and counted for the
// estimate, and in the run, where its two columns become the training rows. Problems are
// AppErrors located in the payload: a column the file does not have at ["smiles_column"] or
// ["target_column"] naming the columns it has; an empty, malformed, too small or too large file
// at ["input_artifact_id"].
import { AppError, invalid, invalidInput, type Issue } from '../../errors.js';
import { smilesShapeError } from '../../chem/formats/smiles-shape.js';
import { findColumn, readCsvRecords } from '../../ml/csv.js';
import { MIN_ROWS, type TrainingRow } from '../../ml/data.js';
import type { JobModels } from '../ports.js';

/** Rows read from an uploaded CSV. */
export const MAX_FILE_ROWS = 50_000;
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

export interface TableRequest {
  input_artifact_id?: string;
  smiles_column?: string;
  target_column?: string;
}

export interface TrainingTable {
  /** Data rows (records after the header). */
  rows: number;
  /** The header as read (fields trimmed). */
  columns: string[];
  /** The training rows, when asked for. */
  data: TrainingRow[];
}

const quoteList = (names: string[]) => {
  const shown = names.slice(0, 30).map((n) => JSON.stringify(n.length > 100 ? `${n.slice(0, 100)}…` : n));
  return shown.join(', ') + (names.length > 30 ? ` and ${names.length - 30} more` : '');
};

/** A field that reads as a SMILES (its first word, with a ring, branch or bond). */
function looksLikeMolecule(field: string): boolean {
  const word = field.split(/\s+/)[0] ?? '';
  return word.length >= 3 && /[()=#[\]0-9]/.test(word) && smilesShapeError(word) === null;
}

/** A hint when the first line is no header: a molecule set (SMILES and a name) or a tab-separated file. */
function headerHint(header: string[]): string {
  if (header.length === 1 && (header[0] ?? '').includes('\t'))
    return '. Its first line is one tab-separated field: a training file is comma-separated, its first line naming the columns (a .smi molecule set of SMILES and names has no target values to train on)';
  if (header.some(looksLikeMolecule))
    return '. Its first line looks like a molecule, not a header: a training file starts with a line naming its columns (a molecule set of SMILES and names has no target values to train on)';
  return '';
}

/** The columns of smiles and target in the header, or the issues (both columns at once). */
function locateColumns(header: string[], req: TableRequest): { smiles: number; target: number } | { issues: Issue[] } {
  const smilesName = req.smiles_column ?? 'smiles';
  const smiles = findColumn(header, smilesName);
  const target = req.target_column === undefined ? -1 : findColumn(header, req.target_column);
  const issues: Issue[] = [];
  const has = `its columns are ${quoteList(header)}${headerHint(header)}`;
  if (smiles < 0) issues.push({ type: 'column_not_found', loc: ['smiles_column'], msg: `the training file has no column "${smilesName}" (any case); ${has}`, input: smilesName });
  if (target < 0)
    issues.push({ type: 'column_not_found', loc: ['target_column'], msg: `the training file has no column "${req.target_column}"; ${has}`, input: req.target_column ?? null });
  return issues.length ? { issues } : { smiles, target };
}

/**
 * Reads the training table of `req.input_artifact_id`: its header, checked against the named
 * columns, and its rows, counted (and kept when `keep`). AppErrors: the file's own (404, 422 at
 * input_artifact_id) and those listed in the file comment.
 */
export async function readTrainingTable(models: JobModels, userId: string, req: TableRequest, keep: boolean): Promise<TrainingTable> {
  const id = req.input_artifact_id!;
  const chunks = await models.openTrainingFile(userId, id, MAX_FILE_BYTES);
  const read: { header: string[] | null; cols: { smiles: number; target: number } | null; issues: Issue[]; rows: number } = { header: null, cols: null, issues: [], rows: 0 };
  const data: TrainingRow[] = [];
  try {
    await readCsvRecords(chunks, (r) => {
      if (read.header === null) {
        read.header = r.map((f) => f.trim());
        const c = locateColumns(read.header, req);
        if ('issues' in c) {
          read.issues = c.issues;
          return false;
        }
        read.cols = c;
        return true;
      }
      if (++read.rows > MAX_FILE_ROWS) return false;
      if (keep && read.cols) data.push({ smiles: (r[read.cols.smiles] ?? '').trim(), target: (r[read.cols.target] ?? '').trim() });
      return true;
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    // csv-parse's CsvError: where and why the file is not CSV.
    throw invalid(['input_artifact_id'], `the training file is not CSV: ${(err as Error).message}`, id, 'csv_invalid');
  }
  const { header, issues, rows } = read;
  if (header === null) throw invalid(['input_artifact_id'], 'the training file is empty', id, 'too_short');
  if (issues.length) throw invalidInput(issues);
  if (rows > MAX_FILE_ROWS) throw invalid(['input_artifact_id'], `the training file has more than ${MAX_FILE_ROWS} rows; at most ${MAX_FILE_ROWS}`, id, 'too_long');
  if (rows < MIN_ROWS) {
    throw invalid(
      ['input_artifact_id'],
      `the training file has ${rows} data rows; training takes at least ${MIN_ROWS} (rows RDKit cannot read and repeated structures do not count)`,
      id,
      'too_short',
    );
  }
  return { rows, columns: header, data };
}
