// Molecule files (.smi, .csv/.tsv with a `smiles` column, .sdf/.mol) parsed textually and
// streamed: entries are split and checked for shape here (balanced brackets and branches,
// closed rings, known atoms; a complete molblock); chemical validity proper is RDKit's job
// when a job reads the set. Unparseable entries become warnings, never a failed upload,
// unless nothing at all is usable or the file itself is unusable (no `smiles` column).

import { listFew } from '../../errors.js';
import { recordIdProblem } from '../../record-ids.js';
import { molblockCoordinateProblem } from './coordinates.js';
import { smilesCore, smilesShapeError } from './smiles-shape.js';

type MoleculeFormat = 'smi' | 'csv' | 'tsv' | 'sdf';

type Source = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

export interface ParsedMolecule {
  /** Unique within the set: the file's id column/field when present, else the entry's 1-based position. */
  id: string;
  /** The SMILES (from the text, or an SDF `SMILES` data field). */
  smiles?: string;
  /** The connection table of an SDF record (through `M  END`). */
  molblock?: string;
  name?: string;
  /** Numeric values of the other columns / data fields. */
  metrics?: Record<string, number>;
  /** The record as its own file: one .smi line, or one SDF record ending in $$$$. */
  text: string;
}

export interface ParseWarning {
  type: 'unparseable' | 'duplicate_id' | 'too_long';
  /** 1-based line where the entry starts. */
  line: number;
  /** 1-based position of the entry in the file (row, line or SDF record). */
  entry: number;
  msg: string;
  input?: string;
}

/** The file as a whole cannot be read as a molecule set (422 at body.file). */
export class MoleculeFileError extends Error {}

const MAX_LINE = 1024 * 1024;
const MAX_SDF_RECORD = 4 * 1024 * 1024;
const ID_COLUMNS = ['id', 'mol_id', 'molecule_id', 'compound_id', 'identifier'];
const NAME_COLUMNS = ['name', 'title', 'compound_name', 'molecule_name'];

export function formatFor(filename: string, dataFormat: string | null): MoleculeFormat | null {
  const f = (dataFormat ?? '').trim().toLowerCase().replace(/^\./, '');
  const ext = f || (filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : '');
  switch (ext) {
    case 'smi':
    case 'smiles':
    case 'ism':
    case 'can':
      return 'smi';
    case 'csv':
      return 'csv';
    case 'tsv':
    case 'tab':
      return 'tsv';
    case 'sdf':
    case 'sd':
    case 'mol':
      return 'sdf';
    default:
      return null;
  }
}

// ---------------------------------------------------------------- text streams

async function* textChunks(input: Source): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

interface Line {
  text: string;
  no: number;
  tooLong: boolean;
}

/** Lines without their terminator (\n, \r\n or \r); a line past MAX_LINE is cut and flagged. */
/**
 * A line the database could not store (a NUL character; bytes that are not UTF-8 decode to
 * U+FFFD and are stored as that): why, or null. Such a line is a warning like any bad line.
 */
function unstorableText(text: string): string | null {
  return text.includes('\u0000') ? 'the line holds a NUL character (U+0000)' : null;
}

async function* lines(input: Source): AsyncGenerator<Line> {
  let buf = '';
  let no = 0;
  let skipping = false;
  let pendingCR = false;
  for await (let text of textChunks(input)) {
    if (pendingCR && text.startsWith('\n')) text = text.slice(1);
    pendingCR = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      const piece = text.slice(start, i);
      no++;
      if (skipping) {
        skipping = false;
        buf = '';
      } else {
        yield { text: buf + piece, no, tooLong: false };
        buf = '';
      }
      if (ch === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else pendingCR = true;
      }
      start = i + 1;
    }
    if (!skipping) {
      buf += text.slice(start);
      if (buf.length > MAX_LINE) {
        yield { text: buf.slice(0, 200), no: no + 1, tooLong: true };
        skipping = true;
        buf = '';
      }
    }
  }
  if (!skipping && buf.length) yield { text: buf, no: no + 1, tooLong: false };
}

// ---------------------------------------------------------------- parsers

interface ParseOptions {
  warn(w: ParseWarning): void;
}

