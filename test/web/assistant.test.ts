// The console's Assistant page (issue 28, points 2 and 3; docs/console.md) in Debian's chromium
// against a real server with the builtin provider, on each database at 1280x800 and 390x844:
// a session created and renamed; a turn asking for a triage plan streamed in (its text, the
// propose_plan tool call, the plan card with its estimate); its stream cut after a few events
// (the banner "Connection lost — reconnecting" shown, the reconnect sending Last-Event-ID) and
// completed with the text exactly the stored answer; the cost shown equal to the turn's charge;
// the card approved (the workflow run it started exists, linked at #/workflows/runs/<id>); a
// second card rejected, its stream's first request failing (the banner, a retry); the session
// reopened from the stored messages after a reload; deleted.
// axe-core on every state, screenshots of each.
// Run: node --import tsx --test test/web/assistant.test.ts
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { parseSse, type SseEvent } from '../assistant/helpers.js';
import { LIBRARY, uploadSmiles } from '../workflows/helpers.js';
import { assertAccessible, browserSuite, signIn, snap } from './browser.js';

const STREAM = /\/api\/v1\/assistant\/sessions\/[^/]+\/turns\/[^/]+\/stream/;

const frame = (e: SseEvent) => `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

/** The text the page shows for a turn (its answer blocks, as model.ts shownText joins them). */
async function shownAnswer(page: Page, n: number): Promise<string> {
  return page
    .getByRole('listitem', { name: `Turn ${n}` })
    .locator('.answer')
    .evaluateAll((els) => els.map((e) => (e as unknown as { textContent: string | null }).textContent ?? '').join('\n\n'));
}

browserSuite('web console: Assistant', { on: 'postgres', harness: { workers: 1 } }, (s) => {
  s.flow(`streams a turn with a tool call and a plan card, resumes after a cut, approves and rejects cards`, async ({ h, backend, vp, page, scriptErrors, openAs }) => {
    const user = await h.user();
    await h.credit(user.userId, 5);
    const library = await uploadSmiles(h, user.token, LIBRARY.slice(0, 4), 'four.smi');
    const prefix = `${backend.name}-${vp.name}-assistant`;
    const get = async (path: string) => {
      const r = await h.req('GET', path, { token: user.token });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      return r.body;
    };
    await openAs('assistant', user);
    await page.getByRole('heading', { name: 'Assistant', level: 1 }).waitFor();
    await page.getByText('No sessions yet.').waitFor();
    await page.getByText(/crucible-builtin-1 \(builtin\): \$0\.50 in, \$1\.50 out per million tokens; a turn holds up to \$0\.0240/).waitFor();
    await assertAccessible(page, 'assistant, no session');
    await snap(page, `${prefix}-1-empty`);

    // A new session, opened at its route, then renamed.
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'New session', level: 2 }).waitFor();
    const sessionId = /#\/assistant\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    assert.ok(sessionId, page.url());
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Title').fill('aspirin plans');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'aspirin plans', level: 2 }).waitFor();
    await page.getByRole('link', { name: /aspirin plans/ }).waitFor();
    assert.equal((await get(`/api/v1/assistant/sessions/${sessionId}`)).title, 'aspirin plans');

    // The first stream answer is cut after a few of the turn's real events (no done): the
    // page must show the banner and resume with Last-Event-ID. The reconnect is held until
    // the test has seen the banner.
    let cut = 0;
    let all: SseEvent[] = [];
    const resumedWith: (string | null)[] = [];
    let bannerSeen!: () => void;
    const seen = new Promise<void>((r) => (bannerSeen = r));
    let streams = 0;
    await page.route(STREAM, async (route: Route) => {
      streams++;
      if (streams === 1) {
        const full = await route.fetch();
        all = parseSse(await full.text());
        const firstDelta = all.findIndex((e) => e.event === 'delta');
        const deltas = all.filter((e) => e.event === 'delta').length;
        // Mid-answer when the text came in several pieces, else just before it.
        cut = deltas > 1 ? all[firstDelta]!.id : all[firstDelta - 1]!.id;
        await route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream; charset=utf-8' },
          body: all
            .filter((e) => e.id <= cut)
            .map(frame)
            .join(''),
        });
        return;
      }
      if (streams === 2) {
        resumedWith.push(route.request().headers()['last-event-id'] ?? null);
        await seen;
      }
      await route.continue();
    });

    const box = page.getByLabel('Message', { exact: true });
    await box.fill(`plan a triage of artifact ${library}`);
    await page.getByRole('button', { name: 'Send' }).click();
    const banner = page.getByRole('status').filter({ hasText: 'Connection lost — reconnecting' });
    await banner.waitFor({ timeout: 30_000 });
    const turn1 = page.getByRole('listitem', { name: 'Turn 1' });
    // What arrived before the cut is shown: the tool call (and its result) at least.
    await turn1.getByRole('group', { name: 'Tool call propose_plan' }).waitFor();
    await assertAccessible(page, 'assistant, connection lost');
    await snap(page, `${prefix}-2-reconnecting`);
    bannerSeen();
    await turn1.locator('.cost').waitFor({ timeout: 60_000 });
    await banner.waitFor({ state: 'detached' });
    assert.deepEqual(resumedWith, [String(cut)], 'the reconnect asked for the events after the cut');
    assert.equal(all.at(-1)!.event, 'done');
    await page.unroute(STREAM);

    // The stored session: the page's text is the stored answer, once.
    const detail = await get(`/api/v1/assistant/sessions/${sessionId}`);
    const turns = (await get(`/api/v1/assistant/sessions/${sessionId}/turns`)).turns;
    assert.equal(turns.length, 1);
    assert.equal(turns[0].status, 'completed');
    const stored = detail.messages
      .filter((m: any) => m.turn_id === turns[0].turn_id && m.role === 'assistant' && m.content)
      .map((m: any) => m.content)
      .join('\n\n');
    const shown = await shownAnswer(page, 1);
    assert.equal(shown, stored);
    assert.equal(
      shown,
      all
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    );
    assert.equal(shown.split('I proposed a plan').length, 2, 'the answer shown once');
    assert.equal(detail.plans.length, 1);
    const plan = detail.plans[0];
    assert.match(shown, new RegExp(plan.plan_id));

    // The tool call: its name, arguments and result.
    const tool = await turn1.getByRole('group', { name: 'Tool call propose_plan' }).innerText();
    assert.match(tool, new RegExp(`template_id: library-triage; inputs: \\{"library":"${library}"\\}`));
    assert.match(tool, new RegExp(`plan card ${plan.plan_id}`));

    // The plan card with its estimate and steps.
    const card = turn1.getByRole('article', { name: plan.title });
    const cardText = await card.innerText();
    assert.match(cardText, /proposed/);
    assert.ok(cardText.includes(`$${plan.estimate.cost_usd.toFixed(4)} reserved on approval`), cardText);
    for (const step of ['describe', 'keep', 'cluster', 'draw']) assert.match(cardText, new RegExp(`\\b${step}\\b`));

    // The cost of the turn: its charge.
    assert.ok(turns[0].cost_usd > 0);
    assert.equal(await turn1.locator('.cost').innerText(), `Cost $${turns[0].cost_usd.toFixed(6)}`);
    assert.match(
      await turn1.locator('.turn-foot').innerText(),
      new RegExp(`${turns[0].input_tokens.toLocaleString('en-US')} tokens in, ${turns[0].output_tokens.toLocaleString('en-US')} out`),
    );
    await assertAccessible(page, 'assistant, a plan card');
    await snap(page, `${prefix}-3-plan`);

    // Approve: the run exists and is linked.
    await card.getByRole('button', { name: 'Approve' }).click();
    const runLink = card.getByRole('link', { name: /^workflow run / });
    await runLink.waitFor();
    const approved = await get(`/api/v1/assistant/plans/${plan.plan_id}`);
    assert.equal(approved.status, 'approved');
    assert.ok(approved.run_id);
    assert.equal(await runLink.innerText(), `workflow run ${approved.run_id}`);
    assert.equal(await runLink.getAttribute('href'), `#/workflows/runs/${approved.run_id}`);
    const run = await get(`/api/v1/workflows/runs/${approved.run_id}`);
    assert.equal(run.run_id, approved.run_id);
    assert.equal(run.template_id, 'library-triage');
    assert.equal(run.inputs.library, library);
    assert.ok(['queued', 'running', 'completed'].includes(run.status), run.status);
    assert.equal(await card.getByRole('button', { name: 'Approve' }).count(), 0);
    assert.match(await card.innerText(), /approved/);
    await assertAccessible(page, 'assistant, a card approved');
    await snap(page, `${prefix}-4-approved`);

    // A second card, rejected. Its stream's first request fails outright (the network is
    // down): the banner again, a retry, and the turn completes.
    let tries = 0;
    let retrySeen!: () => void;
    const retry = new Promise<void>((r) => (retrySeen = r));
    await page.route(STREAM, async (route: Route) => {
      tries++;
      if (tries === 1) return route.abort('internetdisconnected');
      if (tries === 2) await retry;
      return route.continue();
    });
    await box.fill(`plan a solubility screen of artifact ${library}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await banner.waitFor({ timeout: 30_000 });
    retrySeen();
    const turn2 = page.getByRole('listitem', { name: 'Turn 2' });
    await turn2.locator('.cost').waitFor({ timeout: 60_000 });
    await banner.waitFor({ state: 'detached' });
    await page.unroute(STREAM);
    assert.equal(tries, 2);
    const second = (await get(`/api/v1/assistant/sessions/${sessionId}`)).plans.find((p: any) => p.plan_id !== plan.plan_id);
    assert.ok(second);
    const card2 = turn2.getByRole('article', { name: second.title });
    await card2.getByRole('button', { name: 'Reject' }).click();
    await card2.getByText('Rejected: nothing was run or charged.').waitFor();
    assert.equal((await get(`/api/v1/assistant/plans/${second.plan_id}`)).status, 'rejected');
    const turns2 = (await get(`/api/v1/assistant/sessions/${sessionId}/turns`)).turns;
    assert.equal(await turn2.locator('.cost').innerText(), `Cost $${turns2[1].cost_usd.toFixed(6)}`);
    await assertAccessible(page, 'assistant, a card rejected');
    await snap(page, `${prefix}-5-rejected`);

    // Reloaded (tokens live in memory: sign in again): the same session from its stored
    // messages, cards and turns, with the same text, decisions and costs.
    await page.reload();
    await signIn(page, user.email, user.password);
    await page.getByRole('heading', { name: 'aspirin plans', level: 2 }).waitFor();
    await page.getByRole('listitem', { name: 'Turn 2' }).locator('.cost').waitFor();
    assert.equal(await shownAnswer(page, 1), stored);
    assert.equal(await page.getByRole('listitem', { name: 'Turn 1' }).locator('.cost').innerText(), `Cost $${turns[0].cost_usd.toFixed(6)}`);
    assert.equal(await page.getByRole('link', { name: `workflow run ${approved.run_id}` }).count(), 1);
    await page.getByText('Rejected: nothing was run or charged.').waitFor();
    assert.equal(await page.getByRole('listitem', { name: 'Turn 1' }).getByRole('group', { name: 'Tool call propose_plan' }).count(), 1);
    await assertAccessible(page, 'assistant, reopened');
    await snap(page, `${prefix}-6-reopened`);

    // Deleted after a confirmation: back to #/assistant, the list empty, the session gone.
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No sessions yet.').waitFor();
    assert.match(page.url(), /#\/assistant$/);
    assert.equal((await h.req('GET', `/api/v1/assistant/sessions/${sessionId}`, { token: user.token })).status, 404);
    // The aborted stream request is logged by the browser as a failed load; nothing else.
    assert.deepEqual(
      scriptErrors().filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e)),
      [],
    );
  });
});
