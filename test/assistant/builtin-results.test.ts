// The builtin Assistant model on questions about existing results and on requests Crucible
// cannot compute (src/assistant/results.ts, unsupported.ts; docs/assistant.md, "Questions about
// results", "What it cannot do"): pure unit tests, no database. Which requests are questions
// about results (and which stay orders for new work), which job they read, the answers' numbers
// for each kind of result and each job state, and the plain refusals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_MODEL, BuiltinProvider } from '../../src/assistant/builtin.js';
import type { ChatMessage, ProviderEvent, ToolCall } from '../../src/assistant/provider.js';
import { loadTokenizer } from '../../src/assistant/tokens.js';
import { TOOL_SPECS, type JobResultSummary } from '../../src/assistant/tool-specs.js';

await loadTokenizer();

const provider = new BuiltinProvider();
const JOB = '0b7e3c1a-2222-4333-8444-555566667777';
const OTHER = '9c8d7e6f-aaaa-4bbb-8ccc-ddddeeeeffff';

async function step(messages: ChatMessage[]): Promise<{ text: string; calls: ToolCall[] }> {
  const events: ProviderEvent[] = [];
  for await (const e of provider.complete({ model: BUILTIN_MODEL, messages, tools: [...TOOL_SPECS], maxTokens: 4000, signal: new AbortController().signal })) events.push(e);
  return { text: events.map((e) => (e.type === 'delta' ? e.text : '')).join(''), calls: events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : [])) };
}

/** One turn, as the runner runs it, after `history`; answers each call with `answer`. */
async function turn(request: string, answer: (c: ToolCall) => unknown, history: ChatMessage[] = []) {
  const messages: ChatMessage[] = [{ role: 'system', content: 'system' }, ...history, { role: 'user', content: request }];
  const calls: { name: string; args: unknown }[] = [];
  for (let i = 0; i < 6; i++) {
    const s = await step(messages);
    if (!s.calls.length) return { text: s.text, calls, messages };
    messages.push({ role: 'assistant', content: s.text, tool_calls: s.calls });
    for (const c of s.calls) {
      calls.push({ name: c.name, args: JSON.parse(c.arguments) });
      messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(answer(c)) });
    }
  }
  throw new Error('the turn did not end');
}

/** The tool calls of a request's first step. */
const firstCall = async (request: string) => (await step([{ role: 'user', content: request }])).calls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]);

const job = (over: Partial<JobResultSummary>): JobResultSummary => ({
  process_id: JOB,
  job_name: 'my job',
  job_type: 'conformers',
  status: 'completed',
  progress: 1,
  message: null,
  created_at: '2026-11-29T08:00:00.000Z',
  finished_at: '2026-11-29T08:01:02.345Z',
  charged_usd: 0.0123,
  workflow_run_id: null,
  molecules: ['CCO'],
  input_artifact_id: null,
  result: null,
  ...over,
});

