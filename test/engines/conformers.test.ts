// The `conformers` job type through the API (docs/engines.md, "Conformers"): n-butane's anti
// and gauche conformers with GFN2 and the energy between them; the ensemble sorted, unique by
// RMSD, within the window, its Boltzmann weights summing to 1; the input's atom order kept;
// bad structures as item errors; the `lowest` port chaining into another engine job; the
// per-conformer table; progress per candidate and a cancel that stops the engines at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { conformerRmsd, KCAL_PER_HARTREE, rmsdContext } from '../../src/engines/qm/ensemble.js';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { dihedral, engineProcesses, within } from './helpers.js';

interface Conformer {
  molblock: string;
  energy_hartree: number;
  relative_kcal: number;
  boltzmann_weight: number;
}
interface Item {
  index: number;
  error: string | null;
  detail: string | null;
  conformers?: Conformer[];
  search?: Record<string, unknown>;
}

/** What every ensemble must be: lowest first at 0, sorted, within the window, unique by RMSD, weights summing to 1 and falling. */
function checkEnsemble(cs: Conformer[], o: { window: number; threshold: number; max: number }): void {
  assert.ok(cs.length >= 1 && cs.length <= o.max, `${cs.length} conformers`);
  assert.equal(cs[0]!.relative_kcal, 0);
  const sum = cs.reduce((s, c) => s + c.boltzmann_weight, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9, `weights sum to ${sum}`);
  const ctx = rmsdContext(cs[0]!.molblock);
  const coords = cs.map((c) => readMolblockAtoms(c.molblock).coords);
  cs.forEach((c, j) => {
    assert.ok(Math.abs(c.relative_kcal - (c.energy_hartree - cs[0]!.energy_hartree) * KCAL_PER_HARTREE) < 1e-5);
    assert.ok(c.relative_kcal <= o.window + 1e-9, `conformer ${j} at ${c.relative_kcal} kcal/mol`);
    if (j === 0) return;
    assert.ok(c.energy_hartree >= cs[j - 1]!.energy_hartree, 'sorted by energy');
    assert.ok(c.boltzmann_weight <= cs[j - 1]!.boltzmann_weight + 1e-15, 'weights fall with energy');
    for (let i = 0; i < j; i++) assert.ok(conformerRmsd(ctx, coords[i]!, coords[j]!) > o.threshold, `conformers ${i} and ${j} within ${o.threshold} Å`);
  });
}

