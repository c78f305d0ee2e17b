// Artifacts: zip archives (manifest.json + record files) in the artifact store, one row each.
//
// Write order, everywhere: the zip is streamed into the store (atomic: temp, fsync, rename),
// then the row is inserted in a transaction (which also checks the quota under a per-account
// lock). A failure before the insert deletes the file; a crash between the two leaves only
// a file without a row, which sweepOrphans() removes after an hour. Delete removes the row
// first, then the file. So a row never points at a missing or half-written file.
//
// A job's result row commits in the same transaction as the job's terminal transition
// (createFromRecords' `inTx` hook, used by jobArtifactsFrom().writeResult): the artifact is
// visible exactly when the job is `completed`, and an attempt that loses the job (cancel,
// sweep) rolls its row back and removes only its own file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { TIER_NAMES, type Config } from '../../config.js';
import type { Database, Queryable } from '../../db/database.js';
import { httpProblem, invalid, notFound, problem, type ValidationIssue } from '../../http/problems.js';
import { iso } from '../../http/schemas.js';
import { StorageError, type ArtifactStorage, type ByteRange, type PutResult } from '../../storage/storage.js';
import {
  extensionOf,
  guessMediaType,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  MAX_MANIFEST_BYTES,
  memberMediaType,
  PORT_NAME_RE,
  MAX_RECORD_ID,
  referencedMembers,
  safeMemberName,
  validateManifest,
  worthCompressing,
  type Manifest,
  type ManifestPort,
  type ManifestRecord,
} from './manifest.js';
import { formatFor, MoleculeFileError, parseMolecules, type ParsedMolecule, type ParseWarning } from './molecules.js';
import { artifactsStore, type ArtifactRow, type ListFilter, type ListItemRow } from './store.js';

type ArtifactSummary = Omit<ArtifactRow, 'manifest'>;
import { ZipBuilder, ZipReader, type ZipEntry } from './zip.js';

// ---------------------------------------------------------------- public types

export interface ArtifactRecordInput {
  id: string;
  /** Role -> file. The role named by `primary` (default: `primary`, else the first role) is the record's primary file. */
  files: Record<string, { name: string; content: string | Buffer; contentType?: string }>;
  primary?: string;
  metrics?: Record<string, number>;
}

export interface ArtifactPortInput {
  format: string;
  kind: string;
  records: AsyncIterable<ArtifactRecordInput> | Iterable<ArtifactRecordInput>;
}

export interface CreateFromRecordsInput {
  userId: string;
  jobId: string | null;
  jobType: string;
  ports: Record<string, ArtifactPortInput>;
  warnings?: unknown[];
  /** Default null: kept until deleted. */
  expiresAt?: Date | null;
  /** Refuse (403 storage-quota-exceeded) when the archive would pass the account's quota. Default false: job results are always kept and count toward usage. */
  enforceQuota?: boolean;
  /**
   * Runs in the transaction that inserts the row, after the insert. When it throws, the
   * transaction rolls back and the stored object is removed: neither row nor file remains.
   */
  inTx?: (tx: Queryable, artifactId: string) => Promise<void>;
}

export interface MoleculeItem {
  id: string;
  /** SMILES; for an SDF record without a SMILES data field, its molblock (RDKit's get_mol reads both). */
  smiles: string;
  name?: string;
  /** The connection table, for molecules that came from an SDF/mol file. */
  molblock?: string;
}

export interface ArtifactResponse {
  id: string;
  content_type: string;
  size_bytes: number;
  created_at: string | null;
  expires_at: string | null;
  job_id: string | null;
  manifest: Manifest;
}

export interface ArtifactListItem {
  artifact_id: string;
  data_format: string;
  data_kind: string;
  port: string;
  created_at: string | null;
  expires_at: string | null;
  job_id: string | null;
  job_name: string | null;
  job_type: string | null;
  run_id: string | null;
  run_name: string | null;
  step_id: string | null;
  is_virtual: boolean;
  record_count: number;
  size_bytes: number;
}

export interface ArtifactList {
  items: ArtifactListItem[];
  has_more: boolean;
  next_offset: number | null;
}

export interface ArtifactUsage {
  artifact_count: number;
  quota_bytes: number;
  tier: number;
  used_bytes: number;
}

export type UploadMode = 'file' | 'molecules' | 'archive';

export interface UploadInput {
  userId: string;
  mode: UploadMode;
  /** The uploaded file, already on local disk (see upload.ts). */
  spoolPath: string;
  size: number;
  filename: string;
  mimetype: string;
  dataKind: string | null;
  dataFormat: string | null;
  /** Runs in the inserting transaction (pins the idempotent response with the row). */
  onCommit?: (tx: Queryable, response: ArtifactResponse) => Promise<void>;
}

/** What a download serves: the whole archive or one record member. */
export interface Download {
  size: number;
  contentType: string;
  filename: string;
  etag: string;
  lastModified: Date;
  open(range?: ByteRange): Promise<Readable>;
  /** Releases the archive reader when open() is not called. */
  close(): void;
}

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ArtifactServiceDeps {
  db: Database;
  config: Config;
  storage: ArtifactStorage;
  /** Local scratch space for uploads and bundles (default <dataDir>/tmp/artifacts). */
  scratchDir?: string;
  log?: Logger;
}

