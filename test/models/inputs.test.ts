// The inputs of the model job types, checked at submit (issue 22, findings 3 and 4; docs/models.md)
// on both databases: training targets that are not finite or beyond +-1e6 are a 422 at the row,
// and the training file must be the caller's uploaded CSV (404, or 422 at
// payload.input_artifact_id), at /jobs/estimate and /jobs/submit, with nothing reserved; the
// same for mpnn_predict's and /inference/submit's molecule sets. What only the run can see (a
// CSV's targets, a file deleted since submit) ends the job `error` as the user's input problem:
// charged its runtime, never reported as a platform fault, no model registered.
// Run: node --import tsx --test test/models/inputs.test.ts
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));
const TINY = { depth: 2, hidden_size: 32, ffn_layers: 1, epochs: 2, batch_size: 16 };

for (const backend of BACKENDS) {
  describe(`model job inputs [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const trainCsv = (targets: (i: number) => string | number) => ['smiles,y', ...ESOL.slice(0, 60).map((r, i) => `${r.smiles},${targets(i)}`)].join('\n');

    /** Nothing was reserved or created for the user. */
    async function nothingWritten(token: string, funds: number) {
      const w = (await h.req('GET', '/api/v1/wallet', { token })).body;
      assert.deepEqual([w.reserved_usd, w.available_usd], [0, funds]);
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token })).body.total, 0);
    }

    async function refused(token: string, jobType: string, payload: Record<string, unknown>, status: number) {
      const answers = [];
      for (const route of ['estimate', 'submit']) {
        const r = await h.req('POST', `/api/v1/jobs/${route}`, { token, body: { job_type: jobType, payload, ...(route === 'submit' ? { job_name: 'x' } : {}) } });
        assert.equal(r.status, status, `${route}: ${r.text}`);
        answers.push(r.body);
      }
      return answers;
    }

    /** Asserts the job ended `error` for its input; returns what it was charged (micro-dollars). */
    async function endedAsInputError(token: string, pid: string, why: RegExp): Promise<number> {
      const done = await h.waitForJob(token, pid, undefined, 120_000);
      assert.equal(done.status, 'error');
      assert.match(done.message ?? '', why);
      assert.doesNotMatch(done.message ?? '', /platform fault/);
      // Charged its runtime (a platform fault is charged nothing), to the micro-dollar, never more than its reservation.
      const { rows } = await h.services.db.query<{ charged_micros: string; runtime_seconds: number; rate_micros_per_sec: string; reserved_micros: string }>(
        'SELECT charged_micros, runtime_seconds, rate_micros_per_sec, reserved_micros FROM jobs WHERE id = $1',
        [pid],
      );
      const j = rows[0]!;
      assert.equal(Number(j.charged_micros), Math.min(Math.floor(j.runtime_seconds * Number(j.rate_micros_per_sec) + 0.5), Number(j.reserved_micros)));
      return Number(j.charged_micros);
    }

    it('inline targets that are not finite numbers, beyond +-1e6 or not 0/1 for classification: 422 at each row, nothing reserved', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const huge = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i % 2 ? -1e308 : 1e308 }));
      for (const body of await refused(u.token, 'mpnn_train', { model_name: 'huge', task: 'regression', rows: huge, hyperparameters: TINY }, 422)) {
        assert.equal(body.errors.length, 60);
        assert.deepEqual(body.errors[1], {
          type: 'ml_target_out_of_range',
          loc: ['body', 'payload', 'rows', 1, 'target'],
          msg: 'the target must be within -1000000 and 1000000 (log-transform values as large as this)',
          input: -1e308,
        });
      }
      const odd = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: ['Infinity', '1e309', 'high', 1e6 + 1][i] ?? r.target }));
      const [estimate] = await refused(u.token, 'mpnn_train', { model_name: 'odd', task: 'regression', rows: odd }, 422);
      assert.deepEqual(
        estimate.errors.map((e: { type: string; loc: unknown[] }) => [e.type, e.loc.slice(3).join('.')]),
        [
          ['ml_target_not_numeric', '0.target'],
          ['ml_target_not_numeric', '1.target'],
          ['ml_target_not_numeric', '2.target'],
          ['ml_target_out_of_range', '3.target'],
        ],
      );
      const cls = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i === 7 ? 2 : i % 2 }));
      const [c] = await refused(u.token, 'mpnn_train', { model_name: 'cls', task: 'classification', rows: cls }, 422);
      assert.deepEqual(
        c.errors.map((e: { type: string; loc: unknown[] }) => [e.type, e.loc]),
        [['ml_target_not_binary', ['body', 'payload', 'rows', 7, 'target']]],
      );
      await nothingWritten(u.token, 5);
    });

    it('a training CSV with targets of +-1e308 ends the job `error` at the first bad row: charged, not a platform fault, nothing registered', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const file = await uploadArtifact(
        h,
        u.token,
        'file',
        'huge.csv',
        trainCsv((i) => (i % 2 ? '-1e308' : '1e308')),
      );
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'huge', job_type: 'mpnn_train', payload: { model_name: 'huge', task: 'regression', input_artifact_id: file, target_column: 'y', hyperparameters: TINY } },
      });
      assert.equal(r.status, 200, r.text);
      const charged = await endedAsInputError(u.token, r.body.process_id, /^rows\.0\.target: the target must be within -1000000 and 1000000/);
      assert.ok(charged > 0, 'the training thread ran (it starts in about 0.3 s): a charge');
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, []);
    });

    it("the training file: another user's, an unknown id or not an id is 404; an artifact that is no uploaded CSV is a 422 at payload.input_artifact_id", async () => {
      const u = await h.user();
      const other = await h.user();
      await h.credit(u.userId, 5);
      const theirs = await uploadArtifact(
        h,
        other.token,
        'file',
        'train.csv',
        trainCsv((i) => i),
      );
      const payload = (id: string) => ({ model_name: 'm', task: 'regression', input_artifact_id: id, target_column: 'y', hyperparameters: TINY });
      for (const id of [theirs, crypto.randomUUID(), 'not-a-uuid']) {
        for (const body of await refused(u.token, 'mpnn_train', payload(id), 404)) {
          assert.equal(body.detail, `artifact ${id} not found`);
          assert.deepEqual(body.errors, [{ type: 'not_found', loc: ['body', 'payload', 'input_artifact_id'], msg: `artifact ${id} not found`, input: id }]);
        }
      }
      const molecules = await uploadArtifact(h, u.token, 'molecules', 'set.smi', 'CCO a\nCCN b\n');
      const binary = await uploadArtifact(h, u.token, 'file', 'weights.bin', 'smiles,y\nCCO,1\n');
      for (const [id, what] of [
        [molecules, 'a molecule set (port molecules: 2 molecules with their ids and names, no target values)'],
        [binary, 'a file of format "bin"'],
      ] as const) {
        for (const body of await refused(u.token, 'mpnn_train', payload(id), 422)) {
          assert.deepEqual(body.errors, [
            {
              type: 'artifact_type',
              loc: ['body', 'payload', 'input_artifact_id'],
              msg: `artifact ${id} is ${what}, not an uploaded CSV file (POST /artifacts with mode=file and a .csv file)`,
              input: id,
            },
          ]);
        }
      }
      const many = await h.req('POST', '/api/v1/jobs/submit-multiple', {
        token: u.token,
        body: { jobs: [{ job_name: 'x', job_type: 'mpnn_train', payload: payload(molecules) }] },
      });
      assert.equal(many.status, 422, many.text);
      assert.deepEqual(many.body.errors[0].loc, ['body', 'jobs', 0, 'payload', 'input_artifact_id']);

      // A workflow step: checked when the spec gives the id, and at the run when an input without a default will.
      const spec = (table: Record<string, unknown>) => ({
        name: 'train',
        inputs: { table: { type: 'string', ...table } },
        steps: [{ id: 'train', job_type: 'mpnn_train', params: { ...payload('$inputs.table'), input_artifact_id: '$inputs.table' } }],
      });
      const given = await h.req('POST', '/api/v1/workflows/validate', { token: u.token, body: { spec: spec({ default: theirs }) } });
      assert.equal(given.body.valid, false, given.text);
      assert.deepEqual(
        given.body.errors.map((e: { type: string; loc: unknown[] }) => [e.type, e.loc]),
        [['not_found', ['spec', 'steps', 0, 'params', 'input_artifact_id']]],
      );
      const later = await h.req('POST', '/api/v1/workflows/validate', { token: u.token, body: { spec: spec({}) } });
      assert.equal(later.body.valid, true, later.text);

      // The molecule sets of mpnn_predict and /inference/submit: the caller's own only.
      const set = await uploadArtifact(h, other.token, 'molecules', 'set.smi', 'CCO a\n');
      await refused(u.token, 'mpnn_predict', { model: 'public/esol-logs', input_artifact_id: set }, 404);
      const inf = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'public/esol-logs', input_artifact_id: set } });
      assert.equal(inf.status, 404, inf.text);
      const wrong = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'public/esol-logs', input_artifact_id: binary } });
      assert.deepEqual([wrong.status, wrong.body.errors?.[0]?.loc], [422, ['body', 'input_artifact_id']]);
      assert.equal((await h.req('GET', '/api/v1/usage', { token: u.token })).body.calls.inference, 0);
      await nothingWritten(u.token, 5);
    });

    it('an input deleted between submit and run ends the job `error` as an input problem (charged, not a platform fault)', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const file = await uploadArtifact(
        h,
        u.token,
        'file',
        'train.csv',
        trainCsv((i) => ESOL[i]!.target),
      );
      const set = await uploadArtifact(h, u.token, 'molecules', 'set.smi', 'CCO a\nCCN b\n');
      // The one job slot is busy while the inputs are deleted.
      const wait = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'wait', job_type: 'wait', payload: { seconds: 2 } } });
      assert.equal(wait.status, 200, wait.text);
      const train = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'late', job_type: 'mpnn_train', payload: { model_name: 'late', task: 'regression', input_artifact_id: file, target_column: 'y', hyperparameters: TINY } },
      });
      const predict = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'p', job_type: 'mpnn_predict', payload: { model: 'public/esol-logs', input_artifact_id: set } },
      });
      assert.deepEqual([train.status, predict.status], [200, 200], train.text + predict.text);
      for (const id of [file, set]) assert.equal((await h.req('DELETE', `/api/v1/artifacts/${id}`, { token: u.token })).status, 200);
      await endedAsInputError(u.token, train.body.process_id, new RegExp(`^input_artifact_id: artifact ${file} not found`));
      await endedAsInputError(u.token, predict.body.process_id, new RegExp(`^input_artifact_id: artifact ${set} not found`));
      assert.deepEqual((await h.req('GET', '/api/v1/user-models/mpnn', { token: u.token })).body.model_names, []);
    });
  });
}
