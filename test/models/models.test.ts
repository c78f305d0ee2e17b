// Models through the API (docs/models.md) on both databases: an `mpnn_train` job trains a tiny
// D-MPNN on ESOL rows with progress per epoch and registers it under the caller's name (409
// without overwrite; overwrite replaces it); GET/DELETE /user-models/mpnn; predictions with the
// caller's model and with a public model, synchronous (up to 100) and asynchronous (CSV and JSON
// pages), counted against the allowance; models are private; bad training data is a 422 at
// submit or ends the job `error` with the reason, and registers nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));
const TINY = { depth: 2, hidden_size: 32, ffn_layers: 1, epochs: 3, batch_size: 16 };

for (const backend of onlyOn('postgres')) {
  describe(`models and inference [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    async function train(token: string, body: Record<string, unknown>) {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'train', job_type: 'mpnn_train', payload: body } });
      return r;
    }

    it('trains a model as a job (progress per epoch), registers it, predicts with it, and deletes it', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = await train(u.token, {
        model_name: 'esol-tiny',
        task: 'regression',
        rows: ESOL.slice(0, 80),
        target_name: 'logS',
        units: 'log10(mol/L)',
        hyperparameters: TINY,
      });
      assert.equal(submit.status, 200, submit.text);
      const pid = submit.body.process_id as string;
      let sawEpoch = false;
      for (let i = 0; i < 600; i++) {
        const s = await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token });
        if (s.body.progress && typeof s.body.progress === 'object' && 'epoch' in s.body.progress) sawEpoch = true;
        if (['completed', 'error', 'cancelled'].includes(s.body.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const done = await h.waitForJob(u.token, pid);
      assert.equal(done.status, 'completed', done.message ?? '');
      assert.ok(sawEpoch, '/jobs/status showed epoch progress');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token })).body;
      assert.equal(result.learning_curve.length, 3);
      assert.ok(result.test_metrics.rmse > 0 && Number.isFinite(result.test_metrics.r2));
      assert.equal(result.test_predictions.length, result.model_card.n_test);
      assert.equal(result.model_card.n_train + result.model_card.n_val + result.model_card.n_test, 80);

      const listed = await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token });
      assert.deepEqual(listed.body.model_names, ['esol-tiny']);
      const info = listed.body.model_info['esol-tiny'];
      assert.deepEqual([info.task, info.target, info.units, info.trained_by_process_id, info.ensemble_size], ['regression', 'logS', 'log10(mol/L)', pid, 1]);
      assert.ok(info.size_bytes > 1000 && info.metrics.rmse > 0);
      assert.equal((await h.req('GET', '/api/v1/user-models/mpnn?model_name=nope', { token: u.token })).status, 404);

      // The name is taken: 409 at submit without overwrite.
      const again = await train(u.token, { model_name: 'esol-tiny', task: 'regression', rows: ESOL.slice(0, 80), hyperparameters: TINY });
      assert.deepEqual([again.status, again.body.type], [409, '/api/v1/problems/model-exists']);

      const p = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/esol-tiny', smiles: ['CCO', 'c1ccccc1', 'not smiles'] } });
      assert.equal(p.status, 200, p.text);
      assert.equal(p.body.predictions.length, 3);
      assert.ok(Number.isFinite(p.body.predictions[0].prediction));
      assert.equal(p.body.predictions[0].uncertainty, null, 'a single model has no ensemble spread');
      assert.equal(typeof p.body.predictions[0].in_domain, 'boolean');
      assert.ok(p.body.predictions[2].error && p.body.predictions[2].prediction === null);
      assert.equal((await h.req('GET', '/api/v1/usage', { token: u.token })).body.calls.inference, 1);

      // Private: another user sees no model and cannot predict with it.
      const other = await h.user();
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: other.token })).body.model_names, []);
      assert.equal((await h.req('POST', '/api/v1/inference/predict', { token: other.token, body: { model: 'user/esol-tiny', smiles: ['CCO'] } })).status, 404);
      assert.equal((await h.req('DELETE', '/api/v1/user-models/mpnn?model_name=esol-tiny', { token: other.token })).status, 404);

      const del = await h.req('DELETE', '/api/v1/user-models/mpnn?model_name=esol-tiny', { token: u.token });
      assert.equal(del.status, 200, del.text);
      assert.equal((await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/esol-tiny', smiles: ['CCO'] } })).status, 404);
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, []);
    });

    it('molecule features and early stopping are options: the card states the features, and predictions compute them', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const submit = await train(u.token, {
        model_name: 'featured',
        task: 'regression',
        rows: ESOL.slice(0, 80),
        hyperparameters: { ...TINY, epochs: 8, patience: 2, molecule_features: 'rdkit_2d' },
      });
      assert.equal(submit.status, 200, submit.text);
      assert.equal((await h.waitForJob(u.token, submit.body.process_id)).status, 'completed');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${submit.body.process_id}`, { token: u.token })).body;
      const card = result.model_card;
      assert.equal(card.molecule_features.set, 'rdkit_2d');
      assert.equal(card.molecule_features.descriptors.length, 43);
      assert.equal(card.architecture.extra_features, 43);
      assert.deepEqual([card.hyperparameters.molecule_features, card.hyperparameters.patience], ['rdkit_2d', 2]);
      // early stopping: a curve ends at most 2 epochs after its best epoch
      const curve = result.learning_curve as { epoch: number; val_metric: number }[];
      const best = curve.reduce((b, e) => (e.val_metric < b.val_metric ? e : b));
      assert.ok(curve.length <= Math.min(8, best.epoch + 2), `${curve.length} epochs, best ${best.epoch}`);
      // the API's predictions compute the features as training did: the test predictions again
      const tests = result.test_predictions as { smiles: string; prediction: number }[];
      const p = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/featured', smiles: tests.map((t) => t.smiles) } });
      assert.equal(p.status, 200, p.text);
      tests.forEach((t, i) => assert.ok(Math.abs(p.body.predictions[i].prediction - t.prediction) < 1e-5, `${t.smiles}: ${p.body.predictions[i].prediction} vs ${t.prediction}`));
      const bad = await train(u.token, { model_name: 'x', task: 'regression', rows: ESOL.slice(0, 80), hyperparameters: { molecule_features: 'morgan' } });
      assert.equal(bad.status, 422);
      assert.match(JSON.stringify(bad.body), /molecule_features/);
    });

    it('an ensemble reports its spread; overwrite replaces a model; asynchronous predictions come as CSV and JSON pages', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const first = await train(u.token, { model_name: 'ens', task: 'regression', rows: ESOL.slice(0, 60), hyperparameters: { ...TINY, ensemble_size: 2 } });
      assert.equal((await h.waitForJob(u.token, first.body.process_id)).status, 'completed');
      const p = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'user/ens', smiles: ['CCO'] } });
      assert.ok(p.body.predictions[0].uncertainty > 0, 'two members disagree a little');
      const replaced = await train(u.token, { model_name: 'ens', task: 'regression', rows: ESOL.slice(60, 120), overwrite: true, hyperparameters: TINY });
      assert.equal((await h.waitForJob(u.token, replaced.body.process_id)).status, 'completed');
      const info = (await h.req('GET', '/api/v1/user-models/mpnn?model_name=ens', { token: u.token })).body.model_info.ens;
      assert.deepEqual([info.ensemble_size, info.trained_by_process_id], [1, replaced.body.process_id]);

      const smiles = ESOL.slice(200, 450).map((r) => r.smiles);
      const s = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'user/ens', smiles } });
      assert.equal(s.status, 200, s.text);
      const rid = s.body.request_id as string;
      let st: { status: string; counted: number; counts: unknown } = { status: '', counted: 0, counts: null };
      for (let i = 0; i < 600 && !['completed', 'error'].includes(st.status); i++) {
        st = (await h.req('GET', `/api/v1/inference/requests/${rid}`, { token: u.token })).body;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(st.status, 'completed');
      assert.equal(st.counted, 3);
      assert.deepEqual(st.counts, { molecules: 250, ok: 250, failed: 0 });
      const csv = await fetch(`${h.base}/api/v1/inference/requests/${rid}/result`, { headers: { authorization: `Bearer ${u.token}` } });
      assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
      const lines = (await csv.text()).trim().split('\n');
      assert.equal(lines[0], 'smiles,prediction,uncertainty,in_domain,error');
      assert.equal(lines.length, 251);
      const page = await h.req('GET', `/api/v1/inference/requests/${rid}/result?format=json&limit=100&offset=200`, { token: u.token });
      assert.deepEqual([page.body.total, page.body.predictions.length, page.body.predictions[0].smiles], [250, 50, smiles[200]]);
      assert.equal((await h.req('GET', '/api/v1/usage', { token: u.token })).body.calls.inference, 4);
      assert.equal((await h.req('GET', `/api/v1/inference/requests/${rid}`, { token: (await h.user()).token })).status, 404);
    });

    it('bad training data ends the job error with the reason and registers nothing; bad inference input is a 422', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      // Fewer than 50 rows cannot train: refused at submit (test/models/training-file.test.ts has the file's checks).
      const few = await train(u.token, { model_name: 'few', task: 'regression', rows: ESOL.slice(0, 30), hyperparameters: TINY });
      assert.deepEqual([few.status, few.body.errors?.[0]?.loc], [422, ['body', 'payload', 'rows']], few.text);
      // Inline targets are checked at submit (test/models/inputs.test.ts has the rest).
      const cases: [Record<string, unknown>, string][] = [
        [{ model_name: 'nan', task: 'regression', rows: ESOL.slice(0, 60).map((r, i) => (i === 3 ? { ...r, target: 'high' } : r)) }, 'ml_target_not_numeric'],
        [{ model_name: 'cls', task: 'classification', rows: ESOL.slice(0, 60) }, 'ml_target_not_binary'],
      ];
      for (const [payload, type] of cases) {
        const r = await train(u.token, { ...payload, hyperparameters: TINY });
        assert.deepEqual([r.status, r.body.errors?.[0]?.type], [422, type], r.text);
      }
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, []);

      // A CSV upload: unreadable SMILES and duplicates are skipped, counted and reported; a missing column is a 422 at submit.
      const rows = ESOL.slice(0, 70).map((r) => `${r.smiles},${r.target}`);
      rows.splice(5, 0, 'not-a-smiles,1.0', `${ESOL[0]!.smiles},-9`);
      const artifactId = await uploadArtifact(h, u.token, 'file', 'train.csv', ['smiles,logS', ...rows].join('\n'));
      const csvJob = await train(u.token, { model_name: 'from-csv', task: 'regression', input_artifact_id: artifactId, target_column: 'logS', hyperparameters: TINY });
      const csvDone = await h.waitForJob(u.token, csvJob.body.process_id);
      assert.equal(csvDone.status, 'completed', csvDone.message ?? '');
      const data = (await h.req('GET', `/api/v1/jobs/result?process_id=${csvJob.body.process_id}`, { token: u.token })).body.data;
      assert.deepEqual([data.rows, data.used, data.unreadable, data.duplicates], [72, 70, 1, 1]);
      const noColumn = await train(u.token, { model_name: 'no-col', task: 'regression', input_artifact_id: artifactId, target_column: 'pIC50', hyperparameters: TINY });
      assert.deepEqual([noColumn.status, noColumn.body.errors?.[0]?.loc], [422, ['body', 'payload', 'target_column']], noColumn.text);
      assert.match(noColumn.body.errors[0].msg, /no column "pIC50"; its columns are "smiles", "logS"/);
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, ['from-csv']);
      const both = await train(u.token, { model_name: 'x', task: 'regression' });
      assert.deepEqual([both.status, both.body.errors[0].loc], [422, ['body', 'payload', 'rows']]);
      const many = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'public/esol-logs', smiles: Array(101).fill('C') } });
      assert.equal(many.status, 422);
      assert.match(many.body.errors[0].msg, /POST \/inference\/submit/);
      const unknown = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'public/nope', smiles: ['C'] } });
      assert.equal(unknown.status, 404);
      assert.equal((await h.req('GET', '/api/v1/usage', { token: u.token })).body.calls.inference, 0);
    });

    it('the public models: listed with their cards, callable, and predicting ESOL solubility sensibly', async () => {
      const u = await h.user();
      const pub = await h.req('GET', '/api/v1/models/public', { token: u.token });
      assert.deepEqual(pub.body.models.map((m: { id: string }) => m.id).sort(), ['esol-logs', 'freesolv-dg-hyd']);
      const callable = await h.req('GET', '/api/v1/inference/models', { token: u.token });
      assert.ok(callable.body.models.some((m: { model: string }) => m.model === 'public/esol-logs'));
      const p = await h.req('POST', '/api/v1/inference/predict', {
        token: u.token,
        body: { model: 'public/esol-logs', smiles: ['CCO', 'c1ccc2ccccc2c1', 'Clc1ccc(Cl)c(Cl)c1Cl'] },
      });
      assert.equal(p.status, 200, p.text);
      const [ethanol, naphthalene, tcb] = p.body.predictions.map((x: { prediction: number }) => x.prediction);
      assert.ok(ethanol > naphthalene && naphthalene > tcb, `more soluble first: ${ethanol}, ${naphthalene}, ${tcb}`);
      assert.ok(p.body.predictions[0].uncertainty > 0, 'the public models are ensembles');
    });
  });
}
