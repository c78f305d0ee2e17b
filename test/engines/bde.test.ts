// The `bde` job type through the API (docs/questions.md, "Bond dissociation energies"):
// methanol's X-H bonds by default, one per set of equivalent hydrogens, weakest first (C-H below
// O-H), each the calibration line applied to the raw BDE; methane's C-H at B3LYP/def2-SVP (the
// default energies) within 3 kcal/mol of experiment (105.0); a C-C bond asked for; a pair of
// atoms that are not bonded a 422 at submit; a radical an item error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BDE_LINES } from '../../src/engines/questions/bde-calibration.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { resultSchemaErrors } from './helpers.js';

interface Bond {
  atoms: [number, number];
  elements: [string, string];
  equivalent: number;
  bde_kcal_mol: number;
  raw_kcal_mol: number;
}
interface Item {
  error: string | null;
  detail: string | null;
  bonds: Bond[];
  energies: string;
}

for (const backend of onlyOn('postgres')) {
  describe(`bde (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    const submit = (payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'bde', job_type: 'bde', payload } });
    const result = async (payload: Record<string, unknown>) => {
      const r = await submit(payload);
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 400_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      return (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body as { energies: string; calibrated: boolean; items: Item[] };
    };

    it("the estimate counts methanol's work: one conformer, its tight optimisation, two radicals at the fitted share; a Hessian each", async () => {
      // docs/questions.md, "Estimates": (conformers + 1) + RADICAL_SHARE x bonds x (1 + conformers).
      const r = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'bde', payload: { molecules: ['CO'], energies: 'gfn2' } } });
      assert.equal(r.status, 200, r.text);
      const a = r.body.assumptions as { radical_share: number; gfn2_optimisations: number; gfn2_hessians: number };
      assert.deepEqual([a.radical_share, a.gfn2_hessians, a.gfn2_optimisations], [1.25, 3, 7]);
    });

    it("methanol with GFN2 energies: the C-H (3 equivalent) below the O-H, the calibration line applied; ethane's C-C; a radical's item error", async () => {
      const res = await result({ molecules: ['CO', 'CC', '[CH3]'], energies: 'gfn2' });
      assert.equal(await resultSchemaErrors(h, 'BdeResult', res), null);
      assert.match(res.energies, /^GFN2-xTB alone/);
      assert.equal(res.calibrated, true);
      const [methanol, ethane, radical] = res.items as [Item, Item, Item];
      assert.equal(methanol.error, null, methanol.detail ?? '');
      // Atoms: C0 O1, the C's hydrogens 2-4, the O's 5.
      assert.deepEqual(
        methanol.bonds.map((b) => [b.atoms, b.elements, b.equivalent]),
        [
          [[0, 2], ['C', 'H'], 3],
          [[1, 5], ['O', 'H'], 1],
        ],
      );
      const line = BDE_LINES.gfn2!;
      for (const b of methanol.bonds) assert.ok(Math.abs(b.bde_kcal_mol - (line.slope * b.raw_kcal_mol + line.intercept)) < 0.01);
      assert.ok(methanol.bonds[0]!.bde_kcal_mol < methanol.bonds[1]!.bde_kcal_mol);
      assert.equal(ethane.error, null, ethane.detail ?? '');
      assert.deepEqual(
        ethane.bonds.map((b) => b.atoms),
        [[0, 2]],
      );
      assert.equal(ethane.bonds[0]!.equivalent, 6);
      assert.equal(radical.error, 'radical');
    });

    it("methane's C-H at B3LYP/def2-SVP, the default: within 3 kcal/mol of 105.0; a bond asked for by its atoms", async () => {
      const res = await result({ molecules: ['C', 'CC'], bonds: [[0, 1]] });
      assert.match(res.energies, /^B3LYP\/def2-SVP/);
      const [methane, ethane] = res.items as [Item, Item];
      assert.equal(methane.error, null, methane.detail ?? '');
      assert.deepEqual(methane.bonds[0]!.atoms, [0, 1]);
      assert.ok(Math.abs(methane.bonds[0]!.bde_kcal_mol - 105.0) < 3, `methane C-H ${methane.bonds[0]!.bde_kcal_mol}`);
      // Ethane's C-C (90.1): the line is fitted on X-H and X-Y bonds alike.
      assert.deepEqual(ethane.bonds[0]!.elements, ['C', 'C']);
      assert.ok(Math.abs(ethane.bonds[0]!.bde_kcal_mol - 90.1) < 4, `ethane C-C ${ethane.bonds[0]!.bde_kcal_mol}`);
    });

    it('a pair of atoms that are not bonded is a 422 at submit', async () => {
      const r = await submit({ molecules: ['CCO'], bonds: [[0, 2]], energies: 'gfn2' });
      assert.equal(r.status, 422, r.text);
      assert.match(r.body.detail, /atoms 0 and 2 are not bonded/);
    });
  });
}
