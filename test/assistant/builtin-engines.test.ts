// The builtin Assistant model's engine job requests (src/assistant/calculations.ts;
// docs/assistant.md, "Engine jobs"): pure unit tests, no database. Each request's tool calls
// (exact arguments), the answers' numbers, and the requests it asks about instead: the job type,
// method, solvent, charge, multiplicity and temperature read from the wording; names it does
// not know looked up first; "my library" picked from list_artifacts; the engine templates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_MODEL, BuiltinProvider } from '../../src/assistant/builtin.js';
import { compoundByName } from '../../src/assistant/compounds.js';
import type { ChatMessage, ToolCall } from '../../src/assistant/provider.js';
import { loadTokenizer } from '../../src/assistant/tokens.js';
import { TOOL_SPECS, type ToolResults } from '../../src/assistant/tool-specs.js';

await loadTokenizer();

const provider = new BuiltinProvider();
const smilesOf = (name: string) => compoundByName(name)!.smiles;
const LIB = '3f2a1b4c-1111-4222-8333-123456789abc';

/** Runs one user turn as the runner does, answering each call with `answer`; returns every step's calls and the last text. */
async function turn(request: string, answer: (call: ToolCall) => unknown = () => ({ error: { code: 'unexpected', message: 'no answer' } })) {
  const messages: ChatMessage[] = [{ role: 'user', content: request }];
  const calls: { name: string; args: unknown }[][] = [];
  for (let i = 0; i < 6; i++) {
    let text = '';
    const made: ToolCall[] = [];
    for await (const e of provider.complete({ model: BUILTIN_MODEL, messages, tools: [...TOOL_SPECS], maxTokens: 4000, signal: new AbortController().signal })) {
      if (e.type === 'delta') text += e.text;
      if (e.type === 'tool_call') made.push(e.call);
    }
    calls.push(made.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as unknown })));
    if (!made.length) return { calls, answer: text };
    messages.push({ role: 'assistant', content: text, tool_calls: made });
    for (const c of made) messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(answer(c)) });
  }
  throw new Error('the turn did not end');
}

/** The first call a request makes. */
const first = async (request: string) => (await turn(request)).calls[0]![0] ?? null;

const quote: ToolResults['estimate_engine_job'] = {
  job_type: 'optimize',
  method: 'gfn2',
  solvent: 'water',
  structures: 1,
  cost_usd: 0.0016,
  expected_runtime_sec: 7.9,
  steps: [{ step_id: 'optimize', job_type: 'optimize', cost_usd: 0.0016, expected_runtime_sec: 7.9 }],
};
const card: ToolResults['propose_engine_job'] = {
  plan_id: 'plan_9',
  title: 'Optimise caffeine (GFN2-xTB, water)',
  status: 'proposed',
  expires_at: '2025-03-05T10:00:00Z',
  ...quote,
};
const feed = (c: ToolCall) => (c.name === 'estimate_engine_job' ? quote : card);

