// Engine jobs in the web console (issue 28; docs/console.md, "Jobs"): a conformer search of
// n-butane (GFN-FF, xtb) submitted from the Jobs page's form, followed to completed, its conformers
// drawn by the 3D viewer (3Dmol.js, WebGL through chromium's SwiftShader) with a selector whose
// energies are the API's; the 3Dmol chunk fetched only then (never on the Molecules page); the
// viewer's keyboard controls; the result's nested values as JSON boxes. Then a docking job (Vina)
// of phenol into 1IEP's receptor, uploaded, drawn with its pose. Each state checked with axe-core
// and photographed at 1280x800 and 390x844. Skipped (one line) without xtb, Open Babel and Vina on
// PATH, except under CI=true, where it fails.
// Run: node --import tsx --test test/web/engines.test.ts
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { boxOf, readData, uploadFile } from '../engines/docking-helpers.js';
import { axe, browserSuite, shots, skipBrowser, snap, VIEWPORTS } from './browser.js';
import { drawn, pixels } from './pixels.js';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const onPath = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const missing = ['xtb', 'obabel', 'vina'].filter((c) => !onPath(c));
if (missing.length && ci) throw new Error(`${missing.join(', ')} not on PATH: the engine tests need them under CI`);
const skip: false | string = skipBrowser || (missing.length > 0 && `${missing.join(', ')} not on PATH: the 3D viewer's engine jobs are not tested`);

const CHUNK_3DMOL = /\/app\/assets\/3Dmol-[^/]+\.js$/;

