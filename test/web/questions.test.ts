// The chemistry questions in the web console (docs/console.md, "Jobs"): the Jobs page's form,
// generated from /openapi.json, offers pka, tautomers and bde (and profile_table) like every job
// type; the pka form reads well (its fields, labels, defaults and the job's summary), is estimated
// and submitted for acetic acid at pH 3, and its result shows the site's pKa and the charge state
// at that pH as the API has them. axe-core on each state; screenshots (CRUCIBLE_SCREENSHOTS=<dir>
// keeps them). Skipped (one line) without xtb on PATH, except under CI=true, where it fails.
// Run: node --import tsx --test test/web/questions.test.ts
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { axe, browserSuite, skipBrowser, snap } from './browser.js';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const haveXtb = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v xtb'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!haveXtb && ci) throw new Error('xtb not on PATH: the pka job needs it under CI');
const skip: false | string = skipBrowser || (!haveXtb && 'xtb not on PATH: the pka job is not run from the console');

browserSuite('web console: chemistry questions', { on: 'pglite', skip, harness: { workers: 1 } }, (s) => {
  s.flow(
    'the pka job form: its fields and defaults, estimated and run for acetic acid at pH 3, its sites and charge state shown',
    async ({ h, backend, vp, page, scriptErrors, openAs }) => {
      const user = await h.user();
      await h.credit(user.userId, 5);
      const prefix = `questions-${backend.name}-${vp.name}`;
      await openAs('jobs', user);
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
      await page.getByLabel('SMILES', { exact: true }).waitFor();
      const types = await page.getByLabel('Job type').locator('option').allInnerTexts();
      for (const t of ['pka', 'tautomers', 'bde', 'profile_table']) assert.ok(types.includes(t), `${t} in ${types.join(', ')}`);

      await page.getByLabel('Job type').selectOption('pka');
      const molecules = page.getByLabel('Molecules', { exact: true });
      await molecules.waitFor();
      // The job's summary, then its fields: the structures, the pH (7.4 by default), the method (gfn2 only).
      assert.match(await page.locator('.jobform p.muted.small').first().innerText(), /^pKa values of the ionisable sites, and the charge state and microstates at a pH/);
      const ph = page.getByLabel('pH', { exact: true });
      assert.equal(await ph.getAttribute('placeholder'), 'default 7.4');
      assert.deepEqual([await ph.getAttribute('min'), await ph.getAttribute('max')], ['0', '14']);
      assert.deepEqual(await page.getByLabel('Method', { exact: true }).locator('option').allInnerTexts(), ['default gfn2', 'gfn2']);
      const labels = await page.locator('.jobform .schema-form > .field > label').allInnerTexts();
      assert.deepEqual(labels, ['Molecules', 'Input (from the library)', 'Port', 'pH', 'Method']);
      await molecules.fill('CC(=O)O');
      await ph.fill('3');
      assert.equal(await page.getByLabel('Job name').inputValue(), 'pka of CC(=O)O');
      await page.getByRole('button', { name: 'Estimate' }).click();
      const estimate = page.getByRole('status').filter({ hasText: 'Estimate:' });
      await estimate.waitFor();
      assert.match(await estimate.innerText(), /Estimate: \$\d+\.\d{4} reserved, about \d+\.\d s on default/);
      assert.deepEqual(await axe(page), [], 'the pka form, estimated');
      await snap(page, `${prefix}-1-pka-form`);

      await page.getByRole('button', { name: 'Submit' }).click();
      await page
        .locator('.job-status')
        .filter({ hasText: /^(completed|error|cancelled)/ })
        .waitFor({ timeout: 180_000 });
      assert.match(await page.locator('.job-status').innerText(), /^completed/);
      const pid = decodeURIComponent(/#\/jobs\/([^/?]+)/.exec(page.url())![1]!);
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${encodeURIComponent(pid)}`, { token: user.token });
      assert.equal(res.status, 200, res.text);
      const item = res.body.items[0];
      assert.deepEqual([res.body.ph, item.dominant_smiles, item.dominant_charge], [3, 'CC(=O)O', 0]);
      // The result: pH 3 beside the method, a row with the dominant form, the sites and microstates as tables.
      const summary = await page.locator('.result table.props').innerText();
      assert.match(summary, /pH\s+3\b/);
      const row = (await page.getByRole('region', { name: 'Result rows' }).getByRole('row').allInnerTexts())[1]!;
      assert.match(row, /CC\(=O\)O[\s\S]*CC\(=O\)O\s+0/);
      // The pKa to 2 decimals, as the job gives it, under its own name (not "Pka").
      const sites = page.getByRole('region', { name: /^Sites of / });
      assert.deepEqual(await sites.locator('th').allInnerTexts(), ['#', 'Atom index', 'Element', 'Kind', 'Class', 'pKa', 'Reason', 'Delta (kcal/mol)']);
      assert.match(await sites.innerText(), new RegExp(`3\\s+O\\s+acid\\s+carboxylic acid\\s+${item.sites[0].pka.toFixed(2)}\\s`));
      assert.match(await page.getByRole('region', { name: /^Microstates of / }).innerText(), /CC\(=O\)O\s+0\s+0\.97/);
      assert.deepEqual(await axe(page), [], 'the pka result');
      await snap(page, `${prefix}-2-pka-result`);
      assert.deepEqual(scriptErrors(), []);
    },
  );
});
