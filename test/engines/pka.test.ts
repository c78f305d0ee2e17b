// The `pka` job type through the API (docs/questions.md, "pKa"): acetic acid's site and its
// calibrated pKa, acetate dominant at pH 7.4; glycine's two sites computed in each other's
// context (the acid next to the ammonium, the amine next to the carboxylate), the zwitterion
// dominant; a molecule with no site; a site of a class without calibration (pka null, a reason);
// a radical and a metal as item errors; more than 20 sites and a method other than gfn2 as 422s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { resultSchemaErrors } from './helpers.js';

interface Site {
  atom_index: number;
  element: string;
  kind: string;
  class: string;
  pka: number | null;
  reason: string | null;
}
interface Item {
  error: string | null;
  detail: string | null;
  sites: Site[];
  microstates: { smiles: string; charge: number; fraction: number }[];
  dominant_smiles: string;
  dominant_charge: number;
}

for (const backend of onlyOn('postgres')) {
  describe(`pka (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    const submit = (payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'pka', job_type: 'pka', payload } });

    it('acetic acid, glycine, benzene, ethanethiol, a radical and a metal: sites, pKa values, the charge state at 7.4, item errors', async () => {
      const r = await submit({ molecules: ['CC(=O)O', 'NCC(=O)O', 'c1ccccc1', 'CCS', '[CH3]', 'C[Hg]C'] });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 400_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body as { ph: number; items: Item[] };
      assert.equal(await resultSchemaErrors(h, 'PkaResult', res), null);
      assert.equal(res.ph, 7.4);
      const [acetic, glycine, benzene, thiol, radical, metal] = res.items as [Item, Item, Item, Item, Item, Item];

      // Acetic acid: one carboxylic acid at the hydroxyl O (atom 3), near its 4.76; acetate at 7.4.
      assert.equal(acetic.error, null, acetic.detail ?? '');
      assert.deepEqual(
        acetic.sites.map((s) => [s.atom_index, s.element, s.kind, s.class]),
        [[3, 'O', 'acid', 'carboxylic acid']],
      );
      assert.ok(Math.abs(acetic.sites[0]!.pka! - 4.76) < 0.5, `acetic acid pKa ${acetic.sites[0]!.pka}`);
      assert.equal(acetic.dominant_smiles, 'CC(=O)[O-]');
      assert.equal(acetic.dominant_charge, -1);
      assert.ok(acetic.microstates[0]!.fraction > 0.99);

      // Glycine (2.34 and 9.60): the acid's pKa next to the ammonium is far below acetic acid's,
      // the amine's next to the carboxylate above 8.5; the zwitterion dominates at 7.4.
      assert.equal(glycine.error, null, glycine.detail ?? '');
      const acid = glycine.sites.find((s) => s.kind === 'acid')!;
      const amine = glycine.sites.find((s) => s.kind === 'base')!;
      assert.equal(acid.atom_index, 4);
      assert.equal(amine.atom_index, 0);
      assert.equal(amine.class, 'aliphatic amine');
      assert.ok(acid.pka! < 3.5, `glycine's acid ${acid.pka}`);
      assert.ok(amine.pka! > 8.5, `glycine's amine ${amine.pka}`);
      assert.equal(glycine.dominant_smiles, '[NH3+]CC(=O)[O-]');
      assert.equal(glycine.dominant_charge, 0);
      const total = glycine.microstates.reduce((t, m) => t + m.fraction, 0);
      assert.ok(total > 0.99 && total <= 1.0001, `fractions sum to ${total}`);

      // No ionisable site: an empty list, the molecule itself at every pH.
      assert.equal(benzene.error, null, benzene.detail ?? '');
      assert.deepEqual(benzene.sites, []);
      assert.deepEqual(benzene.microstates, [{ smiles: 'c1ccccc1', charge: 0, fraction: 1 }]);
      assert.equal(benzene.dominant_charge, 0);

      // A thiol is found but its class has no calibration: pka null, with the reason.
      assert.equal(thiol.error, null, thiol.detail ?? '');
      assert.equal(thiol.sites.length, 1);
      assert.equal(thiol.sites[0]!.class, 'thiol');
      assert.equal(thiol.sites[0]!.pka, null);
      assert.match(thiol.sites[0]!.reason!, /no calibration for the class thiol/);
      assert.equal(thiol.dominant_smiles, 'CCS');

      assert.equal(radical.error, 'radical');
      assert.match(radical.detail!, /odd number of electrons/);
      assert.equal(metal.error, 'unsupported_element');
      assert.match(metal.detail!, /Hg/);
    });

    it('more than 20 sites, and a method other than gfn2, are 422s naming the limit', async () => {
      const many = `C${'C(C(=O)O)'.repeat(21)}`;
      const r = await submit({ molecules: ['CC(=O)O', many] });
      assert.equal(r.status, 422, r.text);
      assert.match(r.body.detail, /21 ionisable sites: a pka job takes at most 20/);
      assert.deepEqual(r.body.errors?.[0]?.loc ?? r.body.issues?.[0]?.loc, ['body', 'payload', 'molecules', 1]);
      const m = await submit({ molecules: ['CC(=O)O'], method: 'gfn1' });
      assert.equal(m.status, 422, m.text);
      assert.match(m.text, /method/);
    });
  });
}
