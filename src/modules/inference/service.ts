// Inference, callable without a request (docs/models.md, "Inference"): the callable models,
// synchronous predictions (up to 100 SMILES, in the inference threads; counted 1 against the
// monthly allowance in the transaction that records the call), and asynchronous requests, which
// are `mpnn_predict` jobs with origin `inference` (not charged; counted ceil(molecules / 100)
// in the transaction that creates them).
import { predictionItem, type PredictionItem } from '../../compute/types/mpnn-predict.js';
import type { JobService, Submitter } from '../../compute/service.js';
import { listRequests, removeRequest, requestFields } from '../../compute/requests.js';
import type { JobRow } from '../../compute/store.js';
import type { Database, Queryable } from '../../db/database.js';
import { AppError, invalid, within } from '../../errors.js';
import type { InferencePool } from '../../ml/inference-pool.js';
import { RESULT_PORT, RESULT_RECORD } from '../artifacts/names.js';
import type { ArtifactService } from '../artifacts/service.js';
import type { ModelService } from '../models/service.js';
import { submitCountedRequest } from '../usage/requests.js';
import type { UsageService } from '../usage/service.js';
import { ASYNC_SMILES, SYNC_SMILES } from './schemas.js';

export interface PredictBody {
  model: string;
  smiles: string[];
  uncertainty?: boolean;
}

export interface SubmitBody {
  model: string;
  smiles?: string[];
  input_artifact_id?: string;
  port?: string;
  uncertainty?: boolean;
}

interface StoredResult {
  counts: { molecules: number; ok: number; failed: number };
  predictions: PredictionItem[];
}

export class InferenceService {
  constructor(
    private readonly db: Database,
    private readonly deps: { models: ModelService; jobs: JobService; usage: UsageService; artifacts: ArtifactService; pool: InferencePool },
  ) {}

  /** Ends the inference threads. */
  close(): Promise<void> {
    return this.deps.pool.close();
  }

  async models(userId: string) {
    return { models: (await this.deps.models.callable(userId)).map((m) => ({ ...m, limits: { sync_smiles: SYNC_SMILES, async_smiles: ASYNC_SMILES } })) };
  }

  /**
   * A synchronous prediction, counted 1 in the transaction that runs `record` (the route
   * serialises and pins the response there): whatever fails, before or in it, counts nothing.
   * A molecule without a finite prediction is an item error (src/ml/predict.ts).
   */
  async predict(who: Submitter, body: PredictBody, record?: (tx: Queryable, response: unknown) => Promise<void>) {
    if (body.smiles.length > SYNC_SMILES) {
      throw invalid(
        ['smiles'],
        `${body.smiles.length} SMILES: a synchronous prediction takes at most ${SYNC_SMILES}; send larger batches to POST /inference/submit`,
        body.smiles.length,
        'too_long',
      );
    }
    const model = await within(['model'], () => this.deps.models.resolve(who.userId, body.model));
    await this.deps.usage.assertAvailable(who.userId, who.tier, 1);
    const preds = await this.deps.pool.predict(model.key, () => model.weights(), body.smiles);
    const response = {
      model: model.ref,
      task: model.task,
      target: model.target,
      units: model.units,
      predictions: preds.map((p) => predictionItem(p, body.uncertainty ?? true)),
      counted: 1,
    };
    await this.db.transaction(async (tx) => {
      await this.deps.usage.consume(tx, who.userId, who.tier, 'inference', 1);
      await record?.(tx, response);
    });
    return response;
  }

  async submit(who: Submitter, body: SubmitBody, record?: (tx: Queryable, answer: { request_id: string }) => Promise<void>) {
    if ((body.smiles === undefined) === (body.input_artifact_id === undefined)) throw invalid(['smiles'], 'Give smiles or input_artifact_id (one of the two)', null, 'missing');
    await within(['model'], () => this.deps.models.resolve(who.userId, body.model));
    const n = body.smiles?.length ?? (await this.deps.artifacts.countMolecules(who.userId, body.input_artifact_id!, body.port));
    if (n > ASYNC_SMILES) throw invalid(['input_artifact_id'], `the set has ${n} molecules; a request takes at most ${ASYNC_SMILES}`, body.input_artifact_id, 'too_long');
    const request = { job_type: 'mpnn_predict', payload: body };
    return submitCountedRequest(this.deps, who, { request, origin: 'inference', kind: 'inference', molecules: n, units: Math.max(1, Math.ceil(n / 100)) }, record);
  }

  async list(userId: string, q: { status?: string; limit?: number; offset?: number }) {
    return listRequests(this.deps.jobs, userId, q, 'inference', (j) => summary(j, null));
  }

  async get(userId: string, requestId: string) {
    const job = await this.deps.jobs.get(userId, requestId, 'inference');
    return summary(job, job.status === 'completed' ? (await this.stored(userId, job)).counts : null);
  }

  /** The predictions of a completed request (409 before it completes). */
  async result(userId: string, requestId: string): Promise<{ job: JobRow; result: StoredResult }> {
    const job = await this.deps.jobs.get(userId, requestId, 'inference');
    if (job.status !== 'completed') {
      throw new AppError(
        job.status === 'error' || job.status === 'cancelled' ? 'conflict' : 'job-not-finished',
        `request ${requestId} is ${job.status}${job.message ? `: ${job.message}` : ''}; its predictions exist once it completes`,
      );
    }
    return { job, result: await this.stored(userId, job) };
  }

  private async stored(userId: string, job: JobRow): Promise<StoredResult> {
    return (await this.deps.artifacts.readPrimaryJson(userId, job.result_artifact_id!, RESULT_PORT, RESULT_RECORD)) as StoredResult;
  }

  async remove(userId: string, requestId: string) {
    return removeRequest(this.deps.jobs, userId, requestId, 'inference');
  }
}

function summary(j: JobRow, counts: StoredResult['counts'] | null) {
  return { ...requestFields(j), model: (j.payload as { model?: string }).model ?? '', counts };
}
