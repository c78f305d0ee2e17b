// An `mpnn_train` job from an uploaded CSV (issue 25, point 3; docs/models.md, "Training";
// docs/jobs.md, "Calibration of the training estimate"), on both databases:
// - the file's rows are counted at /jobs/estimate and /jobs/submit, and the estimate follows the
//   rows, epochs, hidden size and ensemble size: a 60-row training is estimated within a sane
//   factor of its runtime, and reserves a few times its charge, not thirteen;
// - a column the CSV does not have, a molecule set, a file of SMILES and names, too few rows or a
//   file that is not CSV are 422s at the field, naming the columns the file has; nothing is
//   reserved or created;
// - reading a large file at submit lets the event loop turn (docs/reliability.md).
// Run: node --import tsx --test test/models/training-file.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  name: r['Compound ID']!,
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));
const TINY = { depth: 2, hidden_size: 32, ffn_layers: 1, epochs: 2, batch_size: 16 };
const csvOf = (n: number, from = 0) => ['name,SMILES,logS', ...ESOL.slice(from, from + n).map((r) => `"${r.name}",${r.smiles},${r.target}`)].join('\n');

for (const backend of onlyOn('pglite')) {
  describe(`mpnn_train from an uploaded CSV [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const estimate = async (token: string, payload: Record<string, unknown>) => {
      const r = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'mpnn_train', payload } });
      assert.equal(r.status, 200, r.text);
      return r.body as { expected_runtime_sec: number; cost: number; assumptions: Record<string, unknown> };
    };

    it('counts the rows at estimate and submit; the estimate grows with rows, epochs, hidden size and ensemble size, and is within a sane factor of the runtime', async (t) => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const small = await uploadArtifact(h, u.token, 'file', 'small.csv', csvOf(60));
      const large = await uploadArtifact(h, u.token, 'file', 'large.csv', csvOf(600));
      const base = { model_name: 'sol', task: 'regression', target_column: 'logS', smiles_column: 'smiles' };
      const e60 = await estimate(u.token, { ...base, input_artifact_id: small, hyperparameters: TINY });
      const e600 = await estimate(u.token, { ...base, input_artifact_id: large, hyperparameters: TINY });
      assert.deepEqual([e60.assumptions.rows, e600.assumptions.rows], [60, 600]);
      assert.equal(e60.assumptions.input, 'artifact (60 data rows counted)');
      // The file's rows are estimated as the same rows inline.
      const inline = await estimate(u.token, {
        model_name: 'sol',
        task: 'regression',
        rows: ESOL.slice(0, 60).map(({ smiles, target }) => ({ smiles, target })),
        hyperparameters: TINY,
      });
      assert.equal(inline.expected_runtime_sec, e60.expected_runtime_sec);
      assert.ok(e600.expected_runtime_sec > e60.expected_runtime_sec, `rows: ${e600.expected_runtime_sec} > ${e60.expected_runtime_sec}`);
      const grows = async (change: Record<string, number>) =>
        (await estimate(u.token, { ...base, input_artifact_id: large, hyperparameters: { ...TINY, ...change } })).expected_runtime_sec;
      // Epochs, hidden size and ensemble size: each adds work; epochs add it in proportion.
      const e = e600.expected_runtime_sec;
      const epochs4 = await grows({ epochs: 4 });
      const epochs20 = await grows({ epochs: 20 });
      assert.ok(epochs4 > e && epochs20 > epochs4, `epochs 2, 4, 20: ${e}, ${epochs4}, ${epochs20}`);
      assert.ok(Math.abs(epochs20 - e - 9 * (epochs4 - e)) < 0.01 * (epochs20 - e) + 0.01, `18 more epochs cost 9 times 2 more: ${epochs20 - e} vs ${epochs4 - e}`);
      const h300 = await grows({ hidden_size: 300 });
      assert.ok(h300 > e, `hidden size 300: ${h300} vs 32: ${e}`);
      const members = await grows({ epochs: 20, ensemble_size: 3 });
      assert.ok(members - e > 3 * (epochs20 - e) - 0.01, `3 members of 20 epochs: ${members} vs 1: ${epochs20}`);
      // chemprop's defaults (hidden size 300, 50 epochs) on 600 rows: minutes, not the hour of a 5,000-row guess.
      const defaults = await estimate(u.token, { ...base, input_artifact_id: large });
      assert.equal(defaults.assumptions.rows, 600);
      assert.ok(defaults.expected_runtime_sec > 30 && defaults.expected_runtime_sec < 1800, `defaults on 600 rows: ${defaults.expected_runtime_sec} s`);

      // The 60-row training itself: its runtime against the estimate (wide bounds: the machine is shared).
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'sol', job_type: 'mpnn_train', payload: { ...base, input_artifact_id: small, hyperparameters: TINY } },
      });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(u.token, r.body.process_id, undefined, 180_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const { rows } = await h.services.db.query<{ runtime_seconds: number; charged_micros: string; reserved_micros: string; expected_runtime_sec: number }>(
        'SELECT runtime_seconds, charged_micros, reserved_micros, expected_runtime_sec FROM jobs WHERE id = $1',
        [r.body.process_id],
      );
      const j = rows[0]!;
      assert.equal(j.expected_runtime_sec, e60.expected_runtime_sec);
      const ratio = j.expected_runtime_sec / j.runtime_seconds;
      t.diagnostic(
        `60 rows, TINY: estimate ${j.expected_runtime_sec} s, runtime ${j.runtime_seconds} s (x${ratio.toFixed(2)}); 600 rows: ${e600.expected_runtime_sec} s; 600 rows at 20 epochs: ${epochs20} s; 600 rows at chemprop's defaults: ${defaults.expected_runtime_sec} s`,
      );
      assert.ok(ratio > 0.3 && ratio < 4, `estimate ${j.expected_runtime_sec} s for a runtime of ${j.runtime_seconds} s (x${ratio.toFixed(2)})`);
      assert.ok(Number(j.reserved_micros) < 4 * Number(j.charged_micros), `reserved ${j.reserved_micros} for a charge of ${j.charged_micros}`);
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      assert.deepEqual([result.data.rows, result.data.used], [60, 60]);
    });

    it('a column the file does not have, a molecule set, a file of SMILES and names, too few rows or no CSV: a 422 at the field naming the columns, nothing reserved', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const file = await uploadArtifact(h, u.token, 'file', 'train.csv', csvOf(60));
      const refused = async (payload: Record<string, unknown>) => {
        const answers = [];
        for (const route of ['estimate', 'submit']) {
          const r = await h.req('POST', `/api/v1/jobs/${route}`, {
            token: u.token,
            body: { job_type: 'mpnn_train', payload: { model_name: 'm', task: 'regression', hyperparameters: TINY, ...payload }, ...(route === 'submit' ? { job_name: 'x' } : {}) },
          });
          assert.equal(r.status, 422, `${route}: ${r.text}`);
          answers.push(r.body.errors as { type: string; loc: unknown[]; msg: string; input: unknown }[]);
        }
        assert.deepEqual(answers[0], answers[1]);
        return answers[0]!;
      };
      const columns = '"name", "SMILES", "logS"';
      assert.deepEqual(await refused({ input_artifact_id: file, target_column: 'pIC50' }), [
        {
          type: 'column_not_found',
          loc: ['body', 'payload', 'target_column'],
          msg: `the training file has no column "pIC50"; its columns are ${columns}`,
          input: 'pIC50',
        },
      ]);
      // Both at once; the SMILES column is found in any case ("smiles" is the default), the target's exact name first.
      assert.deepEqual(
        (await refused({ input_artifact_id: file, smiles_column: 'structure', target_column: 'y' })).map((e) => [e.loc.slice(2).join('.'), e.msg]),
        [
          ['smiles_column', `the training file has no column "structure" (any case); its columns are ${columns}`],
          ['target_column', `the training file has no column "y"; its columns are ${columns}`],
        ],
      );

      // A .smi molecule set: uploaded as a molecule set, or as a file of SMILES and names.
      const smi = ESOL.slice(0, 60)
        .map((r) => `${r.smiles}\t${r.name}`)
        .join('\n');
      const set = await uploadArtifact(h, u.token, 'molecules', 'set.smi', smi);
      assert.deepEqual(await refused({ input_artifact_id: set, target_column: 'logS' }), [
        {
          type: 'artifact_type',
          loc: ['body', 'payload', 'input_artifact_id'],
          msg: `artifact ${set} is a molecule set (port molecules: 60 molecules with their ids and names, no target values), not an uploaded CSV file (POST /artifacts with mode=file and a .csv file)`,
          input: set,
        },
      ]);
      const asText = await uploadArtifact(h, u.token, 'file', 'set.txt', smi);
      const [noSmiles, noTarget] = await refused({ input_artifact_id: asText, target_column: 'logS' });
      assert.deepEqual(noSmiles!.loc, ['body', 'payload', 'smiles_column']);
      assert.equal(
        noSmiles!.msg,
        `the training file has no column "smiles" (any case); its columns are ${JSON.stringify(`${ESOL[0]!.smiles}\t${ESOL[0]!.name}`)}. Its first line is one tab-separated field: a training file is comma-separated, its first line naming the columns (a .smi molecule set of SMILES and names has no target values to train on)`,
      );
      assert.deepEqual(noTarget!.loc, ['body', 'payload', 'target_column']);
      const headless = await uploadArtifact(h, u.token, 'file', 'headless.csv', csvOf(60).split('\n').slice(1).join('\n'));
      const [first] = await refused({ input_artifact_id: headless, target_column: 'logS' });
      assert.match(first!.msg, /Its first line looks like a molecule, not a header/);

      const few = await uploadArtifact(h, u.token, 'file', 'few.csv', csvOf(49));
      assert.deepEqual(
        (await refused({ input_artifact_id: few, target_column: 'logS' })).map((e) => [e.type, e.loc.slice(2).join('.'), e.msg]),
        [['too_short', 'input_artifact_id', 'the training file has 49 data rows; training takes at least 50 (rows RDKit cannot read and repeated structures do not count)']],
      );
      const fewInline = await refused({ rows: ESOL.slice(0, 30).map(({ smiles, target }) => ({ smiles, target })) });
      assert.deepEqual(
        fewInline.map((e) => [e.type, e.loc.slice(2).join('.')]),
        [['too_short', 'rows']],
      );
      const broken = await uploadArtifact(h, u.token, 'file', 'broken.csv', `smiles,logS\n"CCO,1\n${csvOf(60)}`);
      const [notCsv] = await refused({ input_artifact_id: broken, target_column: 'logS' });
      assert.deepEqual([notCsv!.type, notCsv!.loc.slice(2)], ['csv_invalid', ['input_artifact_id']]);
      assert.match(notCsv!.msg, /^the training file is not CSV: /);
      const empty = await uploadArtifact(h, u.token, 'file', 'empty.csv', '\n\n');
      assert.deepEqual(
        (await refused({ input_artifact_id: empty, target_column: 'logS' })).map((e) => e.msg),
        ['the training file is empty'],
      );

      const w = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      assert.deepEqual([w.reserved_usd, w.available_usd], [0, 5]);
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.total, 0);
    });

    it('a file of more than 50,000 rows is a 422 at submit; reading it lets the event loop turn every 16 KiB', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const lines = ['smiles,logS'];
      for (let i = 0; i < 50_001; i++) lines.push(`${ESOL[i % ESOL.length]!.smiles},${i % 7}`);
      const text = lines.join('\n');
      const big = await uploadArtifact(h, u.token, 'file', 'big.csv', text);
      let turns = 0;
      let turning = true;
      const spin = () => {
        turns++;
        if (turning) setImmediate(spin);
      };
      setImmediate(spin);
      const r = await h.req('POST', '/api/v1/jobs/estimate', {
        token: u.token,
        body: { job_type: 'mpnn_train', payload: { model_name: 'm', task: 'regression', input_artifact_id: big, target_column: 'logS' } },
      });
      turning = false;
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', 'input_artifact_id']);
      assert.equal(r.body.errors[0].msg, 'the training file has more than 50000 rows; at most 50000');
      const pieces = Math.floor(Buffer.byteLength(text) / (16 * 1024));
      assert.ok(turns >= pieces, `${turns} turns of the event loop while ${pieces} pieces of 16 KiB were read`);
    });
  });
}
