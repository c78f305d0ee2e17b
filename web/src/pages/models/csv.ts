// The training file on the Models page: its header read in the browser before any upload (to offer
// the SMILES and target columns), and the upload itself (POST /artifacts, mode=file, by
// XMLHttpRequest for its upload progress, as the Library page uploads; docs/artifacts.md).
import type { components } from '../../../../clients/typescript/src/generated/openapi.ts';
import { ProblemError, problemFrom } from '../../api/problem.ts';
import { accessToken } from '../../api/session.ts';

export type Artifact = components['schemas']['ArtifactResponse'];

/** The fields of one CSV line (double quotes, "" inside them, as csv-parse reads them). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

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
  return accessToken().then(
    (token) =>
      new Promise<Artifact>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/v1/artifacts');
        if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
        xhr.setRequestHeader('accept', 'application/json');
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
        xhr.onerror = () => reject(new TypeError('network'));
        xhr.onload = async () => {
          if (xhr.status >= 200 && xhr.status < 300) return resolve(JSON.parse(xhr.responseText) as Artifact);
          const res = new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' } });
          reject(new ProblemError(await problemFrom(res)));
        };
        xhr.send(form);
      }),
  );
}

/** A number for a card or a table: 4 significant digits, or a dash. */
export function num(v: unknown, digits = 4): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
  if (v !== 0 && (Math.abs(v) >= 1e5 || Math.abs(v) < 1e-3)) return v.toExponential(2);
  return Number(v.toPrecision(digits)).toString();
}