// ---------------------------------------------------------------- constants

export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
const MAX_WARNINGS = 1000;
const MAX_ARCHIVE_ENTRIES = 1_000_000;
const MAX_JSON_MEMBER = 64 * 1024 * 1024;
const MAX_MOLECULE_MEMBER = 4 * 1024 * 1024;
const MOLECULE_PORT = 'molecules';
const BUNDLE_MEMBER = 'molecules/all.jsonl';

const silent: Logger = { warn: () => undefined, error: () => undefined };

class WarningList {
  readonly list: unknown[] = [];
  dropped = 0;
  add(w: ParseWarning): void {
    if (this.list.length < MAX_WARNINGS) this.list.push(w);
    else this.dropped++;
  }
  finish(): unknown[] {
    return this.dropped ? [...this.list, { type: 'truncated', msg: `${this.dropped} more warnings not listed` }] : this.list;
  }
  get count(): number {
    return this.list.length + this.dropped;
  }
}

/** Loc of job inputs (`input_artifact_id`, `port` in a job payload). */
const INPUT_LOC = ['body', 'payload', 'input_artifact_id'];
const PORT_LOC = ['body', 'payload', 'port'];

export class ArtifactService {
  readonly db: Database;
  readonly config: Config;
  /** Replaceable (tests inject a failing store). */
  storage: ArtifactStorage;
  readonly scratchDir: string;
  private readonly log: Logger;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(deps: ArtifactServiceDeps) {
    this.db = deps.db;
    this.config = deps.config;
    this.storage = deps.storage;
    this.scratchDir = deps.scratchDir ?? path.join(deps.config.dataDir, 'tmp', 'artifacts');
    this.log = deps.log ?? silent;
  }

  // ------------------------------------------------------------ reading

  async get(userId: string, id: string): Promise<ArtifactResponse> {
    const row = await this.row(userId, id);
    return toResponse(row);
  }

  async list(userId: string, f: ListFilter): Promise<ArtifactList> {
    const rows = await artifactsStore.list(this.db, userId, { ...f, limit: f.limit + 1 });
    const more = rows.length > f.limit;
    return { items: rows.slice(0, f.limit).map(toListItem), has_more: more, next_offset: more ? f.offset + f.limit : null };
  }

  async usage(userId: string): Promise<ArtifactUsage> {
    const [tier, use] = await Promise.all([artifactsStore.userTier(this.db, userId), artifactsStore.usage(this.db, userId)]);
    const t = tier ?? 0;
    return { artifact_count: use.count, quota_bytes: this.quotaFor(t), tier: t, used_bytes: use.bytes };
  }

  private quotaFor(tier: number): number {
    return this.config.tiers[TIER_NAMES[tier] ?? 'free'].storageBytes;
  }

  private async row(userId: string, id: string): Promise<ArtifactRow> {
    const row = UUID_RE.test(id) ? await artifactsStore.get(this.db, userId, id) : null;
    if (!row) throw notFound(`artifact ${id}`);
    return row;
  }

  /** The row without its manifest (which can be large). */
  private async summary(userId: string, id: string): Promise<ArtifactSummary> {
    const row = UUID_RE.test(id) ? await artifactsStore.getSummary(this.db, userId, id) : null;
    if (!row) throw notFound(`artifact ${id}`);
    return row;
  }

  private async openZip(row: { storage_key: string; size_bytes: number }): Promise<ZipReader> {
    const { storage } = this;
    return ZipReader.open((start, end) => storage.get(row.storage_key, { start, end }), row.size_bytes);
  }

  /** The record `recordId` (in `port`; needed only when the id repeats across ports). */
  private async record(row: ArtifactSummary, recordId: string, port: string | undefined): Promise<{ port: string; record: ManifestRecord; member: string }> {
    const hits = await artifactsStore.findRecord(this.db, row.id, recordId, port ?? null);
    if (hits.length === 0) {
      const ports = (await artifactsStore.ports(this.db, row.id)).map((p) => p.port);
      if (port !== undefined && !ports.includes(port)) throw notFound(`port "${port}" in artifact ${row.id} (its ports: ${ports.join(', ')})`);
      throw notFound(`record "${recordId}" in ${port !== undefined ? `port "${port}" of ` : ''}artifact ${row.id}`);
    }
    if (hits.length > 1) {
      const all = (await artifactsStore.ports(this.db, row.id)).map((p) => p.port);
      throw invalid(['query', 'port'], `record "${recordId}" exists in more than one port of artifact ${row.id} (its ports: ${all.join(', ')}): send port to choose`, null, 'missing');
    }
    const { port: name, record } = hits[0];
    return { port: name, record, member: record.files.primary };
  }

