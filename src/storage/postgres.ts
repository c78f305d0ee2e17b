// Artifact objects in the database itself (tables of migration 009_object_store.sql), on either
// driver (embedded PGlite or PostgreSQL). An object is a row of storage_objects and its bytes
// are rows of storage_chunks, each `chunk_size` bytes (the last one shorter); the chunk size is
// kept per object, so objects written with another chunkBytes stay readable.
// put() inserts the object incomplete, adds one chunk per INSERT as the source delivers bytes
// (two INSERTs in flight), then marks it complete with size and sha256 in one UPDATE: an object is readable only whole.
// get() reads only the chunks of the range, a batch at a time as the consumer pulls, slicing
// the first and last chunk in SQL. Nothing is held whole in memory in either direction.
// Bytes travel as base64 text, encoded and decoded by the server: PGlite moves a bytea parameter
// or column about ten times slower than text, and on PostgreSQL base64 is smaller than bytea's hex.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '../db/database.js';
import { asStorageError, StorageError, type ArtifactStorage, type ByteRange, type ObjectInfo, type PutOptions, type PutResult } from './storage.js';

const KEY_RE = /^[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
/** About this many bytes are fetched per query while reading (at least one chunk). */
const FETCH_BYTES = 1024 * 1024;
const LIST_PAGE = 1000;
/** Chunk INSERTs of one write running at once (on PostgreSQL, on as many pooled connections). */
const INSERTS_IN_FLIGHT = 2;

/** SQLSTATEs that are faults of the store's volume, as the errno codes StorageError classifies. */
const SQLSTATE_ERRNO: Record<string, string> = {
  '53100': 'ENOSPC', // disk_full
  '58030': 'EIO', // io_error
  '25006': 'EROFS', // read_only_sql_transaction (a hot standby)
  '54000': 'EFBIG', // program_limit_exceeded (a value or table too large)
};

function dbError(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const code = (err as { code?: unknown })?.code;
  const errno = typeof code === 'string' ? SQLSTATE_ERRNO[code] : undefined;
  if (errno) return new StorageError(`${what}: ${err instanceof Error ? err.message : String(err)}`, errno, { cause: err });
  return asStorageError(err, what);
}

function checkKey(key: string): void {
  if (!KEY_RE.test(key)) throw new StorageError(`invalid storage key "${key}"`, 'EINVAL');
}

function checkRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) throw new StorageError(`invalid byte range ${start}-${end}`, 'EINVAL');
}

interface ObjectRow {
  size: number | string;
  chunk_size: number;
  complete: boolean;
  modified_at: Date;
}

export class PostgresStorage implements ArtifactStorage {
  readonly description = 'postgres';
  private readonly db: Database;
  private readonly chunkBytes: number;

