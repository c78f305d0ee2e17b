// The user_models table (migration 013): every statement that reads or writes a model row is
// here, and this file is the table's only writer.
import type { Queryable } from '../../db/database.js';

export interface ModelInfo {
  n_train: number;
  n_val: number;
  n_test: number;
  split: Record<string, unknown>;
  metrics: Record<string, number | null>;
  hyperparameters: Record<string, unknown>;
  size_bytes: number;
  ensemble_size: number;
  /** Tanimoto threshold of the applicability domain (docs/models.md). */
  domain_threshold?: number;
  skipped?: Record<string, number>;
}

export interface ModelRow {
  id: string;
  user_id: string;
  name: string;
  task: 'regression' | 'classification';
  target: string;
  units: string | null;
  trained_by_process_id: string | null;
  weights_artifact_id: string;
  info: ModelInfo;
  created_at: Date;
}

export type NewModel = Omit<ModelRow, 'created_at'>;

export const modelsStore = {
  async list(q: Queryable, userId: string, name?: string): Promise<ModelRow[]> {
    const { rows } = await q.query<ModelRow>(
      `SELECT * FROM user_models WHERE user_id = $1${name === undefined ? '' : ' AND name = $2'} ORDER BY name`,
      name === undefined ? [userId] : [userId, name],
    );
    return rows;
  },

  async get(q: Queryable, userId: string, name: string, forUpdate = false): Promise<ModelRow | null> {
    const { rows } = await q.query<ModelRow>(`SELECT * FROM user_models WHERE user_id = $1 AND name = $2${forUpdate ? ' FOR UPDATE' : ''}`, [userId, name]);
    return rows[0] ?? null;
  },

  /** Inserts the model; with `replace`, the row of the same name is replaced. Returns the replaced row, if any. */
  async put(tx: Queryable, m: NewModel, replace: boolean): Promise<{ replaced: ModelRow | null } | null> {
    const old = await modelsStore.get(tx, m.user_id, m.name, true);
    if (old && !replace) return null;
    if (old) await tx.query('DELETE FROM user_models WHERE id = $1', [old.id]);
    await tx.query(
      `INSERT INTO user_models (id, user_id, name, task, target, units, trained_by_process_id, weights_artifact_id, info)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [m.id, m.user_id, m.name, m.task, m.target, m.units, m.trained_by_process_id, m.weights_artifact_id, JSON.stringify(m.info)],
    );
    return { replaced: old };
  },

  async delete(tx: Queryable, userId: string, name: string): Promise<ModelRow | null> {
    const { rows } = await tx.query<ModelRow>('DELETE FROM user_models WHERE user_id = $1 AND name = $2 RETURNING *', [userId, name]);
    return rows[0] ?? null;
  },
};
