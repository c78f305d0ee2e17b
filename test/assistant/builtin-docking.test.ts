// The builtin Assistant model's docking requests (src/assistant/docking.ts; docs/assistant.md,
// "Docking"): pure unit tests, no database. Each request's tool calls (exact arguments), the
// answers' numbers, and the requests it asks about instead: the receptor (a PDB ID or an uploaded
// receptor), the box (around its ligand, a residue name or a box given), Vina's parameters, the
// ligands (names, SMILES, PubChem names, "my library"); the card docks around the residue name
// the estimate found; "its ligand" that cannot be told is a question.
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
const REC = '7e1d2c3b-2222-4333-8444-abcdefabcdef';
const IMATINIB = 'CC1=C(C=C(C=C1)NC(=O)C2=CC=C(C=C2)CN3CCN(CC3)C)NC4=NC=CC(=N4)C5=CN=CC=C5';

/** Runs one user turn as the runner does, answering each call with `answer`; returns every step's calls and the last text. */
async function turn(request: string, answer: (call: ToolCall) => unknown = () => ({ error: { code: 'unexpected', message: 'no answer' } })) {
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

/** The estimate_engine_job call a request makes (or its first call). */
const estimateOf = async (request: string) => (await turn(request)).calls[0]![0]!;

const quote: ToolResults['estimate_engine_job'] = {
  job_type: 'docking',
  method: 'vina',
  solvent: null,
  structures: 2,
  receptor: '1IEP',
  box: { center: [15.19, 53.903, 16.917], size: [16.664, 24.739, 21.526], box_site: 'STI' },
  cost_usd: 0.0421,
  expected_runtime_sec: 75.2,
  steps: [{ step_id: 'docking', job_type: 'docking', cost_usd: 0.0421, expected_runtime_sec: 75.2 }],
};
const card = (c: ToolCall): ToolResults['propose_engine_job'] => ({
  plan_id: 'plan_7',
  title: String((JSON.parse(c.arguments) as { title: string }).title),
  status: 'proposed',
  expires_at: '2025-03-05T10:00:00Z',
  ...quote,
});
const listed: ToolResults['list_artifacts'] = {
  artifacts: [{ artifact_id: LIB, name: 'kinase.smi', origin: 'upload', port: 'molecules', kind: 'molecules', molecules: 2, created_at: '2025-03-04T09:00:00Z' }],
  total: 1,
};
const feed = (c: ToolCall) =>
  c.name === 'list_artifacts'
    ? listed
    : c.name === 'lookup_compounds'
      ? { attribution: 'PubChem (NCBI)', compounds: [{ name: 'imatinib', status: 'found', cid: 5291, title: 'Imatinib', smiles: IMATINIB }] }
      : c.name === 'estimate_engine_job'
        ? quote
        : card(c);

describe('builtin provider: docking', () => {
  it('"dock my library into 1IEP around its ligand": the library, an estimate around its ligand, a card around STI', async () => {
    const { calls, answer } = await turn('dock my library into 1IEP around its ligand', feed);
    const job = { job_type: 'docking', input_artifact_id: LIB, pdb_id: '1IEP', box_site: 'ligand' };
    assert.deepEqual(calls, [
      [{ name: 'list_artifacts', args: { kind: 'molecules', limit: 50 } }],
      [{ name: 'estimate_engine_job', args: job }],
      [{ name: 'propose_engine_job', args: { title: 'Dock kinase.smi into 1IEP around STI', ...job, box_site: 'STI' } }],
      [],
    ]);
    assert.match(
      answer,
      /^Estimate for docking kinase\.smi \(2 ligands\) into 1IEP around STI \(its ligand\), a 16\.7 x 24\.7 x 21\.5 Å box at \(15\.2, 53\.9, 16\.9\), exhaustiveness 8: \$0\.04, about 75 s\./,
    );
    assert.match(answer, /I proposed a plan: "Dock kinase\.smi into 1IEP around STI" \(plan plan_7\), one docking job\. Estimated cost \$0\.04, about 75 s\./);
    assert.match(answer, /Nothing has run and nothing is charged: approve the plan card to run it/);
  });

  it('"how much would docking my library into 1IEP cost": the estimate alone, around its ligand by default', async () => {
    const { calls, answer } = await turn('how much would docking my library into 1IEP cost?', feed);
    assert.deepEqual(calls, [
      [{ name: 'list_artifacts', args: { kind: 'molecules', limit: 50 } }],
      [{ name: 'estimate_engine_job', args: { job_type: 'docking', input_artifact_id: LIB, pdb_id: '1IEP', box_site: 'ligand' } }],
      [],
    ]);
    assert.match(answer, /^Estimate for docking kinase\.smi \(2 ligands\) into 1IEP around STI \(its ligand\).*: \$0\.04, about 75 s\.\nNothing has run and nothing was charged/);
  });

  it('"dock imatinib into 1IEP around STI": the name looked up in PubChem, the site named', async () => {
    const { calls, answer } = await turn('dock imatinib into 1IEP around STI', feed);
    const job = { job_type: 'docking', molecules: [IMATINIB], pdb_id: '1IEP', box_site: 'STI' };
    assert.deepEqual(calls, [
      [{ name: 'lookup_compounds', args: { names: ['imatinib'] } }],
      [{ name: 'estimate_engine_job', args: job }],
      [{ name: 'propose_engine_job', args: { title: 'Dock imatinib into 1IEP around STI', ...job } }],
      [],
    ]);
    assert.match(
      answer,
      /^Looked up by name in PubChem: imatinib \(CID 5291, "Imatinib"\)\.\nSource: PubChem \(NCBI\)\n\nEstimate for docking imatinib \(2 ligands\) into 1IEP around STI, a 16\.7/,
    );
  });

  it('reads the receptor, the box and the parameters from the wording; the rest are the ligands', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['dock caffeine and CCO into 1iep', { job_type: 'docking', molecules: [smilesOf('caffeine'), 'CCO'], pdb_id: '1IEP', box_site: 'ligand' }],
      [
        'dock aspirin against PDB entry 5x72 at the ligand site with exhaustiveness 16, 5 poses, seed 7 at pH 6.5',
        { job_type: 'docking', molecules: [smilesOf('aspirin')], pdb_id: '5X72', box_site: 'ligand', exhaustiveness: 16, num_modes: 5, seed: 7, ph: 6.5 },
      ],
      [
        `dock c1ccccc1O into artifact ${REC} centered at 15.6, 53.4, 16.8 with size 20 x 22 x 24`,
        { job_type: 'docking', molecules: ['c1ccccc1O'], receptor_artifact_id: REC, box: { center: [15.6, 53.4, 16.8], size: [20, 22, 24] } },
      ],
      [
        `dock artifact ${LIB} into 1IEP in the STI pocket with 6 A padding and keep the best 10`,
        { job_type: 'docking', input_artifact_id: LIB, pdb_id: '1IEP', box_site: 'STI', padding: 6, keep_best: 10 },
      ],
      [`dock ibuprofen into receptor ${REC} around HEM`, { job_type: 'docking', molecules: [smilesOf('ibuprofen')], receptor_artifact_id: REC, box_site: 'HEM' }],
      // A residue name is typed in capitals: "at pH 7" and "around its ligand" are no residues.
      ['dock CCO into 1IEP at pH 7', { job_type: 'docking', molecules: ['CCO'], pdb_id: '1IEP', box_site: 'ligand', ph: 7 }],
    ];
    for (const [request, args] of cases) assert.deepEqual(await estimateOf(request), { name: 'estimate_engine_job', args }, request);
  });

  it('asks for what it cannot tell: the receptor, the ligands, a box half given, "its ligand" among several', async () => {
    assert.match((await turn('dock my library around its ligand')).answer, /^Which receptor should I dock into\? Give an RCSB PDB entry/);
    assert.match((await turn('dock into 1IEP around its ligand')).answer, /^Which ligands should I dock\?/);
    assert.match((await turn('dock CCO into 1IEP centered at 1, 2, 3')).answer, /^A box needs its centre and its size/);
    const several = (c: ToolCall) =>
      c.name === 'estimate_engine_job'
        ? {
            error: {
              code: 'invalid',
              message:
                'Validation failed (payload.box_site: the receptor has 2 ligands, so "its ligand" cannot be told: HEM (43 heavy atoms), XYZ (25 heavy atoms); give box_site as one of their residue names)',
            },
          }
        : feed(c);
    const { calls, answer } = await turn(`dock CCO into artifact ${REC}`, several);
    assert.deepEqual(
      calls.flat().map((c) => c.name),
      ['estimate_engine_job'],
    );
    assert.match(
      answer,
      /^I could not tell which ligand of artifact 7e1d2c3b-2222-4333-8444-abcdefabcdef to dock around \(invalid: .*HEM \(43 heavy atoms\), XYZ \(25 heavy atoms\)/,
    );
    assert.match(answer, /Ask again naming its residue name, e.g\. "dock CCO into artifact 7e1d2c3b-2222-4333-8444-abcdefabcdef around STI", or give a box\.$/);
  });

  it('the tool specs take the docking job type and its payload fields', () => {
    const spec = TOOL_SPECS.find((t) => t.name === 'propose_engine_job')!.parameters as { properties: Record<string, { enum?: string[] }> };
    assert.ok(spec.properties.job_type!.enum!.includes('docking'));
    for (const field of ['pdb_id', 'receptor_artifact_id', 'box_site', 'box', 'padding', 'exhaustiveness', 'num_modes', 'seed', 'ph', 'keep_best'])
      assert.ok(spec.properties[field], field);
  });
});
