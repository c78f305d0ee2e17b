// The artifact store the service sees: writes go to the configured backend, reads go to the
// backend a key names. A key is the backend's own key with the backend's name in front
// ("postgres:ab/…", "s3:ab/…"); local keys carry no prefix, as they did before other backends
// existed. So rows written under one backend stay readable after a switch, and
// `crucible storage migrate` can move them one by one (docs/architecture.md, "Artifact storage").
import type { Readable } from 'node:stream';
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

  /** Writes to the current backend, or to `opts.backend` (storage migration). */
  async put(source: Readable, opts: PutOptions & { backend?: BackendName } = {}): Promise<PutResult> {
    const { backend = this.current, ...rest } = opts;
    const store = this.backends.get(backend);
    if (!store) throw new StorageError(`the ${backend} store is not configured`, 'ENOBACKEND');
    const r = await store.put(source, rest);
    return { ...r, key: RoutedStorage.keyFor(backend, r.key) };
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
