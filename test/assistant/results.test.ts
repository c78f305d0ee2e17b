// The builtin Assistant on existing results, on what it cannot do, and on what a turn costs
// (docs/assistant.md, "Questions about results", "What it cannot do", "Money"), on both
// databases with real engines: a user's real conformer search of n-butane, then "What is the
// lowest-energy conformer from my last job?" is answered from the stored result (the job id, the
// lowest energy and the gap to the next conformer), with no plan card, no estimate and no new
// job; a follow-up reads the same job; a user without jobs, and another user naming that job, get
// plain answers; NMR shifts and M06-2X are refused plainly; and each turn is charged the tokens of what
// the planner read and wrote, counted here independently with gpt-tokenizer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { JOB_TYPE_NAMES } from '../../src/compute/registry.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { ask, newSession, type SseEvent } from './helpers.js';

interface Stored {
  turn_id: string | null;
  role: string;
  content: string;
  tool_calls: { id: string; name: string; arguments: string }[] | null;
}

const tokens = (s: string) => (s ? o200k(s) : 0);
/** A message as a chat prompt frames it: 4 tokens, its text, and each tool call's 4 tokens, name and arguments. */
const messageTokens = (m: Stored) => 4 + tokens(m.content) + (m.tool_calls ?? []).reduce((n, c) => n + 4 + tokens(c.name) + tokens(c.arguments), 0);

/**
 * A turn's tokens counted from the session's stored conversation: each step reads every message
 * before it (earlier turns, the user's message, this turn's calls and tool answers), and writes
 * its text and its calls.
 */
function countedUsage(messages: Stored[], turnId: string): { input_tokens: number; output_tokens: number; steps: number } {
  const first = messages.findIndex((m) => m.turn_id === turnId);
  let input = 0;
  let output = 0;
  let steps = 0;
  messages.forEach((m, i) => {
    if (i <= first || m.turn_id !== turnId || m.role !== 'assistant') return;
    steps++;
    input += messages.slice(0, i).reduce((n, x) => n + messageTokens(x), 0);
    output += tokens(m.content) + (m.tool_calls ?? []).reduce((n, c) => n + tokens(c.name) + tokens(c.arguments), 0);
  });
  return { input_tokens: input, output_tokens: output, steps };
}

const names = (events: SseEvent[], kind: string) => events.filter((e) => e.event === kind).map((e) => e.data.name);

