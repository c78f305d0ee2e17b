// What to cite for a prediction with a public model (issue 25, point 3; docs/papers.md, "The
// API"), on one database (onlyOn): GET /papers/cite of an `mpnn_predict` job, of an asynchronous
// inference request and of a workflow run cites the data set the model was trained on (its
// card's training_data.doi): Delaney 2004 for esol-logs, Mobley and Guthrie 2014 for
// freesolv-dg-hyd; a user's model cites none.
// Run: node --import tsx --test test/papers/datasets.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { parse } from 'csv-parse/sync';
import { publicModels } from '../../src/modules/models/public.js';
import { CATALOG } from '../../src/modules/papers/service.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));

/** The two data sets' papers, as the issue gives them. */
const DELANEY = {
  id: 'delaney-esol-2004',
  year: 2004,
  venue: 'Journal of Chemical Information and Computer Sciences',
  volume: '44',
  issue: '3',
  pages: '1000-1005',
  doi: '10.1021/ci034243x',
};
const MOBLEY = {
  id: 'mobley-freesolv-2014',
  year: 2014,
  venue: 'Journal of Computer-Aided Molecular Design',
  volume: '28',
  issue: '7',
  pages: '711-720',
  doi: '10.1007/s10822-014-9747-x',
};

type Paper = { id: string; year: number; venue: string; volume: string; issue: string; pages: string; doi: string; authors: { family: string }[] };
const pick = (p: Paper) => ({ id: p.id, year: p.year, venue: p.venue, volume: p.volume, issue: p.issue, pages: p.pages, doi: p.doi });

it('every public model card names its data set by a DOI the catalog holds', () => {
  const models = [...publicModels().values()];
  assert.ok(models.length >= 2);
  for (const m of models) {
    const doi = (m.card.training_data as { doi?: string }).doi;
    assert.ok(doi, `${m.card.id}: training_data.doi`);
    assert.equal(CATALOG.filter((p) => p.doi?.toLowerCase() === doi.toLowerCase()).length, 1, `${m.card.id}: ${doi} is one catalog entry`);
  }
  assert.equal((publicModels().get('esol-logs')!.card.training_data as { doi: string }).doi, DELANEY.doi);
  assert.equal((publicModels().get('freesolv-dg-hyd')!.card.training_data as { doi: string }).doi, MOBLEY.doi);
});

