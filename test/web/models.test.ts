// The console's Models page (issue 28 point 2; docs/console.md, "Models") in a real browser
// (Debian's chromium, playwright-core), against a real server on each database, at 1280x800 and
// 390x844: a 60-row CSV from ESOL chosen (its columns read in the browser), a column the file does
// not have refused by the server at the target column field, the estimate, a tiny 2-member
// training followed live to its learning curve (every epoch of every member plotted, the numbers
// the API's), its model card (the test RMSE the result's), a prediction with its ± spread (the
// API's), the model's own page, and a public model's card with its baselines. axe-core on every
// state; screenshots (CRUCIBLE_SCREENSHOTS=<dir> keeps them).
// Run: node --import tsx --test test/web/models.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before } from 'node:test';
import { parse } from 'csv-parse/sync';
import { assertAccessible, browserSuite, signIn, snap } from './browser.js';

const ESOL = (parse(fs.readFileSync(new URL('../../data/public/esol.csv', import.meta.url), 'utf8'), { columns: true, trim: true }) as Record<string, string>[]).map((r) => ({
  name: r['Compound ID']!,
  smiles: r.smiles!,
  target: Number(r['measured log solubility in mols per litre']),
}));
// A tiny network (test/models/training-file.test.ts's TINY) with two members, for a ± spread.
const EPOCHS = 3;
const MEMBERS = 2;
const CSV = ['name,SMILES,logS', ...ESOL.slice(0, 60).map((r) => `"${r.name}",${r.smiles},${r.target}`)].join('\n');
type Attrs = { getAttribute(name: string): string | null };
/** The page's number format (4 significant digits). */
const sig = (v: number) => Number(v.toPrecision(4)).toString();

