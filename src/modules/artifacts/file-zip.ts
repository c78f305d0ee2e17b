// The zip of a `file` upload, written in one pass as its bytes arrive: the file member first
// (stored or deflated, CRC and sizes in a data descriptor after it), then manifest.json, then
// the central directory. No other copy of the file is made and no second pass reads it back:
// the member's chunks are handed on as they are, their CRC-32 taken on the way (zlib's, which
// is about ten times as fast as yazl's table-driven one in JavaScript).
//
// The archive is what yazl writes for such a zip (same header fields, the Info-ZIP "UT"
// timestamp in the central directory only), without zip64: callers use it only when every
// size and offset stays below 4 GiB (STREAMED_ZIP_LIMIT), and yazl otherwise. One difference:
// the file member's local header carries a fixed date (1980-01-01 00:00, the DOS epoch; the
// central directory, which readers take dates from, has the real one), so that the archive's
// first bytes are a function of the member's name and method alone. Then one SHA-256 over the
// archive serves twice: its state after the member (copied) is the upload's content hash for
// the idempotency fingerprint (memberHashPrefix + the bytes), and its end the archive's.
import type { Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { MANIFEST_NAME, type Manifest } from './manifest.js';

/** Largest member (and archive) this writer produces: past it zip64 would be needed. */
export const STREAMED_ZIP_LIMIT = 0xfffffffe - 1024 * 1024;

type Crc32 = (data: Buffer, value: number) => number;
const zlibCrc32 = (zlib as unknown as { crc32?: Crc32 }).crc32;

let table: Uint32Array | null = null;
/** The table-driven CRC-32 (as yazl's buffer-crc32), for a Node without zlib.crc32 (before 20.15). */
function jsCrc32(data: Buffer, value: number): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** CRC-32 of `data` continuing from `value` (0 to start): zlib's (Node 20.15+), else the JavaScript one. */
export const crc32: Crc32 = typeof zlibCrc32 === 'function' ? (data, value) => zlibCrc32(data, value) : jsCrc32;
/** For tests: the JavaScript CRC-32, whichever one `crc32` is. */
export const crc32InJs: Crc32 = jsCrc32;

const VERSION_MADE_BY = (3 << 8) | 63; // Unix, spec 6.3 (as yazl)
const VERSION_NEEDED = 20;
const FLAG_UTF8 = 1 << 11;
const FLAG_DATA_DESCRIPTOR = 1 << 3;
const STORE = 0;
const DEFLATE = 8;
const FILE_MODE = 0o100664;

interface Entry {
  name: Buffer;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The DOS epoch, 1980-01-01 00:00: the date of the file member's local header. */
const FIXED_DOS = { date: (1 << 5) | 1, time: 0 };

/**
 * The bytes before a stored member's data: its local header, with the fixed date. The SHA-256
 * of these then the member's bytes is what the archive's hash holds when the member ends.
 */
export function memberHashPrefix(member: string): Buffer {
  return localHeader({ name: Buffer.from(member, 'utf8'), method: STORE, flags: FLAG_UTF8 | FLAG_DATA_DESCRIPTOR, crc: 0, compressedSize: 0, size: 0, offset: 0 }, FIXED_DOS);
}

/** DOS date and time fields (local time, 2 s steps), clamped to 1980..2107 as yazl does. */
export function dosDateTime(d: Date): { date: number; time: number } {
  const min = new Date(1980, 0, 1);
  const max = new Date(2107, 11, 31, 23, 59, 58);
  const t = d < min ? min : d > max ? max : d;
  return {
    date: (t.getDate() & 0x1f) | (((t.getMonth() + 1) & 0xf) << 5) | (((t.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(t.getSeconds() / 2) | ((t.getMinutes() & 0x3f) << 5) | ((t.getHours() & 0x1f) << 11),
  };
}

function localHeader(e: Entry, dos: { date: number; time: number }): Buffer {
  const known = (e.flags & FLAG_DATA_DESCRIPTOR) === 0;
  const b = Buffer.alloc(30 + e.name.length);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(VERSION_NEEDED, 4);
  b.writeUInt16LE(e.flags, 6);
  b.writeUInt16LE(e.method, 8);
  b.writeUInt16LE(dos.time, 10);
  b.writeUInt16LE(dos.date, 12);
  b.writeUInt32LE(known ? e.crc : 0, 14);
  b.writeUInt32LE(known ? e.compressedSize : 0, 18);
  b.writeUInt32LE(known ? e.size : 0, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(0, 28);
  e.name.copy(b, 30);
  return b;
}

function dataDescriptor(e: Entry): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(e.crc, 4);
  b.writeUInt32LE(e.compressedSize, 8);
  b.writeUInt32LE(e.size, 12);
  return b;
}

function centralRecord(e: Entry, dos: { date: number; time: number }, mtime: Date): Buffer {
  const b = Buffer.alloc(46 + e.name.length + 9);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(VERSION_MADE_BY, 4);
  b.writeUInt16LE(VERSION_NEEDED, 6);
  b.writeUInt16LE(e.flags, 8);
  b.writeUInt16LE(e.method, 10);
  b.writeUInt16LE(dos.time, 12);
  b.writeUInt16LE(dos.date, 14);
  b.writeUInt32LE(e.crc, 16);
  b.writeUInt32LE(e.compressedSize, 20);
  b.writeUInt32LE(e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(9, 30); // the UT extra field
  b.writeUInt16LE(0, 32); // comment
  b.writeUInt16LE(0, 34); // disk
  b.writeUInt16LE(0, 36); // internal attributes
  b.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  b.writeUInt32LE(e.offset, 42);
  e.name.copy(b, 46);
  const x = 46 + e.name.length;
  b.writeUInt16LE(0x5455, x);
  b.writeUInt16LE(5, x + 2);
  b.writeUInt8(3, x + 4); // mtime (and atime, as Info-ZIP and yazl set it)
  b.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, Math.floor(mtime.getTime() / 1000))), x + 5);
  return b;
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(count, 8);
  b.writeUInt16LE(count, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}

function tooBig(): Error {
  return new Error(`the archive would pass ${STREAMED_ZIP_LIMIT} bytes (zip64 is not written here)`);
}

export interface MemberThenManifest {
  /** The member's path in the zip. */
  member: string;
  /** Its bytes, iterated once (a stream's errors end the archive with that error). */
  data: AsyncIterable<Buffer>;
  /** Deflate the member (stored otherwise: its chunks pass as they are). */
  compress: boolean;
  /** The manifest, asked for once the member is written (a rejection ends the archive with it). */
  manifest: () => Manifest | Promise<Manifest>;
  /** The time the entries carry in the central directory (default: now). */
  mtime?: Date;
  /** Takes every byte of the archive, in order (for its SHA-256, so the store need not hash). */
  hash?: Hash;
  /** Called with `hash` right after the member's last byte (before the data descriptor). */
  memberHashed?: (hash: Hash) => void;
}

/** The archive's bytes, in order; hand `Readable.from(zipMemberThenManifest(...))` to storage.put. */
export async function* zipMemberThenManifest(o: MemberThenManifest): AsyncGenerator<Buffer> {
  const mtime = o.mtime ?? new Date();
  const dos = dosDateTime(mtime);
  const file: Entry = {
    name: Buffer.from(o.member, 'utf8'),
    method: o.compress ? DEFLATE : STORE,
    flags: FLAG_UTF8 | FLAG_DATA_DESCRIPTOR,
    crc: 0,
    compressedSize: 0,
    size: 0,
    offset: 0,
  };
  const hash = o.hash;
  let offset = 0;
  const header = localHeader(file, FIXED_DOS);
  offset += header.length;
  hash?.update(header);
  yield header;
  if (!o.compress) {
    for await (const chunk of o.data) {
      if (chunk.length === 0) continue;
      file.crc = crc32(chunk, file.crc);
      file.size += chunk.length;
      if (file.size > STREAMED_ZIP_LIMIT) throw tooBig();
      hash?.update(chunk);
      yield chunk;
    }
    file.compressedSize = file.size;
  } else {
    const input = Readable.from(
      (async function* () {
        for await (const chunk of o.data) {
          file.crc = crc32(chunk, file.crc);
          file.size += chunk.length;
          if (file.size > STREAMED_ZIP_LIMIT) throw tooBig();
          yield chunk;
        }
      })(),
      { objectMode: false },
    );
    const deflate = zlib.createDeflateRaw();
    input.on('error', (err) => deflate.destroy(err));
    input.pipe(deflate);
    try {
      for await (const chunk of deflate) {
        file.compressedSize += (chunk as Buffer).length;
        hash?.update(chunk as Buffer);
        yield chunk as Buffer;
      }
    } finally {
      input.destroy();
    }
  }
  if (hash) o.memberHashed?.(hash);
  offset += file.compressedSize;
  const descriptor = dataDescriptor(file);
  offset += descriptor.length;
  hash?.update(descriptor);
  yield descriptor;

  const json = Buffer.from(JSON.stringify(await o.manifest()));
  const packed = zlib.deflateRawSync(json);
  const manifest: Entry = {
    name: Buffer.from(MANIFEST_NAME, 'utf8'),
    method: DEFLATE,
    flags: FLAG_UTF8,
    crc: crc32(json, 0),
    compressedSize: packed.length,
    size: json.length,
    offset,
  };
  const manifestHeader = localHeader(manifest, dos);
  offset += manifestHeader.length + packed.length;
  const central = Buffer.concat([centralRecord(file, dos, mtime), centralRecord(manifest, dos, mtime)]);
  if (offset + central.length + 22 > STREAMED_ZIP_LIMIT) throw tooBig();
  const tail = Buffer.concat([manifestHeader, packed, central, endOfCentralDirectory(2, central.length, offset)]);
  hash?.update(tail);
  yield tail;
}
