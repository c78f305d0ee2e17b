// One port of an artifact on its own (GET /artifacts/{id}/download?port=P without record,
// docs/artifacts.md "Downloads"), when the port holds other than one record: for a port in SDF
// format, one multi-record SDF file (portSdf: each record's structure in order, each ended by
// $$$$), which every chemistry program reads; for any other, a zip holding a manifest.json with
// that port alone and the members its records (and its bundle) name, copied from the
// artifact's archive. It is written to a scratch file first, so that its size is known
// (Content-Length, ranges); the file is unlinked as soon as it is opened (or by close), and the
// orphan sweep removes what a crash leaves in the scratch directory. Its bytes depend only on
// the artifact and the port (every entry carries the artifact's creation time, members keep
// their compression), so its ETag, the SHA-256 of those bytes, holds across requests.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageError } from '../../storage/storage.js';
import type { Manifest } from './manifest.js';
import { addManifest } from './records.js';
import type { Download } from './types.js';
import { ZipBuilder, type ZipReader } from './zip.js';

/** Whether a port's records are SDF structures (its format): downloaded as one multi-record SDF. */
export function isSdfPort(port: { format: string }): boolean {
  return ['sdf', 'sd'].includes(port.format.toLowerCase());
}

/**
 * An SDF port as one multi-record SDF: each record's primary member in the port's order, each
 * ending with its `$$$$` line (added where a member lacks it), so that a record's data fields
 * stay its own. Written to a scratch file like the zip (size, ranges, a stable ETag).
 */
export async function portSdf(o: { reader: ZipReader; artifactId: string; createdAt: Date; manifest: Manifest; port: string; scratchDir: string }): Promise<Download> {
  const port = o.manifest.ports[o.port]!;
  const members = port.records.map((r) => r.files.primary);
  const entries = await o.reader.find(new Set(members));
  const missing = members.find((m) => !entries.has(m));
  if (missing !== undefined) throw new StorageError(`artifact ${o.artifactId}: member ${missing} named by the manifest is missing`, 'ENOENT');
  await fsp.mkdir(o.scratchDir, { recursive: true });
  const file = path.join(o.scratchDir, `port-${crypto.randomUUID()}.sdf`);
  const remove = () => fsp.unlink(file).catch(() => undefined);
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file);
  const write = (buf: Buffer) =>
    new Promise<void>((resolve, reject) => {
      hash.update(buf);
      out.write(buf, (err) => (err ? reject(err) : resolve()));
    });
  try {
    for (const m of members) {
      const parts: Buffer[] = [];
      for await (const chunk of await o.reader.stream(entries.get(m)!)) parts.push(chunk as Buffer);
      const text = Buffer.concat(parts).toString('utf8').replace(/\r\n/g, '\n').replace(/\s+$/, '');
      await write(Buffer.from(/(^|\n)\$\$\$\$$/.test(text) ? `${text}\n` : `${text}\n$$$$\n`, 'utf8'));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    out.destroy();
    await remove();
    throw err;
  }
  return scratchDownload(file, hash, 'chemical/x-mdl-sdfile', `${o.artifactId}-${o.port}.sdf`, o.createdAt);
}

export async function portArchive(o: { reader: ZipReader; artifactId: string; createdAt: Date; manifest: Manifest; port: string; scratchDir: string }): Promise<Download> {
  const port = o.manifest.ports[o.port]!;
  const members = new Set<string>();
  for (const r of port.records) for (const m of Object.values(r.files)) members.add(m);
  if (port.bundle) members.add(port.bundle);
  const entries = await o.reader.find(members);
  const missing = [...members].find((m) => !entries.has(m));
  if (missing !== undefined) throw new StorageError(`artifact ${o.artifactId}: member ${missing} named by the manifest is missing`, 'ENOENT');

  await fsp.mkdir(o.scratchDir, { recursive: true });
  const file = path.join(o.scratchDir, `port-${crypto.randomUUID()}.zip`);
  const remove = () => fsp.unlink(file).catch(() => undefined);
  const hash = crypto.createHash('sha256');
  const zip = new ZipBuilder(o.createdAt);
  const written = pipeline(
    zip.output,
    new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        cb(null, chunk);
      },
    }),
    fs.createWriteStream(file),
  );
  try {
    const manifest: Manifest = { ...o.manifest, ports: { [o.port]: port } };
    await addManifest(zip, manifest);
    for (const m of members) {
      const entry = entries.get(m)!;
      await zip.addLazyStream(
        m,
        () => {
          const out = new PassThrough();
          o.reader.stream(entry).then(
            (s) => s.on('error', (err) => out.destroy(err)).pipe(out),
            (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
          );
          return out;
        },
        entry.compressionMethod !== 0,
      );
    }
    zip.end();
    await written;
  } catch (err) {
    zip.fail(err);
    await written.catch(() => undefined);
    await remove();
    throw err;
  }
  return scratchDownload(file, hash, 'application/zip', `${o.artifactId}-${o.port}.zip`, o.createdAt);
}

/** A finished scratch file as a Download: unlinked once opened (the handle keeps the bytes) or on close. */
async function scratchDownload(file: string, hash: crypto.Hash, contentType: string, filename: string, createdAt: Date): Promise<Download> {
  const remove = () => fsp.unlink(file).catch(() => undefined);
  const { size } = await fsp.stat(file);
  return {
    size,
    contentType,
    filename,
    etag: `"${hash.digest('hex')}"`,
    lastModified: createdAt,
    open: async (range) => {
      const handle = await fsp.open(file);
      await remove(); // the open handle keeps the bytes until the stream ends
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    close: () => void remove(),
  };
}
