// The console's Molecules page (issue 28, points 2 and 5; docs/console.md, "Molecules") in a real
// browser on each database, at 1280x800 and 390x844: the sketcher (openchemlib's editor) is not
// requested on the page's first load and is after Draw is opened; a molecule drawn with the
// editor's own tools (the bond tool clicked on the canvas, then the O tool on an atom) comes out
// as SMILES, is used, and its card reads the formula and MW the server's POST /describe gives; a
// SMILES loaded into the editor from the keyboard; an SD file of two named molecules read in the
// browser (converted to SMILES with openchemlib); a broken record reported with its index; a CSV;
// and the server's 422 at the SMILES field. axe-core on each state; screenshots.
// Run: node --import tsx --test test/web/molecules.test.ts
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, browserSuite, snap } from './browser.js';

const SKETCHER_CHUNK = /\/app\/assets\/(openchemlib|Sketcher)-[^/]+\.js$/;

function molblock(name: string, atoms: [number, number, string][], bonds: [number, number, number][]): string {
  const f = (n: number, w: number) => String(n).padStart(w);
  const x = (n: number) => n.toFixed(4).padStart(10);
  return [
    name,
    '  crucible-test',
    '',
    `${f(atoms.length, 3)}${f(bonds.length, 3)}  0  0  0  0  0  0  0  0999 V2000`,
    ...atoms.map(([ax, ay, el]) => `${x(ax)}${x(ay)}${x(0)} ${el.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`),
    ...bonds.map(([a, b, o]) => `${f(a, 3)}${f(b, 3)}${f(o, 3)}  0`),
    'M  END',
  ].join('\n');
}

const ETHANOL = molblock(
  'ethanol',
  [
    [0, 0, 'C'],
    [1.299, 0.75, 'C'],
    [2.5981, 0, 'O'],
  ],
  [
    [1, 2, 1],
    [2, 3, 1],
  ],
);
const ACETIC_ACID = molblock(
  'acetic acid',
  [
    [0, 0, 'C'],
    [1.299, 0.75, 'C'],
    [1.299, 2.25, 'O'],
    [2.5981, 0, 'O'],
  ],
  [
    [1, 2, 1],
    [2, 3, 2],
    [2, 4, 1],
  ],
);
const TWO = `${ETHANOL}\n>  <source>\ntest\n\n$$$$\n${ACETIC_ACID}\n$$$$\n`;
// Record 2 has lost its counts line: the page names it by its index and name, and reads the others.
const BROKEN = `${ETHANOL}\n$$$$\nbroken one\n  crucible-test\n\n  C   0  0\nM  END\n$$$$\n${ACETIC_ACID}\n$$$$\n`;