describe('builtin provider: questions about existing results', () => {
  it('tells questions about results from orders for new work, and picks the job they mean', async () => {
    assert.deepEqual(await firstCall('What is the lowest-energy conformer from my last job?'), [['list_jobs', { job_type: 'conformers', limit: 1 }]]);
    assert.deepEqual(await firstCall('what did the last conformer search find?'), [['list_jobs', { job_type: 'conformers', limit: 1 }]]);
    assert.deepEqual(await firstCall(`What is the best docking score of job ${JOB}?`), [['get_job_result', { process_id: JOB }]]);
    assert.deepEqual(await firstCall('show my latest docking results'), [['list_jobs', { job_type: 'docking', limit: 1 }]]);
    assert.deepEqual(await firstCall('What was the energy?'), [['list_jobs', { limit: 1 }]]);
    // Orders and lists are not questions about results.
    assert.equal((await firstCall('find conformers of CCCC'))[0]![0], 'estimate_engine_job');
    assert.equal((await firstCall('optimise caffeine with GFN2 in water'))[0]![0], 'estimate_engine_job');
    assert.deepEqual(await firstCall('show my jobs'), [['list_jobs', { limit: 10 }]]);
    assert.deepEqual(await firstCall('my recent runs'), [['list_runs', { limit: 10 }]]);
    assert.deepEqual(await firstCall('show my completed jobs'), [['list_jobs', { status: 'completed', limit: 10 }]]);
  });

  it('a follow-up that names no job reads the job the conversation last read', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: `what is the lowest-energy conformer of job ${OTHER}?` },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1_1', name: 'get_job_result', arguments: JSON.stringify({ process_id: OTHER }) }] },
      { role: 'tool', tool_call_id: 'call_1_1', content: JSON.stringify(job({ process_id: OTHER })) },
      { role: 'assistant', content: 'From job ...' },
    ];
    const t = await turn('and what was the energy?', () => job({ process_id: OTHER }), history);
    assert.deepEqual(t.calls, [{ name: 'get_job_result', args: { process_id: OTHER } }]);
  });

  it('answers a conformer search from its result: the lowest conformer, its energy, the gap to the next', async () => {
    const result = {
      job_type: 'conformers',
      method: 'gfn2',
      items: [
        {
          index: 0,
          id: '0',
          name: null,
          error: null,
          conformers: [
            { energy_hartree: -11.3901234567, relative_kcal: 0, boltzmann_weight: 0.61 },
            { energy_hartree: -11.3894567, relative_kcal: 0.4183, boltzmann_weight: 0.3 },
          ],
        },
      ],
      items_total: 1,
    };
    const t = await turn('What is the lowest-energy conformer from my last job?', (c) =>
      c.name === 'list_jobs' ? { total: 3, jobs: [{ process_id: JOB, job_type: 'conformers', status: 'completed' }] } : job({ result }),
    );
    assert.deepEqual(t.calls, [
      { name: 'list_jobs', args: { job_type: 'conformers', limit: 1 } },
      { name: 'get_job_result', args: { process_id: JOB } },
    ]);
    assert.equal(
      t.text,
      `From job ${JOB} (conformers, "my job", GFN2-xTB, completed 2026-11-29 08:01:02 UTC, charged $0.01):\n` +
        '- The lowest-energy conformer of ethanol (CCO) is conformer 1 at -11.390123 Eh, Boltzmann weight 0.61; the next is +0.42 kcal/mol (conformer 2); 2 conformers kept.\n' +
        'Read from the stored result: nothing new was run.',
    );
  });

  it('answers docking, optimisation and frequencies results with their numbers, and an item error plainly', async () => {
    const docking = job({
      job_type: 'docking',
      molecules: ['CCO', 'c1ccccc1'],
      result: {
        method: 'vina',
        items: [
          { index: 0, id: '0', name: null, error: null, poses: [{ score_kcal_mol: -3.1 }, { score_kcal_mol: -2.9 }] },
          { index: 1, id: '1', name: null, error: null, poses: [{ score_kcal_mol: -4.25 }] },
        ],
        items_total: 2,
      },
    });
    const d = await turn(`best docking score of job ${JOB}?`, () => docking);
    assert.match(d.text, /- Best overall: benzene \(c1ccccc1\) at -4\.25 kcal\/mol\./);
    assert.match(d.text, /- The best docking score of ethanol \(CCO\) is -3\.10 kcal\/mol \(pose 1\); the next pose scores -2\.90 kcal\/mol\./);

    const opt = job({
      job_type: 'optimize',
      molecules: ['O', 'C[U]C'],
      result: {
        method: 'pm7',
        solvent: null,
        items: [
          { index: 0, id: '0', name: 'water', error: null, energy_hartree: -0.0921, converged: true, homo_lumo_gap_ev: 12.3456, dipole_debye: 2.1 },
          { index: 1, id: '1', name: null, error: 'unsupported_element', detail: 'U is not supported' },
        ],
      },
    });
    const o = await turn(`what was the energy of job ${JOB}?`, () => opt);
    assert.match(o.text, /\(optimize, "my job", PM7, gas phase, completed/);
    assert.match(o.text, /- water: energy -0\.092100 Eh, converged, HOMO-LUMO gap 12\.346 eV, dipole 2\.100 D\./);
    assert.match(o.text, /- C\[U\]C: no result \(unsupported_element: U is not supported\)\./);

    const freq = job({
      job_type: 'frequencies',
      result: {
        method: 'gfn2',
        solvent: 'water',
        items: [{ index: 0, id: '0', name: null, error: null, energy_hartree: -11.4, gibbs_hartree: -11.35, zpve_hartree: 0.0812, temperature_k: 298.15, n_imaginary: 0 }],
      },
    });
    const f = await turn(`what was the Gibbs energy from job ${JOB}?`, () => freq);
    assert.match(f.text, /GFN2-xTB in water/);
    assert.match(f.text, /- ethanol \(CCO\): energy -11\.400000 Eh, Gibbs energy -11\.350000 Eh at 298\.15 K, ZPVE 0\.081200 Eh, 0 imaginary frequencies\./);
  });

  it('a job still running, one that failed, one of another user and no job at all are said plainly', async () => {
    const running = await turn(`what is the lowest-energy conformer of job ${JOB}?`, () => job({ status: 'running', progress: 0.4, message: 'conformer 3 of 9' }));
    assert.equal(running.text, `Job ${JOB} (conformers, "my job") is running, 40%: conformer 3 of 9. Its result is available once it completes; ask me again then.`);
    const failed = await turn(`what is the lowest-energy conformer of job ${JOB}?`, () => job({ status: 'error', message: 'engine failed' }));
    assert.equal(failed.text, `Job ${JOB} (conformers, "my job") ended error: engine failed. It has no result.`);
    const theirs = await turn(`what is the lowest-energy conformer of job ${JOB}?`, () => ({ error: { code: 'not-found', message: `job ${JOB} not found` } }));
    assert.equal(theirs.text, `I found no job ${JOB} among your jobs.`);
    const none = await turn('What is the best docking score from my last docking?', () => ({ total: 0, jobs: [] }));
    assert.deepEqual(none.calls, [{ name: 'list_jobs', args: { job_type: 'docking', limit: 1 } }]);
    assert.equal(
      none.text,
      'You have no docking jobs yet, so there is no result to read. To run one, ask e.g. "dock imatinib into 1IEP around STI": I estimate it and propose a plan card you approve.',
    );
    const noJobs = await turn('what did my last job find?', () => ({ total: 0, jobs: [] }));
    assert.equal(noJobs.text, 'You have no jobs yet, so there is no result to read.');
  });
});

