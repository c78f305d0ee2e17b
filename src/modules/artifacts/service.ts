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
//
// The pieces: types.ts (public types), records.ts (writing archives; createFromRecords'
// records), ingest.ts (the upload modes), bundle.ts and molecule-sets.ts (molecule sets),
// sweep.ts (the orphan sweep), job-results.ts (the job engine's view). This class ties them.
import path from 'node:path';
import { TIER_NAMES, type Config } from '../../config.js';
import type { Database, Queryable } from '../../db/database.js';
import { AppError, invalid, listFew, notFound } from '../../errors.js';
import { iso } from '../../api/schemas.js';
import type { RoutedStorage } from '../../storage/routed.js';
import { StorageError, type ArtifactStorage, type PutResult } from '../../storage/storage.js';
import { memberMediaType, referencedMembers, type Manifest, type ManifestRecord } from './manifest.js';
import { artifactsStore, type ArtifactRow, type ListFilter, type ListItemRow } from './store.js';

type ArtifactSummary = Omit<ArtifactRow, 'manifest'>;
import { ZipReader } from './zip.js';
import type { PeriodicTask } from '../../scheduler.js';
import { ingestUpload } from './ingest.js';
import { StreamedFileUpload } from './file-upload.js';
import { isSdfPort, portArchive, portSdf } from './port-archive.js';
import { chooseMoleculePort, readMoleculeSet } from './molecule-sets.js';
import { resultName, uploadName } from './names.js';
import { writeRecordsArchive } from './records.js';
import { sweepOrphans } from './sweep.js';
import type {
  ArtifactList,
  ArtifactListItem,
  ArtifactResponse,
  ArtifactServiceDeps,
  ArtifactUsage,
  CreateFromRecordsInput,
  Download,
  Logger,
  MoleculeItem,
  UploadInput,
  UploadMode,
} from './types.js';

// This module's exports from before the split, from their new homes (old import paths keep working).
export type { ArtifactRecordInput, ArtifactPortInput, CreateFromRecordsInput, MoleculeItem, ArtifactResponse, ArtifactListItem, ArtifactList } from './types.js';
export type { ArtifactUsage, UploadMode, UploadInput, Download, ArtifactServiceDeps } from './types.js';
export { ORPHAN_MIN_AGE_MS } from './sweep.js';
export { referencedMembers };

// ---------------------------------------------------------------- constants

const MAX_JSON_MEMBER = 64 * 1024 * 1024;

const silent: Logger = { warn: () => undefined, error: () => undefined };

