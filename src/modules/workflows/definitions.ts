// Saved workflow definitions (docs/workflows.md): versions, soft delete and restore, forks and
// shares. Rules only, no HTTP: errors are AppErrors located relative to the caller's input.
import crypto from 'node:crypto';
import type { Database, Queryable } from '../../db/database.js';
import { AppError, invalid, invalidInput, notFound } from '../../errors.js';
import { templateById } from '../../workflows/templates.js';
import type { WorkflowSpec } from '../../workflows/spec.js';
import type { UserService } from '../users/service.js';
import { definitionsStore, type DefinitionRow, type ShareRow, type VersionRow, type VisibleRow } from './definitions-store.js';
import { isUuid } from '../../validation.js';
import { sortOrder } from '../../db/list-query.js';

/** A deleted definition can be restored for this many days; then it is purged. */
export const RESTORE_DAYS = 30;
const TOKEN_PREFIX = 'wfs_';

export interface DefinitionView {
  workflow_id: string;
  version: number;
  latest_version: number;
  name: string;
  description: string;
  spec: unknown;
  access: 'owner' | 'run' | 'view';
  forked_from: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  version_created_at: string;
  deleted_at: string | null;
  restorable_until: string | null;
}

export interface ShareView {
  share_id: string;
  workflow_id: string;
  kind: 'user' | 'link';
  email: string | null;
  permission: 'view' | 'run';
  created_at: string;
  /** Only in the answer that creates a link share: shown once. */
  token?: string;
  url?: string;
}

/** Checks a spec (validate + estimate rules); throws 422 with every problem located at ["spec", ...]. */
export type SpecCheck = (userId: string, spec: unknown) => Promise<void>;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function view(row: DefinitionRow & { access?: VisibleRow['access'] }, v: VersionRow): DefinitionView {
  return {
    workflow_id: row.id,
    version: v.version,
    latest_version: row.latest_version,
    name: row.name,
    description: row.description,
    spec: v.spec,
    access: row.access ?? 'view',
    forked_from: row.forked_from,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version_created_at: v.created_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
    restorable_until: row.deleted_at ? new Date(row.deleted_at.getTime() + RESTORE_DAYS * 86_400_000).toISOString() : null,
  };
}

function shareView(s: ShareRow, token?: string): ShareView {
  return {
    share_id: s.id,
    workflow_id: s.workflow_id,
    kind: s.grantee_id ? 'user' : 'link',
    email: s.grantee_email,
    permission: s.permission,
    created_at: s.created_at.toISOString(),
    ...(token ? { token, url: `/api/v1/workflows/shared/${token}` } : {}),
  };
}

const SORTS: Record<string, string> = { updated_at: 'w.updated_at', created_at: 'w.created_at', name: 'w.name' };
export const DEFINITION_SORT_FIELDS = Object.keys(SORTS);

export class DefinitionService {
  constructor(
    private readonly db: Database,
    private readonly users: UserService,
    private readonly check: SpecCheck,
  ) {}

  /** A definition the user may see, at `version` (default latest); 404 for anything else. */
  async get(
    userId: string,
    id: string,
    version?: number,
    q: Queryable = this.db,
    opts: { forUpdate?: boolean; deleted?: boolean } = {},
  ): Promise<{ row: VisibleRow; version: VersionRow }> {
    const row = isUuid(id) ? await definitionsStore.visible(q, userId, id, opts) : null;
    if (!row) throw notFound(`workflow ${id}`);
    const v = await definitionsStore.version(q, id, version ?? row.latest_version);
    if (!v) throw notFound(`version ${version} of workflow ${id}`);
    return { row, version: v };
  }

  async read(userId: string, id: string, version?: number): Promise<DefinitionView> {
    const d = await this.get(userId, id, version);
    return view(d.row, d.version);
  }

  /** The owner's definition, locked; 404 for a definition they only have a share of (they cannot change it). */
  private async owned(tx: Queryable, userId: string, id: string, deleted = false): Promise<VisibleRow> {
    const { row } = await this.get(userId, id, undefined, tx, { forUpdate: true, deleted });
    if (row.access !== 'owner') throw notFound(`workflow ${id}`);
    return row;
  }

