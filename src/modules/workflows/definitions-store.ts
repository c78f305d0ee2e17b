// The workflows, workflow_versions and workflow_shares tables (migration 014; docs/workflows.md):
// every statement that reads or writes them.
import type { Queryable } from '../../db/database.js';

export interface DefinitionRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  latest_version: number;
  forked_from: Record<string, unknown> | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface VersionRow {
  workflow_id: string;
  version: number;
  spec: unknown;
  created_by: string;
  restored_from: number | null;
  created_at: Date;
}

export interface ShareRow {
  id: string;
  workflow_id: string;
  grantee_id: string | null;
  grantee_email: string | null;
  token_hash: string | null;
  permission: 'view' | 'run';
  created_at: Date;
  revoked_at: Date | null;
}

/** A definition as one caller sees it: its own, or shared with them (the best active share). */
export interface VisibleRow extends DefinitionRow {
  access: 'owner' | 'run' | 'view';
}

export interface DefinitionListFilter {
  text?: string;
  deleted: boolean;
  order: string;
  limit: number;
  offset: number;
}

const ACCESS = `CASE WHEN w.user_id = $1 THEN 'owner'
  ELSE (SELECT CASE WHEN bool_or(s.permission = 'run') THEN 'run' ELSE 'view' END FROM workflow_shares s
         WHERE s.workflow_id = w.id AND s.grantee_id = $1 AND s.revoked_at IS NULL) END`;
const VISIBLE = `(w.user_id = $1 OR EXISTS (SELECT 1 FROM workflow_shares s WHERE s.workflow_id = w.id AND s.grantee_id = $1 AND s.revoked_at IS NULL))`;

