// Upload ingestion (POST /artifacts): the modes file, molecules and archive, each turning the
// spooled upload into a zip in the store and its manifest; the service then inserts the row.
// A `file` upload streamed into the store while it was read (file-upload.ts) is only finished here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { AppError, type Issue, invalid } from '../../errors.js';
import type { ArtifactStorage, PutResult } from '../../storage/storage.js';
import { MANIFEST_NAME, MANIFEST_VERSION, MAX_MANIFEST_BYTES, safeMemberName, validateManifest, worthCompressing, type Manifest, type ManifestRecord } from './manifest.js';
import { formatFor, MoleculeFileError, parseMolecules, type ParseWarning } from '../../chem/formats/molecules.js';
import { BUNDLE_MEMBER, bundleLines, jsonLines, jsonLinesOf } from './bundle.js';
import { fileManifest, fileMember } from './file-upload.js';
import { STREAMED_ZIP_LIMIT, zipMemberThenManifest } from './file-zip.js';
import { writeArchive } from './records.js';
import type { UploadInput } from './types.js';
import { ZipReader, type ZipEntry } from './zip.js';
import { jsonValueIssue } from '../../validation.js';

const MAX_WARNINGS = 1000;
const MAX_ARCHIVE_ENTRIES = 1_000_000;
const MOLECULE_PORT = 'molecules';

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

/** What ingestion needs of the service (read when used: tests replace the store). */
export interface IngestDeps {
  readonly storage: ArtifactStorage;
  /** Local scratch space for the molecules mode's JSON-lines file. */
  readonly scratchDir: string;
}

/** The upload as a stored zip and its manifest, per its mode (the row is the caller's). */
export function ingestUpload(deps: IngestDeps, u: UploadInput): Promise<{ put: PutResult; manifest: Manifest }> {
  if (u.mode === 'file') return u.streamed ? u.streamed.finish(u) : buildFileArtifact(deps, u);
  if (u.mode === 'molecules') return buildMoleculeArtifact(deps, u);
  return acceptArchive(deps, u);
}

