// The artifact module's public types: inputs of createFromRecords and of uploads, the API
// shapes (responses, list items, usage), downloads, and the service's dependencies.
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import type { OutputRecord } from '../../compute/job-output.js';
import type { Database, Queryable } from '../../db/database.js';
import type { ArtifactStorage, ByteRange } from '../../storage/storage.js';
import type { StreamedFileUpload } from './file-upload.js';
import type { Manifest } from './manifest.js';

/**
 * A record of a port, as a job's run gives them (src/compute/job-output.ts): files by role, the
 * role named by `primary` (default: `primary`, else the first role) is the record's primary file.
 */
export type ArtifactRecordInput = OutputRecord;

export interface ArtifactPortInput {
  format: string;
  kind: string;
  records: AsyncIterable<ArtifactRecordInput> | Iterable<ArtifactRecordInput>;
}

export interface CreateFromRecordsInput {
  userId: string;
  jobId: string | null;
  jobType: string;
  ports: Record<string, ArtifactPortInput>;
  /** Default: the job type and the ports (names.ts, resultName). */
  name?: string;
  warnings?: unknown[];
  /** Default null: kept until deleted. */
  expiresAt?: Date | null;
  /** Refuse (403 storage-quota-exceeded) when the archive would pass the account's quota. Default false: job results are always kept and count toward usage. */
  enforceQuota?: boolean;
  /**
   * Runs in the transaction that inserts the row, after the insert. When it throws, the
   * transaction rolls back and the stored object is removed: neither row nor file remains.
   */
  inTx?: (tx: Queryable, artifactId: string) => Promise<void>;
}

export interface MoleculeItem {
  id: string;
  /** SMILES; for an SDF record without a SMILES data field, its molblock (RDKit's get_mol reads both). */
  smiles: string;
  name?: string;
  /** The connection table, for molecules that came from an SDF/mol file. */
  molblock?: string;
  /** The record's numeric SDF data fields (an energy, a conformer's rank, its input's index). */
  metrics?: Record<string, number>;
}

export interface ArtifactResponse {
  id: string;
  name: string;
  origin: 'job' | 'upload';
  content_type: string;
  size_bytes: number;
  created_at: string | null;
  expires_at: string | null;
  job_id: string | null;
  manifest: Manifest;
}

export interface ArtifactListItem {
  artifact_id: string;
  name: string;
  origin: 'job' | 'upload';
  data_format: string;
  data_kind: string;
  port: string;
  created_at: string | null;
  expires_at: string | null;
  job_id: string | null;
  job_name: string | null;
  job_type: string | null;
  run_id: string | null;
  run_name: string | null;
  step_id: string | null;
  is_virtual: boolean;
  record_count: number;
  size_bytes: number;
}

export interface ArtifactList {
  items: ArtifactListItem[];
  has_more: boolean;
  next_offset: number | null;
}

export interface ArtifactUsage {
  artifact_count: number;
  quota_bytes: number;
  tier: number;
  tier_name: string;
  used_bytes: number;
}

export type UploadMode = 'file' | 'molecules' | 'archive';

export interface UploadInput {
  userId: string;
  mode: UploadMode;
  /** The uploaded file, already on local disk (see upload.ts); null when it was streamed into the store instead. */
  spoolPath: string | null;
  /** A `file` upload written into the store while it was read (file-upload.ts), waiting for its manifest. */
  streamed?: StreamedFileUpload | null;
  size: number;
  filename: string;
  mimetype: string;
  /** The `name` field, checked (names.ts); null: the file's name. */
  name: string | null;
  dataKind: string | null;
  dataFormat: string | null;
  /** Runs in the inserting transaction (pins the idempotent response with the row). */
  onCommit?: (tx: Queryable, response: ArtifactResponse) => Promise<void>;
}

/** What a download serves: the whole archive or one record member. */
export interface Download {
  size: number;
  contentType: string;
  filename: string;
  etag: string;
  lastModified: Date;
  open(range?: ByteRange): Promise<Readable>;
  /** Releases the archive reader when open() is not called. */
  close(): void;
}

export interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ArtifactServiceDeps {
  db: Database;
  config: Config;
  storage: ArtifactStorage;
  /** Local scratch space for uploads and bundles (default <dataDir>/tmp/artifacts). */
  scratchDir?: string;
  log?: Logger;
}