class IdBook {
  private readonly seen = new Set<string>();
  /** `row` or `record`: how a message names an entry. */
  constructor(private readonly entryWord: string) {}
  /**
   * The id to use, or null (and a warning) when it repeats. An id the rule refuses
   * (src/record-ids.ts: too long, control characters) fails the upload naming its entry: a
   * job's results would not store it.
   */
  take(id: string, entry: number, line: number, opts: ParseOptions): string | null {
    const problem = recordIdProblem(id);
    if (problem !== null) {
      const shown = id.length > 40 ? `${JSON.stringify(head(id, 40))}...` : JSON.stringify(id);
      throw new MoleculeFileError(`${this.entryWord} ${entry} (line ${line}) has the id ${shown}: ${problem}`);
    }
    if (this.seen.has(id)) {
      opts.warn({ type: 'duplicate_id', line, entry, msg: `id "${id}" repeats an earlier entry; this entry is skipped`, input: id });
      return null;
    }
    this.seen.add(id);
    return id;
  }
}

/** The first `n` UTF-16 code units of `s`, never half of a surrogate pair. */
const head = (s: string, n: number) => s.slice(0, n).replace(/[\ud800-\udbff]$/, '');

// A warning quotes at most 200 characters of its input, NUL shown as U+FFFD (the warning is stored as JSON in the database).
const clipInput = (s: string) => {
  const t = s.replaceAll('\u0000', '\uFFFD');
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
};

export function parseMolecules(input: Source, format: MoleculeFormat, opts: ParseOptions): AsyncGenerator<ParsedMolecule> {
  switch (format) {
    case 'smi':
      return parseSmi(input, opts);
    case 'csv':
    case 'tsv':
      return parseDelimited(input, format === 'tsv' ? '\t' : null, opts);
    case 'sdf':
      return parseSdf(input, opts);
  }
}

/** SMILES files: `SMILES[<whitespace>name]` per line; `#` comments, blank lines and a `smiles ...` header line are skipped. */
async function* parseSmi(input: Source, opts: ParseOptions): AsyncGenerator<ParsedMolecule> {
  const ids = new IdBook('line');
  let entry = 0;
  let sawContent = false;
  for await (const line of lines(input)) {
    const raw = line.text.trim();
    if (line.tooLong) {
      entry++;
      opts.warn({ type: 'too_long', line: line.no, entry, msg: `line longer than ${MAX_LINE} bytes`, input: clipInput(raw) });
      continue;
    }
    if (!raw || raw.startsWith('#')) continue;
    const unstorable = unstorableText(raw);
    if (unstorable) {
      entry++;
      opts.warn({ type: 'unparseable', line: line.no, entry, msg: unstorable, input: clipInput(raw) });
      continue;
    }
    const m = /^(\S+)(?:\s+(.*))?$/.exec(raw);
    const first = m?.[1];
    if (m === null || first === undefined) continue; // (raw is trimmed and not empty: it always matches)
    let smiles = first;
    let name = m[2]?.trim() || undefined;
    if (!sawContent) {
      sawContent = true;
      if (smiles.toLowerCase() === 'smiles') continue; // a header line
    }
    // CXSMILES extensions ("C1CC1 |$a;b;c$| name") belong to the structure.
    if (name?.startsWith('|')) {
      const end = name.indexOf('|', 1);
      if (end > 0) {
        smiles = `${smiles} ${name.slice(0, end + 1)}`;
        name = name.slice(end + 1).trim() || undefined;
      }
    }
    entry++;
    const core = smilesCore(smiles);
    const err = smilesShapeError(core);
    if (err) {
      opts.warn({ type: 'unparseable', line: line.no, entry, msg: `not a SMILES: ${err}`, input: clipInput(raw) });
      continue;
    }
    const id = ids.take(String(entry), entry, line.no, opts);
    if (id === null) continue;
    yield { id, smiles, name, text: name ? `${smiles}\t${name}\n` : `${smiles}\n` };
  }
}