for (const backend of onlyOn('postgres')) {
  describe(`assistant on results, limits and token billing, builtin provider [${backend.name}]`, () => {
    let h: Harness;
    let u: { token: string; userId: string };
    let pid: string;
    let energies: number[];
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      u = await h.user();
      await h.credit(u.userId, 5);
      // A small real conformer search: n-butane with GFN-FF, a few conformers (anti and gauche).
      const r = await h.req('POST', '/api/v1/jobs/submit', {
        token: u.token,
        body: { job_name: 'butane conformers', job_type: 'conformers', payload: { molecules: ['CCCC'], method: 'gfnff', max_conformers: 5 } },
      });
      assert.equal(r.status, 200, r.text);
      pid = r.body.process_id;
      const done = await h.waitForJob(u.token, pid, undefined, 240_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const res = await h.req('GET', `/api/v1/jobs/result?process_id=${pid}`, { token: u.token });
      assert.equal(res.status, 200, res.text);
      energies = res.body.items[0].conformers.map((c: { energy_hartree: number }) => c.energy_hartree);
      assert.ok(energies.length >= 2, `${energies.length} conformers of n-butane`);
    });
    after(() => h?.close());

    const session = async (token: string, s: string) => (await h.req('GET', `/api/v1/assistant/sessions/${s}`, { token })).body;
    const turnOf = async (token: string, s: string, t: string) => (await h.req('GET', `/api/v1/assistant/sessions/${s}/turns/${t}`, { token })).body;

    it('"What is the lowest-energy conformer from my last job?" is answered from the stored result: the job, its lowest energy, no plan card, no new job', async () => {
      const jobCount = async () => (await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [u.userId])).rows[0]!.n;
      const jobsBefore = await jobCount();
      const s = await newSession(h, u.token);
      const { events, text, turnId } = await ask(h, u.token, s, 'What is the lowest-energy conformer from my last job?');
      assert.deepEqual(names(events, 'tool_call'), ['list_jobs', 'get_job_result'], text);
      assert.deepEqual(
        events.filter((e) => e.event === 'tool_call').map((e) => e.data.arguments),
        [{ job_type: 'conformers', limit: 1 }, { process_id: pid }],
      );
      assert.equal(events.filter((e) => e.event === 'plan').length, 0, 'no plan card');
      assert.ok(!/estimate|plan card|approve/i.test(text), text);
      assert.match(text, new RegExp(`From job ${pid} \\(conformers, "butane conformers", GFN-FF`));
      const rel = ((energies[1]! - energies[0]!) * 627.5094740631).toFixed(2);
      assert.ok(
        text.includes(`The lowest-energy conformer of butane (CCCC) is conformer 1 at ${energies[0]!.toFixed(6)} Eh`),
        `the lowest energy ${energies[0]!.toFixed(6)} in: ${text}`,
      );
      assert.ok(text.includes(`the next is +${rel} kcal/mol (conformer 2)`), `+${rel} kcal/mol in: ${text}`);
      // The tool answered the caller's own stored result, molblocks left out.
      const read = events.find((e) => e.event === 'tool_result' && e.data.name === 'get_job_result')!.data;
      assert.equal(read.ok, true);
      assert.deepEqual(
        read.result.result.items[0].conformers.map((c: { energy_hartree: number }) => c.energy_hartree),
        energies.slice(0, 10),
      );
      assert.ok(!JSON.stringify(read.result).includes('M  END'), 'no molblock in the prompt');
      const after = await session(u.token, s);
      assert.deepEqual(after.plans, []);
      assert.equal(await jobCount(), jobsBefore, 'no new job');
      const turn = await turnOf(u.token, s, turnId);
      assert.equal(turn.status, 'completed');

      // A follow-up naming no job reads the one this conversation read.
      const follow = await ask(h, u.token, s, 'and what was the energy?');
      assert.deepEqual(
        follow.events.filter((e) => e.event === 'tool_call').map((e) => [e.data.name, e.data.arguments]),
        [['get_job_result', { process_id: pid }]],
      );
      assert.ok(follow.text.includes(`${energies[0]!.toFixed(6)} Eh`), follow.text);
    });

    it('a user without jobs is told so plainly; another user naming the job learns nothing of it', async () => {
      const fresh = await h.user();
      await h.credit(fresh.userId, 1);
      const s = await newSession(h, fresh.token);
      const none = await ask(h, fresh.token, s, 'What is the lowest-energy conformer from my last job?');
      assert.deepEqual(names(none.events, 'tool_call'), ['list_jobs']);
      assert.match(none.text, /^You have no conformer search jobs yet, so there is no result to read\./);
      assert.equal(none.events.filter((e) => e.event === 'plan').length, 0);

      const other = await ask(h, fresh.token, s, `What is the lowest-energy conformer of job ${pid}?`);
      assert.deepEqual(names(other.events, 'tool_call'), ['get_job_result']);
      assert.equal(other.text, `I found no job ${pid} among your jobs.`);
      assert.ok(!JSON.stringify(other.events).includes(energies[0]!.toFixed(4)), 'nothing of the other user’s result');
    });

    it('says plainly what it cannot do (NMR shifts, a functional no engine runs) and lists what it can, from the job types', async () => {
      const s = await newSession(h, u.token);
      const nmr = await ask(h, u.token, s, 'Compute the NMR shifts of aspirin');
      assert.deepEqual(names(nmr.events, 'tool_call'), [], 'aspirin is not described instead');
      assert.match(nmr.text, /^Crucible cannot compute NMR chemical shifts yet: /);
      assert.ok(!/MW|cLogP|Lipinski/.test(nmr.text.split('What it can do')[0]!), nmr.text);
      const listed = [...nmr.text.matchAll(/\((\w+)\)(?=;|\.)/g)].map((m) => m[1]);
      // Every job type is offered by name, but wait (a probe) and profile_table (a workflow's table).
      assert.deepEqual(listed.sort(), JOB_TYPE_NAMES.filter((n) => n !== 'wait' && n !== 'profile_table').sort(), 'every job type is offered, by name');

      const dft = await ask(h, u.token, s, 'optimise caffeine with M06-2X/6-311+G** in water');
      assert.deepEqual(names(dft.events, 'tool_call'), [], 'no GFN2 job in its place');
      assert.match(dft.text, /^Crucible cannot run DFT with that functional or correlated ab initio calculations or that basis set .* yet: /);
      assert.match(dft.text, /GFN2-xTB, GFN1-xTB and GFN-FF \(xtb\), PM7 and PM6 \(MOPAC\), and for single points and optimisations HF, PBE, PBE0, B3LYP/);
      assert.deepEqual((await session(u.token, s)).plans, []);
    });

    it('a turn is charged the tokens the planner read and wrote: far fewer than 10,000 for a short one, more for a longer conversation', async () => {
      const question = `what is the lowest-energy conformer of job ${pid}?`;
      // Short: the question alone in a new session.
      const s1 = await newSession(h, u.token);
      const short = await ask(h, u.token, s1, question);
      const t1 = await turnOf(u.token, s1, short.turnId);
      const c1 = countedUsage((await session(u.token, s1)).messages, short.turnId);
      assert.equal(c1.steps, 2);
      assert.deepEqual([t1.input_tokens, t1.output_tokens], [c1.input_tokens, c1.output_tokens], 'the recorded usage is the counted conversation');
      const usage = short.events.find((e) => e.event === 'usage')!.data;
      assert.deepEqual([usage.input_tokens, usage.output_tokens], [c1.input_tokens, c1.output_tokens]);
      assert.ok(t1.input_tokens + t1.output_tokens < 2_000, `${t1.input_tokens} + ${t1.output_tokens} tokens`);
      assert.equal(t1.cost_usd, Math.ceil(t1.input_tokens * 0.5 + t1.output_tokens * 1.5) / 1e6);

      // Longer: the same question after two earlier turns; each step reads them too.
      const s2 = await newSession(h, u.token);
      await ask(h, u.token, s2, 'describe aspirin and caffeine');
      await ask(h, u.token, s2, 'show my jobs');
      const long = await ask(h, u.token, s2, question);
      assert.equal(long.text, short.text, 'the same answer');
      const t2 = await turnOf(u.token, s2, long.turnId);
      const m2 = (await session(u.token, s2)).messages as Stored[];
      const c2 = countedUsage(m2, long.turnId);
      assert.deepEqual([t2.input_tokens, t2.output_tokens], [c2.input_tokens, c2.output_tokens]);
      const earlier = m2.filter((m) => m.turn_id !== long.turnId).reduce((n, m) => n + messageTokens(m), 0);
      assert.equal(t2.input_tokens - t1.input_tokens, 2 * earlier, 'each of the two steps reads the earlier turns');
      assert.equal(t2.output_tokens, t1.output_tokens);
      assert.ok(t2.cost_usd > t1.cost_usd, `${t2.cost_usd} > ${t1.cost_usd}`);
    });
  });
}
