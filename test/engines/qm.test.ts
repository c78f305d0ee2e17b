// `optimize` and `singlepoint` against the engines run by hand (docs/engines.md): an energy
// the API returns equals xtb's (or MOPAC's) own on the returned geometry, to 1e-5 Eh; the
// atom order is the input's; bad input gets a clear answer (item errors naming the problem,
// a 422 for a charge and multiplicity that cannot be), never a 500.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const run = promisify(execFile);
const HARTREE_PER_KCAL = 1 / 627.5094740631;

/** xtb's own energy of `molblock` (a single point), with the options the job used. */
async function xtbEnergy(molblock: string, args: string[]): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-xtb-'));
  try {
    fs.writeFileSync(path.join(dir, 'm.sdf'), `${molblock.trimEnd()}\n$$$$\n`);
    const { stdout } = await run('xtb', ['m.sdf', ...args], { cwd: dir, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    const m = [...stdout.matchAll(/\|\s*TOTAL ENERGY\s+(-?\d+\.\d+)/g)].pop();
    assert.ok(m, 'xtb printed a total energy');
    return Number(m[1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** MOPAC's heat of formation (kcal/mol) of `molblock` at that geometry. */
async function mopacHeat(molblock: string, keywords: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-mopac-'));
  try {
    const lines = molblock.split('\n');
    const n = Number(lines[3]!.slice(0, 3));
    const atoms = lines.slice(4, 4 + n).map((l) => `${l.slice(31, 34).trim()} ${l.slice(0, 10)} 0 ${l.slice(10, 20)} 0 ${l.slice(20, 30)} 0`);
    fs.writeFileSync(path.join(dir, 'm.mop'), `${keywords} 1SCF\ncheck\n\n${atoms.join('\n')}\n`);
    await run('mopac', ['m.mop'], { cwd: dir });
    const out = fs.readFileSync(path.join(dir, 'm.out'), 'utf8');
    const m = /FINAL HEAT OF FORMATION =\s+(-?\d+\.\d+) KCAL\/MOL/.exec(out);
    assert.ok(m, 'MOPAC printed a heat of formation');
    return Number(m[1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const symbols = (molblock: string) => {
  const lines = molblock.split('\n');
  return lines.slice(4, 4 + Number(lines[3]!.slice(0, 3))).map((l) => l.slice(31, 34).trim());
};

for (const backend of onlyOn('postgres')) {
  describe(`optimize and singlepoint [${backend.name}]`, () => {
    let h: Harness;
    let token = '';
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 5);
      token = u.token;
    });
    after(() => h?.close());

    const job = async (job_type: string, payload: Record<string, unknown>) => {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: job_type, job_type, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(token, r.body.process_id, undefined, 120_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      return (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token })).body;
    };

    it("a GFN2 optimisation in water: its energy is xtb's own on the returned geometry, the atom order the input's", async () => {
      const res = await job('optimize', { molecules: ['OCC(=O)N', 'CC=O'], method: 'gfn2', solvent: 'water' });
      assert.equal(res.job_type, 'optimize');
      assert.equal(res.method, 'gfn2');
      for (const item of res.items) {
        assert.equal(item.error, null, JSON.stringify(item));
        assert.equal(item.converged, true);
        const direct = await xtbEnergy(item.molblock, ['--gfn', '2', '--alpb', 'water', '--chrg', '0', '--uhf', '0']);
        assert.ok(Math.abs(direct - item.energy_hartree) < 1e-5, `API ${item.energy_hartree}, xtb ${direct}`);
        assert.ok(item.homo_lumo_gap_ev > 1 && item.dipole_debye > 0.5, JSON.stringify(item).slice(0, 300));
        assert.equal(item.charges.length, symbols(item.molblock).length);
        assert.ok(Math.abs(item.charges.reduce((a: number, b: number) => a + b, 0)) < 1e-3, 'the charges add up to the total charge');
      }
      // Heavy atoms in the SMILES order, hydrogens after them.
      assert.deepEqual(symbols(res.items[0].molblock), ['O', 'C', 'C', 'O', 'N', 'H', 'H', 'H', 'H', 'H']);
      assert.deepEqual(symbols(res.items[1].molblock), ['C', 'C', 'O', 'H', 'H', 'H', 'H']);
    });

    it("a PM7 single point: the heat of formation is MOPAC's own, energy_hartree the same in Hartree", async () => {
      const res = await job('singlepoint', { molecules: ['CCO'], method: 'pm7' });
      const item = res.items[0];
      assert.equal(item.error, null, JSON.stringify(item));
      const heat = await mopacHeat(item.molblock, 'PM7 CHARGE=0 PRECISE');
      assert.ok(Math.abs(heat - item.heat_of_formation_kcal_mol) < 1e-3, `API ${item.heat_of_formation_kcal_mol}, MOPAC ${heat}`);
      assert.ok(Math.abs(item.energy_hartree - heat * HARTREE_PER_KCAL) < 1e-5);
      assert.ok(!('converged' in item), 'a single point has no convergence');
    });

    it('a 3D molblock keeps its coordinates in a single point, and its energy matches xtb on it', async () => {
      const { stdout } = await run('obabel', ['-:CCN', '--gen3d', '-h', '-omol']);
      const res = await job('singlepoint', { molecules: [stdout], method: 'gfnff' });
      const item = res.items[0];
      assert.equal(item.error, null, JSON.stringify(item));
      const coords = (m: string) =>
        m
          .split('\n')
          .slice(4, 4 + 10)
          .map((l) => l.slice(0, 30));
      assert.deepEqual(coords(item.molblock), coords(stdout));
      const direct = await xtbEnergy(item.molblock, ['--gfnff']);
      assert.ok(Math.abs(direct - item.energy_hartree) < 1e-5, `API ${item.energy_hartree}, xtb ${direct}`);
    });

    it('bad structures are item errors naming the problem; one never fails the others', async () => {
      const big = `C${'C'.repeat(70)}`; // 71 carbons and 144 hydrogens: 215 atoms
      const res = await job('singlepoint', { molecules: ['C1CC', '[Fr]C', 'CO', big, '[Ce+3]'], method: 'pm7' });
      const byIndex = res.items.map((i: { error: string | null; detail: string | null }) => [i.error, i.detail]);
      assert.equal(byIndex[0][0], 'unparseable');
      assert.equal(byIndex[1][0], 'unsupported_element');
      assert.match(byIndex[1][1], /Fr/);
      assert.equal(byIndex[2][0], null);
      assert.equal(byIndex[3][0], 'too_large');
      assert.match(byIndex[3][1], /215 atoms/);
      assert.equal(byIndex[4][0], 'unsupported_element');
      assert.match(byIndex[4][1], /Ce/);
      assert.deepEqual(res.summary, { structures: 5, completed: 1, errors: 4 });
    });

    it('a charge and multiplicity that cannot fit the electrons is a 422 at submit, nothing reserved', async () => {
      const before = (await h.req('GET', '/api/v1/wallet', { token })).body;
      for (const [payload, loc] of [
        [{ molecules: ['CCO'], multiplicity: 2 }, 'multiplicity'],
        [{ molecules: ['CCO'], charge: 1, multiplicity: 1 }, 'multiplicity'],
        [{ molecules: ['[CH3]'], multiplicity: 1 }, 'multiplicity'],
      ] as const) {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'x', job_type: 'optimize', payload: { ...payload, method: 'gfnff' } } });
        assert.equal(r.status, 422, r.text);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'payload', loc]);
        assert.equal(r.body.errors[0].type, 'charge_multiplicity');
      }
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token })).body, before);
      // A radical with its own multiplicity runs.
      const ok = await job('singlepoint', { molecules: ['[CH3]'], method: 'gfn2' });
      assert.equal(ok.items[0].error, null, JSON.stringify(ok.items[0]));
      assert.equal(ok.items[0].multiplicity, 2);
    });
  });
}
