// Inference with a model whose output is not a finite number (issue 22, finding 3; docs/models.md,
// "Inference"), on one database (onlyOn): such a molecule is an item error in a 200 answer (never a
// 500), the call counts 1, and its idempotent replay answers exactly the first answer; a call
// that fails counts nothing. The model is made as an older release could register one (trained
// on targets of +-1e308): a tiny trained model whose output layer is NaN or overflows.
// Run: node --import tsx --test test/inference/non-finite.test.ts
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { loadModel, serializeModel, trainModel, type TrainedModel } from '../../src/ml/index.js';
import { NON_FINITE } from '../../src/ml/predict.js';
import type { ModelInfo } from '../../src/modules/models/store.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));

/** A tiny model whose predictions are NaN (member 0's output bias) for every molecule. */
async function brokenModelBytes(): Promise<Buffer> {
  const { model } = await trainModel(ESOL.slice(0, 50), { hidden_size: 32, depth: 2, ffn_layers: 1, epochs: 1, batch_size: 16 });
  const m: TrainedModel = loadModel(serializeModel(model));
  m.weights[0]!.at(-1)!.fill(Number.NaN);
  return serializeModel(m);
}

/** Registers `bytes` as the user's model `name` (as the training job's completion would). */
async function register(h: Harness, userId: string, name: string, bytes: Buffer): Promise<string> {
  const info: ModelInfo = {
    n_train: 40,
    n_val: 5,
    n_test: 5,
    split: {},
    metrics: { rmse: null, mae: null, r2: null },
    hyperparameters: {},
    size_bytes: bytes.length,
    ensemble_size: 1,
  };
  const { artifactId } = await h.services.artifacts.createFromRecords({
    userId,
    jobId: null,
    jobType: 'mpnn_train',
    ports: { model: { format: 'crucible-dmpnn', kind: 'model', records: [{ id: 'model', files: { primary: { name: 'model.bin', content: bytes } } }] } },
    inTx: (tx, id) =>
      h.services.models.register(
        tx,
        { id: crypto.randomUUID(), user_id: userId, name, task: 'regression', target: 'y', units: null, trained_by_process_id: null, weights_artifact_id: id, info },
        false,
      ),
  });
  return artifactId;
}

let bytes: Buffer;
before(async () => {
  bytes = await brokenModelBytes();
});

for (const backend of onlyOn('pglite')) {
  describe(`inference with non-finite outputs [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const inferenceCalls = async (token: string) => (await h.req('GET', '/api/v1/usage', { token })).body.calls.inference as number;

    it('POST /inference/predict: a non-finite prediction is the item error in a 200; counted once; the replay is the same answer', async () => {
      const u = await h.user();
      await register(h, u.userId, 'broken', bytes);
      const body = { model: 'user/broken', smiles: ['CCO', 'not smiles', 'c1ccccc1O'] };
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const first = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body, headers });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(
        first.body.predictions.map((p: { smiles: string; prediction: unknown; uncertainty: unknown; error: unknown }) => [p.smiles, p.prediction, p.uncertainty, p.error]),
        [
          ['CCO', null, null, NON_FINITE],
          ['not smiles', null, null, 'unreadable SMILES'],
          ['c1ccccc1O', null, null, NON_FINITE],
        ],
      );
      assert.equal(first.body.counted, 1);
      assert.equal(await inferenceCalls(u.token), 1);

      const replay = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body, headers });
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, first.body, 'the replay answers what the first call answered');
      assert.equal(await inferenceCalls(u.token), 1, 'a replay counts nothing');
    });

    it('POST /inference/submit: the request completes with the molecules as failed items, in JSON and CSV', async () => {
      const u = await h.user();
      await register(h, u.userId, 'broken', bytes);
      const s = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'user/broken', smiles: ['CCO', 'CCN'] } });
      assert.equal(s.status, 200, s.text);
      const done = await h.waitForJob(u.token, s.body.request_id, undefined, 60_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const st = await h.req('GET', `/api/v1/inference/requests/${s.body.request_id}`, { token: u.token });
      assert.deepEqual(st.body.counts, { molecules: 2, ok: 0, failed: 2 });
      const page = await h.req('GET', `/api/v1/inference/requests/${s.body.request_id}/result?format=json`, { token: u.token });
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(
        page.body.predictions.map((p: { prediction: unknown; error: unknown }) => [p.prediction, p.error]),
        [
          [null, NON_FINITE],
          [null, NON_FINITE],
        ],
      );
      const csv = await h.req('GET', `/api/v1/inference/requests/${s.body.request_id}/result`, { token: u.token });
      assert.equal(csv.text.trim().split('\n')[1], `CCO,,,${page.body.predictions[0].in_domain},${NON_FINITE}`);
    });

    it('a predict call that fails counts nothing', async () => {
      const u = await h.user();
      const artifactId = await register(h, u.userId, 'gone', bytes);
      // The weights go from under the model (their row deleted in the database: DELETE /artifacts
      // refuses a model's weights, docs/artifacts.md): the call fails.
      await h.services.db.transaction((tx) => h.services.artifacts.deleteRowInTx(tx, u.userId, artifactId));
      const r = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/gone', smiles: ['CCO'] } });
      assert.equal(r.status, 404, r.text);
      assert.equal(await inferenceCalls(u.token), 0);
    });
  });
}