  constructor(db: Database, opts: { chunkBytes?: number } = {}) {
    const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > 256 * 1024 * 1024) throw new RangeError(`chunkBytes must be 1 B to 256 MiB, not ${chunkBytes}`);
    this.db = db;
    this.chunkBytes = chunkBytes;
  }

  /** A query whose failure is a StorageError (the store's fault, never the caller's). */
  private async q<T>(what: string, sql: string, params: unknown[]): Promise<{ rows: T[]; rowCount: number }> {
    try {
      return await this.db.query<T>(sql, params);
    } catch (err) {
      throw dbError(err, what);
    }
  }

  /** A new object key (the shard, then a random UUID). */
  static newKey(): string {
    const id = crypto.randomUUID();
    return `${id.slice(0, 2)}/${id}`;
  }

  /**
   * Common table expressions that write a whole small object (one chunk of its own size) as part
   * of a statement of the caller's transaction (a job's result, with its artifact row and the
   * job's end): the object exists exactly when that transaction commits. Their parameters are
   * numbered from `first`; the caller puts `params` at that place of its own.
   */
  static inlineWrite(key: string, bytes: Buffer, sha256: string, first: number): { ctes: string; params: unknown[] } {
    checkKey(key);
    const [k, size, hash, chunk, data] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
    return {
      ctes: `inline_object AS (INSERT INTO storage_objects (key, size, sha256, chunk_size, complete) VALUES (${k}::text, ${size}::int8, ${hash}::text, ${chunk}::int4, true) RETURNING key),
       inline_chunk AS (INSERT INTO storage_chunks (key, seq, data) SELECT key, 0, decode(${data}::text, 'base64') FROM inline_object WHERE ${size}::int8 > 0)`,
      params: [key, bytes.length, sha256, Math.max(bytes.length, 1), bytes.toString('base64')],
    };
  }

  async put(source: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const key = PostgresStorage.newKey();
    const chunkBytes = this.chunkBytes;
    const hash = opts.sha256 ? null : crypto.createHash('sha256');
    let size = 0;
    let seq = 0;
    let inserted = false;
    // Iterate from the start, so an early error of the source is caught here, not thrown unhandled.
    const incoming = source[Symbol.asyncIterator]();
    const what = 'artifact storage write failed';
    try {
      await this.q(what, 'INSERT INTO storage_objects (key, chunk_size) VALUES ($1, $2)', [key, chunkBytes]);
      inserted = true;
      // One INSERT per chunk; it also records the bytes stored so far and freshens modified_at
      // (an active write is no old orphan), and inserts nothing when the temp write was removed.
      // Up to INSERTS_IN_FLIGHT run at once (each chunk carries its seq), while the source goes on.
      let written = 0;
      const inFlight = new Set<Promise<void>>();
      let failure: Error | null = null;
      const insertChunk = async (data: Buffer, chunkSeq: number, upTo: number) => {
        const { rows } = await this.q<{ seq: number }>(
          what,
          `WITH o AS (UPDATE storage_objects SET modified_at = now(), size = greatest(size, $4) WHERE key = $1 AND NOT complete RETURNING key)
           INSERT INTO storage_chunks (key, seq, data) SELECT key, $2, decode($3, 'base64') FROM o RETURNING seq`,
          [key, chunkSeq, data.toString('base64'), upTo],
        );
        if (rows.length !== 1) throw new StorageError(`${what}: temp object ${key} was removed while being written`, 'ENOENT');
      };
      const settled = async () => {
        await Promise.allSettled([...inFlight]);
        if (failure) throw failure;
      };
      const writeChunk = async (data: Buffer) => {
        while (inFlight.size >= INSERTS_IN_FLIGHT) await Promise.race(inFlight);
        if (failure) throw failure;
        written += data.length;
        const p: Promise<void> = insertChunk(data, seq++, written).then(
          () => void inFlight.delete(p),
          (err: unknown) => {
            failure ??= err instanceof Error ? err : new Error(String(err));
            inFlight.delete(p);
          },
        );
        inFlight.add(p);
      };
      // Bytes of the source not yet in a chunk.
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      try {
        for await (const chunk of { [Symbol.asyncIterator]: () => incoming }) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
          if (buf.length === 0) continue;
          hash?.update(buf);
          size += buf.length;
          pending.push(buf);
          pendingBytes += buf.length;
          if (pendingBytes < chunkBytes) continue;
          // Cut whole chunks of exactly chunkBytes; the rest waits for more bytes.
          const [only] = pending;
          const all = pending.length === 1 && only ? only : Buffer.concat(pending, pendingBytes);
          let off = 0;
          while (all.length - off >= chunkBytes) {
            await writeChunk(all.subarray(off, off + chunkBytes));
            off += chunkBytes;
          }
          pending = off < all.length ? [all.subarray(off)] : [];
          pendingBytes = all.length - off;
        }
        if (pendingBytes > 0) {
          const [only] = pending;
          await writeChunk(pending.length === 1 && only ? only : Buffer.concat(pending, pendingBytes));
        }
      } finally {
        // No INSERT may still run when the object is completed or deleted.
        await Promise.allSettled([...inFlight]);
      }
      await settled();
      const sha256 = hash ? hash.digest('hex') : opts.sha256!();
      const done = await this.q(what, 'UPDATE storage_objects SET complete = true, size = $2, sha256 = $3, modified_at = now() WHERE key = $1 AND NOT complete', [
        key,
        size,
        sha256,
      ]);
      if (done.rowCount !== 1) throw new StorageError(`${what}: temp object ${key} was removed while being written`, 'ENOENT');
      return { key, size, sha256 };
    } catch (err) {
      if (!source.destroyed) source.destroy();
      if (inserted) await this.db.query('DELETE FROM storage_objects WHERE key = $1', [key]).catch(() => undefined); // chunks go by cascade
      // The source's own failure (a bad upload, a producer error) passes through unchanged;
      // every database failure is already a StorageError.
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    checkKey(key);
    if (range) checkRange(range);
    const what = `artifact object ${key} cannot be read`;
    const { rows } = await this.q<ObjectRow>(what, 'SELECT size, chunk_size, complete, modified_at FROM storage_objects WHERE key = $1', [key]);
    const row = rows[0];
    if (!row || !row.complete) throw new StorageError(`${what}: no such object`, 'ENOENT');
    const size = Number(row.size);
    // Like a file read stream: an end past the object is clamped, a start past it reads nothing.
    const start = range ? range.start : 0;
    const end = Math.min(range ? range.end : size - 1, size - 1);
    if (start > end) return Readable.from([], { objectMode: false });
    return this.chunkStream(key, row.chunk_size, start, end);
  }

  /** Streams bytes start..end (inclusive, within the object), fetching chunks as the consumer pulls. */
  private chunkStream(key: string, chunkSize: number, start: number, end: number): Readable {
    const lastSeq = Math.floor(end / chunkSize);
    const perFetch = Math.max(1, Math.floor(FETCH_BYTES / chunkSize));
    let nextSeq = Math.floor(start / chunkSize);
    let busy = false;
    const what = `artifact object ${key} cannot be read`;
    const fetchBatch = async (): Promise<Buffer[]> => {
      const from = nextSeq;
      const to = Math.min(lastSeq, from + perFetch - 1);
      // Each chunk sliced to the range: whole chunks inside it, the first and last in part.
      const { rows } = await this.q<{ seq: number; data: string }>(
        what,
        `SELECT seq, encode(substring(data FROM (greatest($3::bigint - seq::bigint * $5::bigint, 0) + 1)::int
                                         FOR (least($4::bigint - seq::bigint * $5::bigint, $5::bigint - 1) - greatest($3::bigint - seq::bigint * $5::bigint, 0) + 1)::int), 'base64') AS data
           FROM storage_chunks WHERE key = $1 AND seq BETWEEN $2 AND $6 ORDER BY seq`,
        [key, from, start, end, chunkSize, to],
      );
      const out: Buffer[] = [];
      for (let s = from; s <= to; s++) {
        const r = rows[s - from];
        const base = s * chunkSize;
        const want = Math.min(end, base + chunkSize - 1) - Math.max(start, base) + 1;
        const data = r && r.seq === s ? Buffer.from(r.data, 'base64') : null;
        // A missing chunk: the object was deleted while being read (or the store is damaged).
        if (!data || data.length !== want) throw new StorageError(`${what}: chunk ${s} is missing or short (deleted while being read?)`, 'ENOENT');
        out.push(data);
      }
      nextSeq = to + 1;
      return out;
    };
    const stream = new Readable({
      read() {
        if (busy) return;
        busy = true;
        fetchBatch().then(
          (bufs) => {
            if (stream.destroyed) return;
            for (const b of bufs) stream.push(b);
            busy = false;
            if (nextSeq > lastSeq) stream.push(null);
          },
          (err: unknown) => stream.destroy(err instanceof Error ? err : new Error(String(err))),
        );
      },
    });
    return stream;
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    checkKey(key);
    const { rows } = await this.q<ObjectRow>(`artifact object ${key} cannot be examined`, 'SELECT size, modified_at FROM storage_objects WHERE key = $1 AND complete', [key]);
    const row = rows[0];
    return row ? { size: Number(row.size), modifiedAt: new Date(row.modified_at) } : null;
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    const r = await this.q(`artifact object ${key} cannot be deleted`, 'DELETE FROM storage_objects WHERE key = $1 AND complete', [key]);
    return r.rowCount > 0;
  }

  async deleteTemporary(key: string): Promise<void> {
    checkKey(key);
    // Only an incomplete object: a temp write that completed meanwhile is an object, kept.
    await this.q(`temp object ${key} cannot be deleted`, 'DELETE FROM storage_objects WHERE key = $1 AND NOT complete', [key]);
  }

  async *list(): AsyncIterable<ObjectInfo> {
    let after = '';
    for (;;) {
      const { rows } = await this.q<ObjectRow & { key: string }>(
        'artifact storage cannot be listed',
        'SELECT key, size, complete, modified_at FROM storage_objects WHERE key > $1 ORDER BY key LIMIT $2',
        [after, LIST_PAGE],
      );
      for (const r of rows) yield { key: r.key, size: Number(r.size), modifiedAt: new Date(r.modified_at), temporary: !r.complete };
      const last = rows[rows.length - 1];
      if (!last || rows.length < LIST_PAGE) return;
      after = last.key;
    }
  }
}
