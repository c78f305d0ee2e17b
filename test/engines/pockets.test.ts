// The `pockets` job type through the API (docs/structure.md, "Pockets"): the LIGSITE search on
// data/public/docking's two complexes, receptors given without their ligands, finds the crystal
// ligand's site as the best pocket (its centre within 4 A of the ligand's centroid, the ligand
// inside its box; imatinib's pocket in 1IEP lined by the gatekeeper THR A 315 and the hinge's
// MET A 318); 422s for max_pockets out of 1..20, two receptors, and a receptor with no protein;
// docking's box_site "auto" docks into the best pocket's box (the same centre and size) and its
// pose lies inside it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { readData, uploadFile } from './docking-helpers.js';
import { resultSchemaErrors } from './helpers.js';

interface Pocket {
  rank: number;
  center: number[];
  size: number[];
  volume_a3: number;
  score: number;
  residues: string[];
}

/** The heavy atoms of a V2000 molblock or SDF file, [x, y, z] each. */
function heavyAtoms(molblock: string): number[][] {
  const lines = molblock.split('\n');
  const n = Number(lines[3]!.slice(0, 3));
  return lines
    .slice(4, 4 + n)
    .filter((l) => !['H', 'D'].includes(l.slice(31, 34).trim()))
    .map((l) => [0, 10, 20].map((k) => Number(l.slice(k, k + 10))));
}
const centroid = (xyz: number[][]) => [0, 1, 2].map((k) => xyz.reduce((t, c) => t + c[k]!, 0) / xyz.length);
const inBox = (c: number[], box: { center: number[]; size: number[] }) => [0, 1, 2].every((k) => Math.abs(c[k]! - box.center[k]!) <= box.size[k]! / 2);

for (const backend of onlyOn('pglite')) {
  describe(`pockets [${backend.name}]`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    const receptors: Record<string, string> = {};
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
      for (const name of ['1iep', '5x72']) receptors[name] = await uploadFile(h, token, `${name}_receptorH.pdb`, readData(`${name}_receptorH.pdb`));
    });
    after(async () => h?.close());

    const submit = (jobType: string, payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: jobType, job_type: jobType, payload } });
    const run = async (jobType: string, payload: Record<string, unknown>) => {
      const r = await submit(jobType, payload);
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 400_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      return (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
    };

    it('finds the crystal ligand site as the best pocket of 1IEP (imatinib) and 5X72 (p59)', async () => {
      for (const [name, ligand] of [
        ['1iep', '1iep_ligand.sdf'],
        ['5x72', '5x72_ligand_p59.sdf'],
      ] as const) {
        const res = await run('pockets', { receptor_artifact_id: receptors[name], max_pockets: 3 });
        assert.equal(await resultSchemaErrors(h, 'PocketsResult', res), null);
        assert.equal(res.method, 'ligsite');
        const pockets = res.pockets as Pocket[];
        assert.ok(pockets.length >= 1 && pockets.length <= 3, `${pockets.length} pockets`);
        assert.ok(res.pockets_found >= pockets.length);
        assert.deepEqual(
          pockets.map((p) => p.rank),
          pockets.map((_, k) => k + 1),
        );
        for (let k = 1; k < pockets.length; k++) assert.ok(pockets[k]!.score <= pockets[k - 1]!.score, 'best first');
        const lig = heavyAtoms(readData(ligand));
        const c = centroid(lig);
        const best = pockets[0]!;
        const d = Math.hypot(...best.center.map((v, k) => v - c[k]!));
        console.log(`${name}: best pocket ${d.toFixed(2)} A from the ligand's centroid; ${best.volume_a3} A^3, box ${best.size.join(' x ')}; ${res.runtime_ms} ms`);
        assert.ok(d < 4, `${name}: the best pocket's centre is ${d.toFixed(2)} A from the crystal ligand's centroid`);
        const outside = lig.filter((a) => !inBox(a, best));
        assert.equal(outside.length, 0, `${name}: ${outside.length} ligand atoms outside the best pocket's box`);
        assert.ok(best.volume_a3 > 100 && best.size.every((s) => s > 8 && s <= 126), JSON.stringify(best));
        for (const r of best.residues) assert.match(r, /^[A-Z0-9]{1,3} [A-Z_] -?\d+[A-Z]?$/);
        if (name === '1iep') for (const r of ['THR A 315', 'MET A 318']) assert.ok(best.residues.includes(r), `${r} lines imatinib's pocket: ${best.residues.join(', ')}`);
        // The other pockets are elsewhere.
        for (const p of pockets.slice(1)) assert.ok(Math.hypot(...p.center.map((v, k) => v - c[k]!)) > 4);
      }
    });

    it('max_pockets out of 1..20, two receptors and a receptor with no protein are 422s', async () => {
      for (const max of [0, 21]) {
        const r = await submit('pockets', { receptor_artifact_id: receptors['1iep'], max_pockets: max });
        assert.equal(r.status, 422, r.text);
        assert.match(r.text, /max_pockets/);
      }
      const both = await submit('pockets', { receptor_artifact_id: receptors['1iep'], pdb_id: '1IEP' });
      assert.equal(both.status, 422, both.text);
      assert.match(both.body.detail, /either receptor_artifact_id or pdb_id/);
      const ligandOnly = await uploadFile(h, token, 'ligand.pdb', readData('1iep_ligand.sdf'));
      const none = await submit('pockets', { receptor_artifact_id: ligandOnly });
      assert.equal(none.status, 422, none.text);
      assert.match(none.body.detail, /not a PDB file|no ATOM records/);
      const hetOnly = await uploadFile(h, token, 'het.pdb', 'HETATM    1  C1  LIG A   1      10.000  10.000  10.000  1.00  0.00           C\nEND\n');
      const het = await submit('pockets', { receptor_artifact_id: hetOnly });
      assert.equal(het.status, 422, het.text);
      assert.match(het.body.detail, /no ATOM records/);
    });

    it('docking with box_site "auto" docks into the best pocket, and the pose lies in its box', async () => {
      const pockets = (await run('pockets', { receptor_artifact_id: receptors['5x72'], max_pockets: 1 })).pockets as Pocket[];
      const bad = await submit('docking', { molecules: ['Oc1ccccc1'], receptor_artifact_id: receptors['5x72'], box_site: 'auto', padding: 2 });
      assert.equal(bad.status, 422, bad.text);
      assert.match(bad.text, /padding/);
      const res = await run('docking', { molecules: ['NC(=O)c1ccccc1'], receptor_artifact_id: receptors['5x72'], box_site: 'auto', exhaustiveness: 1, num_modes: 1 });
      assert.equal(res.box.from, 'pockets');
      assert.equal(res.box.box_site, 'auto');
      assert.deepEqual(res.box.center, pockets[0]!.center);
      assert.deepEqual(res.box.size, pockets[0]!.size);
      assert.deepEqual(res.box.pocket.residues, pockets[0]!.residues);
      const item = res.items[0];
      assert.equal(item.error, null, item.detail);
      for (const a of heavyAtoms(item.poses[0].molblock)) assert.ok(inBox(a, res.box), `pose atom ${a.join(' ')} outside the box`);
    });
  });
}
