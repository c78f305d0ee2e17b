import { firstRow, type Queryable } from '../../db/database.js';
import { LOCKS } from '../../db/locks.js';
import type { Manifest, ManifestRecord } from './manifest.js';

export interface ArtifactRow {
  id: string;
  user_id: string;
  job_id: string | null;
  run_id: string | null;
  step_id: string | null;
  origin: 'job' | 'upload';
  upload_mode: 'file' | 'molecules' | 'archive' | null;
  /** docs/artifacts.md, "Names". */
  name: string;
  storage_key: string;
  size_bytes: number;
  sha256: string;
  content_type: string;
  job_type: string;
  manifest: Manifest;
  record_count: number;
  created_at: Date;
  expires_at: Date | null;
}

export interface NewArtifact {
  userId: string;
  jobId: string | null;
  origin: 'job' | 'upload';
  uploadMode: 'file' | 'molecules' | 'archive' | null;
  name: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  manifest: Manifest;
  expiresAt: Date | null;
}

export interface ListItemRow {
  artifact_id: string;
  name: string;
  origin: 'job' | 'upload';
  port: string;
  data_kind: string;
  data_format: string;
  record_count: number;
  size_bytes: number;
  created_at: Date;
  expires_at: Date | null;
  job_id: string | null;
  job_name: string | null;
  job_type: string | null;
  run_id: string | null;
  step_id: string | null;
  is_virtual: boolean;
}

export interface ListFilter {
  limit: number;
  offset: number;
  dataKind?: string;
  dataFormat?: string;
  runId?: string;
  includeArchive: boolean;
}

/** Live rows: not past their expiry (expired ones wait for the sweep). */
const LIVE = '(a.expires_at IS NULL OR a.expires_at > now())';

/** Serialises quota checks of one account (a transaction-scoped advisory lock). */
const QUOTA_LOCK_NAMESPACE = LOCKS.artifactQuota;

/**
 * The condition "the row's object is in the backend of `backendPrefix`" ('' for local: keys
 * without a prefix), on parameter $1 = backendPrefix; $1 appears in both forms, so PostgreSQL
 * always knows its type.
 */
const inBackend = (backendPrefix: string): string => (backendPrefix ? `storage_key LIKE $1::text || '%'` : `$1::text = '' AND storage_key !~ '^(postgres|s3):'`);