  /** The whole archive, or (with `record`) one record's primary member. */
  async download(userId: string, id: string, q: { record?: string; port?: string }): Promise<Download> {
    const row = await this.summary(userId, id);
    if (q.record === undefined) {
      if (q.port !== undefined) throw invalid(['query', 'record'], 'port selects the port of a record: send record too (without record the whole archive is served)', null, 'missing');
      const { storage } = this;
      return {
        size: row.size_bytes,
        contentType: 'application/zip',
        filename: `${row.id}.zip`,
        etag: `"${row.sha256}"`,
        lastModified: row.created_at,
        open: (range) => storage.get(row.storage_key, range),
        close: () => undefined,
      };
    }
    const { record, member } = await this.record(row, q.record, q.port);
    const reader = await this.openZip(row);
    try {
      const entry = (await reader.find([member])).get(member);
      if (!entry) throw new StorageError(`artifact ${row.id}: member ${member} named by the manifest is missing`, 'ENOENT');
      return {
        size: entry.uncompressedSize,
        contentType: memberMediaType(record, 'primary'),
        filename: member.slice(member.lastIndexOf('/') + 1),
        etag: `"${row.sha256.slice(0, 40)}-${entry.crc32.toString(16)}-${entry.uncompressedSize}"`,
        lastModified: row.created_at,
        open: async (range) => {
          try {
            return await reader.stream(entry, range);
          } finally {
            reader.close(); // yauzl closes once the stream ends
          }
        },
        close: () => reader.close(),
      };
    } catch (err) {
      reader.close();
      throw err;
    }
  }

  /**
   * The primary member of one record, parsed as JSON (at most 64 MiB): job results are
   * stored as the JSON record `result` of port `result` (GET /jobs/result). 404 problem when
   * the artifact, port or record is not there (or not the user's).
   */
  async readPrimaryJson(userId: string, artifactId: string, port: string, recordId: string): Promise<unknown> {
    const row = await this.summary(userId, artifactId);
    const { member } = await this.record(row, recordId, port);
    const reader = await this.openZip(row);
    try {
      const entry = (await reader.find([member])).get(member);
      if (!entry) throw new StorageError(`artifact ${row.id}: member ${member} named by the manifest is missing`, 'ENOENT');
      const buf = await reader.readBuffer(entry, MAX_JSON_MEMBER);
      return JSON.parse(buf.toString('utf8'));
    } finally {
      reader.close();
    }
  }

  /** The molecule port to read: the one named, else the only port of kind `molecules`. */
  private async moleculePort(userId: string, artifactId: string, port?: string) {
    const summary = await this.summary(userId, artifactId);
    const ports = await artifactsStore.ports(this.db, artifactId);
    let chosen;
    if (port !== undefined) {
      chosen = ports.find((p) => p.port === port);
      if (!chosen) throw invalid(PORT_LOC, `artifact ${artifactId} has no port "${port}" (its ports: ${ports.map((p) => p.port).join(', ')})`, port);
      if (chosen.data_kind !== 'molecules') throw invalid(PORT_LOC, `port "${port}" of artifact ${artifactId} is not a molecule set (its kind is "${chosen.data_kind}")`, port);
    } else {
      const sets = ports.filter((p) => p.data_kind === 'molecules');
      if (sets.length === 0) throw invalid(INPUT_LOC, `artifact ${artifactId} holds no molecule set (its ports: ${ports.map((p) => `${p.port} (${p.data_kind})`).join(', ')}); upload one with mode=molecules`, artifactId);
      if (sets.length > 1) throw invalid(PORT_LOC, `artifact ${artifactId} has several molecule sets (${sets.map((p) => p.port).join(', ')}): name one with port`, null, 'missing');
      chosen = sets[0];
    }
    if (!isMoleculeFormat(chosen.data_format)) {
      throw invalid(PORT_LOC, `port "${chosen.port}" of artifact ${artifactId} has format "${chosen.data_format}"; molecule sets are read from smiles or sdf records`, chosen.port);
    }
    return { summary, port: chosen };
  }

  /** The number of molecules a job would read (from the port table: no archive access). Same 404/422 problems as readMolecules. */
  async countMolecules(userId: string, artifactId: string, port?: string): Promise<number> {
    return (await this.moleculePort(userId, artifactId, port)).port.record_count;
  }

  /**
   * Streams the molecules of a molecule set (upload mode `molecules`, or any port of kind
   * `molecules` with smiles or sdf records), in archive order. 404 (problem) when the
   * artifact is not there or not the user's; 422 (problem, loc in the job payload) when the
   * port is not a molecule set. Errors surface on the first iteration.
   */
  async *readMolecules(userId: string, artifactId: string, port?: string): AsyncGenerator<MoleculeItem> {
    const { summary, port: p } = await this.moleculePort(userId, artifactId, port);
    const header = await artifactsStore.portHeader(this.db, summary.id, p.port);
    const reader = await this.openZip(summary);
    try {
      if (header?.bundle) {
        const entry = (await reader.find([header.bundle])).get(header.bundle);
        if (entry) {
          yield* readBundle(await reader.stream(entry));
          return;
        }
      }
      const byMember = new Map<string, ManifestRecord[]>();
      for (const r of await artifactsStore.portRecords(this.db, summary.id, p.port)) {
        const list = byMember.get(r.files.primary);
        if (list) list.push(r);
        else byMember.set(r.files.primary, [r]);
      }
      const sdf = /^(sdf|sd|mol|molblock|mdl)$/i.test(p.data_format);
      for await (const entry of reader.entries()) {
        const recs = byMember.get(entry.fileName);
        if (!recs) continue;
        const text = (await reader.readBuffer(entry, MAX_MOLECULE_MEMBER)).toString('utf8');
        let mol: ParsedMolecule | undefined;
        for await (const m of parseMolecules([text], sdf ? 'sdf' : 'smi', { warn: () => undefined })) {
          mol = m;
          break;
        }
        if (!mol) {
          this.log.warn({ artifactId, member: entry.fileName }, 'molecule record is not readable; skipped');
          continue;
        }
        for (const r of recs) {
          const name = mol.name ?? (typeof r.name === 'string' ? r.name : undefined);
          yield { id: r.id, smiles: mol.smiles ?? mol.molblock ?? '', ...(name ? { name } : {}), ...(mol.molblock ? { molblock: mol.molblock } : {}) };
        }
      }
    } finally {
      reader.close();
    }
  }