  async create(
    userId: string,
    body: { spec: unknown; name?: string; description?: string },
    pin?: (tx: Queryable, v: DefinitionView) => Promise<void>,
    forkedFrom: Record<string, unknown> | null = null,
  ): Promise<DefinitionView> {
    await this.check(userId, body.spec);
    const spec = body.spec as WorkflowSpec;
    const id = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      await definitionsStore.insert(tx, { id, userId, name: body.name ?? spec.name, description: body.description ?? spec.description ?? '', forkedFrom, spec });
      const d = await this.get(userId, id, 1, tx);
      const v = view(d.row, d.version);
      await pin?.(tx, v);
      return v;
    });
  }

  /** A new version; `base_version` must be the latest (else 409 version-conflict). */
  async update(userId: string, id: string, body: { spec: unknown; base_version: number; name?: string; description?: string }): Promise<DefinitionView> {
    await this.check(userId, body.spec);
    const spec = body.spec as WorkflowSpec;
    return this.db.transaction(async (tx) => {
      const row = await this.owned(tx, userId, id);
      if (body.base_version !== row.latest_version) {
        throw new AppError(
          'version-conflict',
          `version ${body.base_version} is not the latest of workflow ${id} (the latest is ${row.latest_version}); read it, merge, and save with base_version ${row.latest_version}`,
          {
            extra: { latest_version: row.latest_version },
          },
        );
      }
      const version = row.latest_version + 1;
      await definitionsStore.addVersion(tx, { id, version, spec, userId, name: body.name ?? spec.name, description: body.description ?? spec.description ?? row.description });
      const d = await this.get(userId, id, version, tx);
      return view(d.row, d.version);
    });
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.owned(tx, userId, id);
      await definitionsStore.setDeleted(tx, id, true);
    });
  }

  /** Undeletes a deleted definition; with `version`, also makes that version the latest (as a new version). */
  async restore(userId: string, id: string, body: { version?: number }, pin?: (tx: Queryable, v: DefinitionView) => Promise<void>): Promise<DefinitionView> {
    return this.db.transaction(async (tx) => {
      const row = await this.owned(tx, userId, id, true);
      if (row.deleted_at) await definitionsStore.setDeleted(tx, id, false);
      if (body.version !== undefined && body.version !== row.latest_version) {
        const old = await definitionsStore.version(tx, id, body.version);
        if (!old) throw invalid(['version'], `workflow ${id} has versions 1 to ${row.latest_version}`, body.version, 'not_found');
        const spec = old.spec as WorkflowSpec;
        await definitionsStore.addVersion(tx, {
          id,
          version: row.latest_version + 1,
          spec,
          userId,
          name: spec.name,
          description: spec.description ?? row.description,
          restoredFrom: body.version,
        });
      }
      const d = await this.get(userId, id, undefined, tx);
      const v = view(d.row, d.version);
      await pin?.(tx, v);
      return v;
    });
  }

  /** Copies a definition the user can see (or a template, by its template_id) into a new one of theirs. */
  async fork(userId: string, source: string, body: { version?: number; name?: string }, pin?: (tx: Queryable, v: DefinitionView) => Promise<void>): Promise<DefinitionView> {
    const template = templateById(source);
    if (template)
      return this.create(userId, { spec: template.spec, name: body.name ?? template.name, description: template.description }, pin, { template_id: template.template_id });
    const d = await this.get(userId, source, body.version);
    return this.create(userId, { spec: d.version.spec, name: body.name ?? `${d.row.name} (fork)`, description: d.row.description }, pin, {
      workflow_id: d.row.id,
      version: d.version.version,
    });
  }

  async versions(
    userId: string,
    id: string,
  ): Promise<{ workflow_id: string; latest_version: number; versions: { version: number; created_at: string; restored_from: number | null; name: string; steps: number }[] }> {
    const { row } = await this.get(userId, id);
    const versions = await definitionsStore.versions(this.db, id);
    return {
      workflow_id: id,
      latest_version: row.latest_version,
      versions: versions.map((v) => ({
        version: v.version,
        created_at: v.created_at.toISOString(),
        restored_from: v.restored_from,
        name: (v.spec as WorkflowSpec).name,
        steps: (v.spec as WorkflowSpec).steps.length,
      })),
    };
  }

  async list(userId: string, q: { q?: string; sort?: string; limit?: number; offset?: number; deleted?: boolean }) {
    const order = sortOrder(q.sort, SORTS, 'w.updated_at DESC');
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const page = await definitionsStore.list(this.db, userId, { text: q.q, deleted: q.deleted ?? false, order, limit, offset });
    return {
      workflows: page.rows.map((r) => ({
        workflow_id: r.id,
        name: r.name,
        description: r.description,
        latest_version: r.latest_version,
        access: r.access,
        forked_from: r.forked_from,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
        deleted_at: r.deleted_at?.toISOString() ?? null,
      })),
      total: page.total,
      limit,
      offset,
    };
  }

  // ------------------------------------------------------------ shares

  /** Shares with a user by email (an existing share of theirs changes permission), or creates a link token (shown once). */
  async share(
    userId: string,
    id: string,
    body: { email?: string; link?: boolean; permission: 'view' | 'run' },
    pin?: (tx: Queryable, v: ShareView) => Promise<void>,
  ): Promise<ShareView> {
    if ((body.email === undefined) === (body.link !== true)) {
      throw invalidInput([{ type: 'missing', loc: ['email'], msg: 'Give either email (share with a user) or link: true (a link token)', input: body.email ?? null }]);
    }
    let granteeId: string | null = null;
    if (body.email !== undefined) {
      const user = await this.users.byEmail(body.email).catch(() => null);
      if (!user) throw invalid(['email'], `no account with the email ${body.email}`, body.email, 'not_found');
      if (user.id === userId) throw invalid(['email'], 'this is your own workflow', body.email, 'value_error');
      granteeId = user.id;
    }
    return this.db.transaction(async (tx) => {
      await this.owned(tx, userId, id);
      let v: ShareView;
      if (granteeId) v = shareView(await definitionsStore.shareWithUser(tx, { id: crypto.randomUUID(), workflowId: id, granteeId, permission: body.permission }));
      else {
        const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
        v = shareView(await definitionsStore.shareByLink(tx, { id: crypto.randomUUID(), workflowId: id, tokenHash: hashToken(token), permission: body.permission }), token);
      }
      await pin?.(tx, v);
      return v;
    });
  }

  async shares(userId: string, id: string): Promise<{ shares: ShareView[] }> {
    const { row } = await this.get(userId, id);
    if (row.access !== 'owner') throw notFound(`workflow ${id}`);
    return { shares: (await definitionsStore.shares(this.db, id)).map((s) => shareView(s)) };
  }

  async revoke(userId: string, id: string, shareId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.owned(tx, userId, id);
      if (!isUuid(shareId) || !(await definitionsStore.revoke(tx, id, shareId))) throw notFound(`share ${shareId}`);
    });
  }

  /** The definition behind a link token (any signed-in caller holding it), with the link's permission and share id. */
  async byToken(token: string): Promise<{ view: DefinitionView; permission: 'view' | 'run'; shareId: string }> {
    const row = token.startsWith(TOKEN_PREFIX) ? await definitionsStore.byToken(this.db, hashToken(token)) : null;
    if (!row) throw notFound('shared workflow');
    const { share_id: shareId, ...def } = row;
    const v = (await definitionsStore.version(this.db, row.id, row.latest_version))!;
    return { view: view({ ...def, access: row.permission }, v), permission: row.permission, shareId };
  }

  /**
   * Whether the user may still run a definition (at a rerun): it is not deleted, and they own
   * it, hold a user share with run permission, or started the run through `linkShareId`, a
   * link share still active with run permission. In a transaction, the definition's row is
   * locked FOR SHARE: a revoke or delete (which lock it FOR UPDATE) waits for it, or it for them.
   */
  async mayRun(userId: string, workflowId: string, linkShareId: string | null, q: Queryable = this.db): Promise<boolean> {
    const row = isUuid(workflowId) ? await definitionsStore.visible(q, userId, workflowId, { forShare: true }) : null;
    if (row && row.access !== 'view') return true;
    return linkShareId !== null && (await definitionsStore.activeRunLink(q, workflowId, linkShareId));
  }

  purgeDeleted(): Promise<number> {
    return definitionsStore.purgeDeleted(this.db, RESTORE_DAYS);
  }
}