browserSuite('web console: engine jobs in 3D', { on: 'postgres', skip, harness: { workers: 1 } }, (s) => {
  s.flow(`conformers of n-butane from the Jobs form, drawn in 3D with the API's energies; 3Dmol loaded only there`, async ({ h, backend, vp, page, scriptErrors, openAs }) => {
    const user = await h.user();
    await h.credit(user.userId, 5);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(r.url());
    });
    const prefix = `engines-${backend.name}-${vp.name}`;
    await openAs('molecules', user);
    await page.getByRole('heading', { name: 'Molecules' }).waitFor();
    await page.getByLabel(/SMILES, one molecule a line/).waitFor();
    assert.deepEqual(
      scripts.filter((s) => CHUNK_3DMOL.test(s)),
      [],
      'no 3Dmol chunk on the Molecules page',
    );

    // The Jobs page: the conformers form from /openapi.json; still no 3Dmol until a result has 3D structures.
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    await page.getByLabel('SMILES', { exact: true }).waitFor();
    assert.deepEqual(
      scripts.filter((s) => CHUNK_3DMOL.test(s)),
      [],
      'no 3Dmol chunk on the Jobs page before a result with 3D structures',
    );
    await page.getByLabel('Job type').selectOption('conformers');
    await page.getByLabel('Molecules', { exact: true }).fill('CCCC');
    await page.getByLabel('Method', { exact: true }).selectOption('gfnff');
    await page.getByLabel('Max conformers').fill('5');
    await page.getByLabel('Job name').fill('butane conformers');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await page.getByRole('status').filter({ hasText: 'Estimate:' }).waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .locator('.job-status')
      .filter({ hasText: /^(completed|error|cancelled)/ })
      .waitFor({ timeout: 120_000 });
    assert.match(await page.locator('.job-status').innerText(), /^completed/);

    // The viewer: a canvas in the region named for the molecule, drawn (not one colour).
    const view = page.getByRole('region', { name: '3D view of molecule 1' });
    await view.waitFor({ timeout: 30_000 });
    const canvas = view.locator('canvas');
    await canvas.first().waitFor();
    assert.equal(scripts.filter((s) => CHUNK_3DMOL.test(s)).length, 1, `the 3Dmol chunk fetched once: ${scripts.join(', ')}`);
    const first = await drawn(page, canvas.first());

    // The selector: one option per conformer, with the API's energies (Eh to 6 decimals, kcal/mol to 2, weights in %).
    const pid = decodeURIComponent(/#\/jobs\/([^/?]+)/.exec(page.url())![1]!);
    const res = await h.req('GET', `/api/v1/jobs/result?process_id=${encodeURIComponent(pid)}`, { token: user.token });
    assert.equal(res.status, 200, res.text);
    const conformers = (res.body as { items: { conformers: { energy_hartree: number; relative_kcal: number; boltzmann_weight: number }[] }[] }).items[0]!.conformers;
    assert.ok(conformers.length >= 2, `${conformers.length} conformers of butane`);
    const select = page.getByLabel(`Conformer (${conformers.length})`);
    const options = await select.locator('option').allInnerTexts();
    assert.deepEqual(
      options,
      conformers.map(
        (c, k) =>
          `Conformer ${k + 1}: ${c.energy_hartree.toFixed(6)} Eh, ${c.relative_kcal >= 0 ? '+' : ''}${c.relative_kcal.toFixed(2)} kcal/mol, weight ${(c.boltzmann_weight * 100).toFixed(1)} %`,
      ),
    );
    assert.match(options[0]!, /\+0\.00 kcal\/mol/);
    assert.deepEqual(await axe(page), [], 'jobs page with the 3D viewer');
    await snap(page, `${prefix}-1-conformers`);
    await view.screenshot({ path: path.join(shots, `${prefix}-1-viewer.png`) });

    // Another conformer: the picture changes, the description names it.
    await select.selectOption({ index: 1 });
    await page.locator('.viewer3d p[id]').filter({ hasText: options[1]! }).waitFor();
    let second = await drawn(page, canvas.first());
    for (let i = 0; second.png === first.png && i < 20; i++) {
      await page.waitForTimeout(250);
      second = await drawn(page, canvas.first());
    }
    assert.notEqual(second.png, first.png, 'conformer 2 looks different');

    // The keyboard: the view takes focus, an arrow key turns the molecule, 0 resets.
    await view.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(600);
    const turned = await drawn(page, canvas.first());
    assert.notEqual(turned.png, second.png, 'ArrowRight rotates the view');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Spin' }).click();
    assert.equal(await page.getByRole('button', { name: 'Spin' }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'Spin' }).click();

    // The conformer list as its own table (issue 32: not a collapsed "N items"), each energy in Eh to
    // 6 decimals and kcal/mol to 2, the molblocks left to the 3D view.
    assert.match(await page.getByRole('region', { name: 'Result rows' }).innerText(), new RegExp(`${conformers.length} \\(table below\\)`));
    const table = page.getByRole('region', { name: 'Conformers of molecule 1' });
    const header = await table.getByRole('row').first().innerText();
    assert.match(header, /Energy \(Eh\)[\s\S]*Relative energy \(kcal\/mol\)/);
    const shown = (await table.getByRole('row').allInnerTexts()).slice(1);
    assert.equal(shown.length, conformers.length);
    conformers.forEach((c, k) => {
      assert.ok(shown[k]!.includes(c.energy_hartree.toFixed(6)), `${shown[k]} has ${c.energy_hartree.toFixed(6)}`);
      assert.ok(shown[k]!.includes(c.relative_kcal.toFixed(2)), `${shown[k]} has ${c.relative_kcal.toFixed(2)}`);
    });
    assert.doesNotMatch(await table.innerText(), /M {2}END/);
    assert.deepEqual(await axe(page), [], 'jobs page with the conformers table');
    await snap(page, `${prefix}-2-conformer-2`);
    assert.deepEqual(scriptErrors(), [], 'no script error or CSP violation');
  });

  s.flow(
    'frequencies of ethanol and a scan of butane from the form: selects, human labels, a default name, energies to 6 decimals, the modes as a table, the IR spectrum and the scan profile shown (issue 32)',
    async ({ h, backend, page, scriptErrors, openAs }) => {
      const user = await h.user();
      await h.credit(user.userId, 5);
      const prefix = `engines-${backend.name}-frequencies`;
      await openAs('jobs', user);
      await page.getByLabel('SMILES', { exact: true }).waitFor();
      await page.getByLabel('Job type').selectOption('frequencies');

      // The form: the solvent (an anyOf of an enum and null in the schema) and the method are selects;
      // the empty choice says what null means; the temperature is labelled with its unit.
      const solvent = page.getByLabel('Solvent', { exact: true });
      assert.equal(await solvent.evaluate((e) => (e as unknown as { nodeName: string }).nodeName), 'SELECT');
      const choices = await solvent.locator('option').allInnerTexts();
      assert.equal(choices[0], 'gas phase (default)');
      assert.ok(choices.includes('water') && choices.includes('methanol') && choices.length > 20, choices.join(', '));
      assert.equal(await page.getByLabel('Method', { exact: true }).evaluate((e) => (e as unknown as { nodeName: string }).nodeName), 'SELECT');
      const temperature = page.getByLabel('Temperature (K)');
      assert.equal(await temperature.getAttribute('type'), 'number');
      assert.equal(await temperature.getAttribute('placeholder'), 'default 298.15');

      // The job name has a default, from the job type and the molecule.
      const jobName = page.getByLabel('Job name');
      assert.match(await jobName.inputValue(), /^frequencies \d{4}-\d\d-\d\d \d\d:\d\d$/, 'before a molecule: the type and the time');
      await page.getByLabel('Molecules', { exact: true }).fill('CCO');
      assert.equal(await jobName.inputValue(), 'frequencies of CCO');
      await solvent.selectOption('water');
      await temperature.fill('300');
      await snap(page, `${prefix}-1-form`);
      assert.deepEqual(await axe(page), [], 'the frequencies form');
      await page.getByRole('button', { name: 'Estimate' }).click();
      await page.getByRole('status').filter({ hasText: 'Estimate:' }).waitFor();
      await page.getByRole('button', { name: 'Submit' }).click();
      await page
        .locator('.job-status')
        .filter({ hasText: /^(completed|error|cancelled)/ })
        .waitFor({ timeout: 120_000 });
      assert.match(await page.locator('.job-status').innerText(), /^completed/);
      const pid = decodeURIComponent(/#\/jobs\/([^/?]+)/.exec(page.url())![1]!);
      const info = await h.req('GET', `/api/v1/jobs/info?process_id=${encodeURIComponent(pid)}`, { token: user.token });
      assert.equal(info.body.info.job_name, 'frequencies of CCO', 'submitted with the default name');
      assert.equal(info.body.info.payload.solvent, 'water', 'the value of the select reached the payload');
      assert.equal(info.body.info.payload.temperature_k, 300);
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${encodeURIComponent(pid)}`, { token: user.token });
      assert.equal(res.status, 200, res.text);
      const item = (res.body as { items: { energy_hartree: number; gibbs_hartree: number; frequencies_cm1: number[]; ir_intensities_km_mol: number[]; solvent?: string }[] })
        .items[0]!;

      // The page scrolled to the result: its heading is on screen.
      const heading = page.locator('.result h3').first();
      await heading.waitFor();
      await page.waitForTimeout(300);
      const top = await heading.evaluate((e) => (e as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top);
      assert.ok(top > -2 && top < VIEWPORTS[0].height, `the result heading at ${top} px is on screen`);

      // Energies in Eh to 6 decimals, in a column named with its unit.
      const rows = page.getByRole('region', { name: 'Result rows' });
      const rowText = await rows.innerText();
      assert.match(rowText, /Energy \(Eh\)/);
      assert.ok(rowText.includes(item.energy_hartree.toFixed(6)), `${item.energy_hartree.toFixed(6)} in ${rowText}`);
      assert.ok(rowText.includes(item.gibbs_hartree.toFixed(6)), `${item.gibbs_hartree.toFixed(6)} in ${rowText}`);
      assert.match(rowText, new RegExp(`${item.frequencies_cm1.length} \\(table below\\)`));

      // The modes as a table: one row per mode, the wavenumber to 0.1 cm-1 and the intensity beside it.
      const modes = page.getByRole('region', { name: 'Frequencies of molecule 1' });
      const modeRows = await modes.getByRole('row').allInnerTexts();
      assert.equal(modeRows.length, item.frequencies_cm1.length + 1, modeRows.slice(0, 3).join('\n'));
      assert.equal(item.frequencies_cm1.length, 21, 'ethanol: 3N-6 = 21 modes');
      assert.match(modeRows[0]!, /#\s+Frequencies \(cm⁻¹\)\s+IR intensities \(km\/mol\)/);
      item.frequencies_cm1.forEach((f, k) => {
        assert.deepEqual(modeRows[k + 1]!.split('\t'), [String(k + 1), f.toFixed(1), item.ir_intensities_km_mol[k]!.toFixed(2)]);
      });

      // The IR spectrum the job wrote (its plot port), shown as an image with ink on it.
      const spectrum = page.getByRole('img', { name: 'IR spectrum of molecule 1' });
      await spectrum.waitFor();
      assert.ok((await spectrum.evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth)) > 500, 'the spectrum loaded');
      const ink = await pixels(page, spectrum);
      assert.ok(ink.inked > 0.02 && ink.colours > 3, `the spectrum is drawn: ${ink.colours} colours, ${(ink.inked * 100).toFixed(1)} % inked`);
      await spectrum.screenshot({ path: path.join(shots, `${prefix}-2-spectrum.png`) });
      assert.deepEqual(await axe(page), [], 'jobs page with a spectrum and the modes table');
      await snap(page, `${prefix}-2-result`);

      // A torsion scan: the dihedral as numbers, the angles labelled in degrees; the profile and the points.
      await page.getByLabel('Job type').selectOption('scan');
      await page.getByLabel('Molecules', { exact: true }).fill('CCCC');
      await page.getByLabel('Method', { exact: true }).selectOption('gfnff');
      await page.getByLabel(/^Dihedral/).fill('0 1 2 3');
      await page.getByLabel(/^Start \(°\)/).fill('-180');
      await page.getByLabel(/^End \(°\)/).fill('180');
      await page.getByLabel(/^Steps/).fill('7');
      assert.equal(await jobName.inputValue(), 'scan of CCCC');
      await page.getByRole('button', { name: 'Estimate' }).click();
      await page.getByRole('status').filter({ hasText: 'Estimate:' }).waitFor();
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.locator('#job-title').filter({ hasNotText: pid }).waitFor();
      await page
        .locator('.job-status')
        .filter({ hasText: /^(completed|error|cancelled)/ })
        .waitFor({ timeout: 120_000 });
      assert.match(await page.locator('.job-status').innerText(), /^completed/);
      const scanPid = decodeURIComponent(/#\/jobs\/([^/?]+)/.exec(page.url())![1]!);
      const scan = await h.req('GET', `/api/v1/jobs/result?process_id=${encodeURIComponent(scanPid)}`, { token: user.token });
      const points = (scan.body as { items: { points: { angle_deg: number; energy_hartree: number; relative_kcal: number }[] }[] }).items[0]!.points;
      assert.equal(points.length, 7);
      const profile = page.getByRole('img', { name: 'Scan profile of molecule 1' });
      await profile.waitFor();
      assert.ok((await pixels(page, profile)).inked > 0.02, 'the scan profile is drawn');
      const pointRows = (await page.getByRole('region', { name: 'Points of molecule 1' }).getByRole('row').allInnerTexts()).slice(1);
      assert.deepEqual(
        pointRows.map((r) => r.split('\t').slice(1)),
        points.map((p) => [p.angle_deg.toFixed(1), p.energy_hartree.toFixed(6), p.relative_kcal.toFixed(2)]),
      );
      await snap(page, `${prefix}-3-scan`);

      // The library names the jobs' results after the jobs.
      await page.getByRole('link', { name: 'Library', exact: true }).click();
      const named = page.getByRole('row').filter({ hasText: 'frequencies of CCO' });
      await named.first().waitFor();
      assert.match(await named.filter({ hasText: 'plot' }).innerText(), /frequencies of CCO \(frequencies · plot\)/);
      await page.getByRole('row').filter({ hasText: 'scan of CCCC (scan · plot)' }).waitFor();
      assert.deepEqual(await axe(page), [], 'library with job results');
      await snap(page, `${prefix}-4-library`);
      assert.deepEqual(scriptErrors(), [], 'no script error or CSP violation');
    },
    { at: VIEWPORTS[0] },
  );

  s.flow(
    'a docking job: phenol into 1IEP (uploaded receptor), the receptor and the pose in 3D with the API scores',
    async ({ h, backend, page, scriptErrors, openAs, atPhone }) => {
      const user = await h.user();
      await h.credit(user.userId, 5);
      const receptor = await uploadFile(h, user.token, '1iep_receptorH.pdb', readData('1iep_receptorH.pdb'));
      const downloads: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/download')) downloads.push(r.url());
      });
      const prefix = `engines-${backend.name}-docking`;
      await openAs('jobs', user);
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
      await page.getByLabel('SMILES', { exact: true }).waitFor();
      await page.getByLabel('Job type').selectOption('docking');
      await page.getByLabel('Molecules', { exact: true }).fill('Oc1ccccc1');
      await page.getByLabel('Receptor (from the library)').fill(receptor);
      // The box is a group of its own fields (numbers separated by spaces), not a JSON box.
      const box = boxOf('1iep');
      const boxGroup = page.getByRole('group', { name: 'Box' });
      await boxGroup.getByLabel('Center (Å)').fill(box.center.join(' '));
      await boxGroup.getByLabel('Size (Å)').fill(box.size.join(', '));
      await page.getByLabel('Exhaustiveness').fill('1');
      await page.getByLabel('Poses per ligand').fill('3');
      await page.getByLabel('Job name').fill('phenol in 1IEP');
      await page.getByRole('button', { name: 'Estimate' }).click();
      await page.getByRole('status').filter({ hasText: 'Estimate:' }).waitFor();
      await page.getByRole('button', { name: 'Submit' }).click();
      await page
        .locator('.job-status')
        .filter({ hasText: /^(completed|error|cancelled)/ })
        .waitFor({ timeout: 120_000 });
      assert.match(await page.locator('.job-status').innerText(), /^completed/);

      const pid = decodeURIComponent(/#\/jobs\/([^/?]+)/.exec(page.url())![1]!);
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${encodeURIComponent(pid)}`, { token: user.token });
      assert.equal(res.status, 200, res.text);
      const body = res.body as { receptor: { artifact_id: string }; items: { poses: { score_kcal_mol: number; rmsd_lb: number; rmsd_ub: number }[] }[] };
      assert.equal(body.receptor.artifact_id, receptor);
      const poses = body.items[0]!.poses;
      assert.ok(poses.length >= 1 && poses.length <= 3, `${poses.length} poses`);

      const view = page.getByRole('region', { name: '3D view of molecule 1' });
      await view.waitFor({ timeout: 30_000 });
      // The receptor as docked, read through the public download of the result's `receptor` port
      // (the same for an upload and an RCSB entry), then drawn with the pose.
      await page.locator('.viewer3d p[id]').filter({ hasText: 'The receptor as a cartoon' }).waitFor({ timeout: 30_000 });
      const resultArtifact = (await h.req('GET', `/api/v1/jobs/status?process_id=${encodeURIComponent(pid)}`, { token: user.token })).body.result_artifact_id as string;
      assert.ok(
        downloads.some((u) => u.endsWith(`/api/v1/artifacts/${resultArtifact}/download?port=receptor`)),
        downloads.join(', '),
      );
      const shown = await drawn(page, view.locator('canvas').first());
      assert.ok(shown.colours > 20, `the cartoon's spectrum and the pose: ${shown.colours} colours`);
      const labels = poses.map((p, k) => `Pose ${k + 1}: ${p.score_kcal_mol.toFixed(3)} kcal/mol (RMSD ${p.rmsd_lb.toFixed(2)} / ${p.rmsd_ub.toFixed(2)} Å)`);
      if (poses.length > 1) assert.deepEqual(await page.getByLabel(`Pose (${poses.length})`).locator('option').allInnerTexts(), labels);
      else assert.equal(await page.locator('.viewer3d-label').innerText(), labels[0]);
      // Beside the 3D view, the shown pose's 2D interaction diagram (the job's interactions port,
      // docs/structure.md "Docking's poses") and its checks; choosing another pose shows its own.
      const diagram = page.getByRole('img', { name: 'Interactions of molecule 1, pose 1' });
      await diagram.waitFor({ timeout: 30_000 });
      assert.ok(
        downloads.some((u) => u.endsWith(`/api/v1/artifacts/${resultArtifact}/download?port=interactions&record=0-1`)),
        downloads.join(', '),
      );
      const checks = (body.items[0]!.poses[0] as unknown as { checks: { passed: boolean } }).checks;
      assert.match(await page.locator('.pose-diagram figcaption').innerText(), checks.passed ? /every pose check passed/ : /failed /);
      const [box3d, box2d] = [await view.boundingBox(), await diagram.boundingBox()];
      assert.ok(box3d && box2d && box2d.x > box3d.x + box3d.width - 1, `the diagram is beside the 3D view: ${JSON.stringify([box3d, box2d])}`);
      if (poses.length > 1) {
        await page.getByLabel(`Pose (${poses.length})`).selectOption({ index: 1 });
        await page.getByRole('img', { name: 'Interactions of molecule 1, pose 2' }).waitFor({ timeout: 30_000 });
        assert.ok(downloads.some((u) => u.endsWith('&record=0-2')));
      }
      await page.locator('.viewer3d-pair').screenshot({ path: path.join(shots, `${prefix}-pose-and-diagram.png`) });
      // The result's receptor and box as JSON boxes in the summary.
      const summary = page.locator('.result .props');
      await summary
        .locator('tr')
        .filter({ hasText: /^Receptor/ })
        .locator('summary')
        .click();
      assert.match(
        await summary
          .locator('tr')
          .filter({ hasText: /^Receptor/ })
          .locator('pre')
          .innerText(),
        new RegExp(`"artifact_id": "${receptor}"`),
      );
      assert.deepEqual(await axe(page), [], 'jobs page with a docking pose in 3D');
      await snap(page, `${prefix}-desktop`);
      await view.screenshot({ path: path.join(shots, `${prefix}-viewer.png`) });
      await atPhone(prefix, () => drawn(page, view.locator('canvas').first()).then(() => undefined));
      assert.deepEqual(scriptErrors(), [], 'no script error or CSP violation');
    },
    { at: VIEWPORTS[0] },
  );
});