/** RFC 4180 records: quoted fields (with "" escapes and line breaks inside), CRLF or LF. */
async function* csvRecords(input: Source, delimiter: string | null, onDelimiter: (d: string) => void): AsyncGenerator<{ fields: string[]; line: number; unterminated: boolean }> {
  let delim = delimiter;
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let quotedField = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let recordSize = 0;
  let pendingCR = false;
  let head = '';
  const finishField = () => {
    fields.push(quotedField ? field : field.trim());
    field = '';
    quotedField = false;
    afterQuote = false;
  };
  for await (let text of textChunks(input)) {
    if (delim === null) {
      // Choose the delimiter from the header line: comma, else tab, else semicolon.
      head += text;
      const nl = head.search(/[\r\n]/);
      if (nl < 0 && head.length < MAX_LINE) continue;
      const first = nl < 0 ? head : head.slice(0, nl);
      const unquoted = first.replace(/"[^"]*"/g, '');
      delim = unquoted.includes(',') ? ',' : unquoted.includes('\t') ? '\t' : unquoted.includes(';') ? ';' : ',';
      onDelimiter(delim);
      text = head;
      head = '';
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (pendingCR) {
        pendingCR = false;
        if (c === '\n') continue;
      }
      if (inQuotes) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else if (i + 1 === text.length) {
            // The escape may straddle chunks: decide on the next chunk.
            inQuotes = false;
            afterQuote = true;
          } else {
            inQuotes = false;
            afterQuote = true;
          }
        } else {
          if (c === '\n') line++;
          field += c;
        }
        recordSize++;
        if (recordSize > MAX_LINE) throw new MoleculeFileError(`line ${recordLine}: a quoted field runs past ${MAX_LINE} bytes (an unterminated quote?)`);
        continue;
      }
      if (afterQuote && c === '"') {
        // "" split across chunks, or a stray quote after a closing one: keep it literally.
        field += '"';
        inQuotes = true;
        afterQuote = false;
        continue;
      }
      if (c === delim) {
        finishField();
        recordSize++;
        continue;
      }
      if (c === '\n' || c === '\r') {
        finishField();
        yield { fields, line: recordLine, unterminated: false };
        fields = [];
        recordSize = 0;
        line++;
        recordLine = line;
        if (c === '\r') pendingCR = true;
        continue;
      }
      if (c === '"' && field.trim() === '' && !quotedField) {
        field = '';
        inQuotes = true;
        quotedField = true;
        continue;
      }
      field += c;
      recordSize++;
      if (recordSize > MAX_LINE) throw new MoleculeFileError(`line ${recordLine}: a row longer than ${MAX_LINE} bytes`);
    }
  }
  if (delim === null && head) {
    onDelimiter(',');
    for await (const r of csvRecords([head], ',', () => undefined)) yield r;
    return;
  }
  if (inQuotes) {
    finishField();
    yield { fields, line: recordLine, unterminated: true };
  } else if (field !== '' || fields.length > 0 || quotedField) {
    finishField();
    yield { fields, line: recordLine, unterminated: false };
  }
}

