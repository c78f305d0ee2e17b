// DFT and HF as `singlepoint` and `optimize` jobs (docs/engines.md, "DFT"), end to end on each
// database: a job runs on the engine its method chooses and every item says which (engine,
// engine_version, method, basis); the result validates against the published schema; what cannot
// run is refused at submit with the field and what can (a basis missing, an engine that cannot
// run the method, a method no engine runs in a solvent, a structure past the basis set's size
// limit); the job's lane is its engines'; /papers/cite names what ran and nothing else.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { after, before, describe, it } from 'node:test';
import { laneOf, lanesFor } from '../../src/compute/lanes.js';
import { NO_ENGINES, type Engines } from '../../src/engines/discovery.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const WATER = 'O';
/** 60 heavy atoms: past def2-TZVP's limit (50), within def2-SVP's (80). */
const C60_CHAIN = 'C'.repeat(60);

describe('DFT lanes', () => {
  it('a DFT job travels in its engines lane, which only a worker with that engine serves', () => {
    assert.equal(laneOf('singlepoint', { molecules: [WATER], method: 'b3lyp', basis: 'def2-svp' }), 'obabel-psi4');
    assert.equal(laneOf('optimize', { molecules: [WATER], method: 'b3lyp-d3bj', basis: 'def2-svp' }), 'nwchem-obabel');
    assert.equal(laneOf('singlepoint', { molecules: [WATER], method: 'pbe0', basis: 'def2-svp', solvent: 'water' }), 'nwchem-obabel');
    assert.equal(laneOf('singlepoint', { molecules: [WATER], method: 'pbe0', basis: 'def2-svp', engine: 'nwchem' }), 'nwchem-obabel');
    const have = (...names: string[]): Engines => Object.fromEntries(Object.entries(NO_ENGINES).map(([k, v]) => [k, { ...v, available: names.includes(k) }])) as unknown as Engines;
    assert.ok(lanesFor(have('obabel', 'xtb', 'psi4')).includes('obabel-psi4'));
    assert.ok(!lanesFor(have('obabel', 'xtb', 'psi4')).includes('nwchem-obabel'));
    assert.ok(!lanesFor(have('obabel', 'xtb', 'nwchem')).includes('obabel-psi4'));
  });
});

