// The console's Workflows page (issue 28, point 2; docs/console.md, "Workflows") in a real browser
// against a real server with job workers, on each database at 1280x800 and 390x844: the templates
// listed with their inputs; Library triage chosen; a missing library refused by the server at its
// field; the estimate (cost per step, total, critical path) before Start is enabled; the run
// followed live to completed (every step's state), its charge, its graph as an image with its alt
// text, its outputs (the filter kept 3 of 5 molecules, aspirin's properties, depictions) and a
// download; the run page reopened after a reload and a sign-in; the recent runs; a second run held
// in the queue and cancelled from the page. axe on every state, screenshots of each.
// Run: node --import tsx --test test/web/workflows.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { TEMPLATES } from '../../src/workflows/templates.js';
import { upload } from '../artifacts/helpers.js';
import { assertAccessible, browserSuite, signIn, snap } from './browser.js';

// Five molecules: the triage filter (mw <= 500, clogp <= 5, no PAINS) keeps the first three.
const LIBRARY = [
  'CCO ethanol',
  'c1ccccc1O phenol',
  'CC(=O)Oc1ccccc1C(=O)O aspirin',
  'O=C1C(=Cc2ccccc2)C(=O)c2ccccc21 benzylidene-indandione',
  'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC(=O)O melissic-acid',
].join('\n');

async function rowsOf(page: Page, region: string): Promise<string[]> {
  const table = page.getByRole('region', { name: region, exact: true });
  await table.waitFor();
  return table.getByRole('row').allInnerTexts();
}

