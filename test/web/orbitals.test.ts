// Orbitals in the web console (issue 34; docs/console.md, "Jobs"): a properties_qm result of water
// at HF/def2-SVP with its HOMO, LUMO and density cube files; on the job's page the 3D viewer offers
// a Surface selector with the three (and None), and draws the chosen cube's isosurfaces over the
// structure, read through the public download of the result's `cubes` port: the HOMO's two phases
// blue and red, the density a gray envelope; None takes them away. Checked with axe-core and
// photographed. Skipped (one line) without Psi4 and Open Babel on PATH, except under CI=true.
// Run: node --import tsx --test test/web/orbitals.test.ts
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { axe, browserSuite, shots, skipBrowser, snap } from './browser.js';
import { drawn, pixels } from './pixels.js';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const missing = ['psi4', 'obabel'].filter((cmd) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});
if (missing.length && ci) throw new Error(`${missing.join(', ')} not on PATH: the orbital test needs them under CI`);
const skip: false | string = skipBrowser || (missing.length > 0 && `${missing.join(', ')} not on PATH: the console's orbitals are not tested`);

/**
 * Water at its experimental geometry in the xz plane: its HOMO (the oxygen p orbital across the
 * plane) lies along y, so the viewer, which looks down z, shows both lobes side by side (a
 * structure from SMILES has a random orientation, and seen along the orbital's axis one lobe
 * hides the other).
 */
const WATER_XZ = [
  'water',
  '  hand',
  '',
  '  3  2  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '    0.9572    0.0000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '   -0.2400    0.0000    0.9266 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0',
  '  1  3  1  0',
  'M  END',
  '',
].join('\n');

browserSuite('web console: orbitals of a properties_qm result', { on: 'pglite', skip, harness: { workers: 1 } }, (s) => {
  s.flow("water's HOMO, LUMO and density as isosurfaces over the structure, from the result's cube files", async ({ h, backend, page, scriptErrors, openAs }) => {
    const user = await h.user();
    await h.credit(user.userId, 5);
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: user.token,
      body: { job_name: 'water orbitals', job_type: 'properties_qm', payload: { molecules: [WATER_XZ], method: 'hf', basis: 'def2-svp', cubes: ['homo', 'lumo', 'density'] } },
    });
    assert.equal(r.status, 200, r.text);
    const pid = r.body.process_id as string;
    const done = await h.waitForJob(user.token, pid, undefined, 120_000);
    assert.equal(done.status, 'completed', done.message ?? '');
    const downloads: string[] = [];
    page.on('request', (q) => {
      if (q.url().includes('/download')) downloads.push(q.url());
    });
    const prefix = `orbitals-${backend.name}`;

    await openAs(`jobs/${encodeURIComponent(pid)}`, user);
    const view = page.getByRole('region', { name: '3D view of molecule 1' });
    await view.waitFor({ timeout: 30_000 });
    const canvas = view.locator('canvas').first();
    await canvas.waitFor();
    const plain = await drawn(page, canvas);
    const select = page.getByLabel('Surface');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['None', 'HOMO (±0.03)', 'LUMO (±0.03)', 'Electron density (0.01 e/Bohr³)']);

    // The HOMO (water's 1b1, the oxygen p orbital across the plane): two lobes, blue and red.
    await select.selectOption('homo');
    let homo = await pixels(page, canvas);
    for (let i = 0; (homo.blue < plain.blue + 0.003 || homo.red < plain.red + 0.003) && i < 40; i++) {
      await page.waitForTimeout(250);
      homo = await pixels(page, canvas);
    }
    await view.screenshot({ path: path.join(shots, `${prefix}-homo-viewer.png`) });
    assert.ok(
      downloads.some((u) => u.endsWith(`/api/v1/artifacts/${done.result_artifact_id}/download?port=cubes&record=0-homo`)),
      downloads.join(', '),
    );
    assert.ok(homo.blue > plain.blue + 0.003, `the positive lobe in blue: ${(plain.blue * 100).toFixed(2)} % -> ${(homo.blue * 100).toFixed(2)} %`);
    assert.ok(homo.red > plain.red + 0.003, `the negative lobe in red: ${(plain.red * 100).toFixed(2)} % -> ${(homo.red * 100).toFixed(2)} %`);
    assert.deepEqual(await axe(page), [], 'the job page with an orbital drawn');
    await snap(page, `${prefix}-homo`);

    // The density: an envelope around the molecule, more of the view inked than the bare structure.
    await select.selectOption('density');
    let density = await pixels(page, canvas);
    for (let i = 0; (density.inked < plain.inked * 1.5 || density.png === homo.png) && i < 40; i++) {
      await page.waitForTimeout(250);
      density = await pixels(page, canvas);
    }
    assert.ok(density.inked > plain.inked * 1.5, `the density's envelope: ${(plain.inked * 100).toFixed(1)} % -> ${(density.inked * 100).toFixed(1)} % inked`);
    assert.ok(density.blue < homo.blue / 2, 'no orbital lobes with the density');
    await view.screenshot({ path: path.join(shots, `${prefix}-density-viewer.png`) });

    // None: the bare structure again.
    await select.selectOption('');
    let none = await pixels(page, canvas);
    for (let i = 0; none.png !== plain.png && i < 40; i++) {
      await page.waitForTimeout(250);
      none = await pixels(page, canvas);
    }
    assert.ok(Math.abs(none.inked - plain.inked) < 0.01 && none.blue < plain.blue + 0.005, 'the surfaces are gone');
    assert.deepEqual(scriptErrors(), []);
  });
});
