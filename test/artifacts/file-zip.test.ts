// The one-pass zip of a `file` upload (src/modules/artifacts/file-zip.ts): what yauzl reads back,
// the CRC-32 (zlib's and the JavaScript fallback agree), a stored member's bytes in place, and
// failures that end the archive with their own error.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { crc32, crc32InJs, dosDateTime, memberHashPrefix, zipMemberThenManifest } from '../../src/modules/artifacts/file-zip.js';
import type { Manifest } from '../../src/modules/artifacts/manifest.js';

const manifest: Manifest = {
  job_type: 'upload',
  manifest_version: 1,
  ports: { file: { format: 'bin', kind: 'file', record_count: 1, records: [{ id: 'x.bin', files: { primary: 'file/x.bin' } }] } },
  warnings: [],
};

async function* chunked(buf: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let off = 0; off < buf.length; off += size) yield buf.subarray(off, off + size);
}

async function collect(gen: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of gen) parts.push(c);
  return Buffer.concat(parts);
}

interface Member {
  name: string;
  method: number;
  crc: number;
  size: number;
  compressedSize: number;
  mtime: Date;
  flags: number;
  content: Buffer;
}

async function readZip(buf: Buffer): Promise<Member[]> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, validateEntrySizes: true });
  const out: Member[] = [];
  for await (const e of zip.eachEntry()) {
    const content = await collect((await zip.openReadStreamPromise(e)) as AsyncIterable<Buffer>);
    out.push({
      name: e.fileName,
      method: e.compressionMethod,
      crc: e.crc32,
      size: e.uncompressedSize,
      compressedSize: e.compressedSize,
      mtime: e.getLastModDate(),
      flags: e.generalPurposeBitFlag,
      content,
    });
  }
  return out;
}