for (const backend of onlyOn('postgres')) {
  describe(`conformers [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    const submit = async (token: string, payload: Record<string, unknown>) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'conformers', job_type: 'conformers', payload } });
      assert.equal(r.status, 200, r.text);
      return r.body.process_id as string;
    };
    const result = async (token: string, pid: string, timeoutMs = 240_000) => {
      const done = await h.waitForJob(token, pid, undefined, timeoutMs);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token });
      assert.equal(res.status, 200, res.text);
      return { done, body: res.body as { job_type: string; method: string; items: Item[]; ports: Record<string, string> } };
    };

    it('n-butane with GFN2: anti lowest, gauche 0.3 to 1.2 kcal/mol above; a sorted, unique, weighted ensemble; the input atom order kept; bad structures are item errors', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const molecules = ['CCCC', 'CC(O)CC', 'C1CC', 'C'.repeat(60), 'C[U]C'];
      const est = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'conformers', payload: { molecules, max_conformers: 10 } } });
      assert.equal(est.status, 200, est.text);
      const pid = await submit(u.token, { molecules, max_conformers: 10 });
      const { body } = await result(u.token, pid);
      assert.equal(body.job_type, 'conformers');
      assert.equal(body.method, 'gfn2');
      assert.deepEqual(
        body.items.map((i) => [i.index, i.error]),
        [
          [0, null],
          [1, null],
          [2, 'unparseable'],
          [3, 'too_large'],
          [4, 'unsupported_element'],
        ],
      );
      assert.match(body.items[3]!.detail!, /182 atoms/);
      assert.match(body.items[4]!.detail!, /\bU\b/);

      // n-butane: C0-C1-C2-C3 is anti (180°) in the lowest, gauche (about ±65°) in a conformer 0.3 to 1.2 kcal/mol above.
      const butane = body.items[0]!.conformers!;
      checkEnsemble(butane, { window: 6, threshold: 0.5, max: 10 });
      const dihedrals = butane.map((c) => dihedral(readMolblockAtoms(c.molblock).coords, [0, 1, 2, 3]));
      assert.ok(Math.abs(dihedrals[0]!) > 170, `the lowest conformer's C-C-C-C dihedral is ${dihedrals[0]}°`);
      const gauche = butane.findIndex((_, j) => Math.abs(dihedrals[j]!) > 50 && Math.abs(dihedrals[j]!) < 80);
      assert.ok(gauche > 0, `a gauche conformer among ${dihedrals.map((d) => d.toFixed(0)).join(', ')}`);
      const rel = butane[gauche]!.relative_kcal;
      assert.ok(rel >= 0.3 && rel <= 1.2, `gauche lies ${rel} kcal/mol above anti`);
      assert.ok(butane[0]!.boltzmann_weight > butane[gauche]!.boltzmann_weight);
      assert.equal(body.items[0]!.search!.generator, 'confab');

      // butan-2-ol: atom 2 is the oxygen, bonded to atom 1, in every conformer; hydrogens after the heavy atoms.
      const butanol = body.items[1]!.conformers!;
      checkEnsemble(butanol, { window: 6, threshold: 0.5, max: 10 });
      assert.ok(butanol.length >= 2, `${butanol.length} conformers of butan-2-ol`);
      for (const c of butanol) {
        const { symbols, coords } = readMolblockAtoms(c.molblock);
        assert.deepEqual(symbols, ['C', 'C', 'O', 'C', 'C', ...Array<string>(10).fill('H')]);
        const co = Math.hypot(coords[1]![0] - coords[2]![0], coords[1]![1] - coords[2]![1], coords[1]![2] - coords[2]![2]);
        assert.ok(co > 1.35 && co < 1.5, `C1-O2 ${co} Å`);
      }
    });

    it('GFN-FF: the lowest port chains into an optimize job, the structures port holds every conformer, the table one row each; a too-large molecule is an item error', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const payload = { molecules: ['CCCCC', 'OCC', 'C'.repeat(110)], method: 'gfnff', max_conformers: 3, energy_window_kcal: 4, rmsd_threshold: 0.3, temperature_k: 400 };
      const pid = await submit(u.token, payload);
      const { done, body } = await result(u.token, pid);
      assert.equal(body.method, 'gfnff');
      assert.deepEqual(
        body.items.map((i) => i.error),
        [null, null, 'too_large'],
      );
      assert.match(body.items[2]!.detail!, /332 atoms .* at most 300/);
      const pentane = body.items[0]!.conformers!;
      checkEnsemble(pentane, { window: 4, threshold: 0.3, max: 3 });
      assert.equal(pentane.length, 3, 'pentane has more than three conformers within 4 kcal/mol');
      // The weights are at 400 K: the ratio of the first two is exp(-ΔE/RT).
      const ratio = pentane[1]!.boltzmann_weight / pentane[0]!.boltzmann_weight;
      assert.ok(Math.abs(ratio - Math.exp(-pentane[1]!.relative_kcal / ((8.314462618 / 4184) * 400))) < 1e-5);
      checkEnsemble(body.items[1]!.conformers!, { window: 4, threshold: 0.3, max: 3 });
      const total = body.items.reduce((n, i) => n + (i.conformers?.length ?? 0), 0);
      assert.deepEqual(Object.keys(body.ports).sort(), ['logs', 'lowest', 'structures', 'table']);

      const art = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}`, { token: u.token })).body;
      const ids = (port: string) => (art.manifest.ports[port].records as { id: string }[]).map((r) => r.id);
      assert.equal(ids('structures').length, total);
      assert.deepEqual(ids('structures').slice(0, 3), ['0-1', '0-2', '0-3']);
      assert.deepEqual(ids('lowest'), ['0', '1']);
      const sdf = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}/download?port=lowest&record=0`, { token: u.token })).text;
      assert.match(sdf, /> {2}<relative_kcal>\n0\n/);
      const csv = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}/download?port=table&record=table`, { token: u.token })).text.trim().split('\n');
      assert.equal(csv[0], 'index,id,name,smiles,error,conformer,energy_hartree,relative_kcal,boltzmann_weight');
      assert.ok(
        csv.slice(1, 4).every((l) => l.startsWith('0,0,,CCCCC,,')),
        csv.slice(1, 4).join('\n'),
      );
      assert.equal(csv.length, 1 + total + 1, 'a row per conformer and one for the failed structure');
      assert.match(csv[csv.length - 1]!, /^2,2,,C{110},too_large,,,,$/);

      // conformers -> optimize of each structure's lowest conformer.
      const opt = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'chain', job_type: 'optimize', payload: { input_artifact_id: done.result_artifact_id, port: 'lowest', method: 'gfnff' } },
      });
      assert.equal(opt.status, 200, opt.text);
      const od = await h.waitForJob(u.token, opt.body.process_id, undefined, 60_000);
      assert.equal(od.status, 'completed', od.message ?? '');
      const items = (await h.req('GET', `/api/v1/jobs/result?process_id=${opt.body.process_id}`, { token: u.token })).body.items as {
        error: string | null;
        energy_hartree: number;
      }[];
      assert.equal(items.length, 2);
      assert.ok(items.every((i) => i.error === null));
      // Re-optimising a GFN-FF minimum with GFN-FF finds the same energy.
      assert.ok(Math.abs(items[0]!.energy_hartree - pentane[0]!.energy_hartree) * KCAL_PER_HARTREE < 0.05);

      const cite = await h.req('GET', `/api/v1/papers/cite?process_id=${pid}`, { token: u.token });
      assert.equal(cite.status, 200, cite.text);
      const methods = JSON.stringify(cite.body);
      assert.match(methods, /gfnff/i);
      assert.match(methods, /openbabel|Open Babel/i);
    });

    it('reports progress per candidate, and a cancel stops its engines within a second', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const pid = await submit(u.token, { molecules: ['CCCCCCCCO'], method: 'gfn2', max_conformers: 100 });
      let seen: Record<string, unknown> | null = null;
      await within(
        'progress of a candidate',
        120_000,
        async () => {
          const st = (await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token })).body;
          if (st.progress?.stage === 'gfnff' && st.progress.done >= 1) seen = st.progress;
          return seen !== null && engineProcesses(process.pid).some((p) => /\bxtb\b/.test(p.cmd));
        },
        100,
      );
      assert.match(String(seen!.total), /^\d+$/);
      assert.equal(seen!.structure, 0);
      const cancelled = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: u.token });
      assert.equal(cancelled.status, 200, cancelled.text);
      const ms = await within('the engines are gone', 5_000, () => engineProcesses(process.pid).length === 0, 10);
      assert.ok(ms < 1_000, `the engines were gone ${ms} ms after the cancel answered`);
      // And none starts again (the candidate loop stops).
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(engineProcesses(process.pid).length, 0);
      assert.equal((await h.req('GET', `/api/v1/jobs/status?process_id=${pid}`, { token: u.token })).body.status, 'cancelled');
    });
  });
}