browserSuite('web console: Models', { on: 'pglite', harness: { workers: 1 } }, (s) => {
  let csvPath: string;
  before(async () => {
    csvPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-models-')), 'esol-60.csv');
    fs.writeFileSync(csvPath, CSV);
  });

  s.flow(`trains from a CSV with a live learning curve, shows the card, predicts`, async ({ h, backend, vp, page, context, scriptErrors }) => {
    const user = await h.user();
    await h.credit(user.userId, 5);
    const prefix = `models-${backend.name}-${vp.name}`;
    const modelName = `esol-tiny-${vp.name}`;
    // The machine is shared (two cores, several suites): generous waits, no timing asserted.
    context.setDefaultTimeout(90_000);
    await page.goto(`${h.base}/app/#/models`);
    await page.getByRole('heading', { name: 'Crucible' }).waitFor();
    await signIn(page, user.email, user.password);
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Models you can use' }).getByRole('link', { name: 'Aqueous solubility (ESOL)' }).waitFor();
    await assertAccessible(page, 'models page');
    await snap(page, `${prefix}-1-page`);

    // The file's header read in the browser: its columns offered, SMILES and logS guessed.
    await page.getByLabel('Training file (CSV)').setInputFiles(csvPath);
    await page.getByText('Columns: name, SMILES, logS; 60 data rows.').waitFor();
    assert.equal(await page.getByLabel('SMILES column').inputValue(), 'SMILES');
    assert.equal(await page.getByLabel('Target column').inputValue(), 'logS');
    assert.equal(await page.getByLabel('Model name').inputValue(), 'esol-60');
    await page.getByLabel('Model name').fill(modelName);
    await page.getByLabel('Epochs').fill(String(EPOCHS));
    await page.getByLabel('Hidden size').fill('32');
    await page.getByLabel('Ensemble size').fill(String(MEMBERS));
    await page.getByText('More hyperparameters').click();
    await page.getByLabel('Depth (message-passing steps)').fill('2');
    await page.getByLabel('Feed-forward layers').fill('1');
    await page.getByLabel('Batch size').fill('16');

    // A column the file does not have: the server's 422 at the target column, naming the file's columns.
    const target = page.getByLabel('Target column');
    await target.fill('pIC50');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const targetError = page.locator('#t-payload-target_column-error');
    await targetError.waitFor();
    assert.equal(await targetError.innerText(), 'the training file has no column "pIC50"; its columns are "name", "SMILES", "logS"');
    assert.equal(await target.getAttribute('aria-invalid'), 'true');
    assert.equal(await target.getAttribute('aria-describedby'), 't-payload-target_column-error');
    assert.equal(await page.getByLabel('Upload progress').getAttribute('value'), '1');
    assert.ok(await page.getByRole('button', { name: 'Train', exact: true }).isDisabled());
    await assertAccessible(page, 'a 422 at the target column');
    await snap(page, `${prefix}-2-422`);

    // The estimate for the uploaded file: the API's, for its 60 data rows.
    await target.fill('logS');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const estimate = page.getByRole('status').filter({ hasText: 'Estimate:' });
    await estimate.waitFor();
    const artifacts = await h.req('GET', '/api/v1/artifacts?limit=10', { token: user.token });
    const uploaded = (artifacts.body.items as { artifact_id: string; name: string }[]).filter((i) => i.name === 'esol-60.csv');
    assert.equal(uploaded.length, 1, 'the file is uploaded once (the 422 and the estimate share it)');
    const hyperparameters = { epochs: EPOCHS, hidden_size: 32, ensemble_size: MEMBERS, depth: 2, ffn_layers: 1, batch_size: 16, molecule_features: 'none' };
    const api = await h.req('POST', '/api/v1/jobs/estimate', {
      token: user.token,
      body: {
        job_type: 'mpnn_train',
        payload: {
          model_name: modelName,
          task: 'regression',
          input_artifact_id: uploaded[0]!.artifact_id,
          smiles_column: 'SMILES',
          target_column: 'logS',
          hyperparameters,
        },
      },
    });
    assert.equal(api.status, 200, api.text);
    const estimateText = await estimate.innerText();
    assert.ok(estimateText.includes(`$${api.body.cost.toFixed(4)} reserved, about ${api.body.expected_runtime_sec.toFixed(1)} s`), estimateText);
    assert.match(estimateText, /for 60 data rows/);
    await assertAccessible(page, 'the estimate');
    await snap(page, `${prefix}-3-estimate`);

    // Submitted: the training is the route's, followed live.
    let polls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/jobs/status')) polls++;
    });
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await page.waitForURL(/#\/models\/job\/[0-9a-f-]{36}$/);
    const processId = page.url().split('/').pop()!;
    const status = page.locator('.training .job-status');
    // A live point when the machine is slow enough to show one (not asserted: the job may finish between polls).
    const live = await page
      .getByText(/^Live: epoch/)
      .waitFor({ timeout: 60_000 })
      .then(async () => {
        // What the page drew from /jobs/status so far: finite numbers, at most every epoch.
        const drawn = await page.locator('.training circle.pt.loss').evaluateAll((els) => els.map((e) => Number((e as unknown as Attrs).getAttribute('data-value'))));
        await snap(page, `${prefix}-4-live`);
        return drawn;
      })
      .catch(() => null);
    if (live) {
      assert.ok(live.length >= 1 && live.length <= EPOCHS * MEMBERS, `live points: ${live.length}`);
      for (const v of live) assert.ok(Number.isFinite(v), `a live value ${v}`);
    }
    await status.filter({ hasText: /^(completed|error|cancelled)/ }).waitFor({ timeout: 180_000 });
    assert.equal((await status.innerText()).split(':')[0], 'completed', await status.innerText());
    assert.ok(polls >= 1);
    await page.getByText(/^Every epoch: epoch 3 of 3 \(member 2\)/).waitFor();

    // The full learning curve: every epoch of every member, the API's numbers.
    const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${processId}`, { token: user.token })).body;
    assert.equal(result.learning_curve.length, EPOCHS * MEMBERS);
    const training = page.getByRole('article', { name: /^Training/ });
    const curve = training.getByRole('img', { name: /Learning curve/ });
    await curve.waitFor();
    for (const member of [1, 2]) {
      const loss = await curve
        .locator(`g[data-member="${member}"] circle.pt.loss`)
        .evaluateAll((els) => els.map((e) => Number((e as unknown as Attrs).getAttribute('data-value'))));
      const val = await curve.locator(`g[data-member="${member}"] rect.pt.val`).evaluateAll((els) => els.map((e) => Number((e as unknown as Attrs).getAttribute('data-value'))));
      assert.equal(loss.length, EPOCHS, `member ${member}: ${loss.length} training-loss points`);
      assert.equal(val.length, EPOCHS, `member ${member}: ${val.length} validation points`);
      for (const v of [...loss, ...val]) assert.ok(Number.isFinite(v), `a plotted value ${v}`);
      const api = (result.learning_curve as { member: number; train_loss: number; val_metric: number }[]).filter((p) => p.member === member - 1);
      assert.deepEqual(
        loss,
        api.map((p) => p.train_loss),
      );
      assert.deepEqual(
        val,
        api.map((p) => p.val_metric),
      );
    }
    // Its axes are labelled, its description says what it shows.
    const svgText = await curve.evaluate((el) => (el as unknown as { textContent: string | null }).textContent ?? '');
    assert.match(svgText, /Epoch/);
    assert.match(svgText, /Training loss/);
    assert.match(svgText, /Validation RMSE/);
    assert.match(svgText, /6 points over 3 epochs and 2 ensemble members\./);

    // The model card: the result's test RMSE, the data rows, the hyperparameters.
    const card = training.getByRole('article', { name: new RegExp(`^${modelName}`) });
    const testRow = card.getByRole('row', { name: /^Model \(test\)/ });
    assert.equal(await testRow.locator('td[data-metric="rmse"]').innerText(), sig(result.test_metrics.rmse));
    assert.equal(await testRow.locator('td[data-metric="mae"]').innerText(), sig(result.test_metrics.mae));
    const cardText = await card.innerText();
    assert.match(cardText, /Rows in the file\s+60/);
    assert.match(cardText, /Rows used\s+60/);
    assert.match(cardText, new RegExp(`random: ${result.model_card.n_train} train, ${result.model_card.n_val} validation, ${result.model_card.n_test} test`));
    assert.match(cardText, /hidden size\s+32/);
    assert.match(cardText, /ensemble size\s+2/);
    assert.match(cardText, /Molecule features: none/);
    await assertAccessible(page, 'the trained model');
    await snap(page, `${prefix}-5-trained`);

    // A prediction with the new model: the API's value ± spread.
    const model = page.getByLabel('Model', { exact: true });
    await model.selectOption(`user/${modelName}`);
    await page.getByLabel(/SMILES, one molecule a line/).fill('CCO ethanol\nc1ccccc1O phenol\nnot a smiles');
    await page.getByRole('button', { name: 'Predict' }).click();
    const predictions = page.getByRole('region', { name: 'Predictions' });
    await predictions.waitFor();
    const direct = await h.req('POST', '/api/v1/inference/predict', { token: user.token, body: { model: `user/${modelName}`, smiles: ['CCO', 'c1ccccc1O', 'not'] } });
    assert.equal(direct.status, 200, direct.text);
    const rows = await predictions.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 3, rows.join('\n'));
    for (const [i, p] of (direct.body.predictions as { prediction: number; uncertainty: number; in_domain: boolean }[]).slice(0, 2).entries()) {
      assert.ok(Number.isFinite(p.prediction) && Number.isFinite(p.uncertainty), JSON.stringify(p));
      assert.ok(rows[i]!.includes(`${sig(p.prediction)} ± ${sig(p.uncertainty)}`), `${rows[i]} vs ${JSON.stringify(p)}`);
      assert.ok(rows[i]!.includes(p.in_domain ? 'in domain' : 'outside the training domain'), rows[i]);
    }
    assert.match(rows[0]!, /CCO\s+ethanol/);
    assert.match(rows[2]!, /unreadable SMILES/);
    await assertAccessible(page, 'predictions');
    await snap(page, `${prefix}-6-predicted`);

    // The model's own page: its card and how it trained, from the API.
    await page.getByRole('region', { name: 'Models you can use' }).getByRole('link', { name: modelName }).click();
    await page.waitForURL(new RegExp(`#/models/user/${modelName}$`));
    const own = page.locator('.model-view').getByRole('article', { name: new RegExp(`^${modelName}`) });
    await own.waitFor();
    await page
      .locator('.model-view')
      .getByRole('img', { name: /Learning curve/ })
      .waitFor();
    assert.equal(
      await own
        .getByRole('row', { name: /^Model \(test\)/ })
        .locator('td[data-metric="rmse"]')
        .innerText(),
      sig(result.test_metrics.rmse),
    );
    assert.equal(await page.locator('.model-view circle.pt.loss').count(), EPOCHS * MEMBERS);
    assert.equal(await model.inputValue(), `user/${modelName}`);
    await assertAccessible(page, "the model's page");
    await snap(page, `${prefix}-7-model`);

    // A public model's card: the model and its baselines, as /models/public has them.
    const cards = (await h.req('GET', '/api/v1/models/public', { token: user.token })).body.models as {
      id: string;
      name: string;
      metrics: { test: Record<string, { rmse: number }> };
    }[];
    const esol = cards.find((c) => c.id === 'esol-logs')!;
    await page.getByRole('region', { name: 'Models you can use' }).getByRole('link', { name: esol.name }).click();
    await page.waitForURL(/#\/models\/public\/esol-logs$/);
    const pub = page.locator('.model-view').getByRole('article', { name: new RegExp(`^${esol.name.replace(/[()]/g, '\\$&')}`) });
    await pub.waitFor();
    for (const [label, key] of [
      ['Model (test)', 'model'],
      ['Mean baseline (test)', 'mean_baseline'],
      ['Ridge baseline (test)', 'ridge_baseline'],
    ] as const) {
      assert.equal(
        await pub
          .getByRole('row', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) })
          .locator('td[data-metric="rmse"]')
          .innerText(),
        sig(esol.metrics.test[key]!.rmse),
      );
    }
    assert.match(await pub.innerText(), /Molecule features: rdkit_2d \(43 descriptors\)/);
    assert.equal(await model.inputValue(), 'public/esol-logs');
    await assertAccessible(page, "a public model's page");
    await snap(page, `${prefix}-8-public`);
    assert.deepEqual(scriptErrors(), []);
  });
});