  // ------------------------------------------------------------ writing

  /**
   * Writes a job's output as an artifact: records streamed into the zip (memory bounded by
   * one record), the zip streamed into the store, then the row. Throws (StorageError for
   * store faults) leaving no row and no file.
   */
  async createFromRecords(input: CreateFromRecordsInput): Promise<{ artifactId: string; sizeBytes: number }> {
    const names = Object.keys(input.ports);
    if (names.length === 0) throw new Error('createFromRecords: an artifact needs at least one port');
    for (const n of names) if (!PORT_NAME_RE.test(n)) throw new Error(`createFromRecords: invalid port name "${n}"`);
    const { put, manifest } = await this.writeArchive(async (zip) => {
      const ports: Record<string, ManifestPort> = {};
      for (const [name, p] of Object.entries(input.ports)) {
        const records: ManifestRecord[] = [];
        const ids = new Set<string>();
        let i = 0;
        for await (const rec of p.records as AsyncIterable<ArtifactRecordInput>) {
          i++;
          if (typeof rec.id !== 'string' || rec.id.length === 0 || rec.id.length > MAX_RECORD_ID) throw new Error(`createFromRecords: port ${name} record ${i}: id must be 1 to ${MAX_RECORD_ID} characters`);
          if (ids.has(rec.id)) throw new Error(`createFromRecords: port ${name}: record id "${rec.id}" repeats`);
          ids.add(rec.id);
          records.push(await addRecord(zip, name, i, rec));
        }
        ports[name] = { format: p.format, kind: p.kind, record_count: records.length, records };
      }
      return { job_type: input.jobType, manifest_version: MANIFEST_VERSION, ports, warnings: input.warnings ?? [] };
    });
    const row = await this.commit(put, manifest, {
      userId: input.userId,
      jobId: input.jobId,
      origin: 'job',
      uploadMode: null,
      expiresAt: input.expiresAt ?? null,
      enforceQuota: input.enforceQuota ?? false,
      onCommit: input.inTx ? (tx, response) => input.inTx!(tx, response.id) : undefined,
    });
    return { artifactId: row.id, sizeBytes: row.size_bytes };
  }

  /** POST /artifacts: turns a spooled upload into an artifact per its mode. */
  async storeUpload(u: UploadInput): Promise<ArtifactResponse> {
    // Cheap refusal before any work: already at the quota, or (archive: stored as sent) too big.
    const tier = (await artifactsStore.userTier(this.db, u.userId)) ?? 0;
    const quota = this.quotaFor(tier);
    const used = (await artifactsStore.usage(this.db, u.userId)).bytes;
    const incoming = u.mode === 'archive' ? u.size : 1;
    if (used + incoming > quota) throw quotaProblem(used, incoming, quota, u.mode !== 'archive');

    let result: { put: PutResult; manifest: Manifest };
    if (u.mode === 'file') result = await this.buildFileArtifact(u);
    else if (u.mode === 'molecules') result = await this.buildMoleculeArtifact(u);
    else result = await this.acceptArchive(u);
    const row = await this.commit(result.put, result.manifest, {
      userId: u.userId,
      jobId: null,
      origin: 'upload',
      uploadMode: u.mode,
      expiresAt: null,
      enforceQuota: true,
      onCommit: u.onCommit,
    });
    return toResponse(row);
  }

  private async buildFileArtifact(u: UploadInput) {
    const name = safeMemberName(u.filename, 'file');
    const member = `file/${name}`;
    const generic = !u.mimetype || /^application\/octet-stream\b/i.test(u.mimetype);
    const mediaType = generic ? guessMediaType(name) : u.mimetype;
    const kind = u.dataKind ?? 'file';
    const format = (u.dataFormat ?? extensionOf(name)) || 'bin';
    const manifest: Manifest = {
      job_type: 'upload',
      manifest_version: MANIFEST_VERSION,
      ports: { file: { format, kind, record_count: 1, records: [{ id: name, files: { primary: member }, content_types: { primary: mediaType } }] } },
      warnings: [],
    };
    return this.writeArchive(async (zip) => {
      await zip.addFile(member, u.spoolPath, worthCompressing(name, u.size, mediaType));
      return null;
    }, manifest);
  }

