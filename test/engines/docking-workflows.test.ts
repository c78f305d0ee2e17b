// Docking in workflows (issue 24 point 3; docs/engines.md, "Docking"): a conformers -> docking
// chain (the conformers' 3D structures docked as they are, one ligand per conformer), and the
// dock-library template (filter -> docking into an RCSB PDB entry around its ligand, keeping the
// best N by score) with the PDB file from a local stand-in of RCSB's file host.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { StandIn } from '../lookups/stand-in.js';
import { startRun, waitForRun } from '../workflows/helpers.js';
import { boxOf, download, readData, symbolsOf, uploadFile } from './docking-helpers.js';

for (const backend of onlyOn('postgres')) {
  describe(`docking in workflows [${backend.name}]`, () => {
    let h: Harness;
    let standIn: StandIn;
    before(async () => {
      standIn = await new StandIn().start();
      h = await startHarness(backend, { CRUCIBLE_RCSB_FILES_URL: standIn.base }, { workers: 2 });
    });
    after(async () => {
      await h?.close();
      await standIn?.stop();
    });

    const result = async (token: string, jobId: string) => (await h.req('GET', `/api/v1/jobs/result?process_id=${jobId}`, { token })).body;

    it('conformers -> docking: each conformer docked from its own 3D structure', async () => {
      const u = await h.user();
      await h.credit(u.userId, 10);
      const receptor = await uploadFile(h, u.token, '5x72_receptorH.pdb', readData('5x72_receptorH.pdb'));
      const spec = {
        name: 'conformers then docking',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'conf', job_type: 'conformers', inputs: { molecules: '$inputs.library' }, params: { method: 'gfnff', max_conformers: 2 } },
          {
            id: 'dock',
            job_type: 'docking',
            inputs: { molecules: '$steps.conf.outputs.structures' },
            params: { receptor_artifact_id: receptor, box: boxOf('5x72'), exhaustiveness: 1, num_modes: 2, pose_checks: false },
          },
        ],
        outputs: { poses: '$steps.dock.outputs.poses', scores: '$steps.dock.outputs.table' },
      };
      const run = await startRun(h, u.token, { spec, inputs: { library: ['CCCC(=O)Nc1ccc(O)cc1'] } });
      const done = await waitForRun(h, u.token, run.run_id, 600_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const step = (id: string) => done.steps.find((s: { step_id: string }) => s.step_id === id);
      const conf = await result(u.token, step('conf').job_id);
      const dock = await result(u.token, step('dock').job_id);
      const conformers = conf.items[0].conformers;
      assert.ok(conformers.length >= 1);
      assert.equal(dock.items.length, conformers.length, 'one ligand per conformer');
      dock.items.forEach((it: any, k: number) => {
        assert.equal(it.error, null, it.detail);
        // The conformer's atoms (heavy atoms in the SMILES order) are the pose's.
        assert.deepEqual(symbolsOf(it.poses[0].molblock).slice(0, 13), symbolsOf(conformers[k].molblock).slice(0, 13));
      });
      const log = await download(h, u.token, await jobArtifact(step('dock').job_id, u.token), 'logs', '0');
      assert.doesNotMatch(log, /--gen3d/, 'the conformers keep their 3D coordinates');
      assert.equal(done.outputs.poses.ready, true);
    });

    it('the dock-library template: filter, dock into a PDB entry around its ligand, keep the best N', async () => {
      const u = await h.user();
      await h.credit(u.userId, 10);
      const library = ['c1ccccc1O', 'CC(=O)Nc1ccc(O)cc1', 'Cc1ccc(O)cc1', 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC(=O)O'];
      const run = await startRun(h, u.token, { template_id: 'dock-library', inputs: { library, pdb_id: '1IEP', site: 'STI', exhaustiveness: 1, best: 2 } });
      const done = await waitForRun(h, u.token, run.run_id, 600_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const dock = await result(u.token, done.steps.find((s: { step_id: string }) => s.step_id === 'dock').job_id);
      assert.equal(dock.items.length, 3, 'the long fatty acid did not pass the filter');
      assert.deepEqual(dock.box.from, 'site');
      assert.equal(dock.box.box_site, 'STI');
      assert.equal(dock.receptor.pdb_id, '1IEP');
      const scores = dock.items.map((i: any) => i.best_score_kcal_mol);
      const expected = dock.items
        .map((i: any) => [i.id, i.best_score_kcal_mol])
        .sort((a: [string, number], b: [string, number]) => a[1] - b[1])
        .slice(0, 2);
      assert.deepEqual(
        dock.best.map((b: any) => [b.id, b.score_kcal_mol]),
        expected,
        JSON.stringify(scores),
      );
      const best = await h.req('GET', `/api/v1/artifacts/${done.outputs.best.artifact_id}`, { token: u.token });
      assert.deepEqual(
        best.body.manifest.ports.best.records.map((r: { id: string }) => r.id),
        expected.map((e: [string, number]) => e[0]),
      );
    });

    async function jobArtifact(jobId: string, token: string): Promise<string> {
      const status = await h.req('GET', `/api/v1/jobs/status?process_id=${jobId}`, { token });
      return status.body.result_artifact_id;
    }
  });
}
