// The artifact store the service sees: writes go to the configured backend, reads go to the
// backend a key names. A key is the backend's own key with the backend's name in front
// ("postgres:ab/…", "s3:ab/…"); local keys carry no prefix, as they did before other backends
// existed. So rows written under one backend stay readable after a switch, and
// `crucible storage migrate` can move them one by one (docs/architecture.md, "Artifact storage").
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { PostgresStorage } from './postgres.js';
import { StorageError, type ArtifactStorage, type ByteRange, type ObjectInfo, type PutOptions, type PutResult } from './storage.js';

export type BackendName = 'local' | 'postgres' | 's3';

export class RoutedStorage implements ArtifactStorage {
  readonly description: string;

  /**
   * @param current where new objects go
   * @param backends every backend this process can reach (the current one included)
   */
  constructor(
    readonly current: BackendName,
    private readonly backends: ReadonlyMap<BackendName, ArtifactStorage>,
  ) {
    const store = backends.get(current);
    if (!store) throw new Error(`storage backend ${current} is not open`);
    this.description = store.description;
  }

  /** One backend itself (its keys carry no prefix), when this process reaches it. */
  backend(name: BackendName): ArtifactStorage | undefined {
    return this.backends.get(name);
  }

  /** The backend named by a key (none: local). */
  static backendOf(key: string): BackendName {
    const m = /^(postgres|s3):/.exec(key);
    return m ? (m[1] as BackendName) : 'local';
  }

  static keyFor(backend: BackendName, innerKey: string): string {
    return backend === 'local' ? innerKey : `${backend}:${innerKey}`;
  }

  private route(key: string): { store: ArtifactStorage; inner: string } {
    const backend = RoutedStorage.backendOf(key);
    const store = this.backends.get(backend);
    if (!store) throw new StorageError(`object ${key} is in the ${backend} store, which this process is not configured to reach`, 'ENOBACKEND');
    return { store, inner: backend === 'local' ? key : key.slice(backend.length + 1) };
  }

  /**
   * Writes to the current backend, or to `opts.backend` (storage migration). With `inlineUpTo`,
   * a source that ends within that many bytes is written nowhere: its bytes come back as
   * `inline` under a key of the database's store, for inlineWrite() in a statement of the caller's transaction.
   */
  async put(source: Readable, opts: PutOptions & { backend?: BackendName } = {}): Promise<PutResult> {
    const { backend = this.current, inlineUpTo, ...rest } = opts;
    const store = this.backends.get(backend);
    if (!store) throw new StorageError(`the ${backend} store is not configured`, 'ENOBACKEND');
    let from: Readable = source;
    if (inlineUpTo !== undefined && inlineUpTo > 0 && this.backends.has('postgres')) {
      const head = await readHead(source, inlineUpTo);
      if (head.ended) {
        const inline = Buffer.concat(head.chunks);
        const sha256 = rest.sha256 ? rest.sha256() : crypto.createHash('sha256').update(inline).digest('hex');
        return { key: RoutedStorage.keyFor('postgres', PostgresStorage.newKey()), size: inline.length, sha256, inline };
      }
      from = head.rest;
    }
    const r = await store.put(from, rest);
    return { ...r, key: RoutedStorage.keyFor(backend, r.key) };
  }

  /**
   * What put() returned as `inline`, as common table expressions for a statement of the caller's
   * transaction (PostgresStorage.inlineWrite; parameters numbered from `first`).
   */
  inlineWrite(put: PutResult, first: number): { ctes: string; params: unknown[] } {
    if (!put.inline || !this.backends.has('postgres') || RoutedStorage.backendOf(put.key) !== 'postgres') throw new Error(`inlineWrite: ${put.key} is no inline object`);
    return PostgresStorage.inlineWrite(put.key.slice('postgres:'.length), put.inline, put.sha256, first);
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    const { store, inner } = this.route(key);
    return store.get(inner, range);
  }

  stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    const { store, inner } = this.route(key);
    return store.stat(inner);
  }

  delete(key: string): Promise<boolean> {
    const { store, inner } = this.route(key);
    return store.delete(inner);
  }

  /** Every object and temporary write of every reachable backend, keys prefixed. */
  async *list(): AsyncIterable<ObjectInfo> {
    for (const [backend, store] of this.backends) {
      for await (const o of store.list()) yield { ...o, key: RoutedStorage.keyFor(backend, o.key) };
    }
  }

  deleteTemporary(key: string): Promise<void> {
    const { store, inner } = this.route(key);
    return store.deleteTemporary(inner);
  }

  async close(): Promise<void> {
    for (const store of this.backends.values()) await store.close?.();
  }
}

/**
 * Reads a source until it ends or passes `limit` bytes. Ended: its chunks. Otherwise `rest`, a
 * stream of everything the source gives (what was read first, then the remainder): no byte is
 * lost, and an error of the source reaches whoever reads `rest`.
 */
async function readHead(source: Readable, limit: number): Promise<{ ended: true; chunks: Buffer[] } | { ended: false; rest: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) return { ended: true, chunks };
    const buf = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(buf);
    size += buf.length;
    if (size > limit) break;
  }
  async function* replay(): AsyncGenerator<Buffer> {
    yield* chunks.splice(0);
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  const rest = Readable.from(replay(), { objectMode: false });
  // Destroying `rest` (a store that fails) ends the source too.
  rest.once('close', () => {
    if (!source.destroyed) source.destroy();
  });
  return { ended: false, rest };
}
