// `properties_qm` (docs/engines.md, "DFT"): water's electronic properties at HF/def2-SVP through
// the API, checked against what they must be (24 basis functions, so 24 orbital energies, the
// HOMO the fifth; charges summing to the total charge, oxygen negative; a dipole near HF's 2.0 D);
// its energy equal to a singlepoint job's on the returned geometry; cube files of the HOMO, LUMO and
// density as the `cubes` port, each a Gaussian cube of the three atoms; cubes where NWChem would
// run the calculation are a 422 at submit. Engine numbers: one backend.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { download } from './docking-helpers.js';

for (const backend of onlyOn('pglite')) {
  describe(`properties_qm [${backend.name}]`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(() => h?.close());

    const submit = (job_type: string, payload: object) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
    const run = async (job_type: string, payload: object) => {
      const r = await submit(job_type, payload);
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
      return { result, artifact: done.result_artifact_id as string };
    };

    it("water at HF/def2-SVP: orbital energies, frontier orbitals, charges and dipole; the singlepoint's energy; cube files of the HOMO, LUMO and density", async () => {
      const payload = { molecules: ['O'], method: 'hf', basis: 'def2-svp' };
      const { result, artifact } = await run('properties_qm', { ...payload, cubes: ['homo', 'lumo', 'density'] });
      const doc = (await h.req('GET', '/openapi.json')).body;
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ $id: 'openapi', components: doc.components });
      assert.ok(ajv.validate({ $ref: 'openapi#/components/schemas/PropertiesQmResult' }, result), JSON.stringify(ajv.errors));
      const [w] = result.items;
      assert.equal(w.error, null, w.detail);
      assert.deepEqual([w.engine, w.method, w.basis, w.basis_functions], ['psi4', 'hf', 'def2-svp', 24]);
      assert.equal(w.orbital_energies_ev.length, 24);
      // Ten electrons: five doubly occupied orbitals, the HOMO the fifth, the LUMO the sixth.
      assert.equal(w.homo_ev, w.orbital_energies_ev[4]);
      assert.equal(w.lumo_ev, w.orbital_energies_ev[5]);
      assert.ok(w.homo_ev < -12 && w.homo_ev > -15, `HF's HOMO of water (Koopmans: about -13.6 eV): ${w.homo_ev}`);
      assert.ok(w.orbital_energies_ev[0] < -550, `the oxygen 1s orbital: ${w.orbital_energies_ev[0]}`);
      for (const [kind, q] of [
        ['mulliken', w.mulliken_charges],
        ['lowdin', w.lowdin_charges],
      ] as const) {
        assert.equal(q.length, 3, kind);
        assert.ok(Math.abs(q.reduce((a: number, b: number) => a + b, 0)) < 1e-4, `${kind} charges sum to 0: ${q}`);
        assert.ok(q[0] < -0.1 && q[1] > 0.05 && Math.abs(q[1] - q[2]) < 0.02, `${kind}: O negative, the two H alike: ${q}`);
      }
      assert.ok(w.dipole_debye > 1.8 && w.dipole_debye < 2.4, `dipole ${w.dipole_debye} D`);

      // The same calculation as a singlepoint job, on the returned geometry.
      const sp = (await run('singlepoint', { ...payload, molecules: [w.molblock] })).result.items[0];
      assert.ok(Math.abs(sp.energy_hartree - w.energy_hartree) < 1e-6, `singlepoint ${sp.energy_hartree}, properties_qm ${w.energy_hartree}`);

      assert.match(result.ports.cubes, /cube/);
      for (const kind of ['homo', 'lumo', 'density']) {
        const cube = await download(h, token, artifact, 'cubes', `0-${kind}`);
        const lines = cube.split('\n');
        // Two comment lines, then the atom count and origin, three axes, and one line per atom (O, H, H).
        assert.equal(Number(lines[2]!.trim().split(/\s+/)[0]), 3, `${kind}: ${lines.slice(0, 3).join(' | ')}`);
        assert.deepEqual(
          lines.slice(6, 9).map((l) => Number(l.trim().split(/\s+/)[0])),
          [8, 1, 1],
          kind,
        );
        const points = lines
          .slice(3, 6)
          .map((l) => Number(l.trim().split(/\s+/)[0]))
          .reduce((a, b) => a * b, 1);
        const values = lines.slice(9).join(' ').trim().split(/\s+/).map(Number);
        assert.equal(values.length, points, `${kind}: every grid point has a value`);
        if (kind === 'density') assert.ok(Math.max(...values) > 1 && Math.min(...values) >= 0, `${kind}: a density peaks at the nuclei and is never negative`);
        else assert.ok(Math.min(...values) < -0.05 && Math.max(...values) > 0.05, `${kind}: an orbital has both phases`);
      }
    });

    it('cube files where NWChem runs the calculation (a solvent, a D3 method) are a 422 naming why; a method without basis takes def2-SVP', async () => {
      for (const payload of [
        { molecules: ['O'], method: 'b3lyp', solvent: 'water', cubes: ['homo'] },
        { molecules: ['O'], method: 'b3lyp-d3bj', cubes: ['density'] },
      ]) {
        const r = await submit('properties_qm', payload);
        assert.equal(r.status, 422, r.text);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', 'cubes']);
        assert.match(r.body.errors[0].msg, /cube files are written by Psi4; this calculation runs in NWChem/);
      }
      const e = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'properties_qm', payload: { molecules: ['O'] } } });
      assert.equal(e.status, 200, e.text);
      assert.deepEqual([e.body.assumptions.method, e.body.assumptions.basis, e.body.assumptions.engine], ['b3lyp', 'def2-svp', 'psi4']);
    });
  });
}