browserSuite('web console: workflows', { on: 'pglite', harness: { workers: 2 } }, (s) => {
  s.flow(`runs the library triage template from its estimate to its outputs`, async ({ h, backend, vp, page, scriptErrors, openAs, atPhone }) => {
    const user = await h.user();
    await h.credit(user.userId, 5);
    const up = await upload(h, { token: user.token }, { mode: 'molecules', fields: { name: 'five molecules' }, file: { name: 'five.smi', content: `${LIBRARY}\n` } });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const prefix = `${backend.name}-${vp.name}-wf`;
    await openAs('workflows', user);
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();

    // The templates, each with its steps and inputs.
    const triage = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Library triage' }) });
    await triage.waitFor();
    assert.equal(await page.getByRole('list', { name: 'Templates' }).getByRole('listitem').count(), TEMPLATES.length);
    const card = await triage.innerText();
    assert.match(card, /4 steps: properties, filter, cluster, depict/);
    assert.match(card, /Library\s+molecules, required/);
    assert.match(card, /Cutoff\s+number, default 0\.4/);
    await page.getByRole('heading', { name: 'Dock a library' }).waitFor();
    await assertAccessible(page, 'templates');
    await snap(page, `${prefix}-1-templates`);

    // Chosen: its form. No library: the estimate is refused by the server, at the library field.
    await triage.getByRole('button', { name: 'Use Library triage' }).click();
    const start = page.getByRole('button', { name: 'Start run' });
    const library = page.getByLabel(/^Library/);
    await library.waitFor();
    assert.equal(await start.isDisabled(), true, 'Start waits for an estimate');
    assert.equal(await page.getByLabel(/^Expression/).getAttribute('placeholder'), 'default mw <= 500 and clogp <= 5 and not pains');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const libraryError = page.locator('#f-body-inputs-library-error');
    await libraryError.waitFor();
    assert.match(await libraryError.innerText(), /input "library" \(molecules\) is required/);
    assert.equal(await library.getAttribute('aria-invalid'), 'true');
    assert.match((await library.getAttribute('aria-describedby')) ?? '', /f-body-inputs-library-error/);
    assert.equal(await start.isDisabled(), true);
    await assertAccessible(page, 'form with a 422');
    await snap(page, `${prefix}-2-422`);

    // The library's set chosen: the estimate per step, its total and critical path, then Start.
    await library.selectOption({ label: 'five molecules (5 molecules)' });
    await page.getByLabel(/^Run name/).fill('triage of five');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const estimate = page.getByRole('status').filter({ hasText: 'Estimate:' });
    await estimate.waitFor();
    const estimateText = await estimate.innerText();
    assert.match(estimateText, /Estimate: \$0\.\d{4} reserved for 4 steps, about \d+\.\d s end to end/);
    assert.match(estimateText, /Critical path \(●\): keep → cluster → draw/);
    const steps = await rowsOf(page, 'Estimate per step');
    assert.equal(steps.length, 6, steps.join('\n'));
    assert.match(steps[1]!, /describe\s+properties\s+5\s+\d+\.\d s\s+\$0\.\d{4}/);
    assert.match(steps[2]!, /keep\s+filter\s+5/);
    assert.match(steps[5]!, /Total\s+\$0\.\d{4}/);
    assert.equal(await start.isDisabled(), false);
    await assertAccessible(page, 'estimate');
    await snap(page, `${prefix}-3-estimate`);
    // Any change clears the estimate (and Start).
    await page.getByLabel(/^Cutoff/).fill('0.5');
    assert.equal(await start.isDisabled(), true);
    await page.getByRole('button', { name: 'Estimate' }).click();
    await estimate.waitFor();

    // Started: the run's page, followed live until it completes.
    await start.click();
    await page.waitForURL(/#\/workflows\/runs\/[0-9a-f-]{36}$/);
    const runId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: /triage of five/, level: 2 }).waitFor();
    await page.getByRole('region', { name: 'Steps' }).waitFor();
    await assertAccessible(page, 'run under way');
    await snap(page, `${prefix}-4-running`);
    const status = page.locator('.wf-status');
    await status
      .filter({ hasText: /^completed/ })
      .waitFor({ timeout: 120_000 })
      .catch(async (err: unknown) => {
        await snap(page, `${prefix}-4-not-completed`);
        throw err;
      });
    const stepRows = await rowsOf(page, 'Steps');
    assert.equal(stepRows.length, 5, stepRows.join('\n'));
    for (const [n, [id, type]] of [
      ['describe', 'properties'],
      ['keep', 'filter'],
      ['cluster', 'cluster'],
      ['draw', 'depict'],
    ].entries())
      assert.match(stepRows[n + 1]!, new RegExp(`^${id}\\s+${type}\\s+completed\\s+100%\\s+\\d+\\.\\d s\\s+\\$0\\.\\d{4} of \\$0\\.\\d{4}`), stepRows[n + 1]);
    assert.match(await page.locator('.wf-charge').innerText(), /Charged \$0\.\d{4} of \$0\.\d{4} reserved; ended/);
    assert.match(await page.locator('.wf-run .row').first().innerText(), /4 of 4 steps completed/);

    // The graph: the server's SVG as an image, described for screen readers, scrolled sideways on a phone.
    const graph = page.getByRole('img', { name: /^Graph of the run triage of five, completed/ });
    await graph.waitFor();
    assert.match(
      (await graph.getAttribute('alt')) ?? '',
      /steps describe \(properties\) completed; keep \(filter\) completed; cluster \(cluster\) completed; draw \(depict\) completed\./,
    );
    assert.match((await graph.getAttribute('src')) ?? '', /^data:image\/svg\+xml/);
    assert.ok((await graph.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 300, 'the graph image loaded');
    await atPhone(`${prefix}-graph`, async () => {
      const wrap = page.getByRole('region', { name: /Run graph/ });
      const { scroll, client } = await wrap.evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number };
        return { scroll: e.scrollWidth, client: e.clientWidth };
      });
      assert.ok(scroll > client, `the graph scrolls sideways on a phone (${scroll} > ${client})`);
    });

    // The outputs: the filter kept 3 of 5, aspirin's properties, the drawings; a download.
    await page.getByRole('heading', { name: 'Outputs' }).waitFor();
    const kept = page.getByRole('region', { name: 'Kept', exact: true });
    await kept.getByRole('region', { name: 'Kept rows' }).waitFor();
    assert.match(await kept.locator('.wf-summary').innerText(), /Molecules\s+5\s+Kept\s+3\s+Dropped\s+2/);
    const keptRows = await rowsOf(page, 'Kept rows');
    assert.equal(keptRows.length, 4, keptRows.join('\n'));
    assert.deepEqual(
      keptRows.slice(1).map((r) => r.split('\t')[1]),
      ['ethanol', 'phenol', 'aspirin'],
    );
    const props = await rowsOf(page, 'Properties rows');
    assert.equal(props.length, 6, props.join('\n'));
    assert.match(
      props.find((r) => r.includes('aspirin'))!,
      /C9H8O4\s+180\.159/,
    );
    await page.getByRole('region', { name: 'Drawings rows' }).getByRole('img', { name: 'Structure of aspirin' }).waitFor();
    assert.match(await page.getByRole('region', { name: 'Clusters', exact: true }).locator('.wf-summary').innerText(), /Clusters\s+\d/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download properties' }).click()]);
    assert.equal(csv.suggestedFilename(), 'properties.csv');
    const text = fs.readFileSync((await csv.path())!, 'utf8');
    assert.match(text, /^index,id,name,smiles,/);
    assert.equal(text.trim().split('\n').length, 6);
    await assertAccessible(page, 'run completed with its outputs');
    await snap(page, `${prefix}-5-completed`);

    // The run is the route's: a reload asks for the password, then opens the same run.
    await page.reload();
    await signIn(page, user.email, user.password);
    await status.filter({ hasText: /^completed/ }).waitFor();
    assert.match(page.url(), new RegExp(`#/workflows/runs/${runId}$`));
    await page.getByRole('region', { name: 'Kept rows' }).waitFor();
    const recent = page.getByRole('region', { name: 'Recent runs' });
    assert.match(await recent.getByRole('row').filter({ hasText: 'triage of five' }).innerText(), /triage of five\s+completed\s+4 \/ 4\s+\$0\.\d{4}/);

    // A second run held in the queue (both workers busy with wait jobs) and cancelled from the page.
    const waits: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: user.token, body: { job_name: `hold ${i}`, job_type: 'wait', payload: { seconds: 120 } } });
      assert.equal(r.status, 200, r.text);
      waits.push(r.body.process_id);
    }
    for (const pid of waits) await h.waitForJob(user.token, pid, ['running'], 60_000);
    await page.getByRole('link', { name: /Templates: start another run/ }).click();
    await page.getByRole('button', { name: 'Use Library triage' }).click();
    await page.getByLabel(/^Library/).selectOption({ label: 'five molecules (5 molecules)' });
    await page.getByLabel(/^Run name/).fill('triage to cancel');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await estimate.waitFor();
    await start.click();
    await page.getByRole('heading', { name: /triage to cancel/, level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await status.filter({ hasText: /^cancelled/ }).waitFor({ timeout: 60_000 });
    const cancelled = await rowsOf(page, 'Steps');
    for (const row of cancelled.slice(1)) assert.match(row, /\tcancelled/, row);
    assert.equal(await page.getByRole('button', { name: 'Cancel run' }).count(), 0);
    assert.match(await page.locator('.wf-run .row').first().innerText(), /0 of 4 steps completed/);
    assert.match(await page.locator('.wf-charge').innerText(), /Charged \$0\.\d{4} of \$0\.\d{4} reserved/);
    assert.match(await page.getByRole('region', { name: 'Outputs' }).innerText(), /Kept\s+keep · molecules\s+not produced/);
    await page.getByRole('img', { name: /^Graph of the run triage to cancel, cancelled/ }).waitFor();
    await recent.getByRole('row').filter({ hasText: 'triage to cancel' }).filter({ hasText: 'cancelled' }).waitFor();
    await assertAccessible(page, 'run cancelled');
    await snap(page, `${prefix}-6-cancelled`);
    for (const pid of waits) await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${pid}`, { token: user.token });
    assert.deepEqual(scriptErrors(), []);
  });
});
