// The web console (issue 28; docs/console.md) in a real browser: Debian's chromium driven by
// playwright-core (no browser download), against a real server on each database. Signs in, pastes
// molecules and reads their properties, alerts and predictions, shows a 422 at its field, refreshes
// a short-lived access token, goes back to sign-in on a 401 and returns to the page. Every page is
// checked with axe-core (no serious or critical violations) and photographed at 1280x800 and
// 390x844 into a temp dir (printed; CRUCIBLE_SCREENSHOTS=<dir> chooses it).
// Run: node --import tsx --test test/web/console.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { revokeAllSessions } from '../../src/modules/auth/sessions.js';
import { axe, browserSuite, shots, signIn, snap } from './browser.js';

browserSuite('web console', { on: 'pglite', env: { CRUCIBLE_ACCESS_TOKEN_TTL: '6' }, harness: { workers: 1 } }, (s) => {
  /** A fresh access token for the test's own API calls (the harness's lives 6 s). */
  const tokenOf = async (u: { email: string; password: string }): Promise<string> => {
    const r = await s.h.req('POST', '/api/v1/auth/login-email', { form: { username: u.email, password: u.password } });
    assert.equal(r.status, 200, r.text);
    return r.body.access_token as string;
  };

  it('serves the console at /app with its security headers and gzipped scripts', async () => {
    const r = await fetch(`${s.h.base}/app`, { redirect: 'manual' });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/app/');
    const index = await fetch(`${s.h.base}/app/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    const html = await index.text();
    const script = /src="(\/app\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const js = await fetch(`${s.h.base}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-encoding'), 'gzip');
    assert.match(js.headers.get('cache-control') ?? '', /immutable/);
    const missing = await fetch(`${s.h.base}/app/assets/nothing.js`);
    assert.equal(missing.status, 404);
  });

  s.flow(`signs in, describes molecules, shows a 422 at its field, refreshes and re-signs in`, async ({ h, backend, vp, page, scriptErrors }) => {
    const user = await h.user();
    let refreshes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/auth/refresh')) refreshes++;
    });
    const prefix = `${backend.name}-${vp.name}`;
    await page.goto(`${h.base}/app/#/molecules`);
    await page.getByRole('heading', { name: 'Crucible' }).waitFor();
    // First load on loopback (docs/performance.md): the scripts under 1 MB gzipped.
    const load = await page.evaluate(() => {
      type Entry = { name: string; startTime: number; loadEventEnd: number; encodedBodySize: number };
      const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): Entry[] } }).performance;
      const nav = perf.getEntriesByType('navigation')[0]!;
      const scripts = perf.getEntriesByType('resource').filter((r) => r.name.endsWith('.js'));
      return { ms: nav.loadEventEnd - nav.startTime, jsBytes: scripts.reduce((n, r) => n + r.encodedBodySize, 0), scripts: scripts.length };
    });
    console.log(`${prefix}: first load ${load.ms.toFixed(0)} ms, ${load.scripts} scripts, ${(load.jsBytes / 1024).toFixed(1)} KiB gzipped`);
    // The time is measured, not asserted: the target (under 1 s) is `npm run bench:console`'s.
    assert.ok(load.jsBytes > 0 && load.jsBytes < 1024 * 1024, `${load.jsBytes} bytes of script`);
    assert.deepEqual(await axe(page), [], 'sign-in page');
    await snap(page, `${prefix}-1-signin`);

    // A wrong password: the problem's detail, on the sign-in page.
    await signIn(page, user.email, 'not the password');
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid|incorrect|credentials/i })
      .waitFor();

    await signIn(page, user.email, user.password);
    await page.getByRole('heading', { name: 'Molecules' }).waitFor();
    await page.getByRole('button', { name: 'Describe' }).click();
    const aspirin = page.getByRole('article', { name: 'aspirin' });
    // The first describe starts RDKit's threads and loads the public model: slow on a busy machine.
    await aspirin.waitFor({ timeout: 90_000 });
    const aspirinText = await aspirin.innerText();
    assert.match(aspirinText, /C9H8O4/);
    assert.match(aspirinText, /180\.16 g\/mol/);
    assert.match(aspirinText, /Lipinski\s+pass/);
    // Each public model's prediction with its uncertainty.
    assert.match(aspirinText, /-?\d+\.\d\d ± \d+\.\d\d/);
    assert.equal(await aspirin.getByRole('img', { name: 'Structure of aspirin' }).count(), 1);
    const ene = page.getByRole('article', { name: '2-benzylidene-indandione' });
    assert.match(await ene.innerText(), /Structural alerts[\s\S]*(PAINS|Brenk)/);
    assert.deepEqual(await axe(page), [], 'molecules page');
    await snap(page, `${prefix}-2-molecules`);

    // An empty list: the server's 422, next to the field its loc names.
    const box = page.getByLabel(/SMILES, one molecule a line/);
    await box.fill('');
    await page.getByRole('button', { name: 'Describe' }).click();
    const fieldError = page.locator('.field-error');
    await fieldError.waitFor();
    assert.match(await fieldError.innerText(), /fewer than 1|at least 1|minItems|must NOT have fewer/i);
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.equal(await box.getAttribute('aria-describedby'), await fieldError.getAttribute('id'));
    assert.deepEqual(await axe(page), [], 'molecules page with a 422');
    await snap(page, `${prefix}-3-422`);

    // The access token lives 6 s: after 7 s the next call refreshes it first.
    await page.waitForTimeout(7000);
    await box.fill('c1ccccc1O phenol');
    await page.getByRole('button', { name: 'Describe' }).click();
    await page.getByRole('article', { name: 'phenol' }).waitFor();
    assert.ok(refreshes >= 1, 'the console refreshed its access token');

    // The session is revoked on the server: the next call is a 401, the console shows sign-in,
    // and after signing in again the same page is back.
    await page.goto(`${h.base}/app/#/account`);
    await revokeAllSessions(h.services.db, user.userId, 'test');
    await page.goto(`${h.base}/app/#/molecules`);
    await page.getByRole('button', { name: 'Describe' }).click();
    await page.getByRole('heading', { name: 'Crucible' }).waitFor();
    await page.getByRole('status').waitFor();
    await snap(page, `${prefix}-4-session-ended`);
    await signIn(page, user.email, user.password);
    await page.getByRole('heading', { name: 'Molecules' }).waitFor();
    assert.match(page.url(), /#\/molecules$/);

    // Account: wallet and usage; an API key refused at its field (a negative ceiling), then
    // created with its secret shown once, rotated (a new secret), revoked.
    // Confirmations are accepted; a prompt (the new name of a key) answers `promptAnswer`.
    let promptAnswer = '';
    page.on('dialog', (d) => void (d.type() === 'prompt' ? d.accept(promptAnswer) : d.accept()));
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Wallet' }).waitFor();
    await page.getByText('Available').waitFor();
    await page.getByLabel('Name').fill('console key');
    const ceiling = page.getByLabel(/Monthly spend ceiling/);
    await ceiling.fill('-5');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-ceiling-error').waitFor();
    assert.equal(await ceiling.getAttribute('aria-invalid'), 'true');
    await snap(page, `${prefix}-5-account-422`);
    await ceiling.fill('10');
    await page.getByLabel('Expires').selectOption({ label: 'in 30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('.secret code');
    await secret.waitFor();
    const first = await secret.innerText();
    assert.match(first, /^crk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    const row = page.getByRole('row').filter({ hasText: 'console key' });
    await row.waitFor();
    assert.match(await row.innerText(), /read, write[\s\S]*\$0\.00 \/ \$10\.00/);
    assert.deepEqual(await axe(page), [], 'account page');
    await snap(page, `${prefix}-6-account-key`);
    // The secret works as an API key, then rotation replaces it.
    assert.equal((await h.req('GET', '/api/v1/wallet', { key: first })).status, 200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await secret.count(), 0);
    await page.getByRole('button', { name: 'Rotate console key' }).click();
    await secret.waitFor();
    const second = await secret.innerText();
    assert.notEqual(second, first);
    assert.equal((await h.req('GET', '/api/v1/wallet', { key: second })).status, 200);
    // It expires in 30 days (as the server stores it), and is renamed in place.
    const listed = (await h.req('GET', '/api/v1/auth/api-keys', { token: await tokenOf(user) })).body.keys as { name: string; expires_at: string | null }[];
    const days = (Date.parse(listed.find((k) => k.name === 'console key')!.expires_at!) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    promptAnswer = 'renamed key';
    await page.getByRole('button', { name: 'Rename console key' }).click();
    const renamed = page.getByRole('row').filter({ hasText: 'renamed key' });
    await renamed.waitFor();
    assert.deepEqual(
      ((await h.req('GET', '/api/v1/auth/api-keys', { token: await tokenOf(user) })).body.keys as { name: string }[]).map((k) => k.name),
      ['renamed key'],
    );
    await page.getByRole('button', { name: 'Revoke renamed key' }).click();
    await renamed.waitFor({ state: 'detached' });
    assert.equal((await h.req('GET', '/api/v1/wallet', { key: second })).status, 401);

    for (const id of ['jobs', 'library', 'account']) {
      await page
        .getByRole('link', { name: id[0]!.toUpperCase() + id.slice(1) })
        .first()
        .click();
      await page
        .getByRole('heading', { level: 1 })
        .filter({ hasText: new RegExp(id, 'i') })
        .waitFor();
      assert.deepEqual(await axe(page), [], `${id} page`);
      await snap(page, `${prefix}-5-${id}`);
    }
    // No script errors and no CSP violations (a 401 or 422 the console handled is logged by
    // the browser as a failed resource, which is not a script error).
    assert.deepEqual(scriptErrors(), []);
  });

  s.flow(`uploads a molecule set to the library and runs a properties job from its form`, async ({ h, backend, vp, page, context, scriptErrors, openAs }) => {
    const user = await h.user();
    const prefix = `${backend.name}-${vp.name}`;
    await h.credit(user.userId, 5);
    await openAs('library', user);
    await page.getByRole('heading', { name: 'Library', level: 1 }).waitFor();
    await page.getByText(/Nothing stored yet/).waitFor();
    // A small .smi set: the progress bar reaches 100 %, the set is listed with its 3 molecules.
    const smi = path.join(shots, `${prefix}-set.smi`);
    fs.writeFileSync(smi, 'CCO ethanol\nc1ccccc1O phenol\nCC(=O)Oc1ccccc1C(=O)O aspirin\n');
    await page.getByLabel(/^File/).setInputFiles(smi);
    await page.getByLabel(/^Name/).fill('three molecules');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'three molecules: 3 molecules stored' }).waitFor();
    assert.equal(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('value'), '1');
    const row = page.getByRole('row').filter({ hasText: 'three molecules' });
    await row.waitFor();
    assert.match(await row.innerText(), /molecules \/ smiles\s+3\s/);
    assert.match(await page.locator('.quota').innerText(), /Storage\s+[\d.]+ (B|KiB) of [\d.]+ (MiB|GiB)/);
    assert.deepEqual(await axe(page), [], 'library page');
    await snap(page, `${prefix}-7-library`);

    // Jobs: the properties form generated from /openapi.json. The job name has a default (the type
    // and the molecules); cleared, the server's 422 at that field. Then estimated (cost and
    // runtime), submitted, followed live to its result.
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    // The form appears once /openapi.json is read.
    const smilesBox = page.getByLabel('SMILES', { exact: true });
    await smilesBox.waitFor();
    assert.equal(await page.getByLabel('Job type').inputValue(), 'properties');
    await smilesBox.fill('CCO\nc1ccccc1O\nCC(=O)Oc1ccccc1C(=O)O');
    assert.equal(await page.getByLabel('Job name').inputValue(), 'properties of CCO and 2 more');
    await page.getByLabel('Job name').fill('');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const estimate = page.getByRole('status').filter({ hasText: 'Estimate:' });
    await estimate.waitFor();
    assert.match(await estimate.innerText(), /Estimate: \$\d+\.\d{4} reserved, about \d+\.\d s on default/);
    await snap(page, `${prefix}-8-jobs-estimate`);
    // Submitted with the name cleared: the server's 422 at the job name field.
    await page.getByRole('button', { name: 'Submit' }).click();
    const nameError = page.locator('#f-body-job_name-error');
    await nameError.waitFor();
    assert.match(await nameError.innerText(), /fewer than 1|at least 1|must NOT have fewer/i);
    assert.equal(await page.getByLabel('Job name').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await axe(page), [], 'jobs page with a 422');
    await snap(page, `${prefix}-9-jobs-422`);
    await page.getByLabel('Job name').fill('three properties');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await estimate.waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .locator('.job-status')
      .filter({ hasText: 'completed' })
      .waitFor({ timeout: 30_000 })
      .catch(async (err: unknown) => {
        await snap(page, `${prefix}-10-jobs-not-completed`);
        throw err;
      });
    const table = page.getByRole('region', { name: 'Result rows' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    assert.equal(rows.length, 4, rows.join('\n'));
    assert.match(rows[1]!, /CCO[\s\S]*C2H6O[\s\S]*46\.069/);
    assert.match(rows[3]!, /C9H8O4[\s\S]*180\.159/);
    await table.getByRole('img', { name: 'Structure of CCO' }).waitFor();
    assert.match(await page.locator('.charge').innerText(), /Charged \$\d+\.\d{4} for \d+\.\d\d s/);
    assert.match(await page.locator('.result').innerText(), /Described\s+3/);
    // The result artifact downloads as its zip (the browser sends the token, not a link).
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the result (zip)' }).click()]);
    assert.match(zip.suggestedFilename(), /\.zip$/);
    const zipBytes = fs.readFileSync((await zip.path())!);
    assert.equal(zipBytes.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
    assert.deepEqual(await axe(page), [], 'jobs page with a result');
    await snap(page, `${prefix}-10-jobs-result`);

    // The same job on the library's set, chosen from the form's list of molecule sets.
    await smilesBox.fill('');
    await page.getByLabel('Input (from the library)').selectOption({ label: 'three molecules (3 molecules)' });
    await page.getByLabel('Job name').fill('library properties');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await estimate.waitFor();
    const firstJob = await page.locator('#job-title').innerText();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#job-title').filter({ hasNotText: firstJob }).waitFor();
    await page.locator('.job-status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Result rows' }).waitFor();
    const named = await page.getByRole('region', { name: 'Result rows' }).getByRole('row').allInnerTexts();
    assert.equal(named.length, 4, named.join('\n'));
    assert.match(named[3]!, /aspirin[\s\S]*C9H8O4/);

    // A wait job followed live and cancelled from the page: cancelled, its runtime charged.
    await page.getByLabel('Job type').selectOption('wait');
    await page.getByLabel('Seconds').fill('60');
    await page.getByLabel('Job name').fill('a long wait');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await estimate.waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.job-status').filter({ hasText: 'running' }).waitFor({ timeout: 30_000 });
    // The network drops: a banner says so; when it is back, the banner goes and the live view
    // resumes from its cursor (the cancel below is seen through it).
    await context.setOffline(true);
    const banner = page.getByRole('status').filter({ hasText: 'Connection to the server lost' });
    await banner.waitFor({ timeout: 15_000 });
    assert.deepEqual(await axe(page), [], 'jobs page offline');
    await snap(page, `${prefix}-10b-offline`);
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.locator('.job-status').filter({ hasText: 'cancelled' }).waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.charge').innerText(), /Charged \$\d+\.\d{4}/);
    assert.equal(await page.getByRole('button', { name: 'Cancel job' }).count(), 0);
    // The job is the route's: a reload of the page opens it again; the recent jobs list all three.
    assert.match(page.url(), /#\/jobs\/[0-9a-f-]{36}$/);
    const recent = page.getByRole('region', { name: 'Recent jobs' });
    await recent.getByRole('row').filter({ hasText: 'a long wait' }).filter({ hasText: 'cancelled' }).waitFor();
    assert.match(await recent.getByRole('row').filter({ hasText: 'three properties' }).innerText(), /properties\s+completed\s+\$\d+\.\d{4}/);
    await recent.getByRole('link', { name: 'three properties' }).click();
    await page.getByRole('region', { name: 'Result rows' }).getByRole('row').filter({ hasText: 'C2H6O' }).waitFor();
    assert.deepEqual(await axe(page), [], 'jobs page with a cancelled job');
    await snap(page, `${prefix}-11-jobs-recent`);

    // Library again: the jobs' results named after the jobs (issue 32), the uploaded set deleted
    // (after a confirmation), its row gone.
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    const jobRow = page.getByRole('row').filter({ hasText: 'three properties (properties · table)' });
    await jobRow.waitFor();
    assert.match(await jobRow.innerText(), /table \/ csv\s+1\s/);
    const setRow = page.getByRole('row').filter({ hasText: 'three molecules' });
    await setRow.getByRole('button', { name: /^Delete/ }).click();
    await setRow.waitFor({ state: 'detached' });

    // Account: the ledger as GET /wallet/ledger has it, newest first: the three jobs' holds,
    // releases and charges, and the credit; each row links to its job.
    await page.getByRole('link', { name: 'Account' }).click();
    const ledger = page.getByRole('region', { name: 'Ledger' });
    await ledger.getByRole('row').filter({ hasText: 'Credit' }).waitFor();
    const moves = (await h.req('GET', '/api/v1/wallet/ledger', { token: await tokenOf(user) })).body.items as {
      kind: string;
      amount_usd: number;
      subject_id: string | null;
    }[];
    assert.equal(moves.length, 10, JSON.stringify(moves));
    const shown = await ledger.getByRole('row').allInnerTexts();
    assert.equal(shown.length, moves.length + 1, shown.join('\n'));
    const label = { credit: 'Credit', reserve: 'Hold', release: 'Hold released', charge: 'Charge' } as Record<string, string>;
    moves.forEach((m, n) => {
      const cells = shown[n + 1]!.split('\t');
      assert.equal(cells[1], label[m.kind], shown[n + 1]);
      assert.equal(cells[2], m.subject_id ? `job ${m.subject_id.slice(0, 8)}` : 'account');
      if (m.amount_usd !== 0) assert.equal(cells[3], `${m.amount_usd < 0 ? '−' : '+'}$${Math.abs(m.amount_usd).toFixed(6)}`);
    });
    assert.match(await page.locator('.props').filter({ hasText: 'Paid work' }).innerText(), /Paid work\s+3 jobs \(\$\d+\.\d{4}\)/);
    assert.deepEqual(await axe(page), [], 'account page with its ledger');
    await snap(page, `${prefix}-12-account-ledger`);
    assert.deepEqual(scriptErrors(), []);
  });
});
