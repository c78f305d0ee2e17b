// DFT results checked against the engines run by hand and against known chemistry
// (docs/engines.md, "DFT"): an energy the API returns equals Psi4's or NWChem's own on the
// returned geometry, from an input written here by hand, to 1e-6 Eh; water's B3LYP/def2-TZVP
// dipole at its experimental geometry lies in 1.95..2.20 D (both engines); an SCF stopped after
// one iteration is an item error in the engine's own words. Engine numbers: one backend.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDft } from '../../src/engines/dft/run.js';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { directTools, experimentalWater } from './dft-helpers.js';

/** The returned geometry as "El x y z" lines, as the molblock holds it (4 decimals, Å). */
function xyzLines(molblock: string): string[] {
  const { symbols, coords } = readMolblockAtoms(molblock);
  return symbols.map((s, i) => `${s} ${coords[i]!.map((x) => x.toFixed(4)).join(' ')}`);
}

/** Psi4 by hand on `xyz`: its default settings but for a tight energy convergence; the last "Total Energy". */
function psi4ByHand(xyz: string[], method: string, basis: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-psi4-by-hand-'));
  try {
    const input = [
      `molecule {`,
      '0 1',
      ...xyz,
      'units angstrom',
      'no_reorient',
      'no_com',
      '}',
      `set basis ${basis}`,
      'set e_convergence 1e-8',
      'set d_convergence 1e-7',
      `energy('${method}')`,
      '',
    ];
    fs.writeFileSync(path.join(dir, 'in.dat'), input.join('\n'));
    const r = spawnSync('psi4', ['-n', '1', 'in.dat', 'out.dat'], { cwd: dir, env: { ...process.env, PSI_SCRATCH: dir, OMP_NUM_THREADS: '1' }, encoding: 'utf8' });
    const out = fs.readFileSync(path.join(dir, 'out.dat'), 'utf8');
    const energies = [...out.matchAll(/Total Energy =\s+(-?\d+\.\d+)/g)];
    assert.ok(energies.length, `psi4 by hand gave no energy (exit ${r.status}): ${out.slice(-500)}`);
    return Number(energies.at(-1)![1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** NWChem by hand on `xyz` (mpirun, one rank): B3LYP-D3(BJ) with its library basis set; the last "Total DFT energy". */
function nwchemByHand(xyz: string[], basis: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-nwchem-by-hand-'));
  try {
    const input = [
      'start byhand',
      `scratch_dir ${dir}`,
      `permanent_dir ${dir}`,
      'geometry units angstrom nocenter noautosym noautoz',
      ...xyz,
      'end',
      `basis spherical`,
      `  * library ${basis}`,
      'end',
      'dft',
      '  xc b3lyp',
      '  disp vdw 4',
      '  convergence energy 1e-8',
      'end',
      'task dft energy',
      '',
    ];
    fs.writeFileSync(path.join(dir, 'in.nw'), input.join('\n'));
    const r = spawnSync('mpirun', ['-np', '1', 'nwchem', 'in.nw'], {
      cwd: dir,
      env: { ...process.env, OMP_NUM_THREADS: '1', OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1', OMPI_MCA_plm: 'isolated' },
      encoding: 'utf8',
    });
    const energies = [...r.stdout.matchAll(/Total DFT energy =\s+(-?\d+\.\d+)/g)];
    assert.ok(energies.length, `nwchem by hand gave no energy (exit ${r.status}): ${r.stdout.slice(-500)} ${r.stderr.slice(-300)}`);
    return Number(energies.at(-1)![1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("water's dipole at B3LYP/def2-TZVP, experimental geometry", () => {
  for (const engine of ['psi4', 'nwchem'] as const) {
    it(`${engine}: between 1.95 and 2.20 D (no diffuse functions: above the experimental 1.85 D)`, { timeout: 120_000 }, async () => {
      const dir = makeScratch(`dipole${engine}`);
      try {
        const r = await runDft(engine, await directTools(1), dir, experimentalWater(), { method: 'b3lyp', basis: 'def2-tzvp', charge: 0, multiplicity: 1 });
        assert.ok(r.dipoleDebye! >= 1.95 && r.dipoleDebye! <= 2.2, `${engine}: ${r.dipoleDebye} D`);
        assert.equal(r.basisFunctions, 43);
        assert.ok(r.homoEv! < -7 && r.lumoEv! > 0, `${r.homoEv} ${r.lumoEv}`);
      } finally {
        removeScratch(dir);
      }
    });
  }
});

for (const backend of onlyOn('pglite')) {
  describe(`DFT energies against the engines run by hand [${backend.name}]`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(() => h?.close());

    const run = async (job_type: string, payload: object) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 300_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      return (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
    };

    it('Psi4: a B3LYP/def2-SVP optimisation of methane, and a single point of water, equal Psi4 by hand on the returned geometries (the optimisation to 1e-8 Eh)', async () => {
      const opt = await run('optimize', { molecules: ['C'], method: 'b3lyp', basis: 'def2-svp' });
      const [methane] = opt.items;
      assert.equal(methane.error, null, methane.detail);
      assert.equal(methane.converged, true);
      const byHand = psi4ByHand(xyzLines(methane.molblock), 'b3lyp', 'def2-svp');
      // The optimisation's energy is a single point on the returned (rounded) coordinates: it equals
      // Psi4 by hand on them to the SCF's convergence (about 1e-12 here), not only to 1e-6.
      assert.ok(Math.abs(methane.energy_hartree - byHand) < 1e-8, `API ${methane.energy_hartree}, by hand ${byHand}`);

      const sp = await run('singlepoint', { molecules: ['O'], method: 'pbe0', basis: 'cc-pvdz' });
      const byHand2 = psi4ByHand(xyzLines(sp.items[0].molblock), 'pbe0', 'cc-pvdz');
      assert.ok(Math.abs(sp.items[0].energy_hartree - byHand2) < 1e-6, `API ${sp.items[0].energy_hartree}, by hand ${byHand2}`);
    });

    it('NWChem: a B3LYP-D3(BJ)/def2-SVP optimisation of water equals NWChem by hand on the returned geometry to 1e-6 Eh', async () => {
      const opt = await run('optimize', { molecules: ['O'], method: 'b3lyp-d3bj', basis: 'def2-svp' });
      const [water] = opt.items;
      assert.equal(water.error, null, water.detail);
      assert.deepEqual([water.engine, water.converged], ['nwchem', true]);
      const byHand = nwchemByHand(xyzLines(water.molblock), 'def2-svp');
      assert.ok(Math.abs(water.energy_hartree - byHand) < 1e-6, `API ${water.energy_hartree}, by hand ${byHand}`);
    });

    it("an SCF stopped after one iteration is the item error scf_not_converged, in the engine's own words", async () => {
      for (const [engine, words] of [
        ['psi4', /^Psi4: SCFConvergenceError: Could not converge SCF iterations in 1 iterations\./],
        ['nwchem', /^NWChem: Calculation failed to converge/],
      ] as const) {
        const result = await run('singlepoint', { molecules: ['O'], method: 'b3lyp', basis: 'def2-svp', engine, scf_max_iterations: 1 });
        const [it] = result.items;
        assert.equal(it.error, 'scf_not_converged', `${engine}: ${it.detail}`);
        assert.match(it.detail, words);
        assert.deepEqual([it.engine, it.method, it.basis], [engine, 'b3lyp', 'def2-svp']);
      }
    });
  });
}
