// Models, callable without a request (docs/models.md): users' MPNN models (listed, deleted,
// registered in the transaction that completes their training job), the public catalog, and
// resolving a model reference (`public/<id>` or `user/<name>`) to its weights for inference.
//
// A model's weights are member `model` of the result artifact of the job that trained it, so
// the two share one artifact: registering detaches it from the job (deleting the job keeps the
// model), and a model that is replaced or deleted gives it back to its job while that job exists
// (its result stays readable until the job is deleted, which deletes it); otherwise it goes.
import fs from 'node:fs/promises';
import type { Database, Queryable } from '../../db/database.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { ArtifactService } from '../artifacts/service.js';
import { artifactsStore } from '../artifacts/store.js';
import { publicModels, type PublicCard } from './public.js';
import type { JobModel, JobModels } from '../../compute/ports.js';
import { modelsStore, type ModelInfo, type ModelRow, type NewModel } from './store.js';

/** Where a model's weights are inside its artifact. */
export const MODEL_PORT = 'model';
export const MODEL_RECORD = 'model';
/** The formats of an uploaded training table (upload mode `file`: the file's extension, or data_format). */
export const TRAINING_FILE_FORMATS = ['csv', 'txt'];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A model to predict with: `public/<id>` or `user/<name>`, a key that changes with its weights, and a reader of them. */
export type ResolvedModel = JobModel;

export function modelInfo(m: ModelRow) {
  return {
    model_id: m.id,
    task: m.task,
    target: m.target,
    units: m.units,
    created_at: m.created_at.toISOString(),
    trained_by_process_id: m.trained_by_process_id,
    n_train: m.info.n_train,
    n_val: m.info.n_val,
    n_test: m.info.n_test,
    split: m.info.split,
    metrics: m.info.metrics,
    hyperparameters: m.info.hyperparameters,
    size_bytes: m.info.size_bytes,
    ensemble_size: m.info.ensemble_size,
  };
}

export class ModelService {
  constructor(
    private readonly db: Database,
    private readonly artifacts: ArtifactService,
  ) {}

  /** GET /user-models/mpnn: every model of the caller, or the one named (404 when it does not exist). */
  async list(userId: string, name?: string) {
    const rows = await modelsStore.list(this.db, userId, name);
    if (name !== undefined && rows.length === 0) throw notFound(`model ${name}`);
    return { model_names: rows.map((r) => r.name), model_info: Object.fromEntries(rows.map((r) => [r.name, modelInfo(r)])) };
  }

  async exists(userId: string, name: string): Promise<boolean> {
    return (await modelsStore.get(this.db, userId, name)) !== null;
  }

  /** Deletes the model; its weights go too unless they are the result of a job that still exists. */
  async delete(userId: string, name: string): Promise<void> {
    const key = await this.db.transaction(async (tx) => {
      const gone = await modelsStore.delete(tx, userId, name);
      if (!gone) throw notFound(`model ${name}`);
      return this.release(tx, gone);
    });
    if (key) await this.artifacts.removeObjects([key]);
  }

  /**
   * Registers a trained model in `tx` (the transaction that completes its training job): its
   * weights artifact is detached from the job, so deleting the job keeps the model. A name that
   * exists without `overwrite` is a 409 `model-exists`; with it, the replaced model's weights
   * are released in the same transaction (a deleted row's object is left to the orphan sweep).
   */
  async register(tx: Queryable, m: NewModel, overwrite: boolean): Promise<void> {
    const put = await modelsStore.put(tx, m, overwrite);
    if (!put) throw new AppError('model-exists', `a model named ${m.name} exists; set overwrite to replace it`);
    await this.artifacts.detachFromJob(tx, m.user_id, m.weights_artifact_id);
    if (put.replaced) await this.release(tx, put.replaced);
  }

  /**
   * In `tx`, the weights artifact of a model that goes: back to the job that trained it while
   * that job exists (it is the job's result), else its row is deleted. Returns the storage key of
   * a deleted row (its object is removed after commit, or by the orphan sweep).
   */
  private async release(tx: Queryable, m: ModelRow): Promise<string | null> {
    if (m.trained_by_process_id && (await artifactsStore.reattachToJob(tx, m.user_id, m.weights_artifact_id, m.trained_by_process_id))) return null;
    return (await artifactsStore.delete(tx, m.user_id, m.weights_artifact_id))?.storage_key ?? null;
  }