/** The editor's SMILES once `done` accepts it (the editor redraws after each click). */
async function drawnWhen(drawn: Locator, done: (smiles: string) => boolean): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const text = await drawn.innerText();
    if (done(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the drawn structure stayed ${await drawn.innerText()}`);
}

/** The card of a molecule: its text once its properties are shown. */
async function card(page: Page, name: string): Promise<string> {
  const article = page.getByRole('article', { name, exact: true });
  await article.getByRole('table').first().waitFor({ timeout: 60_000 });
  return article.innerText();
}

browserSuite('web console: Molecules (sketcher and files)', { on: 'postgres' }, (s) => {
  s.flow(`draws, reads files and reports bad records`, async ({ h, backend, vp, page, scriptErrors, openAs }) => {
    const user = await h.user();
    const described = async (smiles: string) => {
      const r = await h.req<{ items: { properties: { formula: string; mw: number } }[] }>('POST', '/api/v1/describe', { token: user.token, body: { smiles: [smiles] } });
      assert.equal(r.status, 200, r.text);
      return r.body.items[0]!.properties;
    };
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (SKETCHER_CHUNK.test(r.url())) chunks.push(r.url());
    });
    const prefix = `molecules-${backend.name}-${vp.name}`;
    await openAs('molecules', user);
    await page.getByRole('heading', { name: 'Molecules' }).waitFor();
    await page.getByRole('button', { name: 'Describe' }).click();
    assert.match(await card(page, 'aspirin'), /C9H8O4/);
    // First load: the page's chunk, not the sketcher's.
    await page.waitForLoadState('networkidle');
    assert.deepEqual(chunks, [], 'the sketcher is not loaded with the page');
    await assertAccessible(page, 'molecules page');
    await snap(page, `${prefix}-1-first-load`);

    // Draw: the editor's chunks are requested now.
    const draw = page.getByRole('button', { name: 'Draw' });
    assert.equal(await draw.getAttribute('aria-expanded'), 'false');
    await draw.click();
    const editor = page.getByRole('application', { name: 'Structure editor' });
    await editor.waitFor();
    const canvases = editor.locator('canvas');
    await canvases.nth(1).waitFor({ timeout: 60_000 });
    assert.ok(chunks.some((u) => /\/openchemlib-/.test(u)) && chunks.some((u) => /\/Sketcher-/.test(u)), chunks.join(', '));
    assert.equal(await page.getByRole('button', { name: 'Hide the editor' }).getAttribute('aria-expanded'), 'true');
    const drawn = page.getByRole('status', { name: 'Drawn structure as SMILES' });
    assert.equal(await drawn.innerText(), '(empty)');
    assert.equal(await page.getByRole('button', { name: 'Use this structure' }).isDisabled(), true);
    await assertAccessible(page, 'the editor open');
    await snap(page, `${prefix}-2-editor`);

    // The editor's own tools, by mouse: the bond tool (selected at start) clicked on the
    // drawing area makes ethane; the O tool (toolbar, first column, 14th row) clicked on
    // the same atom makes it methanol. The toolbar is a canvas: its cells are ~21 px.
    const toolbar = (await canvases.nth(0).boundingBox())!;
    const area = (await canvases.nth(1).boundingBox())!;
    const spot = { x: area.x + Math.min(200, area.width / 2), y: area.y + 150 };
    await page.mouse.click(spot.x, spot.y);
    assert.equal(await drawnWhen(drawn, (t) => t !== '(empty)'), 'CC');
    await page.mouse.click(toolbar.x + 12, toolbar.y + 285);
    await page.mouse.click(spot.x, spot.y);
    const methanol = await drawnWhen(drawn, (t) => t !== 'CC');
    assert.match(methanol, /^(CO|OC)$/);
    await snap(page, `${prefix}-3-drawn`);
    await page.getByRole('button', { name: 'Use this structure' }).click();
    const server = await described(methanol);
    assert.equal(server.formula, 'CH4O');
    const sketch1 = await card(page, 'sketch 1');
    assert.match(sketch1, new RegExp(`Formula\\s+${server.formula}`));
    assert.match(sketch1, new RegExp(`MW\\s+${server.mw.toFixed(2).replace('.', '\\.')} g/mol`));
    assert.match(await page.getByLabel(/SMILES, one molecule a line/).inputValue(), new RegExp(`^${methanol} sketch 1$`, 'm'));

    // From the keyboard: a SMILES loaded into the editor; a bad one refused by openchemlib.
    const toEdit = page.getByLabel('SMILES to edit');
    await toEdit.fill('C1CC');
    await page.getByRole('button', { name: 'Load into the editor' }).click();
    assert.match(await page.locator('.sketcher .field-error').innerText(), /cannot read "C1CC".*ring closure/);
    assert.equal(await toEdit.getAttribute('aria-invalid'), 'true');
    await toEdit.fill('Oc1ccc(cc1)C(F)(F)F');
    await page.getByRole('button', { name: 'Load into the editor' }).click();
    const phenol = await drawnWhen(drawn, (t) => t !== methanol);
    await page.getByRole('button', { name: 'Use this structure' }).click();
    const phenolServer = await described(phenol);
    assert.equal(phenolServer.formula, 'C7H5F3O');
    assert.match(await card(page, 'sketch 2'), new RegExp(`MW\\s+${phenolServer.mw.toFixed(2).replace('.', '\\.')} g/mol`));
    // A card's structure taken back into the editor.
    await page.getByRole('article', { name: 'aspirin' }).getByRole('button', { name: 'Edit in the sketcher' }).click();
    const aspirin = await drawnWhen(drawn, (t) => t !== phenol);
    assert.equal(await toEdit.inputValue(), 'CC(=O)Oc1ccccc1C(=O)O');
    assert.equal((await described(aspirin)).formula, 'C9H8O4');
    await assertAccessible(page, 'drawn structures described');
    await snap(page, `${prefix}-4-sketches`);

    // An SD file of two named records: converted in the browser, both described.
    const file = page.getByLabel(/Open a \.smi, \.csv, \.sdf or \.mol file/);
    await file.setInputFiles({ name: 'two.sdf', mimeType: 'chemical/x-mdl-sdfile', buffer: Buffer.from(TWO) });
    await page.getByRole('status').filter({ hasText: 'two.sdf' }).waitFor();
    assert.match(await page.getByRole('status').filter({ hasText: 'two.sdf' }).innerText(), /two\.sdf: 2 molecules read/);
    assert.match(await card(page, 'ethanol'), /Formula\s+C2H6O[\s\S]*MW\s+46\.07 g\/mol/);
    assert.match(await card(page, 'acetic acid'), /Formula\s+C2H4O2[\s\S]*MW\s+60\.05 g\/mol/);
    assert.equal(await page.getByRole('article').count(), 2);
    await assertAccessible(page, 'an SD file described');
    await snap(page, `${prefix}-5-sdf`);

    // A broken record: named by its index (and its name), the others still read.
    await file.setInputFiles({ name: 'broken.sdf', mimeType: 'chemical/x-mdl-sdfile', buffer: Buffer.from(BROKEN) });
    const report = page.getByRole('alert').filter({ hasText: 'broken.sdf' });
    await report.waitFor();
    const reportText = await report.innerText();
    assert.match(reportText, /broken\.sdf: 2 molecules read; 1 record could not be read/);
    assert.match(reportText, /record 2 \(broken one\): line 4 is not a V2000 or V3000 counts line/);
    assert.match(await card(page, 'acetic acid'), /C2H4O2/);
    assert.equal(await page.getByRole('article').count(), 2);
    await assertAccessible(page, 'a broken record reported');
    await snap(page, `${prefix}-6-broken-sdf`);

    // A CSV: the SMILES column (any case), the name column, a row without SMILES named.
    await file.setInputFiles({
      name: 'set.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('id,Name,SMILES\n1,"phenol, plain",c1ccccc1O\n2,nothing,\n3,pyridine,c1ccncc1\n'),
    });
    const csvReport = page.getByRole('alert').filter({ hasText: 'set.csv' });
    await csvReport.waitFor();
    assert.match(await csvReport.innerText(), /row 3 \(nothing\): no SMILES/);
    assert.match(await card(page, 'phenol, plain'), /C6H6O/);
    assert.match(await card(page, 'pyridine'), /C5H5N/);

    // The server's 422 (21 molecules; at most 20) at the SMILES field.
    const box = page.getByLabel(/SMILES, one molecule a line/);
    await box.fill(Array.from({ length: 21 }, (_, i) => `${'C'.repeat(i + 1)} alkane-${i + 1}`).join('\n'));
    await page.getByRole('button', { name: 'Describe' }).click();
    const fieldError = page.locator('form .field-error');
    await fieldError.waitFor();
    assert.match(await fieldError.innerText(), /20/);
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.equal(await box.getAttribute('aria-describedby'), await fieldError.getAttribute('id'));
    await assertAccessible(page, 'a 422 at the field');
    await snap(page, `${prefix}-7-422`);
    assert.deepEqual(scriptErrors(), []);
  });
});
