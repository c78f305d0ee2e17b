// The builtin Assistant model's chemistry questions (src/assistant/questions.ts; docs/assistant.md,
// "Chemistry questions"): pure unit tests, no database. Each question's tool calls (exact
// arguments: the job type, the resolved SMILES, the pH), the answer's estimate and plan card, and
// the plain answers when the job cannot do what is asked (a pKa in DMSO, a method the job does not
// run, reactivity while its job type is not registered): no tool call, nothing else run instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_MODEL, BuiltinProvider } from '../../src/assistant/builtin.js';
import { compoundByName } from '../../src/assistant/compounds.js';
import type { ChatMessage, ToolCall } from '../../src/assistant/provider.js';
import { loadTokenizer } from '../../src/assistant/tokens.js';
import { ENGINE_JOB_TYPES, TOOL_SPECS, type ToolResults } from '../../src/assistant/tool-specs.js';
import { JOB_TYPES } from '../../src/compute/registry.js';

await loadTokenizer();

const provider = new BuiltinProvider();
const smilesOf = (name: string) => compoundByName(name)!.smiles;
const LIDOCAINE = smilesOf('lidocaine');
const IBUPROFEN = smilesOf('ibuprofen');
const SERTRALINE = 'CN[C@H]1CC[C@@H](c2ccc(Cl)c(Cl)c2)c2ccccc21';

/** Runs one user turn as the runner does, answering each call with `answer`; returns every step's calls and the last text. */
async function turn(request: string, answer: (call: ToolCall) => unknown = () => ({ error: { code: 'unexpected', message: 'no tool should run' } })) {
  const messages: ChatMessage[] = [{ role: 'user', content: request }];
  const calls: { name: string; args: Record<string, unknown> }[][] = [];
  for (let i = 0; i < 6; i++) {
    let text = '';
    const made: ToolCall[] = [];
    for await (const e of provider.complete({ model: BUILTIN_MODEL, messages, tools: [...TOOL_SPECS], maxTokens: 4000, signal: new AbortController().signal })) {
      if (e.type === 'delta') text += e.text;
      if (e.type === 'tool_call') made.push(e.call);
    }
    calls.push(made.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as Record<string, unknown> })));
    if (!made.length) return { calls, answer: text };
    messages.push({ role: 'assistant', content: text, tool_calls: made });
    for (const c of made) messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(answer(c)) });
  }
  throw new Error('the turn did not end');
}

const quote = (jobType: string): ToolResults['estimate_engine_job'] => ({
  job_type: jobType,
  method: 'gfn2',
  solvent: null,
  structures: 1,
  cost_usd: 0.0042,
  expected_runtime_sec: 95,
  steps: [{ step_id: jobType, job_type: jobType, cost_usd: 0.0042, expected_runtime_sec: 95 }],
});
/** Answers the estimate, the card (its title the one asked for) and PubChem's sertraline. */
const feed = (c: ToolCall): unknown => {
  const args = JSON.parse(c.arguments) as Record<string, string>;
  if (c.name === 'lookup_compounds')
    return { attribution: 'PubChem (NCBI)', compounds: [{ name: 'sertraline', status: 'found', cid: 68617, title: 'Sertraline', smiles: SERTRALINE }] };
  if (c.name === 'estimate_engine_job') return quote(args.job_type!);
  return { plan_id: 'plan_7', title: args.title, status: 'proposed', expires_at: '2026-12-01T09:00:00Z', ...quote(args.job_type!) };
};

