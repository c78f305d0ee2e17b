// Training tables (data/public/*.csv, uploaded training files) read with csv-parse (RFC 4180:
// quoted fields, doubled quotes, CRLF or LF line ends). Fields are kept as written (the ESOL
// SMILES with a trailing space are trimmed by the SMILES reader, not here).
import { parse } from 'csv-parse/sync';

/** The rows of a CSV text, each an array of fields; empty lines are dropped. */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
}

/** The rows of a CSV text with a header line, as objects keyed by column name. */
export function readCsvTable(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}
