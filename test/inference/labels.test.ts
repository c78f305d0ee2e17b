// Results name their molecules as the input did (issue 25, point 3; docs/models.md, "Inference";
// docs/utilities.md, "Inputs"; docs/jobs.md, `cluster`), on one database (onlyOn): a molecule from an
// uploaded set carries its record id and name, one given inline its SMILES as given, through
// asynchronous predictions (JSON pages and CSV), `mpnn_predict` results, the similarity
// utility's hits and a cluster job's assignments; the OpenAPI schemas say so.
// Run: node --import tsx --test test/inference/labels.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadRDKit } from '../../src/chem/rdkit.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { uploadArtifact } from '../helpers/uploads.js';

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const CAFFEINE = 'Cn1cnc2c1c(=O)n(C)c(=O)n2C';
const SET = [
  ['CCO', 'ethanol'],
  ['c1ccccc1', 'benzene'],
  [ASPIRIN, 'aspirin'],
  ['CC(=O)Oc1ccccc1', 'phenyl acetate'],
] as const;
const SMI = SET.map(([s, n]) => `${s} ${n}`).join('\n') + '\n';

type User = Awaited<ReturnType<Harness['user']>>;

for (const backend of onlyOn('postgres')) {
  describe(`results name their molecules [${backend.name}]`, () => {
    let h: Harness;
    let u: User;
    let smi: string;
    let sdf: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 5);
      smi = await uploadArtifact(h, u.token, 'molecules', 'set.smi', SMI);
      const rdkit = await loadRDKit();
      const blocks = [ASPIRIN, CAFFEINE].map((s) => {
        const mol = rdkit.get_mol(s)!;
        try {
          return mol.get_molblock();
        } finally {
          mol.delete();
        }
      });
      sdf = await uploadArtifact(h, u.token, 'molecules', 'two.sdf', blocks.map((b, i) => `${b.replace(/^[^\n]*/, `sdfmol${i}`)}\n$$$$\n`).join(''));
    });
    after(() => h?.close());

    /** An asynchronous prediction's JSON page and CSV text. */
    async function predictAsync(body: Record<string, unknown>) {
      const s = await h.req('POST', '/api/v1/inference/submit', { token: u.token, body: { model: 'public/esol-logs', ...body } });
      assert.equal(s.status, 200, s.text);
      const done = await h.waitForJob(u.token, s.body.request_id, undefined, 120_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const page = await h.req('GET', `/api/v1/inference/requests/${s.body.request_id}/result?format=json`, { token: u.token });
      assert.equal(page.status, 200, page.text);
      const csv = await fetch(`${h.base}/api/v1/inference/requests/${s.body.request_id}/result`, { headers: { authorization: `Bearer ${u.token}` } });
      return { predictions: page.body.predictions as Record<string, unknown>[], csv: (await csv.text()).trim().split('\n') };
    }
    const now = async (smiles: string[]) => (await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'public/esol-logs', smiles } })).body.predictions;

    it('asynchronous predictions from a set carry each record id and name (JSON and CSV); from SMILES, the SMILES as given', async () => {
      const sync = await now(SET.map(([s]) => s));
      const fromSet = await predictAsync({ input_artifact_id: smi });
      assert.deepEqual(
        fromSet.predictions,
        SET.map(([, name], i) => ({ id: String(i + 1), name, ...sync[i] })),
      );
      assert.deepEqual(Object.keys(fromSet.predictions[0]!).sort(), ['error', 'id', 'in_domain', 'name', 'prediction', 'smiles', 'uncertainty']);
      assert.equal(fromSet.csv[0], 'smiles,prediction,uncertainty,in_domain,error,id,name');
      assert.equal(fromSet.csv[4], `CC(=O)Oc1ccccc1,${sync[3].prediction},${sync[3].uncertainty},${sync[3].in_domain},,4,phenyl acetate`);

      const given = [' CCO', 'C1=CC=CC=C1'];
      const inline = await predictAsync({ smiles: given });
      assert.deepEqual(
        inline.predictions.map((p) => p.smiles),
        given,
      );
      assert.ok(inline.predictions.every((p) => !('id' in p) && !('name' in p)));
      assert.equal(inline.csv[0], 'smiles,prediction,uncertainty,in_domain,error');

      // SDF records: their names, and RDKit's SMILES of the molblock, predicted as the molecule itself.
      const fromSdf = await predictAsync({ input_artifact_id: sdf });
      const [a, c] = fromSdf.predictions as { id: string; name: string; smiles: string; prediction: number }[];
      assert.deepEqual([a!.name, c!.name], ['sdfmol0', 'sdfmol1']);
      assert.ok(a!.id && c!.id && a!.id !== c!.id);
      const direct = await now([a!.smiles, c!.smiles, ASPIRIN, CAFFEINE]);
      assert.equal(a!.prediction, direct[0].prediction);
      assert.ok(Math.abs(a!.prediction - direct[2].prediction) < 1e-4, `${a!.smiles}: ${a!.prediction} vs ${direct[2].prediction}`);
      assert.ok(Math.abs(c!.prediction - direct[3].prediction) < 1e-4);
    });

    it('an mpnn_predict job from a set carries each record id and name in its result', async () => {
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'p', job_type: 'mpnn_predict', payload: { model: 'public/esol-logs', input_artifact_id: smi } },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal((await h.waitForJob(u.token, r.body.process_id, undefined, 120_000)).status, 'completed');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      assert.deepEqual(
        result.predictions.map((p: { id: string; name: string; smiles: string }) => [p.id, p.name, p.smiles]),
        SET.map(([s, n], i) => [String(i + 1), n, s]),
      );
    });

    it('similarity hits name their library molecule: a set record id and name, or the SMILES given', async () => {
      const submit = async (input: Record<string, unknown>) => {
        const s = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'similarity', input: { queries: [ASPIRIN, 'CCO'], top_k: 2, ...input } } });
        assert.equal(s.status, 200, s.text);
        assert.equal((await h.waitForJob(u.token, s.body.request_id, undefined, 120_000)).status, 'completed');
        return (await h.req('GET', `/api/v1/utilities/requests/${s.body.request_id}`, { token: u.token })).body.result;
      };
      const fromSet = await submit({ library_artifact_id: smi });
      assert.equal(fromSet.items[0].query, ASPIRIN);
      assert.deepEqual(fromSet.items[0].hits[0], { index: 2, id: '3', name: 'aspirin', smiles: ASPIRIN, score: 1 });
      assert.deepEqual(
        fromSet.items[1].hits.map((x: { name: string }) => x.name),
        ['ethanol', fromSet.items[1].hits[1].name],
      );
      const inline = await submit({ library: ['OCC', ASPIRIN] });
      assert.deepEqual(inline.items[0].hits[0], { index: 1, smiles: ASPIRIN, score: 1 });
      assert.deepEqual(inline.items[1].hits[0], { index: 0, smiles: 'OCC', score: 1 });
      // The other tools name a set's molecules too.
      const fp = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'fingerprints', input: { input_artifact_id: smi, n_bits: 64 } } });
      await h.waitForJob(u.token, fp.body.request_id, undefined, 120_000);
      const fps = (await h.req('GET', `/api/v1/utilities/requests/${fp.body.request_id}`, { token: u.token })).body.result;
      assert.deepEqual(
        fps.items.map((i: { index: number; id: string; name: string }) => [i.index, i.id, i.name]),
        SET.map(([, n], i) => [i, String(i + 1), n]),
      );
    });

    it('cluster assignments carry each molecule: a set record id, name and SMILES, or the SMILES given', async () => {
      const run = async (payload: Record<string, unknown>) => {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'c', job_type: 'cluster', payload: { cutoff: 0.6, ...payload } } });
        assert.equal(r.status, 200, r.text);
        assert.equal((await h.waitForJob(u.token, r.body.process_id, undefined, 120_000)).status, 'completed');
        return (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
      };
      const fromSet = await run({ input_artifact_id: smi });
      assert.equal(fromSet.assignments_inline, true);
      assert.deepEqual(
        fromSet.assignments.map((a: { index: number; id: string; name: string; smiles: string }) => [a.index, a.id, a.name, a.smiles]),
        SET.map(([s, n], i) => [i, String(i + 1), n, s]),
      );
      // Aspirin and phenyl acetate are one cluster; its centroid is named.
      const aspirin = fromSet.assignments[2];
      assert.equal(fromSet.assignments[3].cluster, aspirin.cluster);
      const cluster = fromSet.clusters[aspirin.cluster - 1];
      assert.ok(['aspirin', 'phenyl acetate'].includes(cluster.centroid.name));
      assert.equal(fromSet.assignments.filter((a: { is_centroid: boolean }) => a.is_centroid).length, fromSet.clusters.length);

      const given = ['OCC', ASPIRIN, 'CC(=O)Oc1ccccc1'];
      const inline = await run({ smiles: given });
      assert.deepEqual(
        inline.assignments.map((a: { id: string; smiles: string; name?: string }) => [a.id, a.smiles, a.name]),
        given.map((s, i) => [String(i), s, undefined]),
      );
    });

    it('the OpenAPI schemas describe the new fields', async () => {
      const doc = (await h.req('GET', '/openapi.json')).body;
      const schemas = doc.components.schemas;
      assert.deepEqual(Object.keys(schemas.PredictionItem.properties).slice(0, 3), ['id', 'name', 'smiles']);
      assert.deepEqual(schemas.PredictionItem.required, ['smiles', 'prediction', 'uncertainty', 'in_domain', 'error']);
      const item = schemas.UtilitySimilarityResult.properties.items.items;
      assert.ok(item.properties.query);
      const hit = item.properties.hits.anyOf?.find((x: { type?: string }) => x.type === 'array')?.items ?? item.properties.hits.items;
      assert.deepEqual(Object.keys(hit.properties), ['index', 'id', 'name', 'smiles', 'score']);
    });
  });
}