export class ArtifactService {
  readonly db: Database;
  readonly config: Config;
  /** Replaceable (tests inject a failing store). */
  storage: ArtifactStorage;
  readonly scratchDir: string;
  private readonly log: Logger;

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
    return { artifact_count: use.count, quota_bytes: this.quotaFor(t), tier: t, tier_name: TIER_NAMES[t] ?? 'free', used_bytes: use.bytes };
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
    const [hit, ...others] = hits;
    if (!hit) {
      const ports = (await artifactsStore.ports(this.db, row.id)).map((p) => p.port);
      if (port !== undefined && !ports.includes(port)) throw notFound(`port "${port}" in artifact ${row.id} (its ports: ${listFew(ports)})`);
      throw notFound(`record "${recordId}" in ${port !== undefined ? `port "${port}" of ` : ''}artifact ${row.id}`);
    }
    if (others.length > 0) {
      const all = (await artifactsStore.ports(this.db, row.id)).map((p) => p.port);
      throw invalid(['port'], `record "${recordId}" exists in more than one port of artifact ${row.id} (its ports: ${listFew(all)}): send port to choose`, null, 'missing');
    }
    const { port: name, record } = hit;
    return { port: name, record, member: record.files.primary };
  }

  /** The whole archive, (with `record`) one record's primary member, or (with `port` alone) one port: its record's primary member, a multi-record SDF of an SDF port, or a zip of its records. */
  async download(userId: string, id: string, q: { record?: string; port?: string }): Promise<Download> {
    const row = await this.summary(userId, id);
    if (q.record === undefined && q.port !== undefined) {
      const { manifest } = await this.row(userId, id);
      const port = Object.hasOwn(manifest.ports, q.port) ? manifest.ports[q.port]! : null;
      if (!port) throw notFound(`port "${q.port}" in artifact ${row.id} (its ports: ${listFew(Object.keys(manifest.ports))})`);
      if (port.records.length === 1) return this.download(userId, id, { record: port.records[0]!.id, port: q.port });
      const reader = await this.openZip(row);
      try {
        const o = { reader, artifactId: row.id, createdAt: row.created_at, manifest, port: q.port, scratchDir: this.scratchDir };
        return await (isSdfPort(port) ? portSdf(o) : portArchive(o));
      } finally {
        reader.close();
      }
    }
    if (q.record === undefined) {
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
    const r = await this.readPrimaryJsonUpTo(userId, artifactId, port, recordId, MAX_JSON_MEMBER);
    if (!('value' in r)) throw new Error(`artifact ${artifactId}: ${port}/${recordId} is ${r.size} bytes (at most ${MAX_JSON_MEMBER} are read)`);
    return r.value;
  }

  /** A record's JSON document when it is at most `maxBytes` long, else only its size (nothing read). */
  async readPrimaryJsonUpTo(userId: string, artifactId: string, port: string, recordId: string, maxBytes: number): Promise<{ value: unknown; size: number } | { size: number }> {
    const row = await this.summary(userId, artifactId);
    const { member } = await this.record(row, recordId, port);
    const reader = await this.openZip(row);
    try {
      const entry = (await reader.find([member])).get(member);
      if (!entry) throw new StorageError(`artifact ${row.id}: member ${member} named by the manifest is missing`, 'ENOENT');
      if (entry.uncompressedSize > maxBytes) return { size: entry.uncompressedSize };
      const buf = await reader.readBuffer(entry, maxBytes);
      return { value: JSON.parse(buf.toString('utf8')), size: buf.length };
    } finally {
      reader.close();
    }
  }

  /** The molecule port to read: the one named, else the only port of kind `molecules`. */
  private async moleculePort(userId: string, artifactId: string, port?: string) {
    const summary = await this.summary(userId, artifactId);
    return { summary, port: await chooseMoleculePort(this.db, artifactId, port) };
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
    yield* readMoleculeSet({ db: this.db, log: this.log, openZip: (row) => this.openZip(row) }, artifactId, summary, p);
  }

  // ------------------------------------------------------------ writing

  /**
   * Writes a job's output as an artifact: records streamed into the zip (memory bounded by
   * one record), the zip streamed into the store, then the row. Throws (StorageError for
   * store faults) leaving no row and no file.
   */
  async createFromRecords(input: CreateFromRecordsInput): Promise<{ artifactId: string; sizeBytes: number }> {
    // A small archive is kept in the database, written with its row (commit, inlineWrite).
    const { put, manifest } = await writeRecordsArchive(this.storage, input, this.config.storage.inlineResultBytes);
    const row = await this.commit(put, manifest, {
      userId: input.userId,
      jobId: input.jobId,
      origin: 'job',
      uploadMode: null,
      name: input.name ?? resultName(input.jobType, Object.keys(input.ports)),
      expiresAt: input.expiresAt ?? null,
      enforceQuota: input.enforceQuota ?? false,
      onCommit: input.inTx ? (tx, response) => input.inTx!(tx, response.id) : undefined,
    });
    return { artifactId: row.id, sizeBytes: row.size_bytes };
  }

  /**
   * POST /artifacts, mode `file`: the archive of this file written into the store while the body
   * is read, or null when the file must be spooled first (file-upload.ts). storeUpload finishes it.
   */
  openStreamedFile(file: { filename: string; mimetype: string }, maxFileBytes: number): StreamedFileUpload | null {
    return StreamedFileUpload.open(this.storage, file, maxFileBytes);
  }

  /** POST /artifacts: turns a spooled (or streamed) upload into an artifact per its mode. */
  async storeUpload(u: UploadInput): Promise<ArtifactResponse> {
    // Cheap refusal before any more work: already at the quota, or (archive: stored as sent) too
    // big. A streamed file is in the store already, unfinished: refused, it is removed.
    let result: Awaited<ReturnType<typeof ingestUpload>>;
    try {
      const tier = (await artifactsStore.userTier(this.db, u.userId)) ?? 0;
      const quota = this.quotaFor(tier);
      const used = (await artifactsStore.usage(this.db, u.userId)).bytes;
      const incoming = u.mode === 'archive' ? u.size : 1;
      if (used + incoming > quota) throw quotaProblem(used, incoming, quota, u.mode !== 'archive');
      result = await ingestUpload(this, u);
    } catch (err) {
      await u.streamed?.abort(err);
      throw err;
    }
    const row = await this.commit(result.put, result.manifest, {
      userId: u.userId,
      jobId: null,
      origin: 'upload',
      uploadMode: u.mode,
      name: u.name ?? uploadName(u.filename, u.mode),
      expiresAt: null,
      enforceQuota: true,
      onCommit: u.onCommit,
    });
    return toResponse(row);
  }

  /** Inserts the row for a stored object (quota checked under a per-account lock); on refusal or failure the object is deleted. */
  private async commit(
    put: PutResult,
    manifest: Manifest,
    meta: {
      userId: string;
      jobId: string | null;
      origin: 'job' | 'upload';
      uploadMode: UploadMode | null;
      name: string;
      expiresAt: Date | null;
      enforceQuota: boolean;
      onCommit?: UploadInput['onCommit'];
    },
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
        const inline = put.inline ? (first: number) => inlineWrite(this.storage, put, first) : undefined;
        const row = await artifactsStore.insert(tx, {
          userId: meta.userId,
          jobId: meta.jobId,
          origin: meta.origin,
          uploadMode: meta.uploadMode,
          name: meta.name,
          storageKey: put.key,
          sizeBytes: put.size,
          sha256: put.sha256,
          manifest,
          expiresAt: meta.expiresAt,
          also: inline,
        });
        await meta.onCommit?.(tx, toResponse(row));
        return row;
      });
    } catch (err) {
      // An inline object went with the transaction; any other was written before it.
      if (!put.inline)
        await this.storage.delete(put.key).catch((e: unknown) => this.log.warn({ err: e, key: put.key }, 'could not delete an uncommitted artifact object; the sweep will'));
      throw err;
    }
  }

  // ------------------------------------------------------------ deleting

  /**
   * DELETE /artifacts/{id}: the row, then the file. The weights of a registered model are not
   * deleted on their own (the model would break): a 409 naming the model, which
   * DELETE /user-models/mpnn removes with its weights (docs/artifacts.md).
   */
  async delete(userId: string, id: string): Promise<void> {
    const gone = UUID_RE.test(id) ? await artifactsStore.deleteUnlessModelWeights(this.db, userId, id) : null;
    if (!gone) throw notFound(`artifact ${id}`);
    if ('model' in gone) {
      throw new AppError(
        'conflict',
        `artifact ${id} holds the weights of model ${gone.model}; delete the model with DELETE /user-models/mpnn?model_name=${encodeURIComponent(gone.model)}`,
      );
    }
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

  /**
   * The text of an uploaded file (a `file` upload's one record; else the first record of the
   * first port), at most `maxBytes` (a 422 at input_artifact_id beyond). For tabular job inputs
   * such as a training CSV.
   */
  async readText(userId: string, id: string, maxBytes: number): Promise<string> {
    const a = await this.get(userId, id);
    const port = a.manifest.ports.file ? 'file' : Object.keys(a.manifest.ports)[0];
    const record = port ? a.manifest.ports[port]?.records[0] : undefined;
    if (!port || !record) throw invalid(['input_artifact_id'], 'the artifact holds no file', id);
    const dl = await this.download(userId, id, { port, record: record.id });
    if (dl.size > maxBytes) {
      dl.close();
      throw invalid(['input_artifact_id'], `the file is ${dl.size} bytes; at most ${maxBytes}`, id, 'too_long');
    }
    const chunks: Buffer[] = [];
    for await (const c of await dl.open()) chunks.push(Buffer.from(c as Uint8Array));
    return Buffer.concat(chunks).toString('utf8');
  }

  /** In the caller's transaction: the artifact no longer belongs to its job, so deleting the job keeps it (a registered model's weights). */
  async detachFromJob(tx: Queryable, userId: string, id: string): Promise<void> {
    if (!(await artifactsStore.detachFromJob(tx, userId, id))) throw notFound(`artifact ${id}`);
  }

  /** Deletes an artifact's row in the caller's transaction; its object is left to the orphan sweep (never visible without its row). */
  async deleteRowInTx(tx: Queryable, userId: string, id: string): Promise<void> {
    await artifactsStore.delete(tx, userId, id);
  }

  /** Removes the objects of rows already deleted (a file that stays behind is an orphan for the sweep). */
  async removeObjects(keys: string[]): Promise<void> {
    for (const key of keys) await this.removeObject(key);
  }

  private async removeObject(key: string): Promise<void> {
    // The row is gone already: a file left behind is an orphan for the sweep, never visible.
    await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'artifact object not deleted; the orphan sweep will remove it'));
  }

  // ------------------------------------------------------------ sweeping

  /**
   * Removes: expired artifacts (row, then file); objects older than `minAgeMs` (default one
   * hour) that no row names (a crash between file and row, a failed delete); unfinished
   * writes and upload scratch files older than that. Returns the number of files removed.
   */
  async sweepOrphans(opts: { minAgeMs?: number } = {}): Promise<number> {
    return sweepOrphans(this, opts);
  }

  /** The orphan sweep as a periodic task: every 15 minutes, the first after 1 minute. */
  sweepTask(intervalMs = 15 * 60 * 1000, firstDelayMs = 60 * 1000): PeriodicTask {
    return {
      name: 'artifact-sweep',
      everyMs: intervalMs,
      firstDelayMs,
      run: async () => {
        const n = await this.sweepOrphans();
        if (n) this.log.warn({ removed: n }, 'artifact sweep removed orphan files');
      },
    };
  }
}

// ---------------------------------------------------------------- helpers

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toResponse(row: ArtifactRow): ArtifactResponse {
  return {
    id: row.id,
    name: row.name,
    origin: row.origin,
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
    name: r.name,
    origin: r.origin,
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
  return new AppError('storage-quota-exceeded', detail, { extra: { quota_bytes: quota, used_bytes: used } });
}

/** The statement parts that write the `inline` bytes of a put (the routed store's inlineWrite: src/storage/routed.ts). */
function inlineWrite(storage: ArtifactStorage, put: PutResult, first: number): { ctes: string; params: unknown[] } {
  const store = storage as Partial<Pick<RoutedStorage, 'inlineWrite'>>;
  if (typeof store.inlineWrite !== 'function') throw new Error(`the artifact store ${storage.description} returned inline bytes but cannot store them`);
  return store.inlineWrite(put, first);
}
