// The profile template (docs/workflows.md, "Templates"): run end to end through the API on acetic
// acid and methanol, its table (the profile_table step) holds, row by row, what the individual
// jobs found: the properties' figures, the charge state at pH 7.4 (pka), the main tautomer
// (tautomers), the weakest C-H bond and its enthalpy (bde, GFN2 energies), and the top Fukui
// sites once the reactivity job type is registered. Each job's real result is checked against its
// OpenAPI result schema (test/openapi/job-results.test.ts names this file for them). A
// profile_table job submitted by itself reads only the caller's results of the right types, and
// refuses results of different molecules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { startRun, waitForRun } from './helpers.js';

const MOLECULES = ['CC(=O)O', 'CO'];
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
/** The reactivity step joins the template once its job type is registered (the REACTIVITY line of src/workflows/templates.ts). */
const REACTIVITY = JOB_TYPES.has('reactivity');
const SOURCES = ['properties', 'pka', 'tautomers', 'bde', ...(REACTIVITY ? ['reactivity'] : [])];

/** A CSV of plain fields (no quoting needed here) as rows of cells. */
const csvRows = (text: string) =>
  text
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));

for (const backend of onlyOn('postgres')) {
  describe(`the profile template [${backend.name}]`, { timeout: 900_000 }, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    let ajv: Ajv;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      u = await h.user();
      await h.credit(u.userId, 20);
      const doc = (await h.req('GET', '/openapi.json')).body;
      ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ $id: 'openapi', components: doc.components });
    });
    after(() => h?.close());

    const result = async (jobId: string) => {
      const r = await h.req('GET', `/api/v1/jobs/result?process_id=${jobId}`, { token: u.token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const conforms = (name: string, doc: unknown) => {
      const v = ajv.getSchema(`openapi#/components/schemas/${name}`)!;
      assert.ok(v(doc), `${name}: ${JSON.stringify(v.errors?.slice(0, 5))}`);
    };
    /** What the run left, kept for the second test. */
    let made: { outputs: Record<string, { artifact_id: string; port: string }>; results: Record<string, any> } | null = null;

    it('acetic acid and methanol: one table row each, holding the values of the properties, pka, tautomers and bde jobs', async () => {
      const listed = await h.req('GET', '/api/v1/workflows/templates', { token: u.token });
      const template = listed.body.templates.find((t: any) => t.template_id === 'profile');
      assert.deepEqual(
        template.spec.steps.map((s: any) => [s.id, s.job_type]),
        [...SOURCES.map((s) => [s, s]), ['table', 'profile_table']],
        REACTIVITY ? 'reactivity is registered: enable the REACTIVITY line of src/workflows/templates.ts' : 'the profile without reactivity',
      );
      const run = await startRun(h, u.token, { template_id: 'profile', inputs: { library: MOLECULES } });
      assert.equal(run.inputs.ph, 7.4);
      const done = await waitForRun(h, u.token, run.run_id, 800_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const res: Record<string, any> = {};
      for (const s of done.steps) res[s.step_id] = await result(s.job_id);
      made = { outputs: done.outputs, results: res };
      for (const s of SOURCES) conforms(`${pascal(s)}Result`, res[s]);
      conforms('ProfileTableResult', res.table);
      conforms('JobResult', res.table);

      // The jobs' own values (GFN2-xTB; acetic acid's pKa near its 4.76, the carboxylate at 7.4).
      assert.deepEqual(
        res.pka.items.map((i: any) => [i.dominant_smiles, i.dominant_charge]),
        [
          ['CC(=O)[O-]', -1],
          ['CO', 0],
        ],
      );
      assert.ok(Math.abs(res.pka.items[0].sites[0].pka - 4.76) < 0.5, `acetic acid pKa ${res.pka.items[0].sites[0].pka}`);
      assert.deepEqual(
        res.tautomers.items.map((i: any) => i.tautomers[0].smiles),
        ['CC(=O)O', 'CO'],
      );
      // Acetic acid's weakest X-H bond is its O-H; the table's is the weakest C-H, the methyl's (C0-H4).
      assert.deepEqual(res.bde.items[0].bonds[0].elements, ['O', 'H']);
      const weakestCh = (item: any) => item.bonds.find((b: any) => b.elements.join('') === 'CH');
      assert.deepEqual(
        res.bde.items.map((i: any) => weakestCh(i).atoms),
        [
          [0, 4],
          [0, 2],
        ],
      );
      for (const i of res.bde.items) assert.ok(weakestCh(i).bde_kcal_mol > 85 && weakestCh(i).bde_kcal_mol < 110, JSON.stringify(weakestCh(i)));

      // The table: one row per molecule, each column the job's value.
      const table = res.table;
      assert.deepEqual(table.sources, SOURCES);
      assert.deepEqual(table.summary, { molecules: 2, complete: 2 });
      for (const [i, row] of table.items.entries()) {
        const props = res.properties.items[i].properties;
        const pka = res.pka.items[i];
        const best = res.tautomers.items[i].tautomers[0];
        const ch = weakestCh(res.bde.items[i]);
        assert.deepEqual([row.index, row.id, row.smiles, row.error], [i, String(i), MOLECULES[i], null]);
        assert.deepEqual(
          [row.formula, row.mw, row.clogp, row.tpsa, row.hbd, row.hba, row.rotatable_bonds, row.qed, row.lipinski_pass],
          [props.formula, props.mw, props.clogp, props.tpsa, props.hbd, props.hba, props.rotatable_bonds, props.qed, props.lipinski.pass],
        );
        assert.deepEqual([row.ph, row.dominant_smiles, row.dominant_charge], [7.4, pka.dominant_smiles, pka.dominant_charge]);
        assert.equal(row.pka_sites, pka.sites.map((s: any) => `${s.element}${s.atom_index} ${s.kind} ${s.pka}`).join('; ') || null);
        assert.deepEqual([row.main_tautomer, row.main_tautomer_fraction, row.tautomers], [best.smiles, best.fraction, res.tautomers.items[i].count]);
        assert.deepEqual([row.weakest_ch_bond, row.weakest_ch_bde_kcal_mol], [ch.atoms.join('-'), ch.bde_kcal_mol]);
        if (REACTIVITY) {
          // The top heavy-atom sites of the reactivity job's Fukui indices (hydrogens follow the heavy atoms).
          const heavy = res.reactivity.items[i].fukui.filter((f: any) => f.atom_index < res.properties.items[i].properties.heavy_atoms);
          const top = (k: string) => heavy.reduce((a: any, b: any) => (b[k] > a[k] ? b : a));
          assert.deepEqual(
            [row.top_f_plus_atom, row.top_f_plus, row.top_f_minus_atom, row.top_f_minus],
            [top('f_plus').atom_index, top('f_plus').f_plus, top('f_minus').atom_index, top('f_minus').f_minus],
          );
        } else {
          // No reactivity job type on this server: the table has no Fukui columns (checked once it is registered).
          assert.ok(!('top_f_plus_atom' in row) && !table.columns.includes('top_f_plus'), JSON.stringify(table.columns));
        }
      }
      assert.deepEqual([table.items[0].pka_sites, table.items[1].pka_sites], [`O3 acid ${res.pka.items[0].sites[0].pka}`, null]);

      // The CSV output: the same columns and values.
      assert.deepEqual(Object.keys(done.outputs).sort(), ['profile', 'table', ...SOURCES].sort());
      const o = done.outputs.table;
      const dl = await fetch(`${h.base}/api/v1/artifacts/${o.artifact_id}/download?port=${o.port}`, { headers: { authorization: `Bearer ${u.token}` } });
      assert.equal(dl.status, 200);
      assert.match(dl.headers.get('content-type') ?? '', /^text\/csv/);
      const [header, ...rows] = csvRows(await dl.text());
      assert.deepEqual(header, table.columns);
      assert.equal(rows.length, 2);
      const cell = (r: string[], c: string) => r[header!.indexOf(c)];
      assert.deepEqual(
        rows.map((r) => [
          cell(r, 'smiles'),
          cell(r, 'dominant_smiles'),
          cell(r, 'dominant_charge'),
          cell(r, 'main_tautomer'),
          cell(r, 'weakest_ch_bond'),
          cell(r, 'weakest_ch_bde_kcal_mol'),
        ]),
        table.items.map((r: any) => [r.smiles, r.dominant_smiles, String(r.dominant_charge), r.main_tautomer, r.weakest_ch_bond, String(r.weakest_ch_bde_kcal_mol)]),
      );
      assert.deepEqual(
        rows.map((r) => [cell(r, 'mw'), cell(r, 'lipinski_pass'), cell(r, 'error')]),
        [
          ['60.052', 'true', ''],
          ['32.042', 'true', ''],
        ],
      );
    });

    it('a profile_table job by itself: the caller’s results of the right types only, of the same molecules', async () => {
      assert.ok(made, 'the template ran');
      const { outputs, results } = made;
      const submit = (payload: Record<string, unknown>, token = u.token) =>
        h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'table', job_type: 'profile_table', payload } });
      const wrong = await submit({ properties_artifact_id: outputs.properties!.artifact_id, pka_artifact_id: outputs.tautomers!.artifact_id });
      assert.equal(wrong.status, 422, wrong.text);
      assert.deepEqual(
        wrong.body.errors.map((e: any) => [e.loc, e.msg]),
        [[['body', 'payload', 'pka_artifact_id'], "this is a tautomers job's result, not a pka job's"]],
      );
      const none = await submit({});
      assert.equal(none.status, 422, none.text);
      assert.match(none.body.errors[0].msg, /give at least one of properties_artifact_id, pka_artifact_id/);
      const other = await h.user();
      await h.credit(other.userId, 1);
      const foreign = await submit({ pka_artifact_id: outputs.pka!.artifact_id }, other.token);
      assert.equal(foreign.status, 422, foreign.text);
      assert.deepEqual(foreign.body.errors[0].loc, ['body', 'payload', 'pka_artifact_id']);

      // Two of the run's results: the same rows as the template's table, with those columns only.
      const ok = await submit({ pka_artifact_id: outputs.pka!.artifact_id, bde_artifact_id: outputs.bde!.artifact_id });
      assert.equal(ok.status, 200, ok.text);
      const job = await h.waitForJob(u.token, ok.body.process_id, undefined, 60_000);
      assert.equal(job.status, 'completed', job.message ?? '');
      const two = await result(ok.body.process_id);
      assert.deepEqual(two.columns, [
        'index',
        'id',
        'name',
        'smiles',
        'error',
        'ph',
        'dominant_smiles',
        'dominant_charge',
        'pka_sites',
        'weakest_ch_bond',
        'weakest_ch_bde_kcal_mol',
      ]);
      assert.deepEqual(
        two.items.map((r: any) => [r.smiles, r.dominant_charge, r.weakest_ch_bond]),
        results.table.items.map((r: any) => [r.smiles, r.dominant_charge, r.weakest_ch_bond]),
      );

      // A properties job of one molecule beside the pka job of two: refused when it runs.
      const one = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'one', job_type: 'properties', payload: { smiles: ['CCO'] } } });
      const oneDone = await h.waitForJob(u.token, one.body.process_id, undefined, 60_000);
      const mixed = await submit({ properties_artifact_id: oneDone.result_artifact_id, pka_artifact_id: outputs.pka!.artifact_id });
      assert.equal(mixed.status, 200, mixed.text);
      const failed = await h.waitForJob(u.token, mixed.body.process_id, undefined, 60_000);
      assert.deepEqual([failed.status, failed.message], ['error', 'the results cover different molecules: properties 1, pka 2']);
    });
  });
}