  /**
   * The training table of an `mpnn_train` job (docs/models.md): the user's uploaded CSV file.
   * 404 when the artifact is not there or not theirs, a 422 when it is not an uploaded CSV file;
   * both located at ["input_artifact_id"] (relative to the job payload), so that a workflow whose
   * param waits for a run's input reports it as checked at the run.
   */
  async checkTrainingFile(userId: string, artifactId: string): Promise<void> {
    const row = UUID_RE.test(artifactId) ? await artifactsStore.getSummary(this.db, userId, artifactId) : null;
    if (!row) {
      const msg = `artifact ${artifactId} not found`;
      throw new AppError('not-found', msg, { issues: [{ type: 'not_found', loc: ['input_artifact_id'], msg, input: artifactId }] });
    }
    const ports = await artifactsStore.ports(this.db, artifactId);
    const file = ports.find((p) => p.port === 'file');
    if (!file || file.record_count !== 1 || !TRAINING_FILE_FORMATS.includes(file.data_format)) {
      const set = ports.find((p) => p.data_kind === 'molecules');
      const what = file
        ? `a file of format "${file.data_format}"`
        : set
          ? `a molecule set (port ${set.port}: ${set.record_count} molecules with their ids and names, no target values)`
          : `an artifact with ports ${ports.map((p) => `${p.port} (${p.data_kind})`).join(', ') || 'none'}`;
      throw invalid(
        ['input_artifact_id'],
        `artifact ${artifactId} is ${what}, not an uploaded CSV file (POST /artifacts with mode=file and a .csv file)`,
        artifactId,
        'artifact_type',
      );
    }
  }

  /** The training table's bytes, streamed (docs/models.md): checkTrainingFile's checks, then a 422 over maxBytes. */
  async openTrainingFile(userId: string, artifactId: string, maxBytes: number): Promise<AsyncIterable<Uint8Array>> {
    await this.checkTrainingFile(userId, artifactId);
    const dl = await this.artifacts.download(userId, artifactId, { port: 'file' });
    if (dl.size > maxBytes) {
      dl.close();
      throw invalid(['input_artifact_id'], `the training file is ${dl.size} bytes; at most ${maxBytes}`, artifactId, 'too_long');
    }
    return dl.open();
  }

  /** The port the model job types use (src/compute/ports.ts). */
  jobPort(): JobModels {
    return {
      exists: (userId, name) => this.exists(userId, name),
      resolve: (userId, ref) => this.resolve(userId, ref),
      checkTrainingFile: (userId, artifactId) => this.checkTrainingFile(userId, artifactId),
      openTrainingFile: (userId, artifactId, maxBytes) => this.openTrainingFile(userId, artifactId, maxBytes),
      register: (tx, m, weightsArtifactId, overwrite) =>
        this.register(
          tx,
          {
            id: m.id,
            user_id: m.userId,
            name: m.name,
            task: m.task,
            target: m.target,
            units: m.units,
            trained_by_process_id: m.jobId,
            weights_artifact_id: weightsArtifactId,
            info: m.info as unknown as ModelInfo,
          },
          overwrite,
        ),
    };
  }

  publicCatalog(): PublicCard[] {
    return [...publicModels().values()].map((m) => m.card);
  }

  /** The caller's model or a public one, by reference; 404 for anything else (another user's included). */
  async resolve(userId: string, ref: string): Promise<ResolvedModel> {
    const [kind, ...rest] = ref.split('/');
    const name = rest.join('/');
    if (kind === 'public') {
      const p = publicModels().get(name);
      if (!p) throw notFound(`model ${ref}`);
      return {
        ref,
        key: `public/${p.card.id}@${p.card.version}`,
        task: p.card.task,
        target: p.card.target.description,
        units: p.card.target.units,
        weights: async () => new Uint8Array(await fs.readFile(p.weightsPath)),
      };
    }
    if (kind === 'user') {
      const m = await modelsStore.get(this.db, userId, name);
      if (!m) throw notFound(`model ${ref}`);
      return { ref, key: `user/${m.id}`, task: m.task, target: m.target, units: m.units, weights: () => this.readWeights(userId, m.weights_artifact_id) };
    }
    throw notFound(`model ${ref} (a model is public/<id> or user/<name>)`);
  }

  /** The models the caller can predict with. */
  async callable(userId: string) {
    const own = await modelsStore.list(this.db, userId);
    return [
      ...this.publicCatalog().map((c) => ({ model: `public/${c.id}`, kind: 'public' as const, name: c.name, task: c.task, target: c.target.description, units: c.target.units })),
      ...own.map((m) => ({ model: `user/${m.name}`, kind: 'user' as const, name: m.name, task: m.task, target: m.target, units: m.units })),
    ];
  }

  private async readWeights(userId: string, artifactId: string): Promise<Uint8Array> {
    const dl = await this.artifacts.download(userId, artifactId, { port: MODEL_PORT, record: MODEL_RECORD });
    const chunks: Buffer[] = [];
    for await (const c of await dl.open()) chunks.push(Buffer.from(c as Uint8Array));
    return new Uint8Array(Buffer.concat(chunks));
  }
}
