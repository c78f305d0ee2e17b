// The Assistant with the builtin provider (docs/assistant.md), on both databases: sessions,
// streamed turns whose answers come from the tools' real results, token billing through a hold,
// plan cards approved into workflow runs (idempotent, 409 once decided or expired), the bad
// inputs of the issue, and access tokens only.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { countPromptTokens, countTokens, loadTokenizer } from '../../src/assistant/tokens.js';
import { LIBRARY, ledger, uploadSmiles, waitForRun } from '../workflows/helpers.js';
import { ask, newSession, readStream, startTurn, turnLedger, waitForTurn } from './helpers.js';

// Token counts below need the encoding (loaded lazily by the service).
await loadTokenizer();

const HOLD = 24_000; // 16,000 tokens at $1.5 per million, in micro-dollars

for (const backend of BACKENDS) {
  describe(`assistant, builtin provider [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      u = await h.user();
      await h.credit(u.userId, 5);
    });
    after(() => h?.close());

    it('describes aspirin and caffeine from RDKit numbers, streams ordered events and bills the tokens it used', async () => {
      const s = await newSession(h, u.token, 'pain relief');
      const before = await h.req('GET', '/api/v1/wallet', { token: u.token });
      const { turnId, events, text } = await ask(h, u.token, s, 'Describe aspirin and caffeine');
      assert.deepEqual(
        events.map((e) => e.id),
        events.map((_, i) => i + 1),
        'ids are 1..n',
      );
      assert.deepEqual(
        events.map((e) => e.event).filter((e) => e !== 'delta'),
        ['tool_call', 'tool_result', 'usage', 'done'],
      );
      assert.equal(events[0]!.data.name, 'describe_molecules');
      assert.deepEqual(events[0]!.data.arguments, { smiles: ['CC(=O)Oc1ccccc1C(=O)O', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'] });
      const items = events[1]!.data.result.items;
      assert.deepEqual(
        items.map((i: any) => [i.formula, i.mw, i.tpsa]),
        [
          ['C9H8O4', 180.159, 63.6],
          ['C8H10N4O2', 194.194, 61.82],
        ],
      );
      assert.match(text, /aspirin: C9H8O4, MW 180\.16/);
      assert.match(text, /caffeine: C8H10N4O2, MW 194\.19/);
      assert.equal(events.at(-1)!.data.status, 'completed');

      const turn = (await h.req('GET', `/api/v1/assistant/sessions/${s}/turns/${turnId}`, { token: u.token })).body;
      assert.equal(turn.status, 'completed');
      const usage = events.find((e) => e.event === 'usage')!.data;
      assert.equal(turn.input_tokens, usage.input_tokens);
      assert.equal(turn.output_tokens, usage.output_tokens);
      // Two model steps: the second reads the first's call and the tool's answer, so it has more input.
      assert.ok(turn.input_tokens > 2 * countPromptTokens([{ role: 'user', content: 'Describe aspirin and caffeine' }]));
      const cost = Math.ceil(turn.input_tokens * 0.5 + turn.output_tokens * 1.5);
      assert.equal(turn.cost_usd, cost / 1e6);
      assert.equal(usage.cost_usd, cost / 1e6);
      assert.deepEqual(await turnLedger(h, turnId), [
        { kind: 'reserve', amount_micros: 0, reserved_delta_micros: HOLD },
        { kind: 'release', amount_micros: 0, reserved_delta_micros: -HOLD },
        { kind: 'charge', amount_micros: -cost, reserved_delta_micros: 0 },
      ]);
      const wallet = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      assert.equal(wallet.reserved_usd, 0);
      assert.equal(Math.round((before.body.balance_usd - wallet.balance_usd) * 1e6), cost);

      // The session keeps the conversation: the user's message, the call, the tool's answer, the reply.
      const detail = (await h.req('GET', `/api/v1/assistant/sessions/${s}`, { token: u.token })).body;
      assert.equal(detail.title, 'pain relief');
      assert.deepEqual(
        detail.messages.map((m: any) => m.role),
        ['user', 'assistant', 'tool', 'assistant'],
      );
      assert.equal(detail.messages[3].content, text);
      assert.equal(detail.turns, 1);
    });

    it('draws ibuprofen: the drawing goes to the client, the model is told it was drawn', async () => {
      const s = await newSession(h, u.token);
      const { events, text } = await ask(h, u.token, s, 'draw ibuprofen');
      const result = events.find((e) => e.event === 'tool_result')!.data;
      assert.equal(result.name, 'depict_molecules');
      assert.match(result.result.items[0].svg, /^<svg[\s\S]*<\/svg>\s*$/);
      assert.match(text, /ibuprofen/i);
      const tool = (await h.req('GET', `/api/v1/assistant/sessions/${s}`, { token: u.token })).body.messages.find((m: any) => m.role === 'tool');
      assert.deepEqual(JSON.parse(tool.content), { items: [{ smiles: 'CC(C)Cc1ccc(cc1)C(C)C(=O)O', drawn: true, error: null }] });
    });

    it('resumes a stream with Last-Event-ID or ?after without gaps or repeats', async () => {
      const s = await newSession(h, u.token);
      const { turnId, events } = await ask(h, u.token, s, 'describe aspirin, caffeine and ibuprofen');
      assert.ok(events.length >= 4);
      const head = await readStream(h, u.token, s, turnId, { stopAfter: 2 });
      assert.deepEqual(head.events, events.slice(0, 2));
      const rest = await readStream(h, u.token, s, turnId, { lastEventId: 2 });
      assert.deepEqual(rest.events, events.slice(2));
      const viaQuery = await fetch(`${h.base}/api/v1/assistant/sessions/${s}/turns/${turnId}/stream?after=3`, { headers: { authorization: `Bearer ${u.token}` } });
      assert.equal(viaQuery.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      assert.ok((await viaQuery.text()).startsWith('id: 4\n'));
      const bad = await fetch(`${h.base}/api/v1/assistant/sessions/${s}/turns/${turnId}/stream`, { headers: { authorization: `Bearer ${u.token}`, 'last-event-id': 'x1' } });
      assert.equal(bad.status, 422);
      assert.deepEqual(((await bad.json()) as any).errors[0].loc, ['header', 'last-event-id']);
    });

    it('proposes a triage plan card; approval starts the run once (idempotent replay), then 409', async () => {
      const library = await uploadSmiles(h, u.token, LIBRARY);
      const s = await newSession(h, u.token);
      const { events, text } = await ask(h, u.token, s, `plan a triage of artifact ${library}`);
      const planEvent = events.find((e) => e.event === 'plan');
      assert.ok(planEvent, 'a plan event');
      const planId = planEvent.data.plan_id;
      assert.match(text, new RegExp(planId));
      const card = (await h.req('GET', `/api/v1/assistant/plans/${planId}`, { token: u.token })).body;
      assert.equal(card.status, 'proposed');
      assert.deepEqual(card.workflow, { template_id: 'library-triage', inputs: { library } });
      // The card's estimate is what POST /workflows/runs would reserve for the same inputs.
      assert.ok(card.estimate.cost_usd > 0);
      assert.deepEqual(
        card.estimate.steps.map((x: any) => x.step_id),
        ['describe', 'keep', 'cluster', 'draw'],
      );
      assert.equal(new Date(card.expires_at).getTime() - new Date(card.created_at).getTime(), 24 * 3600 * 1000);
      const noRuns = (await h.req('GET', '/api/v1/workflows/runs', { token: u.token })).body.total;

      // Approval charges, so every caller must send an Idempotency-Key.
      const bare = await h.req('POST', `/api/v1/assistant/plans/${planId}/approve`, { token: u.token });
      assert.equal(bare.status, 400);
      assert.equal(bare.body.type, '/api/v1/problems/missing-idempotency-key');
      const key = crypto.randomUUID();
      const ok = await h.req('POST', `/api/v1/assistant/plans/${planId}/approve`, { token: u.token, headers: { 'idempotency-key': key } });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.status, 'approved');
      assert.equal(ok.body.run.run_id, ok.body.run_id);
      const replay = await h.req('POST', `/api/v1/assistant/plans/${planId}/approve`, { token: u.token, headers: { 'idempotency-key': key } });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, ok.body);
      const again = await h.req('POST', `/api/v1/assistant/plans/${planId}/approve`, { token: u.token, headers: { 'idempotency-key': crypto.randomUUID() } });
      assert.equal(again.status, 409);
      assert.match(again.body.detail, /already approved/);
      assert.equal((await h.req('POST', `/api/v1/assistant/plans/${planId}/reject`, { token: u.token })).status, 409);
      const run = await waitForRun(h, u.token, ok.body.run_id);
      assert.equal(run.status, 'completed');
      assert.equal((await h.req('GET', '/api/v1/workflows/runs', { token: u.token })).body.total, noRuns + 1, 'one run, whatever the retries');
      assert.equal((await h.req('GET', `/api/v1/assistant/plans/${planId}`, { token: u.token })).body.run_id, ok.body.run_id);
    });

    it('rejected and expired cards cannot be approved; a card the wallet cannot cover stays proposed', async () => {
      const library = await uploadSmiles(h, u.token, LIBRARY.slice(0, 4));
      const s = await newSession(h, u.token);
      const plan = async () => (await ask(h, u.token, s, `plan a solubility screen of artifact ${library}`)).events.find((e) => e.event === 'plan')!.data.plan_id as string;
      const approve = (id: string) => h.req('POST', `/api/v1/assistant/plans/${id}/approve`, { token: u.token, headers: { 'idempotency-key': crypto.randomUUID() } });

      const rejected = await plan();
      const r = await h.req('POST', `/api/v1/assistant/plans/${rejected}/reject`, { token: u.token });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'rejected');
      assert.equal((await approve(rejected)).status, 409);

      const expired = await plan();
      await h.services.db.query("UPDATE assistant_plans SET expires_at = now() - interval '1 second' WHERE id = $1", [expired]);
      assert.equal((await h.req('GET', `/api/v1/assistant/plans/${expired}`, { token: u.token })).body.status, 'expired');
      const e = await approve(expired);
      assert.equal(e.status, 409);
      assert.match(e.body.detail, /expired/);

      // A user who can pay for the turn but not the run: 402, and the card can still be approved later.
      const poor = await h.user();
      await h.credit(poor.userId, 0.03);
      const lib = await uploadSmiles(h, poor.token, LIBRARY);
      const ps = await newSession(h, poor.token);
      const id = (await ask(h, poor.token, ps, `plan a triage of artifact ${lib}`)).events.find((x) => x.event === 'plan')!.data.plan_id;
      const short = await h.req('POST', `/api/v1/assistant/plans/${id}/approve`, { token: poor.token, headers: { 'idempotency-key': crypto.randomUUID() } });
      if (short.status === 402) {
        assert.equal(short.body.type, '/api/v1/problems/insufficient-funds');
        assert.equal((await h.req('GET', `/api/v1/assistant/plans/${id}`, { token: poor.token })).body.status, 'proposed');
        assert.equal((await h.req('GET', '/api/v1/workflows/runs', { token: poor.token })).body.total, 0);
      } else assert.equal(short.status, 201, short.text);
    });

    it('refuses bad input: blank or over-long messages (422), no funds for the hold (402), other users (404), API keys (403)', async () => {
      const s = await newSession(h, u.token);
      for (const message of ['', '   ', 'x'.repeat(8001)]) {
        const r = await h.req('POST', `/api/v1/assistant/sessions/${s}/turns`, { token: u.token, body: { message } });
        assert.equal(r.status, 422, `${message.length} chars`);
        assert.deepEqual(r.body.errors[0].loc, ['body', 'message']);
      }
      assert.equal((await h.req('POST', `/api/v1/assistant/sessions/${s}/turns`, { token: u.token, body: { message: 'x'.repeat(8000) } })).status, 202);

      const broke = await h.user();
      await h.credit(broke.userId, 0.01);
      const bs = await newSession(h, broke.token);
      const r402 = await h.req('POST', `/api/v1/assistant/sessions/${bs}/turns`, { token: broke.token, body: { message: 'describe aspirin' } });
      assert.equal(r402.status, 402);
      assert.equal(r402.body.type, '/api/v1/problems/insufficient-funds');
      const rows = await h.services.db.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM assistant_turns WHERE user_id = $1)::int + (SELECT count(*) FROM ledger WHERE user_id = $1 AND kind <> $2)::int AS n',
        [broke.userId, 'credit'],
      );
      assert.equal(rows.rows[0]!.n, 0, 'a refused turn writes nothing');

      const other = await h.user();
      await h.credit(other.userId, 1);
      for (const [method, path, body] of [
        ['GET', `/api/v1/assistant/sessions/${s}`],
        ['PATCH', `/api/v1/assistant/sessions/${s}`, { title: 'mine' }],
        ['POST', `/api/v1/assistant/sessions/${s}/turns`, { message: 'describe aspirin' }],
        ['POST', `/api/v1/assistant/sessions/${s}/turns/estimate`, { message: 'describe aspirin' }],
        ['DELETE', `/api/v1/assistant/sessions/${s}`],
      ] as const) {
        const r = await h.req(method, path, { token: other.token, ...(body ? { body } : {}) });
        assert.equal(r.status, 404, `${method} ${path}`);
      }

      const key = await h.key(u.token, { name: 'scripts' });
      for (const [method, path] of [
        ['GET', '/api/v1/assistant/sessions'],
        ['GET', '/api/v1/assistant/models'],
        ['POST', '/api/v1/assistant/sessions'],
      ] as const) {
        const r = await h.req(method, path, { key: key.secret, headers: { 'idempotency-key': crypto.randomUUID() }, ...(method === 'POST' ? { body: {} } : {}) });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.type, '/api/v1/problems/api-key-management-forbidden');
        // The title fits the Assistant as well as key management: both take access tokens only.
        assert.equal(r.body.title, 'Access token required');
        assert.match(r.body.detail, /needs an access token/);
      }
    });

    it('sessions: list, rename, estimate (charges nothing), delete; models and prices', async () => {
      const s = await newSession(h, u.token, 'first');
      const renamed = await h.req('PATCH', `/api/v1/assistant/sessions/${s}`, { token: u.token, body: { title: 'renamed' } });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.title, 'renamed');
      assert.equal((await h.req('PATCH', `/api/v1/assistant/sessions/${s}`, { token: u.token, body: { title: '  ' } })).status, 422);
      const list = (await h.req('GET', '/api/v1/assistant/sessions?limit=2', { token: u.token })).body;
      assert.equal(list.sessions[0].session_id, s, 'most recently used first');
      assert.equal(list.limit, 2);
      assert.ok(list.total >= list.sessions.length);

      const w0 = (await h.req('GET', '/api/v1/wallet', { token: u.token })).body;
      const est = await h.req('POST', `/api/v1/assistant/sessions/${s}/turns/estimate`, { token: u.token, body: { message: 'describe aspirin' } });
      assert.equal(est.status, 200);
      assert.equal(est.body.hold_usd, 0.024);
      assert.equal(est.body.max_tokens, 16000);
      assert.equal(est.body.message_tokens, countTokens('describe aspirin'));
      assert.ok(est.body.input_tokens_min > est.body.message_tokens);
      assert.equal(est.body.max_output_tokens, 16000 - est.body.input_tokens_min);
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: u.token })).body, w0, 'an estimate charges nothing');

      const models = (await h.req('GET', '/api/v1/assistant/models', { token: u.token })).body;
      assert.deepEqual(
        models.models.map((m: any) => [m.model, m.provider, m.input_price_per_mtok_usd, m.output_price_per_mtok_usd, m.hold_per_turn_usd]),
        [['crucible-builtin-1', 'builtin', 0.5, 1.5, 0.024]],
      );

      const t = await startTurn(h, u.token, s, 'describe caffeine');
      await waitForTurn(h, t.turn_id);
      const turns = (await h.req('GET', `/api/v1/assistant/sessions/${s}/turns`, { token: u.token })).body;
      assert.deepEqual(
        turns.turns.map((x: any) => [x.turn_id, x.status]),
        [[t.turn_id, 'completed']],
      );
      assert.equal((await h.req('POST', `/api/v1/assistant/sessions/${s}/turns/${t.turn_id}/stop`, { token: u.token })).status, 409, 'an ended turn cannot be stopped');
      assert.equal((await h.req('DELETE', `/api/v1/assistant/sessions/${s}`, { token: u.token })).status, 200);
      assert.equal((await h.req('GET', `/api/v1/assistant/sessions/${s}`, { token: u.token })).status, 404);
      assert.equal((await h.req('GET', `/api/v1/assistant/sessions/${s}/turns/${t.turn_id}`, { token: u.token })).status, 404);
      // The money stays accounted for after the session is gone.
      const l = await ledger(h, u.userId);
      assert.equal(l.reserved, 0);
      assert.equal(l.balance, l.walletBalance);
    });

    it('a later turn sees the conversation so far (its input grows by the earlier messages)', async () => {
      const s = await newSession(h, u.token);
      const first = await ask(h, u.token, s, 'describe ethanol');
      const second = await ask(h, u.token, s, 'describe ethanol');
      const turns = (await h.req('GET', `/api/v1/assistant/sessions/${s}/turns`, { token: u.token })).body.turns;
      assert.equal(second.text, first.text, 'the builtin planner is deterministic');
      assert.ok(turns[1].input_tokens > turns[0].input_tokens, 'the second turn sends the first one along');
    });
  });
}