for (const backend of BACKENDS) {
  describe(`DFT jobs [${backend.name}]`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    let doc: any;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
      doc = (await h.req('GET', '/openapi.json')).body;
    });
    after(() => h?.close());

    const submit = (job_type: string, payload: object) => h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
    const problemAt = (r: { status: number; body: any; text: string }, loc: (string | number)[], pattern: RegExp) => {
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', ...loc], r.text);
      assert.match(r.body.errors[0].msg, pattern);
    };

    it('B3LYP-D3(BJ)/def2-SVP in water runs on NWChem; each item carries engine, engine_version, method and basis; the result validates', async () => {
      const r = await submit('singlepoint', { molecules: [WATER, 'not a smiles'], method: 'b3lyp-d3bj', basis: 'def2-svp', solvent: 'water' });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ $id: 'openapi', components: doc.components });
      const validate = ajv.getSchema('openapi#/components/schemas/SinglepointResult')!;
      assert.ok(validate(result), JSON.stringify(validate.errors?.slice(0, 5)));
      assert.deepEqual([result.method, result.basis, result.engine, result.solvent], ['b3lyp-d3bj', 'def2-svp', 'nwchem', 'water']);
      const [water, bad] = result.items;
      for (const it of result.items) assert.deepEqual([it.engine, it.method, it.basis], ['nwchem', 'b3lyp-d3bj', 'def2-svp'], 'every item, failed or not');
      assert.match(water.engine_version, /^7\.0\.\d+$/);
      assert.equal(water.error, null, water.detail);
      assert.ok(water.energy_hartree < -76.3 && water.energy_hartree > -76.5, String(water.energy_hartree));
      assert.ok(water.dipole_debye > 2 && water.dipole_debye < 3.2, `a solvated water's dipole: ${water.dipole_debye}`);
      assert.equal(water.basis_functions, 24);
      assert.ok(water.homo_ev < 0 && water.lumo_ev > water.homo_ev && Math.abs(water.homo_lumo_gap_ev - (water.lumo_ev - water.homo_ev)) < 1e-5);
      assert.equal(water.charges.length, 3);
      assert.ok(Math.abs(water.charges.reduce((a: number, b: number) => a + b, 0)) < 1e-3, 'Mulliken charges sum to the charge');
      assert.equal(bad.error, 'unparseable');

      // What ran, and nothing else: NWChem, B3LYP, D3(BJ), def2-SVP, COSMO (Klamt's model, York and Karplus's surface).
      const cite = (await h.req('GET', `/api/v1/papers/cite?process_id=${r.body.process_id}`, { token })).body;
      assert.deepEqual(cite.methods, ['b3lyp', 'cosmo', 'cosmo_yk', 'd3bj', 'def2_svp', 'nwchem', 'openbabel', 'rdkit']);
      const ids = cite.items.map((p: { id: string }) => p.id);
      for (const id of [
        'apra-nwchem-2020',
        'becke-b3-1993',
        'lee-lyp-1988',
        'stephens-b3lyp-1994',
        'grimme-d3-2010',
        'grimme-d3bj-2011',
        'weigend-def2-2005',
        'klamt-cosmo-1993',
        'york-karplus-cosmo-1999',
      ])
        assert.ok(ids.includes(id), `${id} cited`);
      for (const id of ['parrish-psi4-2017', 'mopac', 'bannwarth-xtb-2021', 'perdew-pbe-1996', 'chai-wb97xd-2008']) assert.ok(!ids.includes(id), `${id} not cited`);
      for (const p of cite.items.filter((x: { id: string }) => ids.includes(x.id) && x.id !== 'rdkit')) assert.ok(p.doi, `${p.id} has a DOI`);
    });

    it('HF/6-31G* optimisation of water runs on Psi4 and cites Psi4, HF and 6-31G*, no NWChem, D3 or COSMO', async () => {
      const r = await submit('optimize', { molecules: [WATER], method: 'hf', basis: '6-31g*' });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
      const [it] = result.items;
      assert.equal(it.error, null, it.detail);
      assert.deepEqual([it.engine, it.method, it.basis, it.converged], ['psi4', 'hf', '6-31g*', true]);
      assert.match(it.engine_version, /^1\.3\.\d+$/);
      assert.equal(it.basis_functions, 19, '6-31G* has Cartesian d functions: 15 + 2 x 2');
      // HF/6-31G* water: O-H 0.947 Å (the textbook value of this level).
      const xyz = it.molblock
        .split('\n')
        .slice(4, 7)
        .map((l: string) => l.trim().split(/\s+/).slice(0, 3).map(Number));
      const oh = Math.hypot(...xyz[0].map((v: number, k: number) => v - xyz[1][k]));
      assert.ok(Math.abs(oh - 0.947) < 0.003, `O-H ${oh}`);
      const cite = (await h.req('GET', `/api/v1/papers/cite?process_id=${r.body.process_id}`, { token })).body;
      assert.deepEqual(cite.methods, ['6_31gs', 'hf', 'openbabel', 'psi4', 'rdkit']);
      const ids = cite.items.map((p: { id: string }) => p.id);
      for (const id of ['parrish-psi4-2017', 'roothaan-hf-1951', 'hariharan-631gs-1973']) assert.ok(ids.includes(id), id);
      for (const id of ['apra-nwchem-2020', 'grimme-d3bj-2011', 'klamt-cosmo-1993', 'becke-b3-1993']) assert.ok(!ids.includes(id), id);
    });

    it('refuses at submit what cannot run, naming the field and what can', async () => {
      problemAt(await submit('singlepoint', { molecules: [WATER], method: 'b3lyp' }), ['basis'], /b3lyp \(B3LYP\) needs a basis set: one of def2-svp, def2-tzvp, 6-31g\*, cc-pvdz/);
      problemAt(await submit('singlepoint', { molecules: [WATER], method: 'gfn2', basis: 'def2-svp' }), ['basis'], /basis applies to the DFT and HF methods/);
      problemAt(
        await submit('singlepoint', { molecules: [WATER], method: 'b3lyp-d3bj', basis: 'def2-svp', engine: 'psi4' }),
        ['engine'],
        /psi4 cannot run B3LYP-D3\(BJ\): Debian's Psi4 1\.3\.2 has no dftd3 program .*nwchem can; psi4 runs hf, pbe, pbe0, b3lyp, wb97x-d/,
      );
      problemAt(
        await submit('optimize', { molecules: [WATER], method: 'wb97x-d', basis: 'def2-svp', solvent: 'water' }),
        ['method'],
        /No engine here runs ωB97X-D in a solvent \(water\).*use one of hf, pbe, pbe0, b3lyp, b3lyp-d3bj, pbe0-d3bj/,
      );
      problemAt(
        await submit('singlepoint', { molecules: [WATER, C60_CHAIN], method: 'b3lyp', basis: 'def2-tzvp' }),
        ['molecules', 1],
        /60 heavy atoms; B3LYP\/def2-TZVP takes at most 50 heavy atoms/,
      );
      problemAt(await submit('frequencies', { molecules: [WATER], method: 'b3lyp' }), ['method'], /./);
      // Within def2-SVP's limit the same chain is only priced (not run here).
      const est = await h.req('POST', '/api/v1/jobs/estimate', {
        token,
        body: { job_type: 'singlepoint', payload: { molecules: [C60_CHAIN], method: 'b3lyp', basis: 'def2-svp' } },
      });
      assert.equal(est.status, 200, est.text);
      assert.equal(est.body.assumptions.engine, 'psi4');
      assert.ok(est.body.assumptions.basis_functions.max > 60 * 14, JSON.stringify(est.body.assumptions));
    });
  });
}

describe('DFT without the engine [pglite]', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 0 });
  });
  after(() => h?.close());

  it('is a 503 engine-unavailable naming psi4 or nwchem and its Debian package', async () => {
    const u = await h.user();
    for (const [method, engine] of [
      ['b3lyp', 'psi4'],
      ['b3lyp-d3bj', 'nwchem'],
    ] as const) {
      const r = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'singlepoint', payload: { molecules: [WATER], method, basis: 'def2-svp' } } });
      assert.equal(r.status, 503, r.text);
      assert.equal(r.body.type, '/api/v1/problems/engine-unavailable');
      assert.match(r.body.detail, new RegExp(`${engine} \\(Debian package ${engine}\\)`));
    }
  });
});