  /**
   * `molecules` mode. Pass 1 parses the file into a scratch JSON-lines file and the manifest;
   * pass 2 writes the zip with manifest.json and the bundle first (so readers find them
   * without scanning the archive), then one member per molecule.
   */
  private async buildMoleculeArtifact(u: UploadInput) {
    if (u.dataKind !== null && u.dataKind !== 'molecules') {
      throw invalid(['body', 'data_kind'], 'a molecules upload is always of kind "molecules"; leave data_kind out', u.dataKind, 'enum');
    }
    const format = formatFor(u.filename, u.dataFormat);
    if (!format) {
      if (u.dataFormat) throw invalid(['body', 'data_format'], `unknown molecule file format "${u.dataFormat}"; use smi, csv, tsv or sdf`, u.dataFormat, 'enum');
      throw invalid(['body', 'file'], `cannot tell the molecule file format from the name "${u.filename}": use a .smi, .csv, .tsv or .sdf file, or send data_format`, u.filename);
    }
    const warnings = new WarningList();
    await fsp.mkdir(this.scratchDir, { recursive: true });
    const scratchPath = path.join(this.scratchDir, `molecules-${crypto.randomUUID()}.jsonl`);
    const scratch = fs.createWriteStream(scratchPath);
    try {
      const records: ManifestRecord[] = [];
      const ext = format === 'sdf' ? 'sdf' : 'smi';
      try {
        for await (const mol of parseMolecules(fs.createReadStream(u.spoolPath), format, { warn: (w) => warnings.add(w) })) {
          const member = `${MOLECULE_PORT}/${records.length + 1}/${safeMemberName(mol.id, 'molecule').slice(0, 80)}.${ext}`;
          const rec: ManifestRecord = { id: mol.id, files: { primary: member } };
          if (mol.name) rec.name = mol.name;
          if (mol.metrics) rec.metrics = mol.metrics;
          records.push(rec);
          const line = JSON.stringify({ id: mol.id, smiles: mol.smiles, name: mol.name, molblock: mol.molblock, member, text: mol.text }) + '\n';
          if (!scratch.write(line)) await new Promise<void>((r) => scratch.once('drain', () => r()));
        }
      } catch (err) {
        if (err instanceof MoleculeFileError) throw invalid(['body', 'file'], err.message, u.filename);
        throw err;
      }
      scratch.end();
      await finished(scratch);
      if (records.length === 0) {
        const first = warnings.list[0] as ParseWarning | undefined;
        throw invalid(
          ['body', 'file'],
          first
            ? `no usable molecules: all ${warnings.count} entries are unparseable (first, line ${first.line}: ${first.msg})`
            : `no molecules found in "${u.filename}" (the file has no entries)`,
          u.filename,
        );
      }
      const manifest: Manifest = {
        job_type: 'upload',
        manifest_version: MANIFEST_VERSION,
        ports: { [MOLECULE_PORT]: { format: format === 'sdf' ? 'sdf' : 'smiles', kind: 'molecules', record_count: records.length, records, bundle: BUNDLE_MEMBER } },
        warnings: warnings.finish(),
      };
      return await this.writeArchive(async (zip) => {
        await zip.addLazyStream(BUNDLE_MEMBER, () => jsonLines(scratchPath).pipe(bundleLines()), true);
        for await (const o of jsonLinesOf<{ member: string; text: string }>(scratchPath)) {
          const text = Buffer.from(o.text);
          await zip.addBuffer(o.member, text, worthCompressing(o.member, text.length));
        }
        return null;
      }, manifest);
    } finally {
      scratch.destroy();
      await fsp.unlink(scratchPath).catch(() => undefined);
    }
  }

  /** `archive` mode: the zip is stored as sent once its manifest checks out. */
  private async acceptArchive(u: UploadInput): Promise<{ put: PutResult; manifest: Manifest }> {
    if (u.dataKind !== null || u.dataFormat !== null) {
      const field = u.dataKind !== null ? 'data_kind' : 'data_format';
      throw invalid(['body', field], `an archive upload takes kinds and formats from its manifest.json; leave ${field} out`, u.dataKind ?? u.dataFormat, 'extra_forbidden');
    }
    let reader: ZipReader;
    try {
      reader = await ZipReader.openFile(u.spoolPath, u.size);
    } catch (err) {
      throw invalid(['body', 'file'], `"${u.filename}" is not a zip archive (${(err as Error).message}); mode=archive takes a zip with a manifest.json at its root`, u.filename);
    }
    let manifestRaw: unknown;
    const names = new Set<string>();
    try {
      if (reader.entryCount > MAX_ARCHIVE_ENTRIES) throw invalid(['body', 'file'], `the archive has ${reader.entryCount} entries; at most ${MAX_ARCHIVE_ENTRIES}`, u.filename);
      let manifestEntry: ZipEntry | null = null;
      try {
        for await (const e of reader.entries()) {
          if (e.isEncrypted()) throw invalid(['body', 'file'], `the archive member "${e.fileName}" is encrypted; artifacts are not`, e.fileName);
          if (!e.canDecodeFileData()) throw invalid(['body', 'file'], `the archive member "${e.fileName}" uses compression method ${e.compressionMethod}; use deflate or store`, e.fileName);
          names.add(e.fileName);
          if (e.fileName === MANIFEST_NAME && !manifestEntry) manifestEntry = e;
        }
      } catch (err) {
        if (err instanceof Error && !('status' in err)) throw invalid(['body', 'file'], `the zip archive is damaged: ${err.message}`, u.filename);
        throw err;
      }
      if (!manifestEntry) {
        const sample = [...names].slice(0, 5).map((n) => JSON.stringify(n)).join(', ');
        throw invalid(['body', 'file'], `the archive has no manifest.json at its root (its ${names.size} entries include ${sample || 'nothing'})`, u.filename);
      }
      let text: string;
      try {
        text = (await reader.readBuffer(manifestEntry, MAX_MANIFEST_BYTES)).toString('utf8');
      } catch (err) {
        throw invalid(['body', 'file', MANIFEST_NAME], `manifest.json cannot be read: ${(err as Error).message}`, null);
      }
      try {
        manifestRaw = JSON.parse(text);
      } catch (err) {
        throw invalid(['body', 'file', MANIFEST_NAME], `manifest.json is not valid JSON: ${(err as Error).message}`, text.slice(0, 200), 'json_invalid');
      }
    } finally {
      reader.close();
    }
    const { manifest, issues } = validateManifest(manifestRaw, (n) => names.has(n), ['body', 'file', MANIFEST_NAME]);
    if (!manifest) throw manifestProblem(issues);
    const put = await this.storage.put(fs.createReadStream(u.spoolPath));
    return { put, manifest };
  }

