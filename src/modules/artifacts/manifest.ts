// The artifact manifest (manifest.json at the root of every artifact zip) and its rules.
import { type Issue } from '../../errors.js';
import { MAX_RECORD_ID, recordIdProblem } from '../../record-ids.js';

export const MANIFEST_NAME = 'manifest.json';
export const MANIFEST_VERSION = 1;
/** Port names: what a query string and a zip path can carry without escaping surprises. */
export const PORT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const MAX_PORTS = 100;
/** The largest manifest.json read from an uploaded archive. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export interface ManifestRecord {
  id: string;
  /** Role -> member path inside the archive; `primary` is always there. */
  files: { primary: string; [role: string]: string };
  metrics?: Record<string, number>;
  /** Role -> media type of that member (Crucible's addition; a guess from the extension otherwise). */
  content_types?: Record<string, string>;
  [extra: string]: unknown;
}

export interface ManifestPort {
  format: string;
  kind: string;
  record_count: number;
  records: ManifestRecord[];
  /**
   * Crucible's addition for molecule sets it writes: one JSON-lines member holding every
   * record of the port ({id, smiles, name?, molblock?} per line), read instead of opening
   * each record member.
   */
  bundle?: string;
  [extra: string]: unknown;
}

export interface Manifest {
  job_type: string;
  manifest_version: number;
  ports: Record<string, ManifestPort>;
  warnings: unknown[];
  [extra: string]: unknown;
}

const MEDIA_TYPES: Record<string, string> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  smi: 'chemical/x-daylight-smiles',
  smiles: 'chemical/x-daylight-smiles',
  sdf: 'chemical/x-mdl-sdfile',
  sd: 'chemical/x-mdl-sdfile',
  mol: 'chemical/x-mdl-molfile',
  mol2: 'chemical/x-mol2',
  pdb: 'chemical/x-pdb',
  cif: 'chemical/x-cif',
  xyz: 'chemical/x-xyz',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  html: 'text/html; charset=utf-8',
  xml: 'application/xml',
  parquet: 'application/vnd.apache.parquet',
  pt: 'application/octet-stream',
};

const TEXTUAL_EXT = new Set(['json', 'jsonl', 'ndjson', 'csv', 'tsv', 'txt', 'log', 'md', 'smi', 'smiles', 'sdf', 'sd', 'mol', 'mol2', 'pdb', 'cif', 'xyz', 'svg', 'html', 'xml']);

export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function guessMediaType(name: string): string {
  return MEDIA_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}

/**
 * Members smaller than this are stored, not deflated: each deflated member costs a zlib stream
 * (its set-up, a thread-pool task and a callback on the main thread), about 0.25 ms of the main
 * thread each under load, for a few kilobytes saved; a small job's result has four such members
 * (docs/performance.md, "Compute jobs").
 */
export const MIN_DEFLATE_BYTES = 4096;

/** Whether deflating a member is worth it: text-like content of some size. */
export function worthCompressing(name: string, size: number, mediaType?: string): boolean {
  if (size < MIN_DEFLATE_BYTES) return false;
  if (mediaType && /^(text\/|application\/(json|x-ndjson|xml)|image\/svg|chemical\/)/.test(mediaType)) return true;
  return TEXTUAL_EXT.has(extensionOf(name));
}

/** A member path for a name chosen by a caller: no directories, no control characters, bounded. */
export function safeMemberName(name: string, fallback = 'file'): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = base
    .replace(/[\p{C}]/gu, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120)
    .replace(/[\ud800-\udbff]$/, ''); // never half of a surrogate pair
  return cleaned || fallback;
}

// ---------------------------------------------------------------- validation

type Loc = (string | number)[];

class Issues {
  readonly list: Issue[] = [];
  constructor(private readonly prefix: Loc) {}
  add(loc: Loc, msg: string, input: unknown, type = 'value_error'): void {
    if (this.list.length < 50) this.list.push({ type, loc: [...this.prefix, ...loc], msg, input: clip(input) });
  }
}

