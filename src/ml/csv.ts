// Training tables (data/public/*.csv, uploaded training files) read with csv-parse (RFC 4180:
// quoted fields, doubled quotes, CRLF or LF line ends). Fields are kept as written (the ESOL
// SMILES with a trailing space are trimmed by the SMILES reader, not here).
//
// An uploaded table (up to 32 MiB) is read as a stream (readCsvRecords): the parser sees at most
// PIECE bytes at a time and the event loop turns between pieces, so counting or reading a large
// file at submit or in a job never stalls the server (docs/reliability.md, "No request stalls
// the server").
import { Parser } from 'csv-parse';
import { parse } from 'csv-parse/sync';

const OPTIONS = { relax_column_count: true, skip_empty_lines: true, bom: true } as const;
/** Bytes parsed between two turns of the event loop (1 to 2 ms of parsing on the reference machine). */
const PIECE = 16 * 1024;

/** The rows of a CSV text, each an array of fields; empty lines are dropped. */
export function parseCsv(text: string): string[][] {
  return parse(text, OPTIONS) as string[][];
}

/** The rows of a CSV text with a header line, as objects keyed by column name. */
export function readCsvTable(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Streams the records of a CSV (bytes, UTF-8) to `each`, in order, the header first; `each`
 * returning false stops the reading. Rejects with csv-parse's error (a CsvError) on a malformed
 * file (an unclosed quote, ...).
 */
export async function readCsvRecords(chunks: AsyncIterable<Uint8Array>, each: (record: string[]) => boolean | void): Promise<void> {
  const parser = new Parser(OPTIONS);
  const state: { failed: Error | null; stopped: boolean } = { failed: null, stopped: false };
  parser.on('data', (record: string[]) => {
    if (!state.stopped && each(record) === false) state.stopped = true;
  });
  parser.on('error', (err: Error) => (state.failed ??= err));
  try {
    for await (const chunk of chunks) {
      for (let at = 0; at < chunk.length && !state.stopped; at += PIECE) {
        parser.write(chunk.subarray(at, at + PIECE));
        await turn();
        if (state.failed) throw state.failed;
      }
      if (state.stopped) return;
    }
    await new Promise<void>((resolve) => {
      for (const e of ['end', 'error', 'close']) parser.once(e, () => resolve());
      parser.end();
    });
    if (state.failed) throw state.failed;
  } finally {
    parser.destroy();
  }
}

export interface CsvShape {
  /** The header line's fields, trimmed. */
  header: string[];
  /** Records after the header (at most maxRows + 1: counting stops there). */
  rows: number;
}

/** The header and the number of data rows of a CSV, counting no further than maxRows + 1. */
export async function csvShape(chunks: AsyncIterable<Uint8Array>, maxRows: number): Promise<CsvShape> {
  let header: string[] | null = null;
  let rows = 0;
  await readCsvRecords(chunks, (r) => {
    if (header === null) header = r.map((f) => f.trim());
    else rows++;
    return rows <= maxRows;
  });
  return { header: header ?? [], rows };
}

/**
 * The index of column `name` in `header`: the exact name, else the first that differs only in
 * case; -1 when there is none.
 */
export function findColumn(header: readonly string[], name: string): number {
  const exact = header.indexOf(name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  return header.findIndex((h) => h.toLowerCase() === lower);
}
