// A `file` upload's archive, written into the store while the request body is still being
// read (docs/artifacts.md, "Uploads"): the file member streams into storage.put as the bytes
// arrive, and the archive waits, its store write open, for the manifest (whose kind and format
// may come in fields after the file) until finish() or abort(). One pass: no scratch file, no
// re-read. Used when the member is stored whatever its size (not text-like, which is deflated
// from 512 bytes on) and the upload cap keeps the archive below 4 GiB; other uploads are
// spooled first and built by ingest.ts.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { ArtifactStorage, PutResult } from '../../storage/storage.js';
import { memberHashPrefix, STREAMED_ZIP_LIMIT, zipMemberThenManifest } from './file-zip.js';
import { extensionOf, guessMediaType, MANIFEST_VERSION, safeMemberName, worthCompressing, type Manifest } from './manifest.js';

/** Room left below STREAMED_ZIP_LIMIT for the headers, the manifest and the central directory. */
const ARCHIVE_OVERHEAD = 64 * 1024 * 1024;

/** The file member of a `file` upload: its name in the manifest, path in the zip and media type. */
export function fileMember(filename: string, mimetype: string): { name: string; member: string; mediaType: string } {
  const name = safeMemberName(filename, 'file');
  const generic = !mimetype || /^application\/octet-stream\b/i.test(mimetype);
  return { name, member: `file/${name}`, mediaType: generic ? guessMediaType(name) : mimetype };
}

/**
 * What the SHA-256 of an upload's content (the idempotency fingerprint's) starts with, before the
 * file's bytes: the file member's local zip header, a function of the file name alone. A streamed
 * upload's archive hash passes through exactly these bytes, so one hash gives both (file-zip.ts).
 */
export function uploadHashPrefix(filename: string): Buffer {
  return memberHashPrefix(fileMember(filename, '').member);
}

/** The manifest of a `file` upload: one port `file` with the one record. */
export function fileManifest(filename: string, mimetype: string, dataKind: string | null, dataFormat: string | null): Manifest {
  const { name, member, mediaType } = fileMember(filename, mimetype);
  const kind = dataKind ?? 'file';
  const format = (dataFormat ?? extensionOf(name)) || 'bin';
  return {
    job_type: 'upload',
    manifest_version: MANIFEST_VERSION,
    ports: { file: { format, kind, record_count: 1, records: [{ id: name, files: { primary: member }, content_types: { primary: mediaType } }] } },
    warnings: [],
  };
}

export class StreamedFileUpload {
  private putting: Promise<PutResult> | null = null;
  private settleManifest: { resolve: (m: Manifest) => void; reject: (err: unknown) => void } | null = null;
  private readonly manifestReady: Promise<Manifest>;
  private state: 'open' | 'finishing' | 'aborted' = 'open';
  private abortReason: unknown = new Error('upload abandoned');
  private readonly mtime = new Date();

  private constructor(
    private readonly storage: ArtifactStorage,
    readonly filename: string,
    readonly mimetype: string,
  ) {
    this.manifestReady = new Promise<Manifest>((resolve, reject) => (this.settleManifest = { resolve, reject }));
    this.manifestReady.catch(() => undefined); // an abort before the archive asks for it
  }

  /** A streamed upload of this file, or null when it must be spooled first (text-like, or a cap past what the writer takes). */
  static open(storage: ArtifactStorage, file: { filename: string; mimetype: string }, maxFileBytes: number): StreamedFileUpload | null {
    if (maxFileBytes > STREAMED_ZIP_LIMIT - ARCHIVE_OVERHEAD) return null;
    const { name, mediaType } = fileMember(file.filename, file.mimetype);
    if (worthCompressing(name, Number.MAX_SAFE_INTEGER, mediaType)) return null;
    return new StreamedFileUpload(storage, file.filename, file.mimetype);
  }

  /**
   * Streams `data` (iterated once) into the store as the archive's file member. Resolves when
   * `data` has ended, the archive then waiting for finish(), to the hex SHA-256 of
   * uploadHashPrefix(filename) and the bytes; rejects with the error of `data` or of the store
   * (a StorageError), after which only abort() is left to call.
   */
  async write(data: AsyncIterable<Buffer>): Promise<string> {
    if (this.putting || this.state !== 'open') throw new Error('StreamedFileUpload.write: called twice or after abort');
    let ended!: (contentSha256: string) => void;
    let failed!: (err: unknown) => void;
    const dataEnd = new Promise<string>((resolve, reject) => {
      ended = resolve;
      failed = reject;
    });
    dataEnd.catch(() => undefined);
    const aborted = () => (this.state === 'aborted' ? this.abortReason : null);
    const watched = (async function* () {
      try {
        for await (const chunk of data) {
          const reason = aborted();
          if (reason !== null) throw reason instanceof Error ? reason : new Error('upload abandoned');
          yield chunk;
        }
        // dataEnd resolves with the content hash (memberHashed below). A store that stops
        // reading early rejects `putting` with its own error, which ends the wait below.
      } catch (err) {
        failed(err);
        throw err;
      }
    })();
    const { member } = fileMember(this.filename, this.mimetype);
    // One SHA-256 over the archive, copied when the member ends for the content's (file-zip.ts).
    const hash = crypto.createHash('sha256');
    const archive = zipMemberThenManifest({
      member,
      data: watched,
      compress: false,
      manifest: () => this.manifestReady,
      mtime: this.mtime,
      hash,
      memberHashed: (h) => ended(h.copy().digest('hex')),
    });
    this.putting = this.storage.put(Readable.from(archive, { highWaterMark: 16 }) /* object mode: chunks read as yielded, never joined (a copy) */, {
      sha256: () => hash.digest('hex'),
    });
    this.putting.catch(() => undefined); // observed by finish() or abort()
    // A store that fails first (disk full, unreachable) ends the wait with its own error.
    const contentSha256 = await Promise.race([dataEnd, this.putting]);
    if (typeof contentSha256 !== 'string') throw new Error('the store completed the upload before its manifest');
    return contentSha256;
  }

  /** Completes the archive with the manifest (fields checked by the caller) and returns what the store wrote. */
  async finish(fields: { dataKind: string | null; dataFormat: string | null }): Promise<{ put: PutResult; manifest: Manifest }> {
    if (!this.putting || this.state !== 'open') throw new Error('StreamedFileUpload.finish: nothing written, or already finished or aborted');
    this.state = 'finishing';
    const manifest = fileManifest(this.filename, this.mimetype, fields.dataKind, fields.dataFormat);
    this.settleManifest!.resolve(manifest);
    return { put: await this.putting, manifest };
  }

  /**
   * Gives the write up (a refused request, a failure, a replayed idempotent response): the store
   * removes its temp object, and this resolves once it has. Nothing after finish() (the caller
   * owns the object then); safe to call more than once.
   */
  async abort(reason: unknown = new Error('upload abandoned')): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    this.abortReason = reason;
    this.settleManifest!.reject(reason);
    await this.putting?.catch(() => undefined);
  }
}
