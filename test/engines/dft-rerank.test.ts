// `rerank` (docs/engines.md, "DFT"): n-butane's GFN2 conformer ensemble (a `conformers` job's
// structures port) re-ranked at B3LYP-D3(BJ)/def2-SVP (NWChem): anti lowest, gauche 0.3 to
// 1.2 kcal/mol above it; the weights from the DFT energies at 298.15 K; the xtb relative energies
// carried; top_n keeps the lowest by xtb energy; the estimate counts the ensembles' conformers
// read at submit. An uploaded SDF without energies is taken in its order, its records grouped by
// title. The conformers-dft template chains the GFN2 search and the re-ranking. Engine numbers:
// one backend.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { after, before, describe, it } from 'node:test';
import { boltzmannWeights, KCAL_PER_HARTREE } from '../../src/engines/qm/ensemble.js';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { download } from './docking-helpers.js';
import { startRun, waitForRun } from '../workflows/helpers.js';
import { dihedral } from './helpers.js';

interface Reranked {
  id: string;
  molblock: string;
  energy_hartree: number;
  relative_kcal: number;
  boltzmann_weight: number;
  xtb_relative_kcal: number | null;
}

for (const backend of onlyOn('pglite')) {
  describe(`rerank [${backend.name}]`, { timeout: 900_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(() => h?.close());

    const run = async (job_type: string, payload: object) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 600_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
      return { result, artifact: done.result_artifact_id as string };
    };
    const estimate = (payload: object) => h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'rerank', payload } });

    it("n-butane's GFN2 ensemble at B3LYP-D3(BJ)/def2-SVP: anti lowest, gauche 0.3 to 1.2 kcal/mol above; weights, xtb energies, top_n", async (t) => {
      const conf = await run('conformers', { molecules: ['CCCC'], max_conformers: 10 });
      const ensemble = conf.result.items[0].conformers as { energy_hartree: number }[];
      assert.ok(ensemble.length >= 2, `GFN2 finds anti and gauche: ${ensemble.length}`);

      const payload = { input_artifact_id: conf.artifact, port: 'structures', method: 'b3lyp-d3bj', basis: 'def2-svp' };
      const est = await estimate(payload);
      assert.equal(est.status, 200, est.text);
      // One ensemble of n conformers, all under top_n 10: n calculations of butane's functions.
      assert.equal(est.body.assumptions.structures, ensemble.length);
      assert.equal(est.body.assumptions.engine, 'nwchem');

      const { result, artifact } = await run('rerank', payload);
      const doc = (await h.req('GET', '/openapi.json')).body;
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ $id: 'openapi', components: doc.components });
      assert.ok(ajv.validate({ $ref: 'openapi#/components/schemas/RerankResult' }, result), JSON.stringify(ajv.errors));
      assert.equal(result.items.length, 1, 'one ensemble: the records carry their structure index 0');
      const [item] = result.items;
      assert.equal(item.error, null, item.detail);
      assert.deepEqual(
        [item.engine, item.method, item.basis, item.ensemble_size, item.reranked, item.ranked_by_xtb_energy],
        ['nwchem', 'b3lyp-d3bj', 'def2-svp', ensemble.length, ensemble.length, true],
      );
      const cs = item.conformers as Reranked[];
      const dihedrals = cs.map((c) => Math.abs(dihedral(readMolblockAtoms(c.molblock).coords, [0, 1, 2, 3])));
      assert.ok(dihedrals[0]! > 170, `the lowest at DFT is anti: C-C-C-C ${dihedrals[0]}°`);
      const gauche = cs.findIndex((_, j) => dihedrals[j]! > 50 && dihedrals[j]! < 80);
      assert.ok(gauche > 0, `a gauche conformer: ${dihedrals.join(', ')}`);
      t.diagnostic(
        `dihedrals ${dihedrals.map((d) => d.toFixed(0)).join(' ')}; DFT relative ${cs.map((c) => c.relative_kcal.toFixed(2)).join(' ')}; GFN2 relative ${cs.map((c) => c.xtb_relative_kcal?.toFixed(2)).join(' ')} kcal/mol`,
      );
      assert.ok(cs[gauche]!.relative_kcal >= 0.3 && cs[gauche]!.relative_kcal <= 1.2, `gauche ${cs[gauche]!.relative_kcal} kcal/mol above anti`);
      // Relative energies and weights from the DFT energies; the xtb ones as they came.
      const weights = boltzmannWeights(
        cs.map((c) => c.energy_hartree),
        298.15,
      );
      cs.forEach((c, j) => {
        assert.ok(Math.abs(c.relative_kcal - (c.energy_hartree - cs[0]!.energy_hartree) * KCAL_PER_HARTREE) < 1e-5);
        assert.ok(Math.abs(c.boltzmann_weight - weights[j]!) < 1e-6);
        assert.ok(c.xtb_relative_kcal !== null && c.xtb_relative_kcal >= 0 && c.xtb_relative_kcal < 5, String(c.xtb_relative_kcal));
      });
      assert.equal(cs[0]!.relative_kcal, 0);
      assert.ok(Math.abs(cs.reduce((t, c) => t + c.boltzmann_weight, 0) - 1) < 1e-5);
      // The re-ranked structures as SDF records, rank 1 first, the figures as SDF fields.
      const sdf = await download(h, token, artifact, 'structures', `${item.id}-1`);
      assert.match(sdf, /> {2}<relative_kcal>\n0\n/);

      // top_n 1: only the lowest by GFN2 energy (anti) is computed.
      const top1 = await run('rerank', { ...payload, top_n: 1 });
      const [one] = top1.result.items;
      assert.deepEqual([one.reranked, one.conformers.length, one.conformers[0].xtb_relative_kcal], [1, 1, 0]);
      assert.ok(Math.abs(one.conformers[0].energy_hartree - cs[0]!.energy_hartree) < 1e-6, 'the same anti conformer');
    });

    it('an uploaded SDF without energies: records grouped by title, taken in their order; a bad method or field is a 422', async () => {
      const water = (name: string, x: number) =>
        `${name}\n  test\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n    ${x.toFixed(4).padStart(6)}    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n    ${(x + 0.9572).toFixed(4).padStart(6)}    0.0000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0\n    ${(x - 0.24).toFixed(4).padStart(6)}    0.9266    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0\n  1  2  1  0\n  1  3  1  0\nM  END\n$$$$\n`;
      const form = new FormData();
      form.append('mode', 'molecules');
      form.append('file', new Blob([water('water', 0) + water('water', 0.001)]), 'waters.sdf');
      const up = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      assert.equal(up.status, 201, await up.clone().text());
      const molecules = ((await up.json()) as { id: string }).id;
      const { result } = await run('rerank', { input_artifact_id: molecules, method: 'hf', basis: 'def2-svp', top_n: 5 });
      const [item] = result.items;
      assert.equal(item.error, null, item.detail);
      assert.deepEqual([result.items.length, item.name, item.ensemble_size, item.ranked_by_xtb_energy, item.engine], [1, 'water', 2, false, 'psi4']);
      assert.deepEqual(
        item.conformers.map((c: Reranked) => c.xtb_relative_kcal),
        [null, null],
      );

      for (const [payload, loc, pattern] of [
        [{ input_artifact_id: molecules, method: 'gfn2' }, ['method'], /Input should be/],
        [{ input_artifact_id: molecules, method: 'wb97x-d', engine: 'nwchem' }, ['engine'], /nwchem cannot run ωB97X-D/],
        [{ input_artifact_id: molecules, top_n: 0 }, ['top_n'], /greater than or equal to 1/],
      ] as const) {
        const r = await estimate(payload);
        assert.equal(r.status, 422, r.text);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', ...loc], r.text);
        assert.match(r.body.errors[0].msg, pattern);
      }
    });

    it('the conformers-dft template: a GFN2 conformer search of ethanol, its lowest re-ranked at HF/def2-SVP', async () => {
      const run = await startRun(h, token, { template_id: 'conformers-dft', inputs: { library: ['CCO'], dft_method: 'hf', top_n: 2 } });
      assert.deepEqual([run.inputs.basis, run.inputs.max_conformers], ['def2-svp', 20]);
      const done = await waitForRun(h, token, run.run_id, 300_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const step = (id: string) => done.steps.find((s: { step_id: string }) => s.step_id === id);
      const search = (await h.req('GET', `/api/v1/jobs/result?process_id=${step('search').job_id}`, { token })).body;
      const rerank = (await h.req('GET', `/api/v1/jobs/result?process_id=${step('rerank').job_id}`, { token })).body;
      assert.equal(search.method, 'gfn2');
      const ensemble = search.items[0].conformers.length;
      const [item] = rerank.items;
      assert.equal(item.error, null, item.detail);
      assert.deepEqual([rerank.method, item.basis, item.ensemble_size, item.reranked, item.ranked_by_xtb_energy], ['hf', 'def2-svp', ensemble, Math.min(2, ensemble), true]);
      assert.deepEqual(Object.keys(done.outputs).sort(), ['conformer_table', 'conformers', 'reranked', 'reranked_table']);
    });
  });
}
