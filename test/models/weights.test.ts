// A model's weights artifact cannot be deleted from under the model (docs/artifacts.md, "Deleting";
// docs/models.md, "Users' models"), on both databases: DELETE /artifacts/{id} of the artifact that
// holds a registered model's weights is a 409 problem naming the model and DELETE /user-models/mpnn,
// and the model keeps predicting; once the model is deleted, the artifact (back with the job that
// trained it) deletes as any other.
// Run: node --import tsx --test test/models/weights.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));
const TINY = { depth: 2, hidden_size: 32, ffn_layers: 1, epochs: 2, batch_size: 16 };

for (const backend of BACKENDS) {
  describe(`a model's weights artifact [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    it('DELETE /artifacts of a model’s weights is a 409 naming the model; the model keeps working; after the model is deleted the artifact deletes', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'train', job_type: 'mpnn_train', payload: { model_name: 'sol.v1', task: 'regression', rows: ESOL.slice(0, 60), hyperparameters: TINY } },
      });
      assert.equal(submit.status, 200, submit.text);
      const pid = submit.body.process_id as string;
      const done = await h.waitForJob(u.token, pid, undefined, 180_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const weights = done.result_artifact_id!;
      assert.ok(weights);

      const del = await h.req('DELETE', `/api/v1/artifacts/${weights}`, { token: u.token });
      assert.equal(del.status, 409, del.text);
      assert.match(del.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.deepEqual([del.body.type, del.body.status, del.body.retry], ['/api/v1/problems/http-409', 409, 'conflict']);
      assert.equal(del.body.detail, `artifact ${weights} holds the weights of model sol.v1; delete the model with DELETE /user-models/mpnn?model_name=sol.v1`);

      // Nothing was deleted: the artifact, the model and its predictions are all there.
      assert.equal((await h.req('GET', `/api/v1/artifacts/${weights}`, { token: u.token })).status, 200);
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, ['sol.v1']);
      const p = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/sol.v1', smiles: ['CCO'] } });
      assert.equal(p.status, 200, p.text);
      assert.ok(Number.isFinite(p.body.predictions[0].prediction));

      // Another user learns nothing: a 404, as for any artifact not theirs.
      const other = await h.user();
      assert.equal((await h.req('DELETE', `/api/v1/artifacts/${weights}`, { token: other.token })).status, 404);

      // The model goes; its weights go back to the job that trained them, and delete like any artifact.
      assert.equal((await h.req('DELETE', '/api/v1/user-models/mpnn?model_name=sol.v1', { token: u.token })).status, 200);
      assert.equal((await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token })).status, 200);
      const again = await h.req('DELETE', `/api/v1/artifacts/${weights}`, { token: u.token });
      assert.equal(again.status, 200, again.text);
      assert.equal((await h.req('GET', `/api/v1/artifacts/${weights}`, { token: u.token })).status, 404);
      assert.equal((await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token })).status, 404);
    });
  });
}
