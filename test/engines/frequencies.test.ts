// The `frequencies` job type through the API (docs/engines.md, "Frequencies and scans"):
// water's three GFN2 modes equal xtb's own --hess on the returned geometry; an optimised
// molecule has no imaginary mode and 3N-6 of them (3N-5 when linear); the thermochemistry
// hangs together (ZPVE from the modes, H above E, G = H - TS, S rising with T) and is near
// experiment for small molecules; MOPAC's modes, intensities and whole-kelvin tables; the IR
// spectrum plot; bad input a 422 or an item error, never a 500.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dropRigid, readVibspectrum } from '../../src/engines/qm/hessian.js';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { BACKENDS, onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

interface Item {
  index: number;
  error: string | null;
  detail: string | null;
  molblock?: string;
  energy_hartree?: number;
  frequencies_cm1?: number[];
  ir_intensities_km_mol?: number[];
  n_imaginary?: number;
  zpve_hartree?: number;
  enthalpy_hartree?: number;
  entropy_cal_mol_k?: number;
  gibbs_hartree?: number;
  temperature_k?: number;
}

/** Hartree per cm-1 (CODATA). */
const HARTREE_PER_CM1 = 1 / 219474.6313632;
const KCAL_PER_HARTREE = 627.5094740631;

/** Submits a job and returns its result and artifact (the job must complete). */
async function run(h: Harness, token: string, payload: Record<string, unknown>) {
  const r = await h.req('POST', '/api/v1/jobs/submit', { token, body: { job_name: 'freq', job_type: 'frequencies', payload } });
  assert.equal(r.status, 200, r.text);
  const done = await h.waitForJob(token, r.body.process_id, undefined, 240_000);
  assert.equal(done.status, 'completed', done.message ?? '');
  const res = await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token });
  assert.equal(res.status, 200, res.text);
  return { result: res.body as { items: Item[]; method: string; ports: Record<string, string> }, artifact: done.result_artifact_id! };
}

