// Writing archives: a zip streamed into the artifact store (writeArchive), and the records of
// createFromRecords (port checks, one zip member per record file, the manifest).
import type { ArtifactStorage, PutResult } from '../../storage/storage.js';
import {
  guessMediaType,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  MIN_DEFLATE_BYTES,
  PORT_NAME_RE,
  safeMemberName,
  worthCompressing,
  type Manifest,
  type ManifestPort,
  type ManifestRecord,
} from './manifest.js';
import { recordIdProblem } from '../../record-ids.js';
import type { ArtifactRecordInput, CreateFromRecordsInput } from './types.js';
import { ZipBuilder } from './zip.js';

/** createFromRecords' archive: the records of each port streamed into a zip in the store, the manifest last. */
export async function writeRecordsArchive(storage: ArtifactStorage, input: CreateFromRecordsInput, inlineUpTo?: number): Promise<{ put: PutResult; manifest: Manifest }> {
  const names = Object.keys(input.ports);
  if (names.length === 0) throw new Error('createFromRecords: an artifact needs at least one port');
  for (const n of names) if (!PORT_NAME_RE.test(n)) throw new Error(`createFromRecords: invalid port name "${n}"`);
  return writeArchive(
    storage,
    async (zip) => {
      const ports: Record<string, ManifestPort> = {};
      for (const [name, p] of Object.entries(input.ports)) {
        const records: ManifestRecord[] = [];
        const ids = new Set<string>();
        let i = 0;
        for await (const rec of p.records as AsyncIterable<ArtifactRecordInput>) {
          i++;
          const idProblem = recordIdProblem(rec.id);
          if (idProblem !== null) throw new Error(`createFromRecords: port ${name} record ${i}: ${idProblem}`);
          if (ids.has(rec.id)) throw new Error(`createFromRecords: port ${name}: record id "${rec.id}" repeats`);
          ids.add(rec.id);
          records.push(await addRecord(zip, name, i, rec));
        }
        ports[name] = { format: p.format, kind: p.kind, record_count: records.length, records };
      }
      return { job_type: input.jobType, manifest_version: MANIFEST_VERSION, ports, warnings: input.warnings ?? [] };
    },
    undefined,
    inlineUpTo,
  );
}

/**
 * Streams a zip into the store. `build` adds the members and returns the manifest (added
 * last), or `first` is the manifest, added before anything else (and build returns null).
 * `inlineUpTo`: a zip that small comes back as the put's `inline` bytes (PutOptions), stored later.
 */
export async function writeArchive(
  storage: ArtifactStorage,
  build: (zip: ZipBuilder) => Promise<Manifest | null>,
  first?: Manifest,
  inlineUpTo?: number,
): Promise<{ put: PutResult; manifest: Manifest }> {
  const zip = new ZipBuilder();
  let putError: unknown = null;
  const putting = storage.put(zip.output, inlineUpTo ? { inlineUpTo } : {});
  putting.catch((err) => {
    putError = err;
    zip.fail(err);
  });
  let manifest: Manifest;
  try {
    if (first) await addManifest(zip, first);
    const built = await build(zip);
    manifest = first ?? built!;
    if (!first) await addManifest(zip, manifest);
    zip.end();
  } catch (err) {
    zip.fail(err);
    await putting.catch(() => undefined); // the store removes its temp file
    throw putError ?? err;
  }
  const put = await putting;
  return { put, manifest };
}

/** Adds manifest.json, deflated when it is large enough to be worth it (MIN_DEFLATE_BYTES). */
export async function addManifest(zip: ZipBuilder, manifest: Manifest): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  await zip.addBuffer(MANIFEST_NAME, bytes, bytes.length >= MIN_DEFLATE_BYTES);
}

type RecordFile = ArtifactRecordInput['files'][string];

async function addRecord(zip: ZipBuilder, port: string, index: number, rec: ArtifactRecordInput): Promise<ManifestRecord> {
  const entries = Object.entries(rec.files ?? {});
  const [firstRole] = entries[0] ?? [];
  if (firstRole === undefined) throw new Error(`createFromRecords: port ${port} record "${rec.id}" has no files`);
  const primaryRole = rec.primary ?? (rec.files.primary ? 'primary' : firstRole);
  const primaryFile = rec.files[primaryRole];
  if (!primaryFile) throw new Error(`createFromRecords: port ${port} record "${rec.id}": primary role "${primaryRole}" is not among its files`);
  const contentTypes: Record<string, string> = {};
  const used = new Set<string>();
  // One zip member per file; `key` is its role in the manifest (the primary file's is `primary`).
  const addFile = async (role: string, key: string, f: RecordFile): Promise<string> => {
    let name = safeMemberName(f.name, role);
    while (used.has(name)) name = `${role}-${name}`;
    used.add(name);
    const member = `${port}/${index}/${name}`;
    const content = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    const mediaType = f.contentType ?? guessMediaType(name);
    await zip.addBuffer(member, content, worthCompressing(name, content.length, mediaType));
    if (f.contentType) contentTypes[key] = f.contentType;
    return member;
  };
  const files: ManifestRecord['files'] = { primary: await addFile(primaryRole, 'primary', primaryFile) };
  for (const [role, f] of entries) if (role !== primaryRole) files[role] = await addFile(role, role, f);
  const out: ManifestRecord = { id: rec.id, files };
  if (rec.metrics && Object.keys(rec.metrics).length) out.metrics = rec.metrics;
  if (Object.keys(contentTypes).length) out.content_types = contentTypes;
  return out;
}
