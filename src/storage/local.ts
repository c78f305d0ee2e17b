// Artifact objects as files under one directory (default <CRUCIBLE_DATA_DIR>/artifacts).
// Layout: <root>/<2 hex>/<uuid>; a write goes to <root>/<2 hex>/.tmp-<uuid> in the same
// directory, is fsynced, then renamed into place (and the directory fsynced), so an object
// is either absent or complete. Reads and writes stream: nothing is held whole in memory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { asStorageError, StorageError, type ArtifactStorage, type ByteRange, type ObjectInfo, type PutOptions, type PutResult } from './storage.js';

const KEY_RE = /^[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMP_RE = /^[0-9a-f]{2}\/\.tmp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMP_PREFIX = '.tmp-';
const WRITE_BATCH = 4 * 1024 * 1024;
/** Buffers per writev (Linux takes up to 1024). */
const MAX_IOV = 512;

export class LocalFileStorage implements ArtifactStorage {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `local:${this.root}`;
  }

  private pathOf(key: string): string {
    if (!KEY_RE.test(key) && !TEMP_RE.test(key)) throw new StorageError(`invalid storage key "${key}"`, 'EINVAL');
    return path.join(this.root, ...key.split('/'));
  }

  async put(source: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const id = crypto.randomUUID();
    const shard = id.slice(0, 2);
    const dir = path.join(this.root, shard);
    const tmp = path.join(dir, TEMP_PREFIX + id);
    const final = path.join(dir, id);
    const hash = opts.sha256 ? null : crypto.createHash('sha256');
    let size = 0;
    let fh: fsp.FileHandle | null = null;
    let inFlight: Promise<void> | null = null;
    // Iterate from the start, so an early error of the source is caught here, not thrown unhandled.
    const chunks = source[Symbol.asyncIterator]();
    try {
      const file = await this.create(dir, tmp);
      fh = file;
      // Chunks are gathered into writes of about WRITE_BATCH bytes, each one writev of the
      // chunks as they came (no copy), with one write in flight while the next batch gathers.
      let batch: Buffer[] = [];
      let batched = 0;
      const writeAll = async (bufs: Buffer[]) => {
        let rest = bufs;
        while (rest.length > 0) {
          let n = (await file.writev(rest.slice(0, MAX_IOV))).bytesWritten;
          // A short write: skip what was written, go on with the rest.
          let i = 0;
          while (i < rest.length && n >= rest[i]!.length) n -= rest[i++]!.length;
          rest = rest.slice(i);
          if (n > 0 && rest.length > 0) rest = [rest[0]!.subarray(n), ...rest.slice(1)];
        }
      };
      const flush = async () => {
        if (inFlight) await inFlight;
        inFlight = null;
        if (batched === 0) return;
        const bufs = batch;
        batch = [];
        batched = 0;
        inFlight = writeAll(bufs);
        inFlight.catch(() => undefined); // awaited by the next flush
      };
      for await (const chunk of { [Symbol.asyncIterator]: () => chunks }) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        if (buf.length === 0) continue;
        hash?.update(buf);
        size += buf.length;
        batch.push(buf);
        batched += buf.length;
        if (batched >= WRITE_BATCH || batch.length >= MAX_IOV) await flush();
      }
      await flush();
      await flush(); // the last write
      await file.sync();
      await file.close();
      fh = null;
      await fsp.rename(tmp, final);
      await syncDir(dir);
      return { key: `${shard}/${id}`, size, sha256: hash ? hash.digest('hex') : opts.sha256!() };
    } catch (err) {
      if (!source.destroyed) source.destroy();
      await (inFlight as Promise<void> | null)?.catch(() => undefined);
      await fh?.close().catch(() => undefined);
      await fsp.unlink(tmp).catch(() => undefined);
      // The source's own failure (a bad upload, a producer error) passes through unchanged.
      if (isFsError(err)) throw asStorageError(err, 'artifact storage write failed');
      throw err;
    }
  }

  /** Shard directories this process has made or found (a mkdir per write cost a thread-pool round trip). */
  private readonly shards = new Set<string>();

  /** Creates the temp file, making its shard directory the first time (or again if it was removed). */
  private async create(dir: string, tmp: string): Promise<fsp.FileHandle> {
    if (!this.shards.has(dir)) {
      await fsp.mkdir(dir, { recursive: true });
      this.shards.add(dir);
    }
    try {
      return await fsp.open(tmp, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fsp.mkdir(dir, { recursive: true });
      return fsp.open(tmp, 'wx', 0o600);
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const p = this.pathOf(key);
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(p, 'r');
    } catch (err) {
      throw asStorageError(err, `artifact object ${key} cannot be read`);
    }
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return { size: s.size, modifiedAt: s.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw asStorageError(err, `artifact object ${key} cannot be examined`);
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await fsp.unlink(this.pathOf(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw asStorageError(err, `artifact object ${key} cannot be deleted`);
    }
  }

  async deleteTemporary(key: string): Promise<void> {
    if (!TEMP_RE.test(key)) throw new StorageError(`not a temporary key: "${key}"`, 'EINVAL');
    await fsp.unlink(this.pathOf(key)).catch((err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw asStorageError(err, `temp file ${key} cannot be deleted`);
    });
  }

  async *list(): AsyncIterable<ObjectInfo> {
    let shards: fs.Dirent[];
    try {
      shards = await fsp.readdir(this.root, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw asStorageError(err, 'artifact storage cannot be listed');
    }
    for (const shard of shards) {
      if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
      let names: string[];
      try {
        names = await fsp.readdir(path.join(this.root, shard.name));
      } catch {
        continue; // removed meanwhile
      }
      for (const name of names) {
        const key = `${shard.name}/${name}`;
        const temporary = TEMP_RE.test(key);
        if (!temporary && !KEY_RE.test(key)) continue;
        try {
          const s = await fsp.lstat(path.join(this.root, shard.name, name));
          if (!s.isFile()) continue;
          yield { key, size: s.size, modifiedAt: s.mtime, temporary };
        } catch {
          /* removed meanwhile */
        }
      }
    }
  }
}

function isFsError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof (err as { syscall?: unknown }).syscall === 'string';
}

/** Makes a rename durable. Some filesystems refuse fsync on a directory: that is not an error. */
async function syncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | null = null;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch {
    /* best effort */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