/** xtb's own --hess on a molblock, run here directly: the wave numbers of its vibspectrum file. */
function xtbHess(molblock: string): number[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freq-test-'));
  try {
    fs.writeFileSync(path.join(dir, 'm.sdf'), `${molblock.replace(/\s*$/, '\n')}$$$$\n`);
    execFileSync('xtb', ['m.sdf', '--gfn', '2', '--hess', '-P', '1'], { cwd: dir, env: { ...process.env, OMP_NUM_THREADS: '1' }, stdio: 'pipe' });
    // "  7   a   1538.91   133.24949   YES   YES": the wave number is the 4th token from the end.
    return fs
      .readFileSync(path.join(dir, 'vibspectrum'), 'utf8')
      .split('\n')
      .filter((l) => /^\s*\d+\s/.test(l))
      .map((l) => Number(l.trim().split(/\s+/).at(-4)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Checks every item's figures against each other. */
function consistent(it: Item, atoms: number, linear = false): void {
  assert.equal(it.error, null, it.detail ?? '');
  const f = it.frequencies_cm1!;
  assert.equal(f.length, atoms === 1 ? 0 : 3 * atoms - (linear ? 5 : 6), 'vibrations: 3N-6 (3N-5 linear)');
  assert.equal(it.ir_intensities_km_mol!.length, f.length);
  assert.ok(it.ir_intensities_km_mol!.every((i) => i >= 0));
  assert.deepEqual(
    f,
    [...f].sort((a, b) => a - b),
    'lowest first',
  );
  assert.equal(it.n_imaginary, f.filter((x) => x < 0).length);
  assert.equal(readMolblockAtoms(it.molblock!).symbols.length, atoms);
  assert.ok(it.enthalpy_hartree! > it.energy_hartree!, 'H above E (zero-point and thermal energy)');
  const ts = ((it.temperature_k! * it.entropy_cal_mol_k!) / 1000 / KCAL_PER_HARTREE) as number;
  assert.ok(Math.abs(it.gibbs_hartree! - (it.enthalpy_hartree! - ts)) < 2e-6, `G = H - TS (${it.gibbs_hartree} vs ${it.enthalpy_hartree! - ts})`);
}

describe('frequencies: parsing', () => {
  it('keeps the 3N-6 modes farthest from zero, imaginary ones negative and first', () => {
    const text = [
      '$vibrational spectrum',
      '#  mode     symmetry     wave number   IR intensity    selection rules',
      '     1                    -152.30         4.00000        -       - ',
      '     2                      -0.00         0.00000        -       - ',
      '     3                       0.00         0.00000        -       - ',
      ...[4, 5, 6, 7].map((k) => `     ${k}                       0.00         0.00000        -       - `),
      '     8        a            990.10        12.50000       YES     YES',
      '     9        a           3100.00         1.25000       YES     YES',
      '$end',
    ].join('\n');
    const v = readVibspectrum(text);
    assert.equal(v.freqs.length, 9);
    assert.deepEqual(dropRigid(v.freqs, v.ints, 6), { frequencies: [-152.3, 990.1, 3100], intensities: [4, 12.5, 1.25] });
  });
});

for (const backend of onlyOn('pglite')) {
  describe(`frequencies (${backend.name})`, { timeout: 600_000 }, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      const u = await h.user();
      await h.credit(u.userId, 20);
      token = u.token;
    });
    after(async () => h?.close());

    it("water (GFN2): three real modes equal to xtb's own --hess on the returned geometry; the thermochemistry; the IR plot", async () => {
      const { result, artifact } = await run(h, token, { molecules: ['O'], method: 'gfn2' });
      const w = result.items[0]!;
      consistent(w, 3);
      assert.equal(w.n_imaginary, 0);
      assert.equal(w.temperature_k, 298.15);
      const own = xtbHess(w.molblock!).filter((x) => Math.abs(x) > 1);
      assert.equal(own.length, 3);
      w.frequencies_cm1!.forEach((x, k) => assert.ok(Math.abs(x - own[k]!) <= 0.1, `mode ${k}: ${x} vs xtb ${own[k]}`));
      // Bend near 1540, stretches near 3640 (GFN2's water).
      assert.ok(w.frequencies_cm1![0]! > 1400 && w.frequencies_cm1![0]! < 1700 && w.frequencies_cm1![2]! > 3400 && w.frequencies_cm1![2]! < 3900);
      // The zero-point energy is half the sum of the modes; water's entropy at 298 K is 45.1 cal/(mol K).
      const zpve = (w.frequencies_cm1!.reduce((s, x) => s + x, 0) * HARTREE_PER_CM1) / 2;
      assert.ok(Math.abs(w.zpve_hartree! - zpve) < 2e-6, `ZPVE ${w.zpve_hartree} vs ${zpve}`);
      assert.ok(Math.abs(w.entropy_cal_mol_k! - 45.1) < 1, `S ${w.entropy_cal_mol_k}`);
      assert.ok(result.ports.plot);

      const svg = await h.req('GET', `/api/v1/artifacts/${artifact}/download?port=plot&record=0`, { token });
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
      assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg.text, /Wavenumber \(cm⁻¹\)/);
      assert.match(svg.text, /IR intensity \(km\/mol\)/);
      // The wavenumber axis falls from left to right: the 4000 tick left of the 1000 tick.
      const tickX = (label: string) => Number(new RegExp(`<text x="([\\d.]+)"[^>]*>${label}</text>`).exec(svg.text)?.[1]);
      assert.ok(tickX('4000') < tickX('1000'), `4000 at ${tickX('4000')}, 1000 at ${tickX('1000')}`);
      assert.doesNotMatch(svg.text, /<script|href=/i);
    });

    it('at a higher temperature: the entropy rises and G falls', async () => {
      const hot = (await run(h, token, { molecules: ['O'], method: 'gfn2', temperature_k: 500 })).result.items[0]!;
      consistent(hot, 3);
      assert.equal(hot.temperature_k, 500);
      const cold = (await run(h, token, { molecules: ['O'], method: 'gfn2', temperature_k: 200 })).result.items[0]!;
      assert.ok(hot.entropy_cal_mol_k! > cold.entropy_cal_mol_k! + 3, `S(500 K) ${hot.entropy_cal_mol_k} vs S(200 K) ${cold.entropy_cal_mol_k}`);
      assert.ok(hot.gibbs_hartree! < cold.gibbs_hartree!);
      assert.ok(Math.abs(hot.zpve_hartree! - cold.zpve_hartree!) < 2e-5, 'the zero-point energy does not depend on T (each job builds and optimises its own geometry)');
    });

    it('bad input: a 422 at the field, or an item error; never a 500', async () => {
      const est = (payload: unknown) => h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'frequencies', payload } });
      for (const [payload, loc] of [
        [{ molecules: ['O'], temperature_k: 50 }, 'temperature_k'],
        [{ molecules: ['O'], temperature_k: 'hot' }, 'temperature_k'],
        [{ molecules: ['O'], method: 'b3lyp' }, 'method'],
        [{ molecules: [] }, 'molecules'],
        [{}, 'molecules'],
        [{ molecules: ['O'], multiplicity: 2 }, 'multiplicity'],
        [{ molecules: ['O'], input_artifact_id: 'x' }, 'input_artifact_id'],
      ] as const) {
        const r = await est(payload);
        assert.equal(r.status, 422, `${JSON.stringify(payload)}: ${r.text}`);
        assert.ok(
          r.body.errors.some((e: { loc: string[] }) => e.loc.join('.').startsWith(`body.payload.${loc}`) || e.loc.join('.') === 'body.payload'),
          `${JSON.stringify(payload)}: ${JSON.stringify(r.body.errors)}`,
        );
      }
      const { result } = await run(h, token, { molecules: ['not a molecule', 'O', '[U]'], method: 'pm7' });
      assert.equal(result.items[0]!.error, 'unparseable');
      assert.equal(result.items[1]!.error, null);
      assert.equal(result.items[2]!.error, 'unsupported_element');
    });
  });
}

