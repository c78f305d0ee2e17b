// The training file on the Models page: its header read in the browser before any upload (to offer
// the SMILES and target columns), and the upload itself (POST /artifacts, mode=file, with upload
// progress through api/client.ts's uploadArtifact, as the Library page uploads; docs/artifacts.md).
import type { components } from 'crucible-client';
import { uploadArtifact } from '../../api/client.ts';
import { csvFields } from '../../lib/csv.ts';

export type Artifact = components['schemas']['ArtifactResponse'];

export interface Header {
  columns: string[];
  /** Data lines in the first 64 KiB (a lower bound for a larger file). */
  sampleRows: number;
  /** Whether the whole file fitted in the sample (so sampleRows is the count). */
  complete: boolean;
}

/** The header line and a count of the data lines, from the first 64 KiB of the file. */
export async function readHeader(file: File): Promise<Header> {
  const SAMPLE = 64 * 1024;
  const text = (await file.slice(0, SAMPLE).text()).replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const complete = file.size <= SAMPLE;
  // The last line of a cut sample may be partial: not counted.
  const body = lines.slice(1, complete ? undefined : -1).filter((l) => l.trim() !== '');
  return { columns: csvFields(lines[0] ?? '').filter((c) => c !== ''), sampleRows: body.length, complete };
}

/** The likely SMILES column and target column of a header. */
export function guessColumns(columns: string[]): { smiles: string; target: string } {
  const smiles = columns.find((c) => /^smiles$/i.test(c)) ?? columns.find((c) => /smiles/i.test(c)) ?? columns[0] ?? 'smiles';
  const rest = columns.filter((c) => c !== smiles && !/^(name|id|compound.?id|title)$/i.test(c));
  return { smiles, target: rest[rest.length - 1] ?? '' };
}

/** POST /artifacts (mode=file) with upload progress. */
export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<Artifact> {
  const form = new FormData();
  form.set('mode', 'file');
  form.set('name', file.name);
  form.set('file', file);
  return uploadArtifact(form, onProgress);
}