async function buildFileArtifact(deps: IngestDeps, u: UploadInput) {
  const spoolPath = spooled(u);
  const { name, member, mediaType } = fileMember(u.filename, u.mimetype);
  const manifest = fileManifest(u.filename, u.mimetype, u.dataKind, u.dataFormat);
  const compress = worthCompressing(name, u.size, mediaType);
  if (u.size <= STREAMED_ZIP_LIMIT - 64 * 1024 * 1024) {
    // One read of the spooled file, CRC-32 on the way (file-zip.ts); the manifest after it.
    const data = fs.createReadStream(spoolPath, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer> & fs.ReadStream;
    const archive = zipMemberThenManifest({ member, data, compress, manifest: () => manifest });
    const put = await deps.storage.put(Readable.from(archive, { highWaterMark: 16 }) /* object mode: chunks read as yielded, never joined (a copy) */);
    return { put, manifest };
  }
  // Past 4 GiB (a cap raised that far): yazl, which writes zip64.
  return writeArchive(
    deps.storage,
    async (zip) => {
      await zip.addFile(member, spoolPath, compress);
      return null;
    },
    manifest,
  );
}

/** The spooled file of an upload that is not streamed. */
function spooled(u: UploadInput): string {
  if (u.spoolPath === null) throw new Error(`a ${u.mode} upload needs its spooled file`);
  return u.spoolPath;
}

/**
 * `molecules` mode. Pass 1 parses the file into a scratch JSON-lines file and the manifest;
 * pass 2 writes the zip with manifest.json and the bundle first (so readers find them
 * without scanning the archive), then one member per molecule.
 */
async function buildMoleculeArtifact(deps: IngestDeps, u: UploadInput) {
  if (u.dataKind !== null && u.dataKind !== 'molecules') {
    throw invalid(['data_kind'], 'a molecules upload is always of kind "molecules"; leave data_kind out', u.dataKind, 'enum');
  }
  const format = formatFor(u.filename, u.dataFormat);
  if (!format) {
    if (u.dataFormat) throw invalid(['data_format'], `unknown molecule file format "${u.dataFormat}"; use smi, csv, tsv or sdf`, u.dataFormat, 'enum');
    throw invalid(['file'], `cannot tell the molecule file format from the name "${u.filename}": use a .smi, .csv, .tsv or .sdf file, or send data_format`, u.filename);
  }
  const warnings = new WarningList();
  await fsp.mkdir(deps.scratchDir, { recursive: true });
  const scratchPath = path.join(deps.scratchDir, `molecules-${crypto.randomUUID()}.jsonl`);
  const scratch = fs.createWriteStream(scratchPath);
  try {
    const records: ManifestRecord[] = [];
    const ext = format === 'sdf' ? 'sdf' : 'smi';
    try {
      for await (const mol of parseMolecules(fs.createReadStream(spooled(u)), format, { warn: (w) => warnings.add(w) })) {
        const member = `${MOLECULE_PORT}/${records.length + 1}/${safeMemberName(mol.id, 'molecule').slice(0, 80)}.${ext}`;
        const rec: ManifestRecord = { id: mol.id, files: { primary: member } };
        if (mol.name) rec.name = mol.name;
        if (mol.metrics) rec.metrics = mol.metrics;
        records.push(rec);
        const line = JSON.stringify({ id: mol.id, smiles: mol.smiles, name: mol.name, molblock: mol.molblock, metrics: mol.metrics, member, text: mol.text }) + '\n';
        if (!scratch.write(line)) await new Promise<void>((r) => scratch.once('drain', () => r()));
      }
    } catch (err) {
      if (err instanceof MoleculeFileError) throw invalid(['file'], err.message, u.filename);
      throw err;
    }
    scratch.end();
    await finished(scratch);
    if (records.length === 0) {
      const first = warnings.list[0] as ParseWarning | undefined;
      throw invalid(
        ['file'],
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
    return await writeArchive(
      deps.storage,
      async (zip) => {
        await zip.addLazyStream(BUNDLE_MEMBER, () => jsonLines(scratchPath).pipe(bundleLines()), true);
        for await (const o of jsonLinesOf<{ member: string; text: string }>(scratchPath)) {
          const text = Buffer.from(o.text);
          await zip.addBuffer(o.member, text, worthCompressing(o.member, text.length));
        }
        return null;
      },
      manifest,
    );
  } finally {
    // Writes still buffered when the file is refused part-way (an id the rule refuses) fail
    // with the destroyed stream: expected, and never an uncaught error.
    scratch.on('error', () => undefined);
    scratch.destroy();
    await fsp.unlink(scratchPath).catch(() => undefined);
  }
}

/** `archive` mode: the zip is stored as sent once its manifest checks out. */
async function acceptArchive(deps: IngestDeps, u: UploadInput): Promise<{ put: PutResult; manifest: Manifest }> {
  if (u.dataKind !== null || u.dataFormat !== null) {
    const field = u.dataKind !== null ? 'data_kind' : 'data_format';
    throw invalid([field], `an archive upload takes kinds and formats from its manifest.json; leave ${field} out`, u.dataKind ?? u.dataFormat, 'extra_forbidden');
  }
  let reader: ZipReader;
  try {
    reader = await ZipReader.openFile(spooled(u), u.size);
  } catch (err) {
    throw invalid(['file'], `"${u.filename}" is not a zip archive (${(err as Error).message}); mode=archive takes a zip with a manifest.json at its root`, u.filename);
  }
  let manifestRaw: unknown;
  const names = new Set<string>();
  try {
    if (reader.entryCount > MAX_ARCHIVE_ENTRIES) throw invalid(['file'], `the archive has ${reader.entryCount} entries; at most ${MAX_ARCHIVE_ENTRIES}`, u.filename);
    let manifestEntry: ZipEntry | null = null;
    try {
      for await (const e of reader.entries()) {
        if (e.isEncrypted()) throw invalid(['file'], `the archive member "${e.fileName}" is encrypted; artifacts are not`, e.fileName);
        if (!e.canDecodeFileData()) throw invalid(['file'], `the archive member "${e.fileName}" uses compression method ${e.compressionMethod}; use deflate or store`, e.fileName);
        names.add(e.fileName);
        if (e.fileName === MANIFEST_NAME && !manifestEntry) manifestEntry = e;
      }
    } catch (err) {
      if (err instanceof Error && !('status' in err)) throw invalid(['file'], `the zip archive is damaged: ${err.message}`, u.filename);
      throw err;
    }
    if (!manifestEntry) {
      const sample = [...names]
        .slice(0, 5)
        .map((n) => JSON.stringify(n))
        .join(', ');
      throw invalid(['file'], `the archive has no manifest.json at its root (its ${names.size} entries include ${sample || 'nothing'})`, u.filename);
    }
    let text: string;
    try {
      text = (await reader.readBuffer(manifestEntry, MAX_MANIFEST_BYTES)).toString('utf8');
    } catch (err) {
      throw invalid(['file', MANIFEST_NAME], `manifest.json cannot be read: ${(err as Error).message}`, null);
    }
    try {
      manifestRaw = JSON.parse(text);
    } catch (err) {
      throw invalid(['file', MANIFEST_NAME], `manifest.json is not valid JSON: ${(err as Error).message}`, text.slice(0, 200), 'json_invalid');
    }
  } finally {
    reader.close();
  }
  // Deep nesting, NUL characters and lone surrogates first: the manifest is kept (extra fields
  // included) in a jsonb column, and later walks over it must stay shallow.
  const unfit = jsonValueIssue(manifestRaw, ['file', MANIFEST_NAME]);
  if (unfit) throw manifestProblem([unfit]);
  const { manifest, issues } = validateManifest(manifestRaw, (n) => names.has(n), ['file', MANIFEST_NAME]);
  if (!manifest) throw manifestProblem(issues);
  const put = await deps.storage.put(fs.createReadStream(spooled(u)));
  return { put, manifest };
}

function manifestProblem(issues: Issue[]) {
  const first = issues[0];
  if (!first) return new AppError('invalid', 'manifest.json is not a valid manifest', { issues });
  const at = first.loc.slice(2).join('.');
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new AppError('invalid', `manifest.json${at ? ` at ${at}` : ''}: ${first.msg}${more}`, { issues });
}