function clip(v: unknown): unknown {
  if (typeof v === 'string' && v.length > 200) return `${v.slice(0, 200)}…`;
  if (v !== null && typeof v === 'object') return Array.isArray(v) ? '[array]' : '[object]';
  return v;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a manifest read from an uploaded archive: shape, unique record ids, and that every
 * member it names exists (`hasMember`). Returns the normalised manifest (defaults filled,
 * record_count set) or the issues, with `loc` under `prefix`.
 */
export function validateManifest(raw: unknown, hasMember: (name: string) => boolean, prefix: Loc): { manifest: Manifest | null; issues: Issue[] } {
  const issues = new Issues(prefix);
  if (!isObj(raw)) {
    issues.add([], 'manifest.json must be a JSON object', raw, 'dict_type');
    return { manifest: null, issues: issues.list };
  }
  const out: Manifest = { ...raw, job_type: 'upload', manifest_version: MANIFEST_VERSION, ports: {}, warnings: [] };
  if (raw.job_type !== undefined) {
    if (typeof raw.job_type !== 'string' || raw.job_type.length < 1 || raw.job_type.length > 100)
      issues.add(['job_type'], 'job_type must be a string of 1 to 100 characters', raw.job_type);
    else out.job_type = raw.job_type;
  }
  if (raw.manifest_version !== undefined && raw.manifest_version !== MANIFEST_VERSION) {
    issues.add(['manifest_version'], `manifest_version must be ${MANIFEST_VERSION} (the only version this server reads)`, raw.manifest_version, 'enum');
  }
  if (raw.warnings !== undefined) {
    if (!Array.isArray(raw.warnings)) issues.add(['warnings'], 'warnings must be an array', raw.warnings, 'list_type');
    else out.warnings = raw.warnings;
  }
  if (!isObj(raw.ports)) {
    issues.add(
      ['ports'],
      raw.ports === undefined ? 'Field required: ports (a map from port name to port object)' : 'ports must be an object mapping port names to port objects',
      raw.ports ?? null,
      raw.ports === undefined ? 'missing' : 'dict_type',
    );
    return { manifest: null, issues: issues.list };
  }
  const names = Object.keys(raw.ports);
  if (names.length === 0) issues.add(['ports'], 'ports must name at least one port', raw.ports, 'too_short');
  if (names.length > MAX_PORTS) issues.add(['ports'], `at most ${MAX_PORTS} ports`, names.length, 'too_long');
  for (const name of names.slice(0, MAX_PORTS)) {
    const port = raw.ports[name];
    const at: Loc = ['ports', name];
    if (!PORT_NAME_RE.test(name)) issues.add(at, 'port names are 1 to 100 characters from A-Z a-z 0-9 _ . - (starting with a letter or digit)', name, 'string_pattern_mismatch');
    if (!isObj(port)) {
      issues.add(at, 'a port must be an object with format, kind and records', port, 'dict_type');
      continue;
    }
    for (const f of ['format', 'kind'] as const) {
      const v = port[f];
      if (v === undefined) issues.add([...at, f], `Field required: ${f}`, null, 'missing');
      else if (typeof v !== 'string' || v.length < 1 || v.length > 100) issues.add([...at, f], `${f} must be a string of 1 to 100 characters`, v);
    }
    if (!Array.isArray(port.records)) {
      issues.add(
        [...at, 'records'],
        port.records === undefined ? 'Field required: records' : 'records must be an array',
        port.records ?? null,
        port.records === undefined ? 'missing' : 'list_type',
      );
      continue;
    }
    if (port.record_count !== undefined && port.record_count !== port.records.length) {
      issues.add([...at, 'record_count'], `record_count is ${JSON.stringify(port.record_count)} but records has ${port.records.length} entries`, port.record_count);
    }
    if (port.bundle !== undefined && (typeof port.bundle !== 'string' || !hasMember(port.bundle))) {
      issues.add([...at, 'bundle'], `bundle names a member that is not in the archive`, port.bundle);
    }
    const seen = new Set<string>();
    const records: ManifestRecord[] = [];
    port.records.forEach((rec: unknown, i: number) => {
      const rat: Loc = [...at, 'records', i];
      if (!isObj(rec)) {
        issues.add(rat, 'a record must be an object with id and files', rec, 'dict_type');
        return;
      }
      const idProblem = recordIdProblem(rec.id);
      if (idProblem !== null || typeof rec.id !== 'string') {
        issues.add(
          [...rat, 'id'],
          rec.id === undefined ? 'Field required: id' : (idProblem ?? 'a record id must be a string'),
          rec.id ?? null,
          rec.id === undefined ? 'missing' : typeof rec.id !== 'string' ? 'string_type' : rec.id.length > MAX_RECORD_ID ? 'string_too_long' : 'value_error',
        );
      } else if (seen.has(rec.id)) {
        issues.add([...rat, 'id'], `record id "${rec.id}" repeats within port "${name}"`, rec.id);
      } else seen.add(rec.id);
      if (!isObj(rec.files)) {
        issues.add(
          [...rat, 'files'],
          rec.files === undefined ? 'Field required: files (with a primary member path)' : 'files must be an object mapping roles to member paths',
          rec.files ?? null,
          rec.files === undefined ? 'missing' : 'dict_type',
        );
      } else {
        if (rec.files.primary === undefined) issues.add([...rat, 'files', 'primary'], 'Field required: files.primary (the member path of the record)', null, 'missing');
        for (const [role, member] of Object.entries(rec.files)) {
          if (typeof member !== 'string' || member.length === 0) issues.add([...rat, 'files', role], 'a member path must be a non-empty string', member, 'string_type');
          else if (member.endsWith('/') || !hasMember(member)) issues.add([...rat, 'files', role], `member "${member}" is not in the archive`, member);
        }
      }
      if (rec.metrics !== undefined) {
        if (!isObj(rec.metrics)) issues.add([...rat, 'metrics'], 'metrics must be an object of numbers', rec.metrics, 'dict_type');
        else
          for (const [k, v] of Object.entries(rec.metrics))
            if (typeof v !== 'number' || !Number.isFinite(v)) issues.add([...rat, 'metrics', k], 'a metric must be a finite number', v, 'float_type');
      }
      if (rec.content_types !== undefined) {
        if (!isObj(rec.content_types)) issues.add([...rat, 'content_types'], 'content_types must be an object of media types', rec.content_types, 'dict_type');
        else
          for (const [k, v] of Object.entries(rec.content_types))
            if (typeof v !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(v)) issues.add([...rat, 'content_types', k], 'a media type like text/csv', v);
      }
      records.push(rec as ManifestRecord);
    });
    out.ports[name] = { ...port, format: String(port.format), kind: String(port.kind), record_count: port.records.length, records };
  }
  return issues.list.length ? { manifest: null, issues: issues.list } : { manifest: out, issues: [] };
}

/** Every member path a manifest names. */
export function referencedMembers(m: Manifest): Set<string> {
  const out = new Set<string>();
  for (const port of Object.values(m.ports)) {
    if (port.bundle) out.add(port.bundle);
    for (const r of port.records) for (const p of Object.values(r.files)) out.add(p);
  }
  return out;
}

/** The media type of a record member: the manifest's, else a guess from the name. */
export function memberMediaType(record: ManifestRecord, role: string): string {
  return record.content_types?.[role] ?? guessMediaType(record.files[role] ?? '');
}