  /**
   * Streams a zip into the store. `build` adds the members and returns the manifest (added
   * last), or `first` is the manifest, added before anything else (and build returns null).
   */
  private async writeArchive(build: (zip: ZipBuilder) => Promise<Manifest | null>, first?: Manifest): Promise<{ put: PutResult; manifest: Manifest }> {
    const zip = new ZipBuilder();
    let putError: unknown = null;
    const putting = this.storage.put(zip.output);
    putting.catch((err) => {
      putError = err;
      zip.fail(err);
    });
    let manifest: Manifest;
    try {
      if (first) await zip.addBuffer(MANIFEST_NAME, Buffer.from(JSON.stringify(first)), true);
      const built = await build(zip);
      manifest = first ?? built!;
      if (!first) await zip.addBuffer(MANIFEST_NAME, Buffer.from(JSON.stringify(manifest)), true);
      zip.end();
    } catch (err) {
      zip.fail(err);
      await putting.catch(() => undefined); // the store removes its temp file
      throw putError ?? err;
    }
    const put = await putting;
    return { put, manifest };
  }

  /** Inserts the row for a stored object (quota checked under a per-account lock); on refusal or failure the object is deleted. */
  private async commit(
    put: PutResult,
    manifest: Manifest,
    meta: { userId: string; jobId: string | null; origin: 'job' | 'upload'; uploadMode: UploadMode | null; expiresAt: Date | null; enforceQuota: boolean; onCommit?: UploadInput['onCommit'] },
  ): Promise<ArtifactRow> {
    try {
      return await this.db.transaction(async (tx) => {
        if (meta.enforceQuota) {
          await artifactsStore.lockUser(tx, meta.userId);
          const tier = (await artifactsStore.userTier(tx, meta.userId)) ?? 0;
          const quota = this.quotaFor(tier);
          const used = (await artifactsStore.usage(tx, meta.userId)).bytes;
          if (used + put.size > quota) throw quotaProblem(used, put.size, quota, false);
        }
        const row = await artifactsStore.insert(tx, {
          userId: meta.userId,
          jobId: meta.jobId,
          origin: meta.origin,
          uploadMode: meta.uploadMode,
          storageKey: put.key,
          sizeBytes: put.size,
          sha256: put.sha256,
          manifest,
          expiresAt: meta.expiresAt,
        });
        await meta.onCommit?.(tx, toResponse(row));
        return row;
      });
    } catch (err) {
      await this.storage.delete(put.key).catch((e) => this.log.warn({ err: e, key: put.key }, 'could not delete an uncommitted artifact object; the sweep will'));
      throw err;
    }
  }

  // ------------------------------------------------------------ deleting

  async delete(userId: string, id: string): Promise<void> {
    const gone = UUID_RE.test(id) ? await artifactsStore.delete(this.db, userId, id) : null;
    if (!gone) throw notFound(`artifact ${id}`);
    await this.removeObject(gone.storage_key);
  }

  /**
   * Deletes the rows of a job's artifacts in the caller's transaction and returns their
   * storage keys: the caller removes the files (removeObjects) once the transaction commits,
   * so a rollback leaves every row with its file.
   */
  async deleteRowsForJob(tx: Queryable, userId: string, jobId: string): Promise<string[]> {
    if (!UUID_RE.test(jobId)) return [];
    return (await artifactsStore.deleteForJob(tx, userId, jobId)).map((r) => r.storage_key);
  }

  /** Removes the objects of rows already deleted (a file that stays behind is an orphan for the sweep). */
  async removeObjects(keys: string[]): Promise<void> {
    for (const key of keys) await this.removeObject(key);
  }

  private async removeObject(key: string): Promise<void> {
    // The row is gone already: a file left behind is an orphan for the sweep, never visible.
    await this.storage.delete(key).catch((err) => this.log.warn({ err, key }, 'artifact object not deleted; the orphan sweep will remove it'));
  }

  // ------------------------------------------------------------ sweeping

