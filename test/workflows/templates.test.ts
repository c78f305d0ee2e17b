// The built-in templates (docs/workflows.md) are real, runnable specs: each runs end to end
// through POST /workflows/runs with template_id, and its outputs hold what the steps promise
// (kept molecules satisfy the filter, predictions equal the public model's own, the query's
// nearest neighbour is itself, the xtb screen optimises the filter's molecules with GFN2 in
// water, the conformer search's frequencies start from each lowest conformer). Also the graph
// of a finished run as SVG, JSON and Mermaid.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import { TEMPLATES } from '../../src/workflows/templates.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { LIBRARY, startRun, uploadSmiles, waitForRun } from './helpers.js';

/** The members of a zip, by name. */
async function zipMembers(buf: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const e of zip.eachEntry()) {
    const parts: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(e)) parts.push(c as Buffer);
    out.set(e.fileName, Buffer.concat(parts));
  }
  return out;
}

async function result(h: Harness, token: string, jobId: string): Promise<any> {
  const r = await h.req('GET', `/api/v1/jobs/result?process_id=${jobId}`, { token });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

for (const backend of BACKENDS) {
  describe(`workflow templates [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      u = await h.user();
      await h.credit(u.userId, 10);
    });
    after(() => h?.close());

    it('lists at least the five named templates, each a valid spec', async () => {
      const r = await h.req('GET', '/api/v1/workflows/templates', { token: u.token });
      assert.equal(r.status, 200);
      const ids = r.body.templates.map((t: any) => t.template_id);
      for (const id of ['library-triage', 'solubility-screen', 'similarity-expansion', 'xtb-screen', 'conformer-search']) assert.ok(ids.includes(id), id);
      for (const t of r.body.templates) {
        const v = await h.req('POST', '/api/v1/workflows/validate', { token: u.token, body: { spec: t.spec } });
        assert.deepEqual([v.body.valid, v.body.errors], [true, []], t.template_id);
      }
      // similarity-expansion's query has no default: its check waits for a run, and it cannot be priced before one.
      const sim = r.body.templates.find((t: any) => t.template_id === 'similarity-expansion');
      const v = await h.req('POST', '/api/v1/workflows/validate', { token: u.token, body: { spec: sim.spec } });
      assert.deepEqual(
        v.body.warnings.filter((w: any) => w.type === 'checked_at_run').map((w: any) => w.loc),
        [['spec', 'steps', 0, 'params', 'query']],
      );
      const e = await h.req('POST', '/api/v1/workflows/estimate', { token: u.token, body: { spec: sim.spec } });
      assert.equal(e.status, 422, e.text);
      assert.deepEqual([e.body.errors[0].type, e.body.errors[0].loc], ['needs_input', ['body', 'spec', 'steps', 0, 'params']]);
      const triage = r.body.templates.find((t: any) => t.template_id === 'library-triage');
      const priced = await h.req('POST', '/api/v1/workflows/estimate', { token: u.token, body: { spec: triage.spec } });
      assert.equal(priced.status, 200, priced.text);
      assert.deepEqual(
        priced.body.steps.map((x: any) => x.step_id),
        ['describe', 'keep', 'cluster', 'draw'],
      );
    });

    it('library triage on an uploaded set: described, filtered, clustered, drawn', async () => {
      const library = await uploadSmiles(h, u.token, LIBRARY);
      const run = await startRun(h, u.token, { template_id: 'library-triage', inputs: { library, expression: 'mw <= 200 and not pains' } });
      assert.deepEqual([run.template_id, run.inputs.cutoff], ['library-triage', 0.4]);
      const done = await waitForRun(h, u.token, run.run_id);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const step = (id: string) => done.steps.find((s: any) => s.step_id === id);
      const described = await result(h, u.token, step('describe').job_id);
      const kept = await result(h, u.token, step('keep').job_id);
      const mw = new Map(described.items.map((i: any) => [i.smiles, i.properties.mw]));
      const expectKept = LIBRARY.filter((s) => (mw.get(s) as number) <= 200);
      assert.deepEqual(kept.kept.map((k: any) => k.smiles).sort(), [...expectKept].sort());
      const clusters = await result(h, u.token, step('cluster').job_id);
      assert.equal(clusters.summary?.molecules ?? clusters.input.molecules, expectKept.length);
      const drawn = await result(h, u.token, step('draw').job_id);
      assert.equal(drawn.summary?.drawn ?? drawn.input.molecules, expectKept.length);
      assert.deepEqual(Object.keys(done.outputs).sort(), ['clusters', 'drawings', 'kept', 'properties']);
      for (const o of Object.values<any>(done.outputs)) assert.equal(o.ready, true);

      // The graph: SVG (every step with its state), JSON, Mermaid.
      const svg = await fetch(`${h.base}/api/v1/workflows/runs/${run.run_id}/graph`, { headers: { authorization: `Bearer ${u.token}` } });
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      const text = await svg.text();
      assert.match(text, /^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      for (const id of ['describe', 'keep', 'cluster', 'draw']) assert.ok(text.includes(`data-id="${id}"`), id);
      // Titled with the run's name, not its id.
      assert.ok(text.includes('>Library triage · completed</text>') && !text.includes(run.run_id), 'the SVG title');
      const json = await h.req('GET', `/api/v1/workflows/runs/${run.run_id}/graph?format=json`, { token: u.token });
      assert.deepEqual([json.body.run_id, json.body.name], [run.run_id, 'Library triage']);
      assert.deepEqual(
        json.body.nodes.filter((n: any) => n.kind === 'step').map((n: any) => [n.id, n.state]),
        [
          ['describe', 'completed'],
          ['keep', 'completed'],
          ['cluster', 'completed'],
          ['draw', 'completed'],
        ],
      );
      assert.ok(json.body.edges.some((e: any) => e.from === 'keep' && e.to === 'cluster'));
      const mermaid = await fetch(`${h.base}/api/v1/workflows/runs/${run.run_id}/graph?format=mermaid`, { headers: { authorization: `Bearer ${u.token}` } });
      const m = await mermaid.text();
      assert.ok(m.startsWith('---\ntitle: "Library triage · completed"\n---\nflowchart LR\n'), m.slice(0, 80));
      assert.equal((m.match(/-->/g) ?? []).length, json.body.edges.length);

      // Each output downloads with ?port= alone (docs/workflows.md, "Reading runs"): the table is
      // its one record, the kept set (a record per molecule) a zip of that port.
      const dl = (o: { artifact_id: string; port: string }, headers: Record<string, string> = {}) =>
        fetch(`${h.base}/api/v1/artifacts/${o.artifact_id}/download?port=${o.port}`, { headers: { authorization: `Bearer ${u.token}`, ...headers } });
      const table = await dl(done.outputs.properties);
      assert.equal(table.status, 200);
      assert.match(table.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal((await table.text()).trim().split('\n').length, LIBRARY.length + 1);
      const keptZip = await dl(done.outputs.kept);
      assert.deepEqual([keptZip.status, keptZip.headers.get('content-type')], [200, 'application/zip']);
      const bytes = Buffer.from(await keptZip.arrayBuffer());
      const members = await zipMembers(bytes);
      const manifest = JSON.parse(members.get('manifest.json')!.toString());
      assert.deepEqual(Object.keys(manifest.ports), ['molecules']);
      assert.equal(manifest.ports.molecules.records.length, expectKept.length);
      for (const r of manifest.ports.molecules.records) assert.ok(members.has(r.files.primary), r.files.primary);
      // The same bytes every time: a range of it, asked with its ETag, is those bytes.
      const part = await dl(done.outputs.kept, { range: 'bytes=10-99', 'if-range': keptZip.headers.get('etag')! });
      assert.equal(part.status, 206);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(10, 100));
      const scratch = h.services.artifacts.scratchDir;
      assert.deepEqual(
        (await fsp.readdir(scratch).catch(() => [])).filter((f) => f.startsWith('port-')),
        [],
        'no scratch file is left',
      );
    });

    it('a template input that fails a step is reported where it was sent; expression inputs point to the filter syntax', async () => {
      const bad = await h.req('POST', '/api/v1/workflows/runs', {
        token: u.token,
        body: { template_id: 'library-triage', inputs: { library: LIBRARY, expression: 'mw <= (500' } },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.loc),
        [['body', 'inputs', 'expression']],
      );
      assert.match(bad.body.errors[0].msg, /param expression of step keep/);
      const estimate = await h.req('POST', '/api/v1/workflows/estimate', {
        token: u.token,
        body: { spec: TEMPLATES.find((t) => t.template_id === 'library-triage')!.spec, inputs: { library: LIBRARY, cutoff: 7 } },
      });
      assert.equal(estimate.status, 422, estimate.text);
      assert.deepEqual(
        estimate.body.errors.map((e: any) => e.loc),
        [['body', 'inputs', 'cutoff']],
      );
      // The filter syntax is documented under docs/jobs.md "filter"; every expression input says so.
      const jobs = fs.readFileSync(new URL('../../docs/jobs.md', import.meta.url), 'utf8');
      assert.match(jobs, /^### `filter`$/m);
      for (const t of TEMPLATES)
        for (const step of t.spec.steps.filter((x) => x.job_type === 'filter')) {
          const name = /^\$inputs\.(\w+)$/.exec(String(step.params?.expression))?.[1];
          if (!name) continue;
          assert.match(t.spec.inputs![name]!.description ?? '', /docs\/jobs\.md, "filter"/, `${t.template_id}: ${name}`);
        }
    });

    it('POST /workflows/estimate with the inputs of a run: priced on the real set, as that run reserves', async () => {
      const spec = TEMPLATES.find((t) => t.template_id === 'library-triage')!.spec;
      const estimate = (inputs?: unknown) => h.req('POST', '/api/v1/workflows/estimate', { token: u.token, body: inputs === undefined ? { spec } : { spec, inputs } });
      const assumed = await estimate();
      assert.equal(assumed.status, 200, assumed.text);
      assert.equal(assumed.body.assumptions.molecules_per_bound_input, 1000);
      const listed = await estimate({ library: LIBRARY });
      assert.equal(listed.status, 200, listed.text);
      const keep = (e: any) => e.body.steps.find((x: any) => x.step_id === 'keep');
      assert.deepEqual([listed.body.assumptions.molecules_per_bound_input, keep(listed).assumptions.molecules], [LIBRARY.length, LIBRARY.length]);
      assert.ok(listed.body.cost < assumed.body.cost, `${listed.body.cost} < ${assumed.body.cost}`);
      const library = await uploadSmiles(h, u.token, LIBRARY.slice(0, 4));
      const uploaded = await estimate({ library, cutoff: 0.5 });
      assert.equal(uploaded.status, 200, uploaded.text);
      assert.equal(keep(uploaded).assumptions.molecules, 4);
      // A run with the same inputs reserves what the estimate said.
      const run = await startRun(h, u.token, { spec, inputs: { library, cutoff: 0.5 } });
      assert.equal(run.reserved_usd, uploaded.body.cost);
      await waitForRun(h, u.token, run.run_id);
      // The run start's rules: unknown, missing and mistyped inputs; someone else's set is not found.
      const bad = await estimate({ libary: LIBRARY, cutoff: 'x' });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.loc),
        [
          ['body', 'inputs', 'libary'],
          ['body', 'inputs', 'library'],
          ['body', 'inputs', 'cutoff'],
        ],
      );
      const stranger = await h.user();
      const theirs = await uploadSmiles(h, stranger.token, ['CCO']);
      assert.equal((await estimate({ library: theirs })).status, 404);
    });

    it('POST /workflows/estimate with template_id: the template priced as a run from it reserves (issue 32 point 12)', async () => {
      const spec = TEMPLATES.find((t) => t.template_id === 'library-triage')!.spec;
      const estimate = (body: unknown) => h.req('POST', '/api/v1/workflows/estimate', { token: u.token, body });
      const inputs = { library: LIBRARY.slice(0, 5), cutoff: 0.5 };
      const byTemplate = await estimate({ template_id: 'library-triage', inputs });
      assert.equal(byTemplate.status, 200, byTemplate.text);
      const bySpec = await estimate({ spec, inputs });
      assert.deepEqual(byTemplate.body, bySpec.body, 'the same answer as the template spec');
      assert.deepEqual(
        byTemplate.body.steps.map((x: any) => x.step_id),
        spec.steps.map((x) => x.id),
      );
      assert.ok(byTemplate.body.cost > 0);
      const run = await startRun(h, u.token, { template_id: 'library-triage', inputs });
      assert.equal(run.reserved_usd, byTemplate.body.cost, 'a run from the template reserves the estimate');
      await waitForRun(h, u.token, run.run_id);
      // The run start's inputs rules apply; exactly one of spec and template_id; an unknown template.
      const bad = await estimate({ template_id: 'library-triage', inputs: { ...inputs, cutoff: 'x' } });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.loc),
        [['body', 'inputs', 'cutoff']],
      );
      const both = await estimate({ spec, template_id: 'library-triage' });
      assert.equal(both.status, 422, both.text);
      assert.deepEqual(both.body.errors[0].loc, ['body', 'template_id']);
      assert.match(both.body.errors[0].msg, /exactly one of spec and template_id/);
      const neither = await estimate({ inputs });
      assert.equal(neither.status, 422, neither.text);
      assert.deepEqual(neither.body.errors[0].loc, ['body', 'spec']);
      const unknown = await estimate({ template_id: 'no-such-template' });
      assert.equal(unknown.status, 422, unknown.text);
      assert.deepEqual(unknown.body.errors[0].loc, ['body', 'template_id']);
    });

    it('solubility screen on a SMILES list: predictions equal the public model’s own', async () => {
      const smiles = ['CCO', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', 'CCCCCCCCCC'];
      const run = await startRun(h, u.token, { template_id: 'solubility-screen', inputs: { library: smiles } });
      const done = await waitForRun(h, u.token, run.run_id);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const predict = done.steps.find((s: any) => s.step_id === 'predict');
      assert.equal(done.outputs.predictions.artifact_id, predict.result_artifact_id);
      const got = await result(h, u.token, predict.job_id);
      const direct = await h.req('POST', '/api/v1/inference/predict', { token: u.token, body: { model: 'public/esol-logs', smiles } });
      assert.equal(direct.status, 200, direct.text);
      const want = new Map(direct.body.predictions.map((p: any) => [p.smiles, p.prediction]));
      assert.equal(got.predictions.length, smiles.length);
      for (const p of got.predictions) assert.ok(Math.abs(p.prediction - (want.get(p.smiles) as number)) < 1e-9, `${p.smiles}: ${p.prediction} vs ${String(want.get(p.smiles))}`);
    });

    it('xtb screen: the filter’s kept SMILES are optimised (GFN2 in water by default); the table holds their energies, gaps and dipoles', async () => {
      // Tiny molecules: heavy_atoms <= 3 keeps water, methanol and ethanol, not benzene or decane.
      const smiles = ['c1ccccc1', 'O', 'CO', 'CCCCCCCCCC', 'CCO'];
      const library = await uploadSmiles(h, u.token, smiles, 'tiny.smi');
      const run = await startRun(h, u.token, { template_id: 'xtb-screen', inputs: { library, expression: 'heavy_atoms <= 3' } });
      assert.deepEqual([run.template_id, run.inputs.method, run.inputs.solvent], ['xtb-screen', 'gfn2', 'water']);
      const done = await waitForRun(h, u.token, run.run_id, 120_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      assert.deepEqual(Object.keys(done.outputs).sort(), ['kept', 'structures', 'table']);
      const opt = await result(h, u.token, done.steps.find((s: any) => s.step_id === 'optimize').job_id);
      assert.deepEqual([opt.job_type, opt.method, opt.solvent], ['optimize', 'gfn2', 'water']);
      // The filter's SMILES records reached the optimisation with their names, in order.
      assert.deepEqual(
        opt.items.map((i: any) => [i.name, i.error, i.converged]),
        [
          ['m1', null, true],
          ['m2', null, true],
          ['m4', null, true],
        ],
      );
      // Water with GFN2-xTB in ALPB water: -5.085 Eh (the gas phase is -5.070), a gap of 14.8 eV.
      assert.ok(Math.abs(opt.items[0].energy_hartree + 5.085) < 2e-3, String(opt.items[0].energy_hartree));
      assert.ok(Math.abs(opt.items[0].homo_lumo_gap_ev - 14.76) < 0.1, String(opt.items[0].homo_lumo_gap_ev));
      const dl = (o: { artifact_id: string; port: string }) =>
        fetch(`${h.base}/api/v1/artifacts/${o.artifact_id}/download?port=${o.port}`, { headers: { authorization: `Bearer ${u.token}` } });
      const table = (await (await dl(done.outputs.table)).text()).trim().split('\n');
      assert.equal(table[0], 'index,id,name,smiles,error,energy_hartree,homo_lumo_gap_ev,dipole_debye,iterations');
      const rows = table.slice(1).map((l) => l.split(','));
      assert.deepEqual(
        rows.map((r) => [r[2], Number(r[5]), Number(r[6]), Number(r[7])]),
        opt.items.map((i: any) => [i.name, i.energy_hartree, i.homo_lumo_gap_ev, i.dipole_debye]),
      );
      for (const r of rows) assert.ok(r[3] && Number(r[6]) > 5 && Number(r[7]) > 1, r.join(','));
      const structures = await h.req('GET', `/api/v1/artifacts/${done.outputs.structures.artifact_id}`, { token: u.token });
      assert.equal(structures.body.manifest.ports.structures.record_count, 3, structures.text.slice(0, 400));
    });

    it('conformer search: each molecule’s lowest conformer goes on to its frequencies (GFN-FF)', async () => {
      const smiles = ['CCCC', 'CCO'];
      const run = await startRun(h, u.token, { template_id: 'conformer-search', inputs: { library: smiles, method: 'gfnff', max_conformers: 5 } });
      assert.deepEqual([run.inputs.energy_window_kcal, run.inputs.temperature_k], [6, 298.15]);
      const done = await waitForRun(h, u.token, run.run_id, 180_000);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const step = (id: string) => done.steps.find((s: any) => s.step_id === id);
      const search = await result(h, u.token, step('search').job_id);
      const freq = await result(h, u.token, step('frequencies').job_id);
      assert.deepEqual([search.method, freq.method, freq.temperature_k], ['gfnff', 'gfnff', 298.15]);
      assert.deepEqual(
        freq.items.map((i: any) => [i.id, i.error, i.n_imaginary]),
        [
          ['0', null, 0],
          ['1', null, 0],
        ],
      );
      // Each frequency job started from its molecule's lowest conformer: after its tight
      // re-optimisation the energy is that conformer's (n-butane's gauche lies 0.46 kcal/mol above anti).
      assert.ok(
        search.items[0].conformers.length >= 2 && search.items[0].conformers[1].relative_kcal > 0.2,
        JSON.stringify(search.items[0].conformers.map((c: any) => c.relative_kcal)),
      );
      search.items.forEach((it: any, k: number) => {
        const gap = Math.abs(freq.items[k].energy_hartree - it.conformers[0].energy_hartree) * 627.5095;
        assert.ok(gap < 0.05, `${it.id}: ${gap} kcal/mol from the lowest conformer`);
        assert.ok(freq.items[k].gibbs_hartree > freq.items[k].energy_hartree, 'G = E + ZPVE + thermal - TS is above E for these');
      });
      assert.deepEqual(Object.keys(done.outputs).sort(), ['conformer_table', 'conformers', 'lowest', 'structures', 'thermochemistry']);
      for (const o of Object.values<any>(done.outputs)) assert.equal(o.ready, true);
    });

    it('similarity expansion: the query is its own nearest neighbour; neighbours are described, filtered and drawn', async () => {
      const run = await startRun(h, u.token, { template_id: 'similarity-expansion', inputs: { query: 'OC(=O)c1ccccc1', library: LIBRARY, threshold: 0.3 } });
      const done = await waitForRun(h, u.token, run.run_id);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps));
      const hits = await result(h, u.token, done.steps.find((s: any) => s.step_id === 'search').job_id);
      const list = hits.hits ?? hits.items;
      assert.equal(list[0].smiles, 'OC(=O)c1ccccc1');
      assert.equal(list[0].similarity, 1);
      const described = await result(h, u.token, done.steps.find((s: any) => s.step_id === 'describe').job_id);
      assert.equal(described.summary.molecules, list.length);
    });
  });
}