export const artifactsStore = {
  async lockUser(tx: Queryable, userId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [QUOTA_LOCK_NAMESPACE, userId]);
  },

  async userTier(q: Queryable, userId: string): Promise<number | null> {
    const { rows } = await q.query<{ tier: number }>('SELECT tier FROM users WHERE id = $1', [userId]);
    return rows[0]?.tier ?? null;
  },

  async usage(q: Queryable, userId: string): Promise<{ count: number; bytes: number }> {
    const { rows } = await q.query<{ n: number; bytes: number }>(
      `SELECT count(*)::int AS n, coalesce(sum(size_bytes), 0)::bigint AS bytes FROM artifacts a WHERE a.user_id = $1 AND ${LIVE}`,
      [userId],
    );
    const usage = firstRow(rows, 'the artifact usage query');
    return { count: usage.n, bytes: Number(usage.bytes) };
  },

  /**
   * The artifact row and its port rows, in one statement; a workflow step job's result carries
   * its run and step (docs/workflows.md). `also`: more common table expressions run by the same
   * statement (an inline object's write: ArtifactService.commit), their parameters numbered from
   * the one it is given.
   */
  async insert(tx: Queryable, a: NewArtifact & { also?: (firstParam: number) => { ctes: string; params: unknown[] } }): Promise<ArtifactRow> {
    const ports = Object.entries(a.manifest.ports);
    const total = ports.reduce((n, [, p]) => n + p.record_count, 0);
    const params = [
      a.userId,
      a.jobId,
      a.origin,
      a.uploadMode,
      a.storageKey,
      a.sizeBytes,
      a.sha256,
      a.manifest.job_type,
      JSON.stringify(a.manifest),
      total,
      a.expiresAt,
      ports.map(([name]) => name),
      ports.map(([, p]) => p.kind),
      ports.map(([, p]) => p.format),
      ports.map(([, p]) => p.record_count),
      a.name,
    ];
    const also = a.also?.(params.length + 1);
    const { rows } = await tx.query<ArtifactRow>(
      `WITH ${also ? `${also.ctes},` : ''} a AS (
         INSERT INTO artifacts (user_id, job_id, origin, upload_mode, storage_key, size_bytes, sha256, job_type, manifest, record_count, expires_at, name, run_id, step_id)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $16, j.workflow_run_id::text, CASE WHEN j.workflow_run_id IS NULL THEN NULL ELSE j.info->>'step_id' END
           FROM (SELECT 1) one LEFT JOIN jobs j ON j.id = $2::uuid
         RETURNING *
       ), p AS (
         INSERT INTO artifact_ports (artifact_id, port, data_kind, data_format, record_count)
         SELECT a.id, t.port, t.kind, t.format, t.records FROM a, unnest($12::text[], $13::text[], $14::text[], $15::int8[]) AS t(port, kind, format, records)
       )
       SELECT * FROM a`,
      [...params, ...(also?.params ?? [])],
    );
    return firstRow(rows, 'the artifact insert');
  },

  async get(q: Queryable, userId: string, id: string): Promise<ArtifactRow | null> {
    const { rows } = await q.query<ArtifactRow>(`SELECT a.* FROM artifacts a WHERE a.id = $1 AND a.user_id = $2 AND ${LIVE}`, [id, userId]);
    return rows[0] ?? null;
  },

  /** The row without its manifest (which can be large). */
  async getSummary(q: Queryable, userId: string, id: string): Promise<Omit<ArtifactRow, 'manifest'> | null> {
    const { rows } = await q.query<Omit<ArtifactRow, 'manifest'>>(
      `SELECT a.id, a.user_id, a.job_id, a.run_id, a.step_id, a.origin, a.upload_mode, a.name, a.storage_key, a.size_bytes, a.sha256,
              a.content_type, a.job_type, a.record_count, a.created_at, a.expires_at
         FROM artifacts a WHERE a.id = $1 AND a.user_id = $2 AND ${LIVE}`,
      [id, userId],
    );
    return rows[0] ?? null;
  },

  async ports(q: Queryable, artifactId: string): Promise<{ port: string; data_kind: string; data_format: string; record_count: number }[]> {
    const { rows } = await q.query<{ port: string; data_kind: string; data_format: string; record_count: number }>(
      'SELECT port, data_kind, data_format, record_count FROM artifact_ports WHERE artifact_id = $1 ORDER BY port',
      [artifactId],
    );
    return rows;
  },

  /** The records with this id (in `port`, when given), at most two, without loading the whole manifest. */
  async findRecord(q: Queryable, artifactId: string, recordId: string, port: string | null): Promise<{ port: string; record: ManifestRecord }[]> {
    const { rows } = await q.query<{ port: string; record: ManifestRecord }>(
      `SELECT p.key AS port, r.value AS record
         FROM artifacts a, jsonb_each(a.manifest->'ports') p, jsonb_array_elements(p.value->'records') r
        WHERE a.id = $1 AND r.value->>'id' = $2 AND ($3::text IS NULL OR p.key = $3)
        LIMIT 2`,
      [artifactId, recordId, port],
    );
    return rows;
  },

  /** A port of the manifest without its records, plus its bundle member. */
  async portHeader(q: Queryable, artifactId: string, port: string): Promise<{ format: string; kind: string; bundle: string | null } | null> {
    const { rows } = await q.query<{ format: string; kind: string; bundle: string | null }>(
      `SELECT manifest->'ports'->$2->>'format' AS format, manifest->'ports'->$2->>'kind' AS kind, manifest->'ports'->$2->>'bundle' AS bundle
         FROM artifacts WHERE id = $1 AND manifest->'ports' ? $2`,
      [artifactId, port],
    );
    return rows[0] ?? null;
  },

  async portRecords(q: Queryable, artifactId: string, port: string): Promise<ManifestRecord[]> {
    const { rows } = await q.query<{ records: ManifestRecord[] | null }>(`SELECT manifest->'ports'->$2->'records' AS records FROM artifacts WHERE id = $1`, [artifactId, port]);
    return rows[0]?.records ?? [];
  },

  /** One list item per port (plus, with includeArchive, one virtual item per archive), newest first. */
  async list(q: Queryable, userId: string, f: ListFilter): Promise<ListItemRow[]> {
    const params: unknown[] = [userId];
    const where = ['a.user_id = $1', LIVE];
    if (f.runId !== undefined) {
      params.push(f.runId);
      where.push(`a.run_id = $${params.length}`);
    }
    const itemWhere: string[] = [];
    if (f.dataKind !== undefined) {
      params.push(f.dataKind);
      itemWhere.push(`i.data_kind = $${params.length}`);
    }
    if (f.dataFormat !== undefined) {
      params.push(f.dataFormat);
      itemWhere.push(`i.data_format = $${params.length}`);
    }
    const base = `FROM artifacts a LEFT JOIN jobs j ON j.id = a.job_id WHERE ${where.join(' AND ')}`;
    const cols = `a.name, a.origin, a.size_bytes, a.created_at, a.expires_at, a.job_id, j.job_name, a.job_type, a.run_id, a.step_id`;
    const ports = `SELECT a.id AS artifact_id, p.port, p.data_kind, p.data_format, p.record_count, ${cols}, false AS is_virtual
                     FROM artifacts a JOIN artifact_ports p ON p.artifact_id = a.id LEFT JOIN jobs j ON j.id = a.job_id WHERE ${where.join(' AND ')}`;
    const archives = `SELECT a.id AS artifact_id, '*' AS port, 'archive' AS data_kind, 'zip' AS data_format, a.record_count, ${cols}, true AS is_virtual ${base}`;
    const union = f.includeArchive ? `${ports} UNION ALL ${archives}` : ports;
    params.push(f.limit, f.offset);
    const { rows } = await q.query<ListItemRow>(
      `SELECT * FROM (${union}) i ${itemWhere.length ? `WHERE ${itemWhere.join(' AND ')}` : ''}
        ORDER BY i.created_at DESC, i.artifact_id DESC, i.is_virtual DESC, i.port ASC
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows;
  },

  async delete(tx: Queryable, userId: string, id: string): Promise<{ storage_key: string } | null> {
    const { rows } = await tx.query<{ storage_key: string }>('DELETE FROM artifacts WHERE id = $1 AND user_id = $2 RETURNING storage_key', [id, userId]);
    return rows[0] ?? null;
  },

  /**
   * DELETE /artifacts/{id}: deletes the row unless it holds the weights of one of the user's
   * models (table user_models, docs/models.md), in one statement. `storage_key` of the deleted
   * row; else `model`, the name of a model holding it; null: no such artifact of the user.
   */
  async deleteUnlessModelWeights(q: Queryable, userId: string, id: string): Promise<{ storage_key: string } | { model: string } | null> {
    const { rows } = await q.query<{ storage_key: string | null; model: string | null }>(
      `WITH m AS (SELECT name FROM user_models WHERE user_id = $2 AND weights_artifact_id = $1 ORDER BY name LIMIT 1),
            d AS (DELETE FROM artifacts WHERE id = $1 AND user_id = $2 AND NOT EXISTS (SELECT 1 FROM m) RETURNING storage_key)
       SELECT (SELECT storage_key FROM d) AS storage_key, (SELECT name FROM m) AS model`,
      [id, userId],
    );
    const r = rows[0];
    if (r?.storage_key != null) return { storage_key: r.storage_key };
    if (r?.model != null) return { model: r.model };
    return null;
  },

  /** The artifact stops belonging to its job (deleting the job then keeps it). */
  async detachFromJob(tx: Queryable, userId: string, id: string): Promise<boolean> {
    const { rowCount } = await tx.query('UPDATE artifacts SET job_id = NULL WHERE id = $1 AND user_id = $2', [id, userId]);
    return (rowCount ?? 0) > 0;
  },

  /**
   * Gives a detached artifact back to the job whose result it is (a replaced or deleted model's
   * weights, docs/models.md). The job row is locked first: a concurrent job delete either waits
   * and then deletes the artifact with its job, or went first and this finds no job (false).
   */
  async reattachToJob(tx: Queryable, userId: string, id: string, jobId: string): Promise<boolean> {
    const { rows } = await tx.query('SELECT 1 FROM jobs WHERE id = $1 AND user_id = $2 AND result_artifact_id = $3 FOR UPDATE', [jobId, userId, id]);
    if (rows.length === 0) return false;
    const { rowCount } = await tx.query('UPDATE artifacts SET job_id = $3 WHERE id = $1 AND user_id = $2', [id, userId, jobId]);
    return (rowCount ?? 0) > 0;
  },

  async deleteForJob(q: Queryable, userId: string, jobId: string): Promise<{ id: string; storage_key: string }[]> {
    const { rows } = await q.query<{ id: string; storage_key: string }>('DELETE FROM artifacts WHERE job_id = $1 AND user_id = $2 RETURNING id, storage_key', [jobId, userId]);
    return rows;
  },

  async deleteExpired(q: Queryable, limit: number): Promise<{ id: string; storage_key: string }[]> {
    const { rows } = await q.query<{ id: string; storage_key: string }>(
      `DELETE FROM artifacts WHERE id IN (SELECT id FROM artifacts WHERE expires_at IS NOT NULL AND expires_at <= now() LIMIT $1) RETURNING id, storage_key`,
      [limit],
    );
    return rows;
  },

  /** Rows whose object is not in `backendPrefix` ('' for local: keys without a prefix), by id after `afterId`. */
  async notInBackend(q: Queryable, backendPrefix: string, afterId: string, limit: number): Promise<{ id: string; storage_key: string; sha256: string; size_bytes: number }[]> {
    const { rows } = await q.query<{ id: string; storage_key: string; sha256: string; size_bytes: number }>(
      `SELECT id, storage_key, sha256, size_bytes::float8 AS size_bytes FROM artifacts WHERE NOT (${inBackend(backendPrefix)}) AND id > $2::uuid ORDER BY id LIMIT $3`,
      [backendPrefix, afterId, limit],
    );
    return rows;
  },

  /** How many rows have their object outside `backendPrefix` (as notInBackend). */
  async countNotInBackend(q: Queryable, backendPrefix: string): Promise<number> {
    const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM artifacts WHERE NOT (${inBackend(backendPrefix)})`, [backendPrefix]);
    return rows[0]?.n ?? 0;
  },

  /** Points a row at its object's new key; false when the row is gone or was moved meanwhile. */
  async moveObject(q: Queryable, id: string, fromKey: string, toKey: string): Promise<boolean> {
    const { rowCount } = await q.query('UPDATE artifacts SET storage_key = $3 WHERE id = $1 AND storage_key = $2', [id, fromKey, toKey]);
    return rowCount === 1;
  },

  /** Which of these storage keys have a row. */
  async knownKeys(q: Queryable, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await q.query<{ storage_key: string }>('SELECT storage_key FROM artifacts WHERE storage_key = ANY($1::text[])', [keys]);
    return new Set(rows.map((r) => r.storage_key));
  },
};