  /**
   * Removes: expired artifacts (row, then file); objects older than `minAgeMs` (default one
   * hour) that no row names (a crash between file and row, a failed delete); unfinished
   * writes and upload scratch files older than that. Returns the number of files removed.
   */
  async sweepOrphans(opts: { minAgeMs?: number } = {}): Promise<number> {
    const cutoff = Date.now() - (opts.minAgeMs ?? ORPHAN_MIN_AGE_MS);
    let removed = 0;
    for (;;) {
      const expired = await artifactsStore.deleteExpired(this.db, 500);
      for (const r of expired) if (await this.storage.delete(r.storage_key).catch(() => false)) removed++;
      if (expired.length < 500) break;
    }
    let batch: string[] = [];
    const flush = async () => {
      const known = await artifactsStore.knownKeys(this.db, batch);
      for (const key of batch) {
        if (known.has(key)) continue;
        if (await this.storage.delete(key).catch(() => false)) removed++;
      }
      batch = [];
    };
    for await (const o of this.storage.list()) {
      if (o.modifiedAt.getTime() > cutoff) continue;
      if (o.temporary) {
        await this.storage.deleteTemporary(o.key).then(
          () => removed++,
          () => undefined,
        );
        continue;
      }
      batch.push(o.key);
      if (batch.length >= 500) await flush();
    }
    if (batch.length) await flush();
    try {
      for (const name of await fsp.readdir(this.scratchDir)) {
        const p = path.join(this.scratchDir, name);
        const s = await fsp.stat(p).catch(() => null);
        if (s?.isFile() && s.mtimeMs <= cutoff && (await fsp.unlink(p).then(() => true, () => false))) removed++;
      }
    } catch {
      /* no scratch dir yet */
    }
    return removed;
  }

  /** Runs the sweep every `intervalMs` (first run after `firstDelayMs`); timers do not keep the process alive. */
  startSweeper(intervalMs = 15 * 60 * 1000, firstDelayMs = 60 * 1000): void {
    if (this.sweepTimer) return;
    const run = () => {
      if (this.sweeping) return;
      this.sweeping = this.sweepOrphans()
        .then((n) => {
          if (n) this.log.warn({ removed: n }, 'artifact sweep removed orphan files');
          return n;
        })
        .catch((err) => {
          this.log.error({ err }, 'artifact sweep failed');
          return 0;
        })
        .finally(() => {
          this.sweeping = null;
        });
    };
    const first = setTimeout(() => {
      run();
      this.sweepTimer = setInterval(run, intervalMs);
      this.sweepTimer.unref();
    }, firstDelayMs);
    first.unref();
    this.sweepTimer = first;
  }

  async stopSweeper(): Promise<void> {
    if (this.sweepTimer) {
      clearTimeout(this.sweepTimer);
      clearInterval(this.sweepTimer);
      this.sweepTimer = null;
    }
    await this.sweeping?.catch(() => undefined);
  }
}

// ---------------------------------------------------------------- helpers

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isMoleculeFormat(format: string): boolean {
  return /^(smiles|smi|sdf|sd|mol|molblock|mdl)$/i.test(format);
}

function toResponse(row: ArtifactRow): ArtifactResponse {
  return {
    id: row.id,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    job_id: row.job_id,
    manifest: row.manifest,
  };
}

function toListItem(r: ListItemRow): ArtifactListItem {
  return {
    artifact_id: r.artifact_id,
    data_format: r.data_format,
    data_kind: r.data_kind,
    port: r.port,
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    job_id: r.job_id,
    job_name: r.job_name,
    job_type: r.job_type,
    run_id: r.run_id,
    run_name: null,
    step_id: r.step_id,
    is_virtual: r.is_virtual,
    record_count: r.record_count,
    size_bytes: r.size_bytes,
  };
}

function quotaProblem(used: number, incoming: number, quota: number, sizeUnknown: boolean) {
  const detail = sizeUnknown
    ? `the artifact storage quota of ${quota} bytes is used up (${used} bytes stored); delete artifacts or upgrade the plan`
    : `storing ${incoming} more bytes would pass the artifact storage quota of ${quota} bytes (${used} bytes stored); delete artifacts or upgrade the plan`;
  return problem('storage-quota-exceeded', detail, { extra: { quota_bytes: quota, used_bytes: used } });
}

function manifestProblem(issues: ValidationIssue[]) {
  const first = issues[0];
  const at = first.loc.slice(3).join('.');
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return httpProblem(422, `manifest.json${at ? ` at ${at}` : ''}: ${first.msg}${more}`, { errors: issues });
}

async function addRecord(zip: ZipBuilder, port: string, index: number, rec: ArtifactRecordInput): Promise<ManifestRecord> {
  const roles = Object.keys(rec.files ?? {});
  if (roles.length === 0) throw new Error(`createFromRecords: port ${port} record "${rec.id}" has no files`);
  const primaryRole = rec.primary ?? (rec.files.primary ? 'primary' : roles[0]);
  if (!rec.files[primaryRole]) throw new Error(`createFromRecords: port ${port} record "${rec.id}": primary role "${primaryRole}" is not among its files`);
  const files: Record<string, string> = {};
  const contentTypes: Record<string, string> = {};
  const used = new Set<string>();
  for (const role of [primaryRole, ...roles.filter((r) => r !== primaryRole)]) {
    const f = rec.files[role];
    let name = safeMemberName(f.name, role);
    while (used.has(name)) name = `${role}-${name}`;
    used.add(name);
    const member = `${port}/${index}/${name}`;
    const content = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    const mediaType = f.contentType ?? guessMediaType(name);
    await zip.addBuffer(member, content, worthCompressing(name, content.length, mediaType));
    const key = role === primaryRole ? 'primary' : role;
    files[key] = member;
    if (f.contentType) contentTypes[key] = f.contentType;
  }
  const out: ManifestRecord = { id: rec.id, files };
  if (rec.metrics && Object.keys(rec.metrics).length) out.metrics = rec.metrics;
  if (Object.keys(contentTypes).length) out.content_types = contentTypes;
  return out;
}