describe('file-zip: the one-pass archive of a file upload', () => {
  it('crc32 is zlib’s where Node has it, and equals the JavaScript one (and the known value of "123456789")', () => {
    assert.equal(crc32(Buffer.from('123456789'), 0), 0xcbf43926);
    assert.equal(crc32InJs(Buffer.from('123456789'), 0), 0xcbf43926);
    const data = crypto.randomBytes(300_001);
    const whole = crc32(data, 0);
    assert.equal(crc32InJs(data, 0), whole);
    // Continued over pieces as the stream delivers them.
    let c = 0;
    for (let off = 0; off < data.length; off += 65_536) c = crc32(data.subarray(off, off + 65_536), c);
    assert.equal(c, whole);
    if (typeof (zlib as unknown as { crc32?: unknown }).crc32 === 'function') assert.notEqual(crc32, crc32InJs, 'zlib.crc32 is used');
  });

  it('a stored member: the file first (bytes in place after its 30-byte header and name), then manifest.json, both read back by yauzl', async () => {
    const data = crypto.randomBytes(1_000_003);
    const mtime = new Date(2026, 5, 15, 12, 34, 56);
    const zip = await collect(zipMemberThenManifest({ member: 'file/x.bin', data: chunked(data, 65_536), compress: false, manifest: async () => manifest, mtime }));
    const members = await readZip(zip);
    assert.deepEqual(
      members.map((m) => [m.name, m.method]),
      [
        ['file/x.bin', 0],
        ['manifest.json', 8],
      ],
    );
    const [file, man] = members as [Member, Member];
    assert.ok(file.content.equals(data));
    assert.equal(file.size, data.length);
    assert.equal(file.compressedSize, data.length);
    assert.equal(file.crc, crc32(data, 0));
    assert.equal(file.flags & 0x0808, 0x0808, 'UTF-8 name, sizes in a data descriptor');
    assert.equal(file.mtime.getTime(), new Date(2026, 5, 15, 12, 34, 56).getTime());
    // The member's bytes sit unchanged right after its local header (what byte ranges read).
    assert.ok(zip.subarray(30 + 'file/x.bin'.length, 30 + 'file/x.bin'.length + data.length).equals(data));
    assert.deepEqual(JSON.parse(man.content.toString('utf8')), manifest);
    assert.equal(man.crc, crc32(man.content, 0));
    // Data descriptor right after the member: signature, CRC, sizes.
    const dd = zip.subarray(30 + 10 + data.length, 30 + 10 + data.length + 16);
    assert.equal(dd.readUInt32LE(0), 0x08074b50);
    assert.equal(dd.readUInt32LE(4), crc32(data, 0));
    assert.equal(dd.readUInt32LE(8), data.length);
    assert.equal(dd.readUInt32LE(12), data.length);
  });

  it('one SHA-256 gives the archive’s and, copied after the member, that of the fixed local header and the bytes', async () => {
    const data = crypto.randomBytes(250_000);
    const sha = (...b: Buffer[]) => b.reduce((h, x) => h.update(x), crypto.createHash('sha256')).digest('hex');
    const hash = crypto.createHash('sha256');
    let content = '';
    const zip = await collect(
      zipMemberThenManifest({
        member: 'file/a b.bin',
        data: chunked(data, 10_000),
        compress: false,
        manifest: () => manifest,
        hash,
        memberHashed: (h) => (content = h.copy().digest('hex')),
      }),
    );
    assert.equal(hash.digest('hex'), sha(zip));
    assert.equal(content, sha(memberHashPrefix('file/a b.bin'), data));
    // The prefix is the archive's first bytes, whatever the time: a retry hashes the same.
    assert.ok(zip.subarray(0, 30 + 'file/a b.bin'.length).equals(memberHashPrefix('file/a b.bin')));
    const later = await collect(zipMemberThenManifest({ member: 'file/a b.bin', data: chunked(data, 7), compress: false, manifest: () => manifest, mtime: new Date(2030, 1, 1) }));
    assert.ok(later.subarray(0, 42).equals(zip.subarray(0, 42)));
  });

  it('a deflated member and an empty one', async () => {
    const text = Buffer.from('CCO ethanol\n'.repeat(10_000));
    const z = await collect(zipMemberThenManifest({ member: 'file/x.smi', data: chunked(text, 7_000), compress: true, manifest: () => manifest }));
    const [m] = await readZip(z);
    assert.equal(m!.method, 8);
    assert.ok(m!.content.equals(text));
    assert.ok(m!.compressedSize < text.length / 10);
    assert.equal(m!.crc, crc32(text, 0));
    const e = await collect(zipMemberThenManifest({ member: 'file/empty', data: chunked(Buffer.alloc(0), 1), compress: false, manifest: () => manifest }));
    const [empty] = await readZip(e);
    assert.equal(empty!.size, 0);
    assert.equal(empty!.crc, 0);
  });

  it('DOS date and time: local time in 2-second steps, clamped to 1980', () => {
    assert.deepEqual(dosDateTime(new Date(2026, 10, 30, 10, 20, 31)), { date: ((2026 - 1980) << 9) | (11 << 5) | 30, time: (10 << 11) | (20 << 5) | 15 });
    assert.deepEqual(dosDateTime(new Date(1970, 0, 1)), { date: (1 << 5) | 1, time: 0 });
  });

  it('an error of the data or of the manifest ends the archive with that error', async () => {
    const boom = new Error('the client went away');
    async function* failing() {
      yield Buffer.from('abc');
      throw boom;
    }
    await assert.rejects(collect(zipMemberThenManifest({ member: 'file/x', data: failing(), compress: false, manifest: () => manifest })), (e) => e === boom);
    await assert.rejects(collect(zipMemberThenManifest({ member: 'file/x', data: failing(), compress: true, manifest: () => manifest })), (e) => e === boom);
    const refused = new Error('refused');
    await assert.rejects(
      collect(zipMemberThenManifest({ member: 'file/x', data: chunked(Buffer.from('abc'), 1), compress: false, manifest: () => Promise.reject(refused) })),
      (e) => e === refused,
    );
  });
});
