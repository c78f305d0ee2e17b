// The `tautomers` job type through the API (docs/questions.md, "Tautomers"): in water
// 2-hydroxypyridine is mainly 2-pyridone and acetamide is the amide, not its imidic acid; the
// populations sum to one, lowest first; more tautomers than max_tautomers is a 422 at submit
// naming the limit (RDKit counts them there), and max_tautomers above 200 a 422 too; the input's
// stereocentres stay in the forms that keep them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { resultSchemaErrors } from './helpers.js';

interface Tautomer {
  smiles: string;
  relative_kcal: number;
  fraction: number;
  energy: string;
  molblock: string;
}
interface Item {
  error: string | null;
  detail: string | null;
  smiles: string;
  count: number;
  tautomers: Tautomer[];
}

for (const backend of onlyOn('pglite')) {
  describe(`tautomers (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    const submit = (payload: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'tautomers', job_type: 'tautomers', payload } });

    it('2-hydroxypyridine is 2-pyridone in water, acetamide is not its imidic acid', async () => {
      const r = await submit({ molecules: ['Oc1ccccn1', 'CC(N)=O'] });
      assert.equal(r.status, 200, r.text);
      // The estimate counted RDKit's tautomers at submit: 3 each.
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body as { solvent: string; items: Item[] };
      assert.equal(await resultSchemaErrors(h, 'TautomersResult', res), null);
      assert.equal(res.solvent, 'water');
      const [pyridone, amide] = res.items as [Item, Item];
      for (const it of [pyridone, amide]) {
        assert.equal(it.error, null, it.detail ?? '');
        assert.equal(it.count, 3);
        assert.equal(it.tautomers.length, 3);
        assert.equal(it.tautomers[0]!.relative_kcal, 0);
        assert.deepEqual(
          it.tautomers.map((t) => t.relative_kcal),
          [...it.tautomers.map((t) => t.relative_kcal)].sort((a, b) => a - b),
        );
        const total = it.tautomers.reduce((t, x) => t + x.fraction, 0);
        assert.ok(Math.abs(total - 1) < 1e-3, `fractions sum to ${total}`);
        assert.equal(it.tautomers[0]!.energy, 'free');
        assert.match(it.tautomers[0]!.molblock, /V2000/);
      }
      assert.equal(pyridone.smiles, 'O=c1cccc[nH]1');
      assert.equal(pyridone.tautomers[0]!.smiles, 'O=c1cccc[nH]1');
      assert.ok(pyridone.tautomers[0]!.fraction > 0.5);
      assert.equal(amide.smiles, 'CC(N)=O');
      assert.ok(amide.tautomers[0]!.fraction > 0.99);
      const imidic = amide.tautomers.find((t) => t.smiles === 'CC(=N)O')!;
      assert.ok(imidic.relative_kcal > 5, `the imidic acid ${imidic.relative_kcal} kcal/mol above`);
    });

    it("keeps the input's stereocentres in the forms that still have them (L-alanine)", async () => {
      const r = await submit({ molecules: ['N[C@@H](C)C(=O)O'] });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const it = ((await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body as { items: Item[] }).items[0]!;
      assert.equal(it.error, null, it.detail ?? '');
      assert.equal(it.count, 4);
      // The acid keeps its configuration; the enol and imine forms, where the centre is sp2 or gone, have none.
      assert.equal(it.smiles, 'C[C@H](N)C(=O)O');
      assert.deepEqual(
        it.tautomers.map((t) => t.smiles).filter((s) => s.includes('@')),
        ['C[C@H](N)C(=O)O'],
      );
      assert.match(it.tautomers[0]!.molblock, /V2000/);
    });

    it('more tautomers than max_tautomers, and max_tautomers above 200, are 422s naming the limit', async () => {
      const few = await submit({ molecules: ['CC(N)=O', 'Oc1ccccn1'], max_tautomers: 2 });
      assert.equal(few.status, 422, few.text);
      assert.match(few.body.detail, /more than 2 tautomers of this molecule: max_tautomers is 2 \(at most 200\)/);
      const many = await submit({ molecules: ['CC(N)=O'], max_tautomers: 201 });
      assert.equal(many.status, 422, many.text);
      assert.match(many.text, /200/);
    });
  });
}