for (const backend of onlyOn('postgres')) {
  describe(`citing a prediction's data set [${backend.name}]`, () => {
    let h: Harness;
    let u: Awaited<ReturnType<Harness['user']>>;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 5);
    });
    after(() => h?.close());

    const cite = async (query: string) => {
      const r = await h.req('GET', `/api/v1/papers/cite?${query}`, { token: u.token });
      assert.equal(r.status, 200, r.text);
      return r.body as { job_types: string[]; models?: string[]; methods: string[]; items: Paper[]; bibtex: string };
    };
    const predictJob = async (model: string) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'p', job_type: 'mpnn_predict', payload: { model, smiles: ['CCO', 'c1ccccc1'] } } });
      assert.equal(r.status, 200, r.text);
      assert.equal((await h.waitForJob(u.token, r.body.process_id, undefined, 120_000)).status, 'completed');
      return r.body.process_id as string;
    };

    it('an mpnn_predict job with esol-logs cites Delaney 2004 (and an inference request with freesolv-dg-hyd, Mobley and Guthrie 2014)', async () => {
      const esol = await cite(`process_id=${await predictJob('public/esol-logs')}`);
      assert.deepEqual([esol.job_types, esol.models], [['mpnn_predict'], ['public/esol-logs']]);
      assert.ok(esol.methods.includes('esol') && !esol.methods.includes('freesolv'), esol.methods.join(', '));
      const delaney = esol.items.find((p) => p.id === DELANEY.id);
      assert.ok(delaney, 'Delaney 2004 cited');
      assert.deepEqual(pick(delaney), DELANEY);
      assert.deepEqual(
        delaney.authors.map((a) => a.family),
        ['Delaney'],
      );
      assert.ok(!esol.items.some((p) => p.id === MOBLEY.id));
      // The method papers stay: D-MPNN and RDKit.
      for (const id of ['yang-dmpnn-2019', 'rdkit'])
        assert.ok(
          esol.items.some((p) => p.id === id),
          id,
        );
      const entry = parseBibtex(esol.bibtex).entries.find((e: { key: string }) => e.key === 'delaney_esol_2004');
      assert.ok(entry, 'the BibTeX bundle has Delaney 2004');
      assert.equal(String((entry.fields as Record<string, unknown>).doi), DELANEY.doi);

      const s = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'public/freesolv-dg-hyd', smiles: ['CCO'] } });
      assert.equal(s.status, 200, s.text);
      assert.equal((await h.waitForJob(u.token, s.body.request_id, undefined, 120_000)).status, 'completed');
      const freesolv = await cite(`process_id=${s.body.request_id}`);
      assert.deepEqual(freesolv.models, ['public/freesolv-dg-hyd']);
      const mobley = freesolv.items.find((p) => p.id === MOBLEY.id);
      assert.ok(mobley, 'Mobley and Guthrie 2014 cited');
      assert.deepEqual(pick(mobley), MOBLEY);
      assert.deepEqual(
        mobley.authors.map((a) => a.family),
        ['Mobley', 'Guthrie'],
      );
      assert.ok(!freesolv.items.some((p) => p.id === DELANEY.id));
      // Another account's request is a 404, as any job of theirs.
      const other = await h.user();
      assert.equal((await h.req('GET', `/api/v1/papers/cite?process_id=${s.body.request_id}`, { token: other.token })).status, 404);
    });

    it('a prediction with a user model cites no data set; a workflow run cites the data sets of its prediction steps', async () => {
      const train = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: {
          job_name: 't',
          job_type: 'mpnn_train',
          payload: { model_name: 'mine', task: 'regression', rows: ESOL.slice(0, 60), hyperparameters: { depth: 2, hidden_size: 32, ffn_layers: 1, epochs: 2, batch_size: 16 } },
        },
      });
      assert.equal(train.status, 200, train.text);
      assert.equal((await h.waitForJob(u.token, train.body.process_id, undefined, 180_000)).status, 'completed');
      const mine = await cite(`process_id=${await predictJob('user/mine')}`);
      assert.equal(mine.models, undefined);
      assert.ok(!mine.items.some((p) => p.id === DELANEY.id || p.id === MOBLEY.id));
      assert.ok(!mine.methods.includes('esol'));

      const spec = {
        name: 'two models',
        inputs: { m: { type: 'model', default: 'public/freesolv-dg-hyd' } },
        steps: [
          { id: 'sol', job_type: 'mpnn_predict', params: { model: 'public/esol-logs', smiles: ['CCO'] } },
          { id: 'hyd', job_type: 'mpnn_predict', params: { model: '$inputs.m', smiles: ['CCO'] } },
        ],
      };
      const run = await h.req('POST', '/api/v1/workflows/runs', { token: u.token, body: { spec, inputs: {} } });
      assert.equal(run.status, 201, run.text);
      const runId = run.body.run_id as string;
      // Cited at once (steps maybe not started: their params and the run's inputs) and once it ends (their jobs).
      for (let round = 0; round < 2; round++) {
        const cited = await cite(`workflow_run_id=${runId}`);
        assert.deepEqual(cited.models, ['public/esol-logs', 'public/freesolv-dg-hyd']);
        for (const id of [DELANEY.id, MOBLEY.id])
          assert.ok(
            cited.items.some((p) => p.id === id),
            `${id} cited for the run (round ${round})`,
          );
        for (let i = 0; i < 600 && round === 0; i++) {
          const st = (await h.req('GET', `/api/v1/workflows/runs/${runId}`, { token: u.token })).body.status;
          if (['completed', 'failed', 'cancelled'].includes(st)) break;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    });
  });
}