describe('builtin provider: what Crucible cannot compute', () => {
  it('refuses NMR, Raman and a functional no engine runs plainly, with the closest offer, and never describes or runs instead', async () => {
    const cases: [string, RegExp, RegExp | null][] = [
      ['predict the 13C NMR chemical shifts of ethanol', /^Crucible cannot compute NMR chemical shifts yet: /, null],
      ['Raman spectrum of benzene', /^Crucible cannot compute Raman spectra yet: /, /Closest: IR spectra come with a frequency calculation/],
      [
        'single point of CCO with M06-2X/def2-QZVP',
        /^Crucible cannot run DFT with that functional or correlated ab initio calculations or that basis set/,
        /Closest: its quantum chemistry is .*B3LYP-D3\(BJ\)/,
      ],
      ['find the transition state of the Diels-Alder reaction', /^Crucible cannot compute transition states or reaction barriers yet/, /relaxed torsion scan/],
    ];
    for (const [request, says, closest] of cases) {
      const t = await turn(request, () => ({ error: { code: 'unexpected', message: 'no tool should run' } }));
      assert.deepEqual(t.calls, [], request);
      assert.match(t.text, says, request);
      if (closest) assert.match(t.text, closest, request);
      assert.match(t.text, /What it can do: .*geometry optimisation \(optimize\).*docking \(AutoDock Vina\) \(docking\)/, request);
    }
    // What it can do is not refused: a rotational barrier is a torsion scan's, IR is a frequency job's.
    assert.notEqual((await firstCall('describe aspirin'))[0]?.[0], undefined);
    assert.equal((await firstCall('IR spectrum of ethanol with GFN2'))[0]![0], 'estimate_engine_job');
    // The DFT the engines run is planned, its method and basis set named (def2-SVP when none is).
    const [dft] = await firstCall('single point of CCO with wB97X-D/def2-TZVP');
    const dftArgs = dft?.[1] as Record<string, unknown>;
    assert.deepEqual([dft?.[0], dftArgs.method, dftArgs.basis], ['estimate_engine_job', 'wb97x-d', 'def2-tzvp']);
    const d3 = (await firstCall('optimise water with B3LYP-D3(BJ) in water'))[0]?.[1] as Record<string, unknown>;
    assert.deepEqual([d3.method, d3.basis, d3.solvent], ['b3lyp-d3bj', 'def2-svp', 'water']);
  });
});
