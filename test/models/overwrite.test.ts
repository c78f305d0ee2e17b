// A model and the result of the job that trained it share one artifact (issue 22, finding 7;
// docs/models.md, "Users' models"), on both databases: replacing or deleting the model keeps the
// job's result readable until the job is deleted, which then deletes it; deleting the job first
// keeps the model, and the model's end then deletes the weights. The orphan sweep removes only
// objects without a row, and the storage usage counts each artifact while a row holds it.
// Run: node --import tsx --test test/models/overwrite.test.ts
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
  describe(`models and their jobs' results [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    it('overwriting or deleting a model keeps the result of the job that trained it until that job is deleted', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const get = (path: string) => h.req('GET', `/api/v1${path}`, { token: u.token });
      const del = (path: string) => h.req('DELETE', `/api/v1${path}`, { token: u.token });
      const usage = async () => (await get('/artifacts/usage')).body as { artifact_count: number; used_bytes: number };
      const predicts = async (name: string) => (await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: `user/${name}`, smiles: ['CCO'] } })).status;
      async function train(name: string, from: number, overwrite = false) {
        const r = await h.req('POST', '/api/v1/jobs/submit', {
          token: u.token,
          body: { job_name: name, job_type: 'mpnn_train', payload: { model_name: name, task: 'regression', rows: ESOL.slice(from, from + 60), overwrite, hyperparameters: TINY } },
        });
        assert.equal(r.status, 200, r.text);
        const done = await h.waitForJob(u.token, r.body.process_id, undefined, 120_000);
        assert.equal(done.status, 'completed', done.message ?? '');
        return { pid: r.body.process_id as string, artifact: done.result_artifact_id! };
      }

      const j1 = await train('m', 0);
      const result1 = await get(`/jobs/result?process_id=${j1.pid}`);
      assert.equal(result1.status, 200);
      const size1 = (await get(`/artifacts/${j1.artifact}`)).body.size_bytes as number;
      const j2 = await train('m', 60, true);
      assert.equal((await get('/user-models/mpnn?model_name=m')).body.model_info.m.trained_by_process_id, j2.pid);

      // The replaced model's weights are the earlier job's result: still there, and its job's again.
      const again = await get(`/jobs/result?process_id=${j1.pid}`);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body, result1.body);
      assert.equal((await get(`/artifacts/${j1.artifact}`)).body.job_id, j1.pid);
      assert.equal((await get(`/artifacts/${j2.artifact}`)).body.job_id, null, 'the model holds the new weights');
      assert.equal((await usage()).artifact_count, 2);

      // The orphan sweep leaves both: each object has its row.
      assert.equal(await h.services.artifacts.sweepOrphans({ minAgeMs: 0 }), 0);
      assert.equal((await get(`/jobs/result?process_id=${j1.pid}`)).status, 200);
      assert.equal(await predicts('m'), 200);

      // Deleting the earlier job deletes its result with it.
      const before1 = await usage();
      assert.equal((await del(`/jobs/delete?process_id=${j1.pid}`)).status, 200);
      assert.equal((await get(`/artifacts/${j1.artifact}`)).status, 404);
      assert.deepEqual(await usage(), { ...before1, artifact_count: 1, used_bytes: before1.used_bytes - size1 });

      // Deleting the model keeps the result of the job that trained it; deleting that job then deletes it.
      assert.equal((await del('/user-models/mpnn?model_name=m')).status, 200);
      assert.equal(await predicts('m'), 404);
      assert.equal((await get(`/jobs/result?process_id=${j2.pid}`)).status, 200);
      assert.equal((await get(`/artifacts/${j2.artifact}`)).body.job_id, j2.pid);
      assert.equal((await del(`/jobs/delete?process_id=${j2.pid}`)).status, 200);
      assert.equal((await get(`/artifacts/${j2.artifact}`)).status, 404);
      assert.equal((await usage()).artifact_count, 0);

      // The job deleted first: the model keeps its weights, and its delete then deletes them (row and object).
      const j3 = await train('n', 120);
      assert.equal((await del(`/jobs/delete?process_id=${j3.pid}`)).status, 200);
      assert.equal(await predicts('n'), 200);
      assert.equal((await get(`/artifacts/${j3.artifact}`)).body.job_id, null);
      assert.equal((await del('/user-models/mpnn?model_name=n')).status, 200);
      assert.equal((await get(`/artifacts/${j3.artifact}`)).status, 404);

      // ...and an overwrite then deletes the replaced weights' row, leaving the object to the sweep.
      const j4 = await train('p', 180);
      assert.equal((await del(`/jobs/delete?process_id=${j4.pid}`)).status, 200);
      const j5 = await train('p', 240, true);
      assert.equal((await get(`/artifacts/${j4.artifact}`)).status, 404);
      assert.equal(await predicts('p'), 200);
      assert.deepEqual([(await usage()).artifact_count, (await get(`/artifacts/${j5.artifact}`)).body.job_id], [1, null]);
      assert.equal(await h.services.artifacts.sweepOrphans({ minAgeMs: 0 }), 1, "the replaced weights' object, and nothing else");
      assert.equal(await predicts('p'), 200);
      assert.equal((await get(`/jobs/result?process_id=${j5.pid}`)).status, 200);
    });
  });
}