describe('builtin provider: engine jobs', () => {
  it('"optimise caffeine with GFN2 in water": estimate, then a plan card of the same job; the answer quotes both', async () => {
    const { calls, answer } = await turn('optimise caffeine with GFN2 in water', feed);
    const job = { job_type: 'optimize', molecules: [smilesOf('caffeine')], method: 'gfn2', solvent: 'water' };
    assert.deepEqual(calls, [[{ name: 'estimate_engine_job', args: job }], [{ name: 'propose_engine_job', args: { title: 'Optimise caffeine (GFN2-xTB, water)', ...job } }], []]);
    assert.match(answer, /^Estimate for a geometry optimisation of caffeine \(1 structure\) with GFN2-xTB in water \(ALPB\): \$0\.0016, about 8 s\./);
    assert.match(answer, /I proposed a plan: "Optimise caffeine \(GFN2-xTB, water\)" \(plan plan_9\), one optimize job\. Estimated cost \$0\.0016, about 8 s\./);
    assert.match(answer, /expires at 2025-03-05T10:00:00Z\. Nothing has run and nothing is charged: approve the plan card to run it/);
  });

  it('reads the job type, method, solvent, charge, multiplicity and temperature from the wording', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['Optimize the geometry of aspirin and CCO using PM7 in chloroform', { job_type: 'optimize', molecules: [smilesOf('aspirin'), 'CCO'], method: 'pm7', solvent: 'chcl3' }],
      ['frequencies of ethanol with GFN-FF at 350 K', { job_type: 'frequencies', molecules: ['CCO'], method: 'gfnff', temperature_k: 350 }],
      ['compute the IR spectrum of acetone at 25 °C in the gas phase', { job_type: 'frequencies', molecules: [smilesOf('acetone')], method: 'gfn2', temperature_k: 298.15 }],
      ['single point of benzene with gfn1-xtb', { job_type: 'singlepoint', molecules: ['c1ccccc1'], method: 'gfn1' }],
      ['find conformers of ibuprofen with GFN-FF in toluene', { job_type: 'conformers', molecules: [smilesOf('ibuprofen')], method: 'gfnff', solvent: 'toluene' }],
      ['optimise the triplet of O=O with mopac', { job_type: 'optimize', molecules: ['O=O'], method: 'pm7', multiplicity: 3 }],
      [`optimise artifact ${LIB} with charge -1 in aqueous solution`, { job_type: 'optimize', input_artifact_id: LIB, method: 'gfn2', solvent: 'water', charge: -1 }],
      // A solvent named after "in" is never a molecule of the job; "with" another compound is.
      ['minimise toluene in benzene', { job_type: 'optimize', molecules: [smilesOf('toluene')], method: 'gfn2', solvent: 'benzene' }],
      ['optimise aspirin with caffeine', { job_type: 'optimize', molecules: [smilesOf('aspirin'), smilesOf('caffeine')], method: 'gfn2' }],
    ];
    for (const [request, args] of cases) assert.deepEqual(await first(request), { name: 'estimate_engine_job', args }, request);
  });

  it('an estimate alone when only a cost is asked; the tool’s error is said and nothing is proposed', async () => {
    const est = await turn('how much would frequencies of ethanol with GFN-FF cost?', () => ({ ...quote, job_type: 'frequencies', method: 'gfnff', solvent: null }));
    assert.deepEqual(
      est.calls.map((s) => s.map((c) => c.name)),
      [['estimate_engine_job'], []],
    );
    assert.match(est.answer, /with GFN-FF in the gas phase: \$0\.0016, about 8 s\.\nNothing has run and nothing was charged; ask me to plan it/);
    const failed = await turn('optimise caffeine with PM7', () => ({ error: { code: 'engine-unavailable', message: 'optimize needs mopac (Debian package mopac)' } }));
    assert.deepEqual(
      failed.calls.map((s) => s.map((c) => c.name)),
      [['estimate_engine_job'], []],
    );
    assert.equal(failed.answer, 'The estimate_engine_job tool answered an error (engine-unavailable: optimize needs mopac (Debian package mopac)).');
  });

  it('asks about what it cannot run: a solvent without parameters, a method a conformer search does not take, no molecule', async () => {
    assert.match((await turn('optimise caffeine in ethanol')).answer, /^The implicit solvent model has no parameters for ethanol\. The solvents are: acetone, .*water;/);
    assert.equal((await turn('conformers of caffeine with pm7')).answer, 'A conformer search runs with GFN2-xTB or GFN-FF; ask again with one of them.');
    assert.match((await turn('optimise please')).answer, /^Which molecules should the geometry optimisation run on\?/);
  });

  it('looks names it does not know up first, then runs the job on what PubChem found', async () => {
    const sertraline = 'CN[C@H]1CC[C@@H](C2=CC=CC=C12)C3=CC(=C(C=C3)Cl)Cl';
    const lookup = { attribution: 'PubChem', compounds: [{ name: 'sertraline', status: 'found', cid: 68617, smiles: sertraline, title: 'Sertraline' }] };
    const { calls, answer } = await turn('optimise sertraline in water', (c) => (c.name === 'lookup_compounds' ? lookup : feed(c)));
    assert.deepEqual(calls.flat(), [
      { name: 'lookup_compounds', args: { names: ['sertraline'] } },
      { name: 'estimate_engine_job', args: { job_type: 'optimize', molecules: [sertraline], method: 'gfn2', solvent: 'water' } },
      { name: 'propose_engine_job', args: { title: 'Optimise sertraline (GFN2-xTB, water)', job_type: 'optimize', molecules: [sertraline], method: 'gfn2', solvent: 'water' } },
    ]);
    assert.match(answer, /^Looked up by name in PubChem: sertraline \(CID 68617, "Sertraline"\)\.\nSource: PubChem\n\nEstimate for a geometry optimisation of sertraline/);
  });

  it('"my library": the set list_artifacts gives (library.ts), by its artifact id', async () => {
    const artifacts: ToolResults['list_artifacts'] = {
      total: 1,
      artifacts: [{ artifact_id: 'a3', name: 'fragments.sdf', origin: 'upload', port: 'molecules', kind: 'molecules', molecules: 12, created_at: '2025-03-01T10:00:00Z' }],
    };
    const { calls } = await turn('optimise my library with GFN-FF', (c) => (c.name === 'list_artifacts' ? artifacts : feed(c)));
    assert.deepEqual(calls.flat(), [
      { name: 'list_artifacts', args: { kind: 'molecules', limit: 50 } },
      { name: 'estimate_engine_job', args: { job_type: 'optimize', input_artifact_id: 'a3', method: 'gfnff' } },
      { name: 'propose_engine_job', args: { title: 'Optimise fragments.sdf (GFN-FF)', job_type: 'optimize', input_artifact_id: 'a3', method: 'gfnff' } },
    ]);
  });

  it('the engine templates: an xtb screen and a conformer search with the method, solvent and temperature named, on a library or named molecules', async () => {
    assert.deepEqual(await first(`plan an xtb screen of artifact ${LIB} with GFN-FF in methanol`), {
      name: 'propose_plan',
      args: { title: `xtb screen of artifact ${LIB}`, template_id: 'xtb-screen', inputs: { library: LIB, method: 'gfnff', solvent: 'methanol' } },
    });
    assert.deepEqual(await first(`estimate an xtb screen of artifact ${LIB}`), { name: 'estimate_workflow', args: { template_id: 'xtb-screen', inputs: { library: LIB } } });
    assert.deepEqual(await first('find the conformers of CCCC and ibuprofen, then their frequencies at 350 K'), {
      name: 'propose_plan',
      args: { title: 'Conformer search of CCCC, ibuprofen', template_id: 'conformer-search', inputs: { library: ['CCCC', smilesOf('ibuprofen')], temperature_k: 350 } },
    });
    // Conformers alone are a conformers job.
    assert.deepEqual(await first('find conformers of CCCC'), { name: 'estimate_engine_job', args: { job_type: 'conformers', molecules: ['CCCC'], method: 'gfn2' } });
  });
});
