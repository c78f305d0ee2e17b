// Opens the artifact store a configuration names (CRUCIBLE_STORAGE), with every other backend
// this process can reach for reading: the local data directory always, the database's object
// tables always, S3 when a bucket is configured (docs/architecture.md, "Artifact storage").
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { LocalFileStorage } from './local.js';
import { PostgresStorage } from './postgres.js';
import { RoutedStorage, type BackendName } from './routed.js';
import { S3Storage } from './s3.js';
import type { ArtifactStorage } from './storage.js';

export function openArtifactStorage(config: Pick<Config, 'storage' | 'artifactsDir'>, db: Database): RoutedStorage {
  const backends = new Map<BackendName, ArtifactStorage>();
  backends.set('local', new LocalFileStorage(config.artifactsDir));
  backends.set('postgres', new PostgresStorage(db));
  if (config.storage.s3) backends.set('s3', new S3Storage(config.storage.s3));
  return new RoutedStorage(config.storage.backend, backends);
}
