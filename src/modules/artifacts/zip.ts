// Zip writing (yazl) and reading (yauzl) for artifacts, streamed both ways.
//
// Two things on top of the libraries:
// - yazl rescans its whole entry list from the start on every pump step, so writing n
//   entries costs O(n^2) (100,000 small records: ~90 s). ZipBuilder gives yazl a view of
//   its `entries` array that starts at the first unfinished entry while writing, and the
//   whole array once the archive is ended and everything is written (for the central
//   directory). yazl also writes buffer entries to its output without backpressure, so
//   ZipBuilder waits while too many entries are pending or the output is not drained.
// - yauzl reads the central directory with two small reads per entry; BlockReader serves
//   small reads from a few cached 64 KiB blocks, so listing 100,000 entries is fast from a
//   file or an object store alike, and large member reads stream straight from the source.
import { once } from 'node:events';
import fs from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import yazl from 'yazl';

const YAZL_FILE_DATA_DONE = 3; // yazl Entry.FILE_DATA_DONE
const MAX_PENDING_ENTRIES = 256;
const MAX_BUFFERED_OUTPUT = 8 * 1024 * 1024;

interface YazlEntryLike {
  state: number;
}

/** Writes a zip to `output` (a Readable to hand to storage.put) with bounded memory. */
export class ZipBuilder {
  private readonly zip = new yazl.ZipFile();
  private readonly all: YazlEntryLike[] = [];
  private done = 0;
  private failure: Error | null = null;
  readonly output: PassThrough;
  entryCount = 0;

  /** `mtime`: the time every entry carries (default: when it is added); a fixed one makes the bytes reproducible. */
  constructor(private readonly mtime?: Date) {
    const zip = this.zip as unknown as { entries: unknown; ended: boolean };
    const all = this.all;
    const advance = () => this.advance();
    const whole = () => zip.ended && this.done === all.length;
    zip.entries = new Proxy(all, {
      get: (target, prop) => {
        if (prop === 'length') {
          advance();
          return whole() ? target.length : target.length - this.done;
        }
        if (typeof prop === 'string') {
          const c = prop.charCodeAt(0);
          if (c >= 48 && c <= 57) return whole() ? target[Number(prop)] : target[Number(prop) + this.done];
        }
        const v: unknown = Reflect.get(target, prop);
        return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(target) : v;
      },
    });
    this.output = this.zip.outputStream as PassThrough;
    // The consumer (storage.put) reports the failure; an error before it reads must not go unhandled.
    this.output.on('error', () => undefined);
    this.zip.on('error', (err: Error) => this.fail(err));
  }

  /** Moves past the leading entries whose data yazl has written. */
  private advance(): void {
    while ((this.all[this.done]?.state ?? -1) >= YAZL_FILE_DATA_DONE) this.done++;
  }

  private pending(): number {
    this.advance();
    return this.all.length - this.done;
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.output.destroyed) throw new Error('zip output closed before the archive was complete');
  }

  /** Waits until yazl and the consumer of `output` have caught up. */
  private async backpressure(): Promise<void> {
    for (;;) {
      this.check();
      if (this.output.writableLength > MAX_BUFFERED_OUTPUT) {
        await waitDrain(this.output);
        continue;
      }
      if (this.pending() > MAX_PENDING_ENTRIES) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      return;
    }
  }

  async addBuffer(name: string, content: Buffer, compress: boolean): Promise<void> {
    this.check();
    this.zip.addBuffer(content, name, { compress, mtime: this.mtime ?? new Date() });
    this.entryCount++;
    await this.backpressure();
  }

  /** Adds a local file, opened only when its turn comes. */
  async addFile(name: string, filePath: string, compress: boolean): Promise<void> {
    this.check();
    this.zip.addReadStreamLazy(name, { compress, mtime: this.mtime ?? new Date() }, (cb) => cb(null, fs.createReadStream(filePath)));
    this.entryCount++;
    await this.backpressure();
  }

  /** Adds a stream made only when its turn comes (so it is read while later entries queue). */
  async addLazyStream(name: string, make: () => NodeJS.ReadableStream, compress: boolean): Promise<void> {
    this.check();
    this.zip.addReadStreamLazy(name, { compress, mtime: this.mtime ?? new Date() }, (cb) => {
      try {
        cb(null, make());
      } catch (err) {
        cb(err, undefined as never);
      }
    });
    this.entryCount++;
    await this.backpressure();
  }

  /** Finishes the archive; the output ends after the central directory. */
  end(): void {
    this.check();
    this.zip.end();
  }

  /** Aborts: the output errors (so the storage write fails and leaves nothing). */
  fail(err: unknown): void {
    if (this.failure) return;
    this.failure = err instanceof Error ? err : new Error(String(err));
    if (!this.output.destroyed) this.output.destroy(this.failure);
  }
}

async function waitDrain(stream: PassThrough): Promise<void> {
  if (stream.destroyed) return;
  const ac = new AbortController();
  try {
    await Promise.race([once(stream, 'drain', { signal: ac.signal }), once(stream, 'close', { signal: ac.signal })]);
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    ac.abort();
  }
}