export const definitionsStore = {
  async insert(tx: Queryable, d: { id: string; userId: string; name: string; description: string; forkedFrom: Record<string, unknown> | null; spec: unknown }): Promise<void> {
    await tx.query(`INSERT INTO workflows (id, user_id, name, description, latest_version, forked_from) VALUES ($1, $2, $3, $4, 1, $5)`, [
      d.id,
      d.userId,
      d.name,
      d.description,
      d.forkedFrom === null ? null : JSON.stringify(d.forkedFrom),
    ]);
    await tx.query(`INSERT INTO workflow_versions (workflow_id, version, spec, created_by) VALUES ($1, 1, $2, $3)`, [d.id, JSON.stringify(d.spec), d.userId]);
  },

  /** A definition the user may see (owner or active share), deleted ones only for their owner when asked. */
  async visible(q: Queryable, userId: string, id: string, opts: { forUpdate?: boolean; forShare?: boolean; deleted?: boolean } = {}): Promise<VisibleRow | null> {
    const lock = opts.forUpdate ? ' FOR UPDATE OF w' : opts.forShare ? ' FOR SHARE OF w' : '';
    const { rows } = await q.query<VisibleRow>(
      `SELECT w.*, ${ACCESS} AS access FROM workflows w
        WHERE w.id = $2 AND ${VISIBLE} AND (w.deleted_at IS NULL OR ($3::boolean AND w.user_id = $1))${lock}`,
      [userId, id, opts.deleted ?? false],
    );
    return rows[0] ?? null;
  },

  async version(q: Queryable, id: string, version: number): Promise<VersionRow | null> {
    const { rows } = await q.query<VersionRow>('SELECT * FROM workflow_versions WHERE workflow_id = $1 AND version = $2', [id, version]);
    return rows[0] ?? null;
  },

  async versions(q: Queryable, id: string): Promise<VersionRow[]> {
    const { rows } = await q.query<VersionRow>('SELECT * FROM workflow_versions WHERE workflow_id = $1 ORDER BY version DESC', [id]);
    return rows;
  },

  /** Adds a version after `base` (the caller holds the row lock and checked base = latest). */
  async addVersion(tx: Queryable, d: { id: string; version: number; spec: unknown; userId: string; name: string; description: string; restoredFrom?: number }): Promise<void> {
    await tx.query(`INSERT INTO workflow_versions (workflow_id, version, spec, created_by, restored_from) VALUES ($1, $2, $3, $4, $5)`, [
      d.id,
      d.version,
      JSON.stringify(d.spec),
      d.userId,
      d.restoredFrom ?? null,
    ]);
    await tx.query(`UPDATE workflows SET latest_version = $2, name = $3, description = $4, updated_at = now() WHERE id = $1`, [d.id, d.version, d.name, d.description]);
  },

  async setDeleted(tx: Queryable, id: string, deleted: boolean): Promise<void> {
    await tx.query(`UPDATE workflows SET deleted_at = ${deleted ? 'now()' : 'NULL'}, updated_at = now() WHERE id = $1`, [id]);
  },

  async list(q: Queryable, userId: string, f: DefinitionListFilter): Promise<{ rows: VisibleRow[]; total: number }> {
    const where = [f.deleted ? 'w.user_id = $1 AND w.deleted_at IS NOT NULL' : `${VISIBLE} AND w.deleted_at IS NULL`];
    const params: unknown[] = [userId];
    if (f.text) {
      params.push(`%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(w.name ILIKE $${params.length} OR w.description ILIKE $${params.length} OR w.id::text ILIKE $${params.length})`);
    }
    const cond = where.join(' AND ');
    const [items, count] = await Promise.all([
      q.query<VisibleRow>(`SELECT w.*, ${ACCESS} AS access FROM workflows w WHERE ${cond} ORDER BY ${f.order}, w.id LIMIT ${f.limit} OFFSET ${f.offset}`, params),
      q.query<{ total: number }>(`SELECT count(*)::int AS total FROM workflows w WHERE ${cond}`, params),
    ]);
    return { rows: items.rows, total: count.rows[0]?.total ?? 0 };
  },

  /** Removes definitions deleted more than `days` ago (their versions and shares go with them). */
  async purgeDeleted(q: Queryable, days: number): Promise<number> {
    const { rows } = await q.query(`DELETE FROM workflows WHERE deleted_at < now() - make_interval(days => $1) RETURNING id`, [days]);
    return rows.length;
  },

  // ------------------------------------------------------------ shares

  /** The active share with a user, updated to `permission`, or a new one. */
  async shareWithUser(tx: Queryable, s: { id: string; workflowId: string; granteeId: string; permission: string }): Promise<ShareRow> {
    const { rows } = await tx.query<ShareRow>(
      `WITH up AS (
         UPDATE workflow_shares SET permission = $4 WHERE workflow_id = $2 AND grantee_id = $3 AND revoked_at IS NULL RETURNING *
       ), ins AS (
         INSERT INTO workflow_shares (id, workflow_id, grantee_id, permission) SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM up) RETURNING *
       )
       SELECT x.*, u.email AS grantee_email FROM (SELECT * FROM up UNION ALL SELECT * FROM ins) x JOIN users u ON u.id = x.grantee_id`,
      [s.id, s.workflowId, s.granteeId, s.permission],
    );
    return rows[0]!;
  },

  async shareByLink(tx: Queryable, s: { id: string; workflowId: string; tokenHash: string; permission: string }): Promise<ShareRow> {
    const { rows } = await tx.query<ShareRow>(
      `INSERT INTO workflow_shares (id, workflow_id, token_hash, permission) VALUES ($1, $2, $3, $4) RETURNING *, NULL::text AS grantee_email`,
      [s.id, s.workflowId, s.tokenHash, s.permission],
    );
    return rows[0]!;
  },

  async shares(q: Queryable, workflowId: string): Promise<ShareRow[]> {
    const { rows } = await q.query<ShareRow>(
      `SELECT s.*, u.email AS grantee_email FROM workflow_shares s LEFT JOIN users u ON u.id = s.grantee_id
        WHERE s.workflow_id = $1 AND s.revoked_at IS NULL ORDER BY s.created_at, s.id`,
      [workflowId],
    );
    return rows;
  },

  async revoke(tx: Queryable, workflowId: string, shareId: string): Promise<boolean> {
    const { rows } = await tx.query(`UPDATE workflow_shares SET revoked_at = now() WHERE id = $2 AND workflow_id = $1 AND revoked_at IS NULL RETURNING id`, [workflowId, shareId]);
    return rows.length > 0;
  },

  /** The definition behind an active link token, unless deleted, with the share's id and permission. */
  async byToken(q: Queryable, tokenHash: string): Promise<(DefinitionRow & { permission: 'view' | 'run'; share_id: string }) | null> {
    const { rows } = await q.query<DefinitionRow & { permission: 'view' | 'run'; share_id: string }>(
      `SELECT w.*, s.permission, s.id AS share_id FROM workflow_shares s JOIN workflows w ON w.id = s.workflow_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND w.deleted_at IS NULL`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },

  /** Whether a link share of a definition is active, with run permission, and its definition not deleted (the definition's row locked FOR SHARE). */
  async activeRunLink(q: Queryable, workflowId: string, shareId: string): Promise<boolean> {
    const { rows } = await q.query(
      `SELECT 1 FROM workflow_shares s JOIN workflows w ON w.id = s.workflow_id
        WHERE s.id = $1 AND s.workflow_id = $2 AND s.token_hash IS NOT NULL AND s.revoked_at IS NULL AND s.permission = 'run' AND w.deleted_at IS NULL
        FOR SHARE OF w`,
      [shareId, workflowId],
    );
    return rows.length > 0;
  },
};