describe('builtin provider: chemistry questions', () => {
  it('"what is the pKa of lidocaine": a pka job at pH 7.4 on its SMILES, estimated, then proposed as a plan card', async () => {
    const { calls, answer } = await turn('what is the pKa of lidocaine', feed);
    const job = { job_type: 'pka', molecules: [LIDOCAINE], ph: 7.4, method: 'gfn2' };
    assert.deepEqual(calls, [[{ name: 'estimate_engine_job', args: job }], [{ name: 'propose_engine_job', args: { title: 'pKa of lidocaine (pH 7.4)', ...job } }], []]);
    assert.equal(
      answer,
      'Estimate for the pKa values and charge state of lidocaine (1 structure) at pH 7.4 with GFN2-xTB in water (ALPB), calibrated per site class: $0.0042, about 2 min.\n' +
        'I proposed a plan: "pKa of lidocaine (pH 7.4)" (plan plan_7), one pka job. Estimated cost $0.0042, about 2 min.\n' +
        'The plan card expires at 2026-12-01T09:00:00Z. Nothing has run and nothing is charged: approve the plan card to run it, or reject it. I never run a plan myself.',
    );
  });

  it('"where is ibuprofen metabolised": a bde job (B3LYP energies, the default) on its SMILES, the answer saying what the bond energies stand for', async () => {
    const { calls, answer } = await turn('where is ibuprofen metabolised', feed);
    const job = { job_type: 'bde', molecules: [IBUPROFEN], method: 'gfn2', energies: 'b3lyp' };
    assert.deepEqual(calls, [
      [{ name: 'estimate_engine_job', args: job }],
      [{ name: 'propose_engine_job', args: { title: 'X-H bond dissociation enthalpies of ibuprofen (B3LYP/def2-SVP, metabolic soft spots)', ...job } }],
      [],
    ]);
    assert.match(answer, /^Crucible does not predict metabolism itself\. Cytochrome P450 oxidation mostly starts by taking a hydrogen atom from the weakest C-H bond/);
    assert.match(
      answer,
      /\n\nEstimate for the X-H bond dissociation enthalpies of ibuprofen \(1 structure\) with B3LYP\/def2-SVP energies on GFN2-xTB geometries in the gas phase, calibrated: \$0\.0042, about 2 min\.\n/,
    );
    assert.match(answer, /I proposed a plan: "X-H bond dissociation enthalpies of ibuprofen \(B3LYP\/def2-SVP, metabolic soft spots\)" \(plan plan_7\), one bde job\./);
  });

  it('maps each wording to its job type and payload: the pH, the solvent, the method, the molecules', async () => {
    const first = async (request: string) => (await turn(request, feed)).calls.flat().find((c) => c.name === 'estimate_engine_job')?.args ?? null;
    const cases: [string, Record<string, unknown>][] = [
      ['pKa of aspirin at pH 5', { job_type: 'pka', molecules: [smilesOf('aspirin')], ph: 5, method: 'gfn2' }],
      ['is lidocaine ionised at physiological pH?', { job_type: 'pka', molecules: [LIDOCAINE], ph: 7.4, method: 'gfn2' }],
      ['what charge does CC(=O)O carry at pH 3.5', { job_type: 'pka', molecules: ['CC(=O)O'], ph: 3.5, method: 'gfn2' }],
      ['protonation states of nicotine in water', { job_type: 'pka', molecules: [smilesOf('nicotine')], ph: 7.4, method: 'gfn2' }],
      ['tautomers of Oc1ccccn1', { job_type: 'tautomers', molecules: ['Oc1ccccn1'], solvent: 'water', method: 'gfn2' }],
      ['which tautomer of Oc1ccccn1 dominates in chloroform', { job_type: 'tautomers', molecules: ['Oc1ccccn1'], solvent: 'chcl3', method: 'gfn2' }],
      ['tautomers of Oc1ccccn1 in the gas phase', { job_type: 'tautomers', molecules: ['Oc1ccccn1'], solvent: null, method: 'gfn2' }],
      ['what is the weakest C-H bond in toluene', { job_type: 'bde', molecules: [smilesOf('toluene')], method: 'gfn2', energies: 'b3lyp' }],
      ['bond dissociation energies of ethanol with B3LYP', { job_type: 'bde', molecules: ['CCO'], method: 'gfn2', energies: 'b3lyp' }],
      ['bond dissociation energies of ethanol with GFN2', { job_type: 'bde', molecules: ['CCO'], method: 'gfn2', energies: 'gfn2' }],
      ['metabolic soft spots of diclofenac and warfarin', { job_type: 'bde', molecules: [smilesOf('diclofenac'), smilesOf('warfarin')], method: 'gfn2', energies: 'b3lyp' }],
    ];
    for (const [request, args] of cases) assert.deepEqual(await first(request), args, request);
  });

  it('resolves other names as engine jobs do: looked up in PubChem first, then run on the SMILES found', async () => {
    const { calls, answer } = await turn('where is sertraline metabolised in the liver?', feed);
    assert.deepEqual(calls[0], [{ name: 'lookup_compounds', args: { names: ['sertraline'] } }]);
    assert.deepEqual(calls[1], [{ name: 'estimate_engine_job', args: { job_type: 'bde', molecules: [SERTRALINE], method: 'gfn2', energies: 'b3lyp' } }]);
    assert.match(answer, /Looked up by name in PubChem: sertraline \(CID 68617, "Sertraline"\)\./);
    assert.match(answer, /Estimate for the X-H bond dissociation enthalpies of sertraline \(1 structure\)/);
  });

  it('"how much would ..." estimates only: no card', async () => {
    const { calls, answer } = await turn('how much would the pKa of lidocaine cost?', feed);
    assert.deepEqual(
      calls.flat().map((c) => c.name),
      ['estimate_engine_job'],
    );
    assert.match(
      answer,
      /^Estimate for the pKa values and charge state of lidocaine \(1 structure\) at pH 7\.4 .*: \$0\.0042, about 2 min\.\nNothing has run and nothing was charged/,
    );
  });

  it('says plainly what a job cannot do, with no tool call and nothing run in its place', async () => {
    const cases: [string, RegExp][] = [
      [
        'what is the pKa of lidocaine in DMSO',
        /^Crucible computes pKa in water only: the pka job uses GFN2-xTB with ALPB water and a calibration against aqueous pKa values, so it cannot give a pKa in DMSO\. .* I did not run or plan anything\.$/,
      ],
      ['pKa of aspirin in the gas phase', /^Crucible computes pKa in water only: .*cannot give a pKa in the gas phase\./],
      ['pKa of aspirin with COSMO-RS', /^The pka job runs GFN2-xTB only; it has no COSMO-RS\. .* I did not run or plan anything\.$/],
      ['predict the pKa of aspirin with a machine learning model', /^The pka job runs GFN2-xTB only; it has no machine-learning model\./],
      ['pKa of lidocaine from Epik', /^The pka job runs GFN2-xTB only; it has no Epik\./],
      ['pKa of acetic acid with B3LYP', /^The pka job runs GFN2-xTB only; it has no B3LYP\b/],
      ['tautomers of Oc1ccccn1 with PM7', /^The tautomers job runs GFN2-xTB only; it has no PM7\./],
      ['bond dissociation energy of ethanol with PBE0', /^The bde job runs B3LYP\/def2-SVP single points on GFN2-xTB geometries and GFN2-xTB only; it has no PBE0\./],
      ['BDE of ethanol in water', /^The bde job computes in the gas phase only; it takes no solvent\./],
      ['tautomers of phenol at pH 7', /^The tautomers job takes no pH: it computes the neutral molecule as given\./],
      ['pKa of acetic acid at 37 °C', /^The pka job computes at 298\.15 K only; it takes no temperature\./],
      ['pKa of acetic acid at pH 15', /^A pH of 15 is outside 0 to 14, the pka job's range\./],
      [
        'the pKa and the tautomers of guanine',
        /^You asked for the pKa values and charge state and the tautomers: I plan one calculation at a time\. .*"plan a profile of lidocaine"/,
      ],
    ];
    for (const [request, says] of cases) {
      const t = await turn(request);
      assert.deepEqual(t.calls, [[]], request);
      assert.match(t.answer, says, request);
    }
  });

  it('reactivity: proposed once the job type is registered, else said plainly to be unavailable (never another job instead)', async () => {
    const requests = ['where will a nucleophile attack benzaldehyde', 'Fukui indices of CC=O', 'which sites of acrolein are most prone to electrophilic attack?'];
    if (!JOB_TYPES.has('reactivity')) {
      assert.ok(!ENGINE_JOB_TYPES.includes('reactivity'), 'not offered to a model either');
      for (const request of requests) {
        const t = await turn(request);
        assert.deepEqual(t.calls, [[]], request);
        assert.match(
          t.answer,
          /^Crucible cannot compute Fukui indices or reactivity descriptors \(sites of nucleophilic or electrophilic attack, IP, EA, electrophilicity\) on this server: its reactivity job type is not available here\. .* I did not run or plan anything\.$/,
          request,
        );
      }
      return;
    }
    // Registered (after the reactivity branch is merged): a reactivity job, gas phase unless a solvent is named.
    const { calls } = await turn('Fukui indices of CC=O', feed);
    assert.deepEqual(calls[0], [{ name: 'estimate_engine_job', args: { job_type: 'reactivity', molecules: ['CC=O'], method: 'gfn2' } }]);
    assert.equal(calls[1]![0]!.name, 'propose_engine_job');
  });

  it('"what was the pKa from my last job?" and "the weakest bond of my last bde job" are read from the stored results', async () => {
    const pid = '0b8a7c6d-1111-4222-8333-444455556666';
    const stored = (jobType: string, result: Record<string, unknown>) => (c: ToolCall) =>
      c.name === 'list_jobs'
        ? { total: 1, jobs: [{ process_id: pid, job_type: jobType, status: 'completed', created_at: '2026-11-30T08:00:00Z', charged_usd: 0.002 }] }
        : {
            process_id: pid,
            job_name: 'pka',
            job_type: jobType,
            status: 'completed',
            progress: 1,
            message: null,
            created_at: '2026-11-30T08:00:00Z',
            finished_at: '2026-11-30T08:01:00Z',
            charged_usd: 0.002,
            molecules: ['CC(=O)O'],
            result,
          };
    const pka = await turn(
      'what was the pKa from my last job?',
      stored('pka', {
        job_type: 'pka',
        method: 'gfn2',
        ph: 7.4,
        solvent: 'water',
        items: [
          {
            index: 0,
            id: '0',
            error: null,
            sites: [{ atom_index: 3, element: 'O', kind: 'acid', pka: 4.51 }],
            microstates: [{ smiles: 'CC(=O)[O-]', charge: -1, fraction: 0.9987 }],
            dominant_smiles: 'CC(=O)[O-]',
            dominant_charge: -1,
          },
        ],
      }),
    );
    assert.deepEqual(pka.calls[0], [{ name: 'list_jobs', args: { job_type: 'pka', limit: 1 } }]);
    assert.match(
      pka.answer,
      /^From job .* \(pka, "pka", GFN2-xTB in water, completed 2026-11-30 08:01:00 UTC, charged \$0\.0020\):\n- acetic acid \(CC\(=O\)O\): pKa 4\.51 \(O3, acid\); at pH 7\.4 mostly CC\(=O\)\[O-\] \(charge -1, 99\.9%\)\./,
    );
    const bde = await turn(
      'what was the weakest bond in my last bde job?',
      stored('bde', {
        job_type: 'bde',
        method: 'gfn2',
        items: [
          {
            index: 0,
            id: '0',
            error: null,
            bonds: [
              { atoms: [3, 7], elements: ['O', 'H'], bde_kcal_mol: 94.92 },
              { atoms: [0, 4], elements: ['C', 'H'], bde_kcal_mol: 97.62 },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(bde.calls[0], [{ name: 'list_jobs', args: { job_type: 'bde', limit: 1 } }]);
    assert.match(bde.answer, /- acetic acid \(CC\(=O\)O\): the weakest bond is O3-H7 at 94\.9 kcal\/mol; the weakest C-H is C0-H4 at 97\.6 kcal\/mol\./);
  });

  it('a profile of named molecules is the profile template, its pH an input', async () => {
    const { calls } = await turn('plan a profile of lidocaine and CCO at pH 6.5', feed);
    assert.deepEqual(calls[0], [
      { name: 'propose_plan', args: { title: 'Molecule profile of lidocaine, CCO', template_id: 'profile', inputs: { library: [LIDOCAINE, 'CCO'], ph: 6.5 } } },
    ]);
  });
});