function numeric(v: string): number | null {
  const t = v.trim();
  if (!t || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** CSV/TSV with a header row holding a `smiles` column (any case, any position). */
async function* parseDelimited(input: Source, delimiter: string | null, opts: ParseOptions): AsyncGenerator<ParsedMolecule> {
  let header: string[] | null = null;
  let smilesCol = -1;
  let idCol = -1;
  let nameCol = -1;
  let metricCols: [number, string][] = [];
  const ids = new IdBook('row');
  let entry = 0;
  let delim = delimiter ?? ',';
  for await (const rec of csvRecords(input, delimiter, (d) => (delim = d))) {
    const blank = rec.fields.every((f) => f === '');
    if (!header) {
      if (blank) continue;
      header = rec.fields.map((h) => h.trim());
      const lower = header.map((h) => h.toLowerCase());
      smilesCol = lower.indexOf('smiles');
      if (smilesCol < 0) {
        const cols = listFew(
          header.map((h) => JSON.stringify(h.slice(0, 100))),
          10,
        );
        throw new MoleculeFileError(`the ${delim === '\t' ? 'TSV' : 'CSV'} header (line ${rec.line}) has no "smiles" column (matched case-insensitively); its columns are ${cols}`);
      }
      idCol = lower.findIndex((h, i) => i !== smilesCol && ID_COLUMNS.includes(h));
      nameCol = lower.findIndex((h, i) => i !== smilesCol && i !== idCol && NAME_COLUMNS.includes(h));
      metricCols = header.map((h, i) => [i, h] as [number, string]).filter(([i, h]) => i !== smilesCol && i !== idCol && i !== nameCol && h !== '');
      continue;
    }
    if (blank) continue;
    entry++;
    const raw = rec.fields.join(delim);
    const unstorable = unstorableText(raw);
    if (unstorable) {
      opts.warn({ type: 'unparseable', line: rec.line, entry, msg: unstorable, input: clipInput(raw) });
      continue;
    }
    if (rec.unterminated) {
      opts.warn({ type: 'unparseable', line: rec.line, entry, msg: 'unterminated quoted field at the end of the file', input: clipInput(raw) });
      continue;
    }
    const smiles = (rec.fields[smilesCol] ?? '').trim();
    const err = smilesShapeError(smilesCore(smiles));
    if (err) {
      opts.warn({ type: 'unparseable', line: rec.line, entry, msg: `not a SMILES in column "${header[smilesCol]}": ${err}`, input: clipInput(smiles || raw) });
      continue;
    }
    const given = idCol >= 0 ? (rec.fields[idCol] ?? '').trim() : '';
    const id = ids.take(given || String(entry), entry, rec.line, opts);
    if (id === null) continue;
    const name = nameCol >= 0 ? (rec.fields[nameCol] ?? '').trim() || undefined : undefined;
    let metrics: Record<string, number> | undefined;
    for (const [i, h] of metricCols) {
      const n = numeric(rec.fields[i] ?? '');
      if (n !== null) (metrics ??= {})[h] = n;
    }
    yield { id, smiles, name, metrics, text: name ? `${smiles}\t${name}\n` : `${smiles}\n` };
  }
  if (!header) throw new MoleculeFileError('the file is empty: a CSV needs a header row with a "smiles" column');
}

interface SdfCheck {
  error: string | null;
  molblockEnd: number; // index of the "M  END" line
}

function checkMolblock(rec: string[]): SdfCheck {
  const counts = rec[3];
  if (counts === undefined) return { error: 'truncated: a molblock needs a 3-line header and a counts line', molblockEnd: -1 };
  const end = rec.findIndex((l, i) => i >= 4 && /^M {2}END\s*$/.test(l));
  if (/V3000/.test(counts)) {
    if (!rec.some((l) => /^M {2}V30 BEGIN CTAB/.test(l))) return { error: 'V3000 molblock without "M  V30 BEGIN CTAB"', molblockEnd: -1 };
    if (end < 0) return { error: 'no "M  END" line', molblockEnd: -1 };
    const coords = molblockCoordinateProblem(rec.slice(0, end + 1));
    if (coords) return { error: coords, molblockEnd: -1 };
    return { error: null, molblockEnd: end };
  }
  const atoms = Number(counts.slice(0, 3));
  const bonds = Number(counts.slice(3, 6));
  if (!/^[ \d]{3}[ \d]{3}/.test(counts) || !Number.isInteger(atoms) || !Number.isInteger(bonds) || counts.slice(0, 3).trim() === '') {
    return { error: `line 4 is not a counts line: ${JSON.stringify(counts.slice(0, 40))}`, molblockEnd: -1 };
  }
  if (atoms === 0) return { error: 'the counts line declares no atoms', molblockEnd: -1 };
  if (rec.length < 4 + atoms + bonds) return { error: `declares ${atoms} atoms and ${bonds} bonds but the record is shorter`, molblockEnd: -1 };
  // (the record has every atom and bond line: checked above)
  for (const [i, l] of rec.slice(4, 4 + atoms).entries()) {
    if (!/^\s*-?\d+(\.\d+)?\s+-?\d+(\.\d+)?\s+-?\d+(\.\d+)?\s+[A-Za-z*][A-Za-z0-9]{0,2}\b/.test(l))
      return { error: `atom line ${i + 1} is malformed: ${JSON.stringify(l.slice(0, 60))}`, molblockEnd: -1 };
  }
  for (const [i, l] of rec.slice(4 + atoms, 4 + atoms + bonds).entries()) {
    const a = Number(l.slice(0, 3));
    const b = Number(l.slice(3, 6));
    const t = Number(l.slice(6, 9));
    if (!Number.isInteger(a) || !Number.isInteger(b) || !Number.isInteger(t) || a < 1 || b < 1 || a > atoms || b > atoms || l.slice(0, 3).trim() === '') {
      return { error: `bond line ${i + 1} is malformed or names an atom outside 1..${atoms}: ${JSON.stringify(l.slice(0, 40))}`, molblockEnd: -1 };
    }
  }
  if (end < 0 || end < 4 + atoms + bonds) return { error: 'no "M  END" line after the atom and bond blocks', molblockEnd: -1 };
  return { error: null, molblockEnd: end };
}

/** SDF: records separated by `$$$$`; data fields `> <NAME>` after `M  END`. */
async function* parseSdf(input: Source, opts: ParseOptions): AsyncGenerator<ParsedMolecule> {
  const ids = new IdBook('record');
  let rec: string[] = [];
  let recLine = 1;
  let recSize = 0;
  let tooBig = false;
  let entry = 0;
  function* finish(): Generator<ParsedMolecule> {
    const recLines = rec;
    const startLine = recLine;
    rec = [];
    recSize = 0;
    const wasTooBig = tooBig;
    tooBig = false;
    if (recLines.every((l) => l.trim() === '') && !wasTooBig) return;
    entry++;
    if (wasTooBig) {
      opts.warn({ type: 'too_long', line: startLine, entry, msg: `record larger than ${MAX_SDF_RECORD} bytes`, input: clipInput(recLines[0] ?? '') });
      return;
    }
    const unstorable = recLines.map(unstorableText).find((u) => u !== null);
    if (unstorable) {
      opts.warn({ type: 'unparseable', line: startLine, entry, msg: unstorable, input: clipInput(recLines[0] ?? '') });
      return;
    }
    const check = checkMolblock(recLines);
    if (check.error) {
      opts.warn({ type: 'unparseable', line: startLine, entry, msg: `not a molblock: ${check.error}`, input: clipInput(recLines[0] ?? '') });
      return;
    }
    const fields: Record<string, string> = {};
    for (let i = check.molblockEnd + 1; i < recLines.length; i++) {
      const key = /^>.*<([^>]+)>/.exec(recLines[i] ?? '')?.[1];
      if (key === undefined) continue;
      // Its value: the lines up to a blank line or the end of the record.
      const vals: string[] = [];
      for (let v = recLines[++i]; v !== undefined && v.trim() !== ''; v = recLines[++i]) vals.push(v);
      fields[key.trim()] = vals.join('\n').trim();
    }
    const lowerKey = (names: string[]) => Object.keys(fields).find((k) => names.includes(k.toLowerCase()));
    const smilesKey = lowerKey(['smiles', 'canonical_smiles', 'isomeric_smiles']);
    const idKey = lowerKey(ID_COLUMNS);
    const nameKey = lowerKey(NAME_COLUMNS);
    let smiles: string | undefined = smilesKey ? fields[smilesKey] : undefined;
    if (smiles !== undefined && smilesShapeError(smilesCore(smiles))) smiles = undefined;
    const title = (recLines[0] ?? '').trim();
    const name = title || (nameKey ? fields[nameKey] : undefined) || undefined;
    let metrics: Record<string, number> | undefined;
    for (const [k, v] of Object.entries(fields)) {
      if (k === smilesKey || k === idKey || k === nameKey) continue;
      const n = numeric(v);
      if (n !== null) (metrics ??= {})[k] = n;
    }
    const id = ids.take((idKey && fields[idKey]) || String(entry), entry, startLine, opts);
    if (id === null) return;
    const molblock = recLines.slice(0, check.molblockEnd + 1).join('\n') + '\n';
    yield { id, smiles, molblock, name, metrics, text: `${recLines.join('\n')}\n$$$$\n` };
  }
  for await (const line of lines(input)) {
    if (line.tooLong) {
      tooBig = true;
      continue;
    }
    if (line.text.startsWith('$$$$')) {
      yield* finish();
      recLine = line.no + 1;
      continue;
    }
    if (tooBig) continue;
    if (rec.length === 0) recLine = line.no;
    recSize += line.text.length + 1;
    if (recSize > MAX_SDF_RECORD) {
      tooBig = true;
      continue;
    }
    rec.push(line.text);
  }
  // A last record without a closing $$$$ (common in .mol files).
  while (rec.at(-1)?.trim() === '') rec.pop();
  if (rec.length || tooBig) yield* finish();
}