describe('frequencies: more molecules and MOPAC (pglite)', { timeout: 900_000 }, () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 1 });
    const u = await h.user();
    await h.credit(u.userId, 20);
    token = u.token;
  });
  after(async () => h?.close());

  it('optimised molecules have no imaginary frequency (GFN2); linear ones 3N-5 modes and the symmetry number in S', async () => {
    const { result } = await run(h, token, { molecules: ['CCO', 'CC(=O)N', 'O=C=O', 'C#N', '[Ar]'], method: 'gfn2' });
    const [ethanol, acetamide, co2, hcn, ar] = result.items;
    consistent(ethanol!, 9);
    consistent(acetamide!, 9);
    for (const it of [ethanol!, acetamide!]) {
      assert.equal(it.n_imaginary, 0, `imaginary modes: ${it.frequencies_cm1!.filter((x) => x < 0).join(', ')}`);
      assert.ok(it.frequencies_cm1![0]! > 50, `lowest ${it.frequencies_cm1![0]}`);
    }
    consistent(co2!, 3, true);
    consistent(hcn!, 3, true);
    // CO2's bend is doubly degenerate; the symmetric stretch is IR-silent.
    const [b1, b2, sym] = co2!.frequencies_cm1!;
    assert.ok(Math.abs(b1! - b2!) < 0.5, `bends ${b1}, ${b2}`);
    assert.ok(co2!.ir_intensities_km_mol![2]! < 0.01, `symmetric stretch intensity ${co2!.ir_intensities_km_mol![2]} at ${sym}`);
    // Experiment at 298 K: CO2 51.1 (symmetry number 2), HCN 48.2, Ar 37.0 cal/(mol K).
    assert.ok(Math.abs(co2!.entropy_cal_mol_k! - 51.1) < 1, `S(CO2) ${co2!.entropy_cal_mol_k}`);
    assert.ok(Math.abs(hcn!.entropy_cal_mol_k! - 48.2) < 1, `S(HCN) ${hcn!.entropy_cal_mol_k}`);
    assert.equal(ar!.error, null);
    assert.deepEqual(ar!.frequencies_cm1, []);
    assert.equal(ar!.zpve_hartree, 0);
    assert.ok(Math.abs(ar!.entropy_cal_mol_k! - 37.0) < 0.2, `S(Ar) ${ar!.entropy_cal_mol_k}`);
  });

  it('MOPAC (PM7): modes, IR intensities from the transition dipoles, thermochemistry at whole kelvins', async () => {
    const { result } = await run(h, token, { molecules: ['O', 'C=O'], method: 'pm7', temperature_k: 310.4 });
    const [w, f] = result.items;
    consistent(w!, 3);
    consistent(f!, 4);
    assert.equal(w!.temperature_k, 310);
    assert.equal(w!.n_imaginary, 0);
    // PM7's water: bend near 1395, stretches near 2810 and 2857 cm-1.
    assert.ok(Math.abs(w!.frequencies_cm1![0]! - 1395) < 15 && Math.abs(w!.frequencies_cm1![2]! - 2857) < 15, w!.frequencies_cm1!.join(', '));
    // Formaldehyde's C=O stretch (near 1840 cm-1 with PM7) is its strongest band.
    const co = f!.frequencies_cm1!.findIndex((x) => x > 1700 && x < 2000);
    assert.ok(co >= 0, f!.frequencies_cm1!.join(', '));
    assert.equal(Math.max(...f!.ir_intensities_km_mol!), f!.ir_intensities_km_mol![co]);
    assert.ok(f!.ir_intensities_km_mol![co]! > 20 && f!.ir_intensities_km_mol![co]! < 200, `C=O ${f!.ir_intensities_km_mol![co]} km/mol`);
    assert.ok(Math.abs(w!.entropy_cal_mol_k! - 45.4) < 1, `S ${w!.entropy_cal_mol_k}`);
    const zpve = (w!.frequencies_cm1!.reduce((s, x) => s + x, 0) * HARTREE_PER_CM1) / 2;
    assert.ok(Math.abs(w!.zpve_hartree! - zpve) < 1e-5, `ZPVE ${w!.zpve_hartree} vs ${zpve}`);
  });
});
