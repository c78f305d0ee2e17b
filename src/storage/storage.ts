// The artifact object store: one small interface, so that an S3-compatible store can sit
// beside the local-file one. Objects are immutable: written once (atomically), read whole or
// by byte range, deleted, and listed (for the orphan sweep).
import type { Readable } from 'node:stream';

/** A byte range with both ends inclusive, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutResult {
  key: string;
  size: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
  /** The whole object, not yet stored: set only for a put with `inlineUpTo` whose source was that small. */
  inline?: Buffer;
}

/** What the producer of a write knows already. */
export interface PutOptions {
  /**
   * The hex SHA-256 of the source's bytes, taken by the producer as they passed (so the store
   * does not hash them again); called once, after the source has ended.
   */
  sha256?: () => string;
  /**
   * A source that ends within this many bytes is not written anywhere: put() returns its bytes
   * as `inline`, and the caller stores them in its own transaction (RoutedStorage.inlineWrite).
   * Only the routed store honours it (docs/architecture.md, "Artifact storage": small results).
   */
  inlineUpTo?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  modifiedAt: Date;
  /** An unfinished write (a temp file): never readable, removed by the sweep when old. */
  temporary: boolean;
}

export interface ArtifactStorage {
  /** Where the objects live, for logs ("local:/data/artifacts", "s3://bucket/prefix"). */
  readonly description: string;
  /**
   * Streams `source` into a new object and returns its generated key. The object becomes
   * visible only complete (temp + fsync + rename locally, a single PUT/multipart commit on S3);
   * when the source or the write fails nothing is left behind and the error is a StorageError
   * (or the source's own error).
   */
  put(source: Readable, opts?: PutOptions): Promise<PutResult>;
  /** Streams the object, or the inclusive byte range of it. Throws StorageError code ENOENT when absent. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number; modifiedAt: Date } | null>;
  /** True when an object was removed. */
  delete(key: string): Promise<boolean>;
  /** Every object and temp write, in no particular order. */
  list(): AsyncIterable<ObjectInfo>;
  /** Removes a temp write found by list(). */
  deleteTemporary(key: string): Promise<void>;
  /** Releases connections (an S3 client's sockets); the store is not used after. */
  close?(): void | Promise<void>;
}

/** A storage fault (disk full, I/O error, missing object) that callers can catch and classify. */
export class StorageError extends Error {
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
  /**
   * Faults of the store itself (not of a request), worth a retry later: disk full, I/O error,
   * read-only, quota of the volume, or a store that cannot be reached (a database or S3 endpoint
   * that refuses or drops the connection; an S3 5xx answer is EIO).
   */
  get isCapacityOrIo(): boolean {
    return ['ENOSPC', 'EIO', 'EDQUOT', 'EROFS', 'EFBIG', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(this.code);
  }
}

/** Wraps any error thrown by a storage backend into a StorageError (keeping the code). */
export function asStorageError(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const code = (err as { code?: unknown })?.code;
  const msg = err instanceof Error ? err.message : String(err);
  return new StorageError(`${what}: ${msg}`, typeof code === 'string' ? code : 'EUNKNOWN', { cause: err });
}