async function* readBundle(stream: Readable): AsyncGenerator<MoleculeItem> {
  const decoder = new TextDecoder();
  let rest = '';
  const parse = (line: string): MoleculeItem | null => {
    if (!line.trim()) return null;
    const o = JSON.parse(line) as { id: string; smiles?: string; name?: string; molblock?: string };
    return { id: o.id, smiles: o.smiles ?? o.molblock ?? '', ...(o.name ? { name: o.name } : {}), ...(o.molblock ? { molblock: o.molblock } : {}) };
  };
  for await (const chunk of stream) {
    rest += decoder.decode(chunk as Buffer, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const item = parse(rest.slice(0, nl));
      rest = rest.slice(nl + 1);
      if (item) yield item;
    }
  }
  rest += decoder.decode();
  const last = parse(rest);
  if (last) yield last;
}

export { referencedMembers };

/** Lines of a JSON-lines file we wrote ourselves. */
function jsonLines(file: string): Readable {
  return fs.createReadStream(file);
}

async function* jsonLinesOf<T>(file: string): AsyncGenerator<T> {
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield JSON.parse(line) as T;
}

/** Scratch lines -> bundle lines: {id, smiles, name, molblock} (no member path, no record text). */
function bundleLines(): Transform {
  let rest = '';
  const decoder = new StringDecoder('utf8');
  const convert = (line: string) => {
    if (!line) return '';
    const o = JSON.parse(line) as { id: string; smiles?: string; name?: string; molblock?: string };
    return JSON.stringify({ id: o.id, smiles: o.smiles, name: o.name, molblock: o.molblock }) + '\n';
  };
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      rest += decoder.write(chunk);
      const cut = rest.lastIndexOf('\n');
      if (cut < 0) return cb();
      const done = rest.slice(0, cut);
      rest = rest.slice(cut + 1);
      cb(null, done.split('\n').map(convert).join(''));
    },
    flush(cb) {
      cb(null, convert(rest + decoder.end()));
    },
  });
}

// ---------------------------------------------------------------- the job engine's view

/** The port and record holding the JSON document of GET /jobs/result in a job's result artifact. */
export const RESULT_PORT = 'result';
export const RESULT_RECORD = 'result';

/**
 * The artifact operations the job engine uses (structurally the JobArtifacts port of
 * src/compute/ports.ts): a job's output becomes one artifact whose port `result` holds one
 * record `result` (result.json, the document of GET /jobs/result), beside the job's own ports.
 */
export function jobArtifactsFrom(a: ArtifactService) {
  return {
    /**
     * Streams the output into the store (atomic: temp file, rename), then in ONE transaction
     * inserts the artifact row and runs `finish(tx, artifactId)`, the job's terminal
     * transition. When finish returns null (the attempt lost the job to a cancel or a sweep)
     * or throws, the transaction rolls back and this attempt's file is removed: no row, no
     * file, and no other attempt's artifact is touched. Returns finish's value.
     */
    async writeResult<T>(o: {
      userId: string;
      jobId: string;
      jobType: string;
      output: { result: unknown; ports?: Record<string, ArtifactPortInput>; warnings?: unknown[] };
      finish: (tx: Queryable, artifactId: string) => Promise<T | null>;
    }): Promise<T | null> {
      if (o.output.ports && Object.prototype.hasOwnProperty.call(o.output.ports, RESULT_PORT)) throw new Error(`job output ports must not be named "${RESULT_PORT}"`);
      let finished: T | null = null;
      try {
        await a.createFromRecords({
          userId: o.userId,
          jobId: o.jobId,
          jobType: o.jobType,
          ports: {
            [RESULT_PORT]: {
              format: 'json',
              kind: 'result',
              records: [{ id: RESULT_RECORD, files: { primary: { name: 'result.json', content: JSON.stringify(o.output.result ?? null), contentType: 'application/json' } } }],
            },
            ...(o.output.ports ?? {}),
          },
          warnings: o.output.warnings,
          inTx: async (tx, artifactId) => {
            finished = await o.finish(tx, artifactId);
            if (finished === null) throw new LostJob();
          },
        });
      } catch (err) {
        if (err instanceof LostJob) return null;
        throw err;
      }
      return finished;
    },
    readResult: (userId: string, artifactId: string): Promise<unknown> => a.readPrimaryJson(userId, artifactId, RESULT_PORT, RESULT_RECORD),
    deleteRowsForJob: (tx: Queryable, userId: string, jobId: string): Promise<string[]> => a.deleteRowsForJob(tx, userId, jobId),
    removeObjects: (keys: string[]): Promise<void> => a.removeObjects(keys),
    countMolecules: (userId: string, artifactId: string, port?: string) => a.countMolecules(userId, artifactId, port),
    readMolecules: (userId: string, artifactId: string, port?: string) => a.readMolecules(userId, artifactId, port),
  };
}

/** Rolls back a result write whose job was no longer the writer's to finish. */
class LostJob extends Error {
  constructor() {
    super('the job was no longer this attempt\'s to finish');
  }
}
