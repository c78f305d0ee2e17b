// The docking job type through the API (docs/engines.md, "Docking"): ligands from SMILES docked
// into an uploaded receptor around an uploaded reference ligand; poses best first as molblocks in
// the ligand's atom order; the poses, table and logs ports; Vina's --cpu from the resource; the
// same seed giving the same poses; the receptor prepared once (cached); one bad ligand an item
// error; the methods for /papers/cite; vinardo scoring; cancel. Small runs (exhaustiveness 2) of p59 into 5X72.
import { Ajv } from 'ajv';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { scratchRoot } from '../../src/engines/scratch.js';
import { atomBlock, boxOf, download, P59_SMILES, readData, rmsdToCrystal, symbolsOf, uploadFile } from './docking-helpers.js';
import { engineProcesses, within } from './helpers.js';

const JOB_TIMEOUT = 600_000;
/** p59's heavy atoms in its SMILES order. */
const P59_HEAVY = ['F', ...'CCCCCCC', 'N', ...'CCCCCCC', 'O', 'N', ...'CCCCCC'];

for (const backend of onlyOn('pglite')) {
  describe(`docking [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    it('docks SMILES into an uploaded receptor around a reference ligand: poses, ports, seed, cpu, cache, item errors, papers', async () => {
      const u = await h.user();
      await h.credit(u.userId, 20);
      const receptorText = readData('5x72_receptorH.pdb');
      const receptor = await uploadFile(h, u.token, '5x72_receptorH.pdb', receptorText);
      const reference = await uploadFile(h, u.token, 'p59.sdf', readData('5x72_ligand_p59.sdf'));
      const payload = {
        molecules: [P59_SMILES, 'N->[Pt]', 'C1CC'],
        receptor_artifact_id: receptor,
        reference_ligand_artifact_id: reference,
        exhaustiveness: 2,
        num_modes: 3,
      };
      const est = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'docking', resource: 'cpu-4', payload } });
      assert.equal(est.status, 200, est.text);
      assert.equal(est.body.assumptions.ligands, 3);
      assert.equal(est.body.assumptions.threads, Math.min(4, os.availableParallelism()));

      const submit = async () => {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'dock p59', job_type: 'docking', resource: 'cpu-4', payload } });
        assert.equal(r.status, 200, r.text);
        const done = await h.waitForJob(u.token, r.body.process_id, undefined, JOB_TIMEOUT);
        assert.equal(done.status, 'completed', done.message ?? '');
        const res = await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token });
        assert.equal(res.status, 200, res.text);
        return { pid: r.body.process_id as string, result: res.body, artifact: done.result_artifact_id! };
      };
      const first = await submit();
      const r = first.result;
      assert.equal(r.job_type, 'docking');
      assert.equal(r.method, 'vina');
      assert.equal(r.seed, 42, 'a fixed seed when none is given, recorded');
      assert.equal(r.exhaustiveness, 2);
      assert.equal(r.ph, 7.4);
      assert.equal(r.receptor.artifact_id, receptor);
      assert.equal(r.receptor.sha256, crypto.createHash('sha256').update(receptorText).digest('hex'));
      assert.equal(r.receptor.prepared_from_cache, false);
      assert.equal(r.receptor.hydrogens, "the file's own");
      assert.deepEqual(r.receptor.removed_hetero, {});
      // The box: the crystal ligand's extent plus 4 A on every side, centred on it.
      assert.equal(r.box.from, 'reference_ligand');
      assert.equal(r.box.padding, 4);
      const crystal = readData('5x72_ligand_p59.sdf')
        .split('\n')
        .slice(4, 28)
        .map((l) => [0, 10, 20].map((k) => Number(l.slice(k, k + 10))));
      for (let k = 0; k < 3; k++) {
        const lo = Math.min(...crystal.map((c) => c[k]!));
        const hi = Math.max(...crystal.map((c) => c[k]!));
        assert.ok(Math.abs(r.box.center[k] - (lo + hi) / 2) < 1e-3 && Math.abs(r.box.size[k] - (hi - lo + 8)) < 1e-3, JSON.stringify(r.box));
      }

      assert.equal(r.items.length, 3);
      const [p59, dative, broken] = r.items;
      assert.equal(p59.error, null, p59.detail);
      assert.ok(p59.poses.length >= 1 && p59.poses.length <= 3, `${p59.poses.length} poses`);
      const scores = p59.poses.map((p: { score_kcal_mol: number }) => p.score_kcal_mol);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => a - b),
        'best first',
      );
      assert.ok(scores[0] < -7, `best score ${scores[0]}`);
      assert.equal(p59.best_score_kcal_mol, scores[0]);
      assert.equal(p59.poses[0].rmsd_lb, 0);
      assert.equal(p59.charge, 0);
      for (const pose of p59.poses) {
        const symbols = symbolsOf(pose.molblock);
        assert.deepEqual(symbols.slice(0, 24), P59_HEAVY, 'heavy atoms in the SMILES order');
        assert.deepEqual(new Set(symbols.slice(24)), new Set(['H']), 'hydrogens after the heavy atoms');
        assert.equal(symbols.length, 39);
        // Every hydrogen is placed at a bond's length from an atom (the hydrogens on carbon follow their carbon).
        const lines = pose.molblock.split('\n');
        const xyz = lines.slice(4, 43).map((l: string) => [0, 10, 20].map((k) => Number(l.slice(k, k + 10))));
        for (let i = 24; i < 39; i++) {
          const nearest = Math.min(...xyz.slice(0, 24).map((c: number[]) => Math.hypot(c[0]! - xyz[i]![0]!, c[1]! - xyz[i]![1]!, c[2]! - xyz[i]![2]!)));
          assert.ok(nearest > 0.9 && nearest < 1.2, `hydrogen ${i} is ${nearest} A from the nearest heavy atom`);
        }
      }
      assert.ok(Number.isFinite(rmsdToCrystal('5x72_ligand_p59.sdf', p59.poses[0].molblock)));
      assert.equal(dative.error, 'preparation_failed', dative.detail);
      assert.match(dative.detail, /Open Babel/);
      assert.equal(broken.error, 'unparseable');
      assert.deepEqual(r.summary, { structures: 3, completed: 1, errors: 2 });
      // The result document is the one the OpenAPI document publishes (DockingResult).
      const doc = (await h.req('GET', '/openapi.json')).body;
      const validate = new Ajv({ strict: false, allErrors: true }).compile({ ...doc.components.schemas.DockingResult, $id: undefined });
      assert.ok(validate(r), JSON.stringify(validate.errors?.slice(0, 5)));
      assert.ok(doc.components.schemas.DockingPayload.properties.pdb_id, 'DockingPayload is published');

      // Ports: poses (SDF, one record per pose), table (best score per ligand), logs (receptor and each ligand).
      const manifest = (await h.req('GET', `/api/v1/artifacts/${first.artifact}`, { token: u.token })).body.manifest;
      assert.deepEqual(
        manifest.ports.poses.records.map((x: { id: string }) => x.id),
        p59.poses.map((_: unknown, k: number) => `0-${k + 1}`),
      );
      const sdf = await download(h, u.token, first.artifact, 'poses', '0-1');
      assert.match(sdf, /> {2}<score_kcal_mol>\n-?\d/);
      assert.match(sdf, /> {2}<rmsd_ub>\n0/);
      const table = await download(h, u.token, first.artifact, 'table');
      const [header, row0, row1] = table.trim().split('\n');
      assert.deepEqual(header!.split(','), ['index', 'id', 'name', 'smiles', 'error', 'best_score_kcal_mol', 'poses', 'torsions', 'poses_passing_checks']);
      const passing = p59.poses.filter((q: { checks: { passed: boolean } }) => q.checks.passed).length;
      assert.equal(row0, `0,0,,${P59_SMILES},,${scores[0]},${scores.length},${p59.torsions},${passing}`);
      assert.equal(row1, '1,1,,N->[Pt],preparation_failed,,,,');

      // Pose checks (docs/structure.md, "Docking's poses"): every pose checked and profiled by PLIP,
      // a 2D diagram per pose in the interactions port under the pose's id. Vina's best pose of p59
      // is physically sound (it passes every check) and touches the protein.
      assert.equal(first.result.pose_checks, true);
      assert.equal(first.result.pose_order, 'score');
      for (const pose of p59.poses) {
        assert.deepEqual(Object.keys(pose.checks).sort(), ['details', 'failed', 'passed']);
        assert.equal(pose.checks.passed, pose.checks.failed.length === 0);
        // Strain: GFN-FF, the pose relaxed under restraints less the lowest of one conformer search
        // shared by the ligand's poses (the same e_min for all).
        assert.ok(typeof pose.strain_kcal_mol === 'number' && pose.strain_kcal_mol >= 0 && pose.strain_kcal_mol < 30, `strain ${pose.strain_kcal_mol}`);
        assert.equal(pose.checks.details.strain.e_min_hartree, p59.poses[0].checks.details.strain.e_min_hartree);
        for (const i of pose.interactions) assert.match(i.residue, /^[A-Z]{3} [A-Z] \d+$/);
      }
      assert.equal(p59.poses[0].checks.passed, true, JSON.stringify(p59.poses[0].checks.failed));
      assert.ok(
        p59.poses[0].interactions.some((i: { type: string }) => i.type === 'hydrophobic'),
        'p59 lies in a hydrophobic pocket',
      );
      assert.deepEqual(
        manifest.ports.interactions.records.map((x: { id: string }) => x.id),
        p59.poses.map((_: unknown, k: number) => `0-${k + 1}`),
      );
      const svg = await download(h, u.token, first.artifact, 'interactions', '0-1');
      assert.match(svg, /^(<\?xml[^>]*>\s*)?<svg/);
      assert.ok(svg.includes(p59.poses[0].interactions[0].residue), 'the diagram names the residues');
      const receptorLog = await download(h, u.token, first.artifact, 'logs', 'receptor');
      assert.match(receptorLog, /\$ obabel receptor\.pdb -xr -O receptor\.pdbqt/, 'a receptor with hydrogens keeps them');
      const ligandLog = await download(h, u.token, first.artifact, 'logs', '0');
      assert.match(ligandLog, /\$ vina .*--exhaustiveness 2 --num_modes 3 --seed 42 --cpu 4 /, 'Vina runs with the resource threads');
      assert.match(ligandLog, /\$ obabel neutral\.mol -p 7\.4 -O protonated\.mol/);

      // The same seed and inputs: the same poses; the receptor comes from the cache.
      const second = await submit();
      assert.equal(second.result.receptor.prepared_from_cache, true);
      assert.deepEqual(
        second.result.items[0].poses.map((p: { molblock: string; score_kcal_mol: number }) => [atomBlock(p.molblock), p.score_kcal_mol]),
        p59.poses.map((p: { molblock: string; score_kcal_mol: number }) => [atomBlock(p.molblock), p.score_kcal_mol]),
      );

      // Methods for /papers/cite: Vina 1.2, Vina and Open Babel.
      const cite = await h.req('GET', `/api/v1/papers/cite?process_id=${first.pid}`, { token: u.token });
      assert.equal(cite.status, 200, cite.text);
      const text = JSON.stringify(cite.body);
      for (const doi of ['10.1021/acs.jcim.1c00203', '10.1002/jcc.21334']) assert.ok(text.includes(doi), `${doi} cited`);
      assert.match(text, /Open Babel/i);
    });

    it('scores with vinardo when asked: Vina runs with --scoring vinardo, the result and /papers/cite say so; ad4 is a 422', async () => {
      const u = await h.user();
      await h.credit(u.userId, 20);
      const receptor = await uploadFile(h, u.token, '5x72_receptorH.pdb', readData('5x72_receptorH.pdb'));
      const reference = await uploadFile(h, u.token, 'p59.sdf', readData('5x72_ligand_p59.sdf'));
      const payload = (scoring: string) => ({
        molecules: [P59_SMILES],
        receptor_artifact_id: receptor,
        reference_ligand_artifact_id: reference,
        exhaustiveness: 1,
        num_modes: 1,
        scoring,
      });
      const bad = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'ad4', job_type: 'docking', payload: payload('ad4') } });
      assert.equal(bad.status, 422, bad.text);
      assert.match(bad.text, /scoring/);
      const scored: Record<string, number> = {};
      for (const scoring of ['vina', 'vinardo']) {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: scoring, job_type: 'docking', payload: payload(scoring) } });
        assert.equal(r.status, 200, r.text);
        const done = await h.waitForJob(u.token, r.body.process_id, undefined, JOB_TIMEOUT);
        assert.equal(done.status, 'completed', done.message ?? '');
        const res = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body;
        assert.equal(res.scoring, scoring);
        scored[scoring] = res.items[0].best_score_kcal_mol;
        const log = await download(h, u.token, done.result_artifact_id!, 'logs', '0');
        const cite = JSON.stringify((await h.req('GET', `/api/v1/papers/cite?process_id=${r.body.process_id}`, { token: u.token })).body);
        if (scoring === 'vinardo') {
          assert.match(log, /\$ vina .* --scoring vinardo/);
          assert.ok(cite.includes('10.1371/journal.pone.0155183'), 'Vinardo cited');
          assert.ok(!cite.includes('10.1002/jcc.21334'), "Vina's own scoring paper not cited for a vinardo run");
        } else {
          assert.doesNotMatch(log, /--scoring/);
          assert.ok(!cite.includes('10.1371/journal.pone.0155183'));
        }
      }
      // Two different functions: the same ligand in the same box scores differently.
      assert.ok(scored.vina! < -5 && scored.vinardo! < -5, JSON.stringify(scored));
      assert.notEqual(scored.vina, scored.vinardo);
    });

    it('cancel kills Vina within a second and removes the scratch directories', async () => {
      const u = await h.user();
      await h.credit(u.userId, 20);
      const receptor = await uploadFile(h, u.token, '5x72_receptorH.pdb', readData('5x72_receptorH.pdb'));
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'long dock', job_type: 'docking', payload: { molecules: [P59_SMILES], receptor_artifact_id: receptor, box: boxOf('5x72'), exhaustiveness: 64 } },
      });
      assert.equal(r.status, 200, r.text);
      await within('vina runs', 120_000, () => engineProcesses(process.pid).some((p) => /\bvina\b/.test(p.cmd)), 50);
      const dirs = fs.readdirSync(scratchRoot()).filter((d) => d.startsWith(`${process.pid}-`));
      const cancelled = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${r.body.process_id}`, { token: u.token });
      assert.equal(cancelled.status, 200, cancelled.text);
      const ms = await within('vina is gone', 5_000, () => engineProcesses(process.pid).length === 0, 10);
      assert.ok(ms < 1_000, `vina was gone ${ms} ms after the cancel answered`);
      await within('the scratch directories are removed', 5_000, () => !fs.readdirSync(scratchRoot()).some((d) => dirs.includes(d)));
      assert.equal((await h.req('GET', `/api/v1/jobs/info?process_id=${r.body.process_id}`, { token: u.token })).body.info.status, 'cancelled');
    });
  });
}
