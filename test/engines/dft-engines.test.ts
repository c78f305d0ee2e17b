// Psi4 and NWChem as engines (docs/engines.md, "DFT"): discovery finds them with their versions,
// NWChem only with its launcher (Open MPI's mpirun) beside it; GET /engines reports both with the
// methods they run as the papers name them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverEngines, engineCall } from '../../src/engines/discovery.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('discovery of Psi4 and NWChem', () => {
  const dirs: string[] = [];
  const pathOf = (...programs: string[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-dft-path-'));
    dirs.push(dir);
    // A wrapper, not a symlink: Psi4's script finds its library from where it lies.
    for (const p of programs) fs.writeFileSync(path.join(dir, p), `#!/bin/sh\nexec /usr/bin/${p} "$@"\n`, { mode: 0o755 });
    return dir;
  };
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("lets Psi4 and NWChem write scratch files past the runtime's 512 MB bound (16 GiB), and no other engine", async () => {
    // Psi4's density-fitted integrals of lidocaine at B3LYP/def2-SVP (N 348) pass 1 GB: under the
    // default bound the calculation died in libpsio (docs/engines.md, "DFT").
    const e = await discoverEngines(pathOf('psi4', 'nwchem', 'mpirun', 'xtb'));
    const call = (name: 'psi4' | 'nwchem' | 'xtb') => engineCall(e[name], ['x'], { cwd: os.tmpdir(), threads: 1, timeoutMs: 1_000, signal: new AbortController().signal });
    assert.equal(call('psi4').maxFileBytes, 16 * 1024 ** 3);
    assert.equal(call('nwchem').maxFileBytes, 16 * 1024 ** 3);
    assert.equal(call('xtb').maxFileBytes, undefined, "xtb keeps the runtime's default bound");
  });

  it('finds psi4 and nwchem (through mpirun) and asks their versions', async () => {
    const e = await discoverEngines(pathOf('psi4', 'nwchem', 'mpirun'));
    assert.equal(e.psi4.available, true);
    assert.match(e.psi4.version ?? '', /^1\.3\.\d+$/);
    assert.equal(e.nwchem.available, true);
    assert.match(e.nwchem.version ?? '', /^7\.0\.\d+$/);
    assert.match(e.nwchem.launcher ?? '', /\/mpirun$/);
  });

  it('nwchem without mpirun on the PATH is not available (it runs through its launcher)', async () => {
    const e = await discoverEngines(pathOf('nwchem'));
    assert.equal(e.nwchem.available, false);
    assert.match(e.nwchem.path ?? '', /\/nwchem$/);
    assert.equal(e.nwchem.launcher, null);
    assert.equal(e.psi4.available, false);
  });
});

for (const backend of onlyOn('postgres')) {
  describe(`GET /engines with Psi4 and NWChem [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    it('reports psi4 and nwchem: available, version, path, Debian package and the methods they run', async () => {
      const u = await h.user();
      const r = await h.req('GET', '/api/v1/engines', { token: u.token });
      assert.equal(r.status, 200, r.text);
      const byName = new Map<string, any>(r.body.engines.map((e: { name: string }) => [e.name, e]));
      const psi4 = byName.get('psi4');
      const nwchem = byName.get('nwchem');
      assert.equal(psi4.available, true);
      assert.equal(nwchem.available, true);
      assert.equal(psi4.debian_package, 'psi4');
      assert.equal(nwchem.debian_package, 'nwchem');
      assert.ok(fs.existsSync(psi4.path) && fs.existsSync(nwchem.path));
      for (const m of ['hf', 'pbe', 'pbe0', 'b3lyp', 'wb97x_d', 'def2_svp', 'def2_tzvp', '6_31gs', 'cc_pvdz', 'psi4']) assert.ok(psi4.methods.includes(m), `psi4 runs ${m}`);
      for (const m of ['b3lyp', 'pbe0', 'd3bj', 'cosmo', 'cosmo_yk', 'def2_svp', 'nwchem']) assert.ok(nwchem.methods.includes(m), `nwchem runs ${m}`);
      assert.ok(!psi4.methods.includes('d3bj') && !psi4.methods.includes('cosmo'), "Debian's Psi4 runs neither D3 nor COSMO here");
      assert.ok(!nwchem.methods.includes('wb97x_d'));
    });
  });
}
