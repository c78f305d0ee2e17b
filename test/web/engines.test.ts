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
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { boxOf, readData, uploadFile } from '../engines/docking-helpers.js';
import { axe, launchBrowser, openConsole, shots, signIn, skipBrowser, snap, viewportsFor, VIEWPORTS } from './browser.js';

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

/** The element's pixels, as the screen shows them: how many colours (quantised) and the share that is not white. */
async function pixels(page: Page, el: Locator): Promise<{ colours: number; inked: number; png: string }> {
  const png = (await el.screenshot()).toString('base64');
  const stats = await page.evaluate(async (b64: string) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bmp.width, bmp.height);
    const g = canvas.getContext('2d') as unknown as {
      drawImage(b: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    const seen = new Set<number>();
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) {
      seen.add(((d[i]! >> 4) << 8) | ((d[i + 1]! >> 4) << 4) | (d[i + 2]! >> 4));
      if (d[i]! < 235 || d[i + 1]! < 235 || d[i + 2]! < 235) inked++;
    }
    return { colours: seen.size, inked: inked / (d.length / 4) };
  }, png);
  return { ...stats, png };
}

/** Waits until the canvas shows something other than its background (3Dmol draws after its chunk and the models load). */
async function drawn(page: Page, el: Locator): Promise<{ colours: number; inked: number; png: string }> {
  for (let i = 0; ; i++) {
    const p = await pixels(page, el);
    if (p.colours > 3 && p.inked > 0.005) return p;
    if (i > 40) assert.fail(`the 3D view stays blank: ${p.colours} colours, ${(p.inked * 100).toFixed(2)} % inked`);
    await page.waitForTimeout(250);
  }
}

describe('web console: engine jobs in 3D', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      let h: Harness;
      before(async () => {
        h = await startHarness(backend, {}, { workers: 1 });
      });
      after(async () => h?.close());

      for (const vp of viewportsFor(backend)) {
        it(`conformers of n-butane from the Jobs form, drawn in 3D with the API's energies; 3Dmol loaded only there (${vp.name} ${vp.width}x${vp.height})`, async () => {
          const user = await h.user();
          await h.credit(user.userId, 5);
          const { context, page, scriptErrors } = await openConsole(browser, vp);
          const scripts: string[] = [];
          page.on('request', (r) => {
            if (r.url().endsWith('.js')) scripts.push(r.url());
          });
          try {
            const prefix = `engines-${backend.name}-${vp.name}`;
            await page.goto(`${h.base}/app/#/molecules`);
            await signIn(page, user.email, user.password);
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
            await page.getByLabel('Smiles', { exact: true }).waitFor();
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

            // Nested values: the conformer list in its row as a JSON box (molblocks left to the 3D view).
            const rows = page.getByRole('region', { name: 'Result rows' });
            const box = rows.locator('details').filter({ hasText: `${conformers.length} items` });
            await box.first().locator('summary').click();
            const json = await box.first().locator('pre').innerText();
            assert.ok(json.includes(String(conformers[0]!.energy_hartree)), json.slice(0, 300));
            assert.match(json, /"molblock": "\(in the 3D view\)"/);
            assert.deepEqual(await axe(page), [], 'jobs page with a JSON box open');
            await snap(page, `${prefix}-2-conformer-2`);
            assert.deepEqual(scriptErrors(), [], 'no script error or CSP violation');
          } finally {
            await context.close();
          }
        });
      }

      it('a docking job: phenol into 1IEP (uploaded receptor), the receptor and the pose in 3D with the API scores', async () => {
        const user = await h.user();
        await h.credit(user.userId, 5);
        const receptor = await uploadFile(h, user.token, '1iep_receptorH.pdb', readData('1iep_receptorH.pdb'));
        const { context, page, scriptErrors } = await openConsole(browser, VIEWPORTS[0]);
        const downloads: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/download')) downloads.push(r.url());
        });
        try {
          const prefix = `engines-${backend.name}-docking`;
          await page.goto(`${h.base}/app/#/jobs`);
          await signIn(page, user.email, user.password);
          await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
          await page.getByLabel('Smiles', { exact: true }).waitFor();
          await page.getByLabel('Job type').selectOption('docking');
          await page.getByLabel('Molecules', { exact: true }).fill('Oc1ccccc1');
          await page.getByLabel('Receptor artifact id').fill(receptor);
          await page.getByLabel('Box', { exact: true }).fill(JSON.stringify(boxOf('1iep')));
          await page.getByLabel('Exhaustiveness').fill('1');
          await page.getByLabel('Num modes').fill('3');
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
          // The result's receptor and box as JSON boxes in the summary.
          const summary = page.locator('.result .props');
          await summary
            .locator('tr')
            .filter({ hasText: /^receptor/ })
            .locator('summary')
            .click();
          assert.match(
            await summary
              .locator('tr')
              .filter({ hasText: /^receptor/ })
              .locator('pre')
              .innerText(),
            new RegExp(`"artifact_id": "${receptor}"`),
          );
          assert.deepEqual(await axe(page), [], 'jobs page with a docking pose in 3D');
          await snap(page, `${prefix}-desktop`);
          await view.screenshot({ path: path.join(shots, `${prefix}-viewer.png`) });
          await page.setViewportSize({ width: VIEWPORTS[1].width, height: VIEWPORTS[1].height });
          await page.waitForTimeout(500);
          await drawn(page, view.locator('canvas').first());
          assert.deepEqual(await axe(page), [], 'jobs page with a docking pose in 3D (phone)');
          // Nothing wider than the phone (the open JSON box scrolls inside itself).
          assert.equal(
            await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
            VIEWPORTS[1].width,
          );
          await snap(page, `${prefix}-phone`);
          assert.deepEqual(scriptErrors(), [], 'no script error or CSP violation');
        } finally {
          await context.close();
        }
      });
    });
  }
});