// ---------------------------------------------------------------- reading

/** Reads bytes [start, end] (inclusive) of the source. */
export type RangeSource = (start: number, end: number) => Promise<Readable>;

const BLOCK = 64 * 1024;
const MAX_BLOCKS = 64;
const SMALL_READ = 16 * 1024;

class BlockReader extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly source: RangeSource,
    private readonly size: number,
  ) {
    super();
  }

  private block(i: number): Promise<Buffer> {
    let p = this.blocks.get(i);
    if (p) {
      // LRU: re-insert at the end.
      this.blocks.delete(i);
      this.blocks.set(i, p);
      return p;
    }
    const start = i * BLOCK;
    const end = Math.min(this.size, start + BLOCK) - 1;
    p = this.source(start, end).then(collect);
    p.catch(() => this.blocks.delete(i));
    this.blocks.set(i, p);
    while (this.blocks.size > MAX_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    return p;
  }

  /** Bytes [start, end) from cached blocks. */
  private async bytes(start: number, end: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (let b = Math.floor(start / BLOCK); b * BLOCK < end; b++) {
      const buf = await this.block(b);
      const from = Math.max(start, b * BLOCK) - b * BLOCK;
      const to = Math.min(end, b * BLOCK + buf.length) - b * BLOCK;
      parts.push(buf.subarray(from, to));
    }
    const [only] = parts;
    return parts.length === 1 && only ? only : Buffer.concat(parts);
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    if (position + length > this.size) return callback(new Error('unexpected end of the zip archive'));
    this.bytes(position, position + length).then(
      (b) => {
        b.copy(buffer, offset);
        callback(null);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.range(start, end), { objectMode: false });
  }

  /** Bytes [start, end): small reads from cached blocks, larger ones streamed from the source. */
  private async *range(start: number, end: number): AsyncGenerator<Buffer> {
    if (end - start <= SMALL_READ) {
      yield await this.bytes(start, end);
      return;
    }
    const s = await this.source(start, end - 1);
    try {
      for await (const chunk of s) yield chunk as Buffer;
    } finally {
      s.destroy();
    }
  }

  override close(callback: (err: Error | null) => void): void {
    this.blocks.clear();
    setImmediate(() => callback(null));
  }
}

async function collect(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export type ZipEntry = yauzl.Entry;

/** An open archive: entries listed lazily, members streamed. */
export class ZipReader {
  private constructor(private readonly zip: yauzl.ZipFile) {}

  static async open(source: RangeSource, size: number): Promise<ZipReader> {
    const reader = new BlockReader(source, size);
    const zip = await yauzl.fromRandomAccessReaderPromise(reader, size, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
    return new ZipReader(zip);
  }

  static openFile(filePath: string, size: number): Promise<ZipReader> {
    return ZipReader.open(async (start, end) => fs.createReadStream(filePath, { start, end }), size);
  }

  get entryCount(): number {
    return this.zip.entryCount;
  }

  /** Every entry, in central-directory order (call once). */
  entries(): AsyncIterableIterator<ZipEntry> {
    return this.zip.eachEntry();
  }

  /** The entries with these names (the first of each name), scanning the directory once. */
  async find(names: Iterable<string>): Promise<Map<string, ZipEntry>> {
    const wanted = new Set(names);
    const found = new Map<string, ZipEntry>();
    if (wanted.size === 0) return found;
    for await (const e of this.entries()) {
      if (wanted.has(e.fileName) && !found.has(e.fileName)) {
        found.set(e.fileName, e);
        if (found.size === wanted.size) break;
      }
    }
    return found;
  }

  /**
   * The member's bytes (decompressed), or the inclusive range [start, end] of them. A stored
   * member's range is read directly; a compressed one is inflated from its start and sliced.
   */
  async stream(entry: ZipEntry, range?: { start: number; end: number }): Promise<Readable> {
    if (!range) return this.zip.openReadStreamPromise(entry);
    if (entry.compressionMethod === 0 && !entry.isEncrypted()) {
      return this.zip.openReadStreamPromise(entry, { decodeFileData: false, start: range.start, end: range.end + 1 });
    }
    const whole = await this.zip.openReadStreamPromise(entry);
    return sliceStream(whole, range.start, range.end);
  }

  /** The member's whole content, refused past `maxBytes`. */
  async readBuffer(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    if (entry.uncompressedSize > maxBytes) throw new Error(`${entry.fileName} is ${entry.uncompressedSize} bytes (at most ${maxBytes} are read)`);
    return collect(await this.zip.openReadStreamPromise(entry));
  }

  close(): void {
    if (this.zip.isOpen) this.zip.close();
  }
}

/** Bytes [start, end] (inclusive) of a stream. */
function sliceStream(src: Readable, start: number, end: number): Readable {
  let pos = 0;
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of src) {
          const buf = chunk as Buffer;
          const from = Math.max(0, start - pos);
          const to = Math.min(buf.length, end + 1 - pos);
          pos += buf.length;
          if (to > from) yield buf.subarray(from, to);
          if (pos > end) break;
        }
      } finally {
        src.destroy();
      }
    })(),
    { objectMode: false },
  );
}
