// The profile_table job type's run (src/compute/types/profile-table.ts; docs/jobs.md,
// "profile_table") on result documents written here, without a database or engines: the
// reactivity columns as the contract's result gives them (section 15: fukui [{atom_index, f_plus,
// f_minus, f_zero}] and the optimised molblock; the top sites among the heavy atoms), an item's
// error as its row's, a molecule without a C-H bond, the CSV, and results of different molecules
// refused. The template's end-to-end run is test/workflows/profile.test.ts.
// Run: node --import tsx --test test/jobs/profile-table.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JobInputError, type RunContext } from '../../src/compute/job-type.js';
import { profileTableJob } from '../../src/compute/types/profile-table.js';

/** Formaldehyde (C0, O1, H2, H3) as a V2000 molblock: heavy atoms first, hydrogens after. */
const FORMALDEHYDE = [
  'formaldehyde',
  '',
  '',
  '  4  3  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.2000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '   -0.5500    0.9400    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '   -0.5500   -0.9400    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  2  0',
  '  1  3  1  0',
  '  1  4  1  0',
  'M  END',
].join('\n');

const docs: Record<string, unknown> = {
  'a-pka': {
    job_type: 'pka',
    ph: 7.4,
    items: [
      { index: 0, id: '0', smiles: 'C=O', error: null, sites: [], microstates: [{ smiles: 'C=O', charge: 0, fraction: 1 }], dominant_smiles: 'C=O', dominant_charge: 0 },
      { index: 1, id: '1', smiles: '[CH3]', error: 'radical', detail: 'odd number of electrons' },
      { index: 2, id: '2', smiles: 'O', error: null, sites: [], microstates: [{ smiles: 'O', charge: 0, fraction: 1 }], dominant_smiles: 'O', dominant_charge: 0 },
    ],
  },
  'a-bde': {
    job_type: 'bde',
    items: [
      { index: 0, id: '0', error: null, bonds: [{ atoms: [2, 0], elements: ['H', 'C'], equivalent: 2, bde_kcal_mol: 88.12, raw_kcal_mol: 101 }] },
      { index: 1, id: '1', error: 'radical', detail: 'odd number of electrons' },
      { index: 2, id: '2', error: null, bonds: [{ atoms: [0, 1], elements: ['O', 'H'], equivalent: 2, bde_kcal_mol: 118.8, raw_kcal_mol: 130 }] },
    ],
  },
  'a-reactivity': {
    job_type: 'reactivity',
    method: 'gfn2',
    items: [
      {
        index: 0,
        id: '0',
        error: null,
        molblock: FORMALDEHYDE,
        homo_ev: -10.9,
        lumo_ev: -2.1,
        // A hydrogen's f+ above every heavy atom's: the top site is still a heavy atom.
        fukui: [
          { atom_index: 0, f_plus: 0.41, f_minus: 0.12, f_zero: 0.265 },
          { atom_index: 1, f_plus: 0.3, f_minus: 0.55, f_zero: 0.425 },
          { atom_index: 2, f_plus: 0.6, f_minus: 0.05, f_zero: 0.325 },
          { atom_index: 3, f_plus: 0.14, f_minus: 0.05, f_zero: 0.095 },
        ],
      },
      { index: 1, id: '1', error: 'radical', detail: 'odd number of electrons' },
      { index: 2, id: '2', error: null, fukui: [{ atom_index: 0, f_plus: 0.5, f_minus: 0.7, f_zero: 0.6 }] },
    ],
  },
  'b-pka': { job_type: 'pka', ph: 7.4, items: [{ index: 0, id: '0', error: null, dominant_smiles: 'C=O', dominant_charge: 0 }] },
  'c-pka': { job_type: 'pka', ph: 7.4, items: [{ id: 'x' }, { id: 'y' }, { id: 'z' }] },
};

function context(payload: Record<string, string>): RunContext<Record<string, string>> {
  return {
    jobId: 'j',
    userId: 'u',
    payload,
    resource: { name: 'default', vcpu: 1, rateMicrosPerSec: 200 },
    signal: new AbortController().signal,
    progress: () => undefined,
    readMolecules: () => [][Symbol.iterator]() as never,
    readFile: () => Promise.reject(new Error('not used')),
    readResult: (id) => (id in docs ? Promise.resolve(docs[id]) : Promise.reject(new Error(`no artifact ${id}`))),
    deps: {} as never,
  };
}

async function run(payload: Record<string, string>) {
  const out = await profileTableJob.run(context(payload) as never);
  const table = (out.ports!.table!.records as { files: { primary: { content: Buffer } } }[])[0]!.files.primary.content.toString('utf8');
  return { result: out.result as { columns: string[]; summary: unknown; items: Record<string, unknown>[] }, csv: table.trim().split('\r\n') };
}

describe('profile_table', () => {
  it('the top heavy-atom Fukui sites, the weakest C-H bond (carbon first), the items’ errors, one row per molecule', async () => {
    const { result, csv } = await run({ pka_artifact_id: 'a-pka', bde_artifact_id: 'a-bde', reactivity_artifact_id: 'a-reactivity' });
    assert.deepEqual(result.columns, [
      'index',
      'id',
      'name',
      'smiles',
      'error',
      'ph',
      'dominant_smiles',
      'dominant_charge',
      'pka_sites',
      'weakest_ch_bond',
      'weakest_ch_bde_kcal_mol',
      'top_f_plus_atom',
      'top_f_plus',
      'top_f_minus_atom',
      'top_f_minus',
    ]);
    assert.deepEqual(result.summary, { molecules: 3, complete: 2 });
    const [formaldehyde, radical, water] = result.items;
    assert.deepEqual(
      [
        formaldehyde!.weakest_ch_bond,
        formaldehyde!.weakest_ch_bde_kcal_mol,
        formaldehyde!.top_f_plus_atom,
        formaldehyde!.top_f_plus,
        formaldehyde!.top_f_minus_atom,
        formaldehyde!.top_f_minus,
      ],
      ['0-2', 88.12, 0, 0.41, 1, 0.55],
    );
    assert.deepEqual([formaldehyde!.smiles, formaldehyde!.dominant_smiles, formaldehyde!.pka_sites, formaldehyde!.error], ['C=O', 'C=O', null, null]);
    assert.equal(radical!.error, 'pka: radical (odd number of electrons); bde: radical (odd number of electrons); reactivity: radical (odd number of electrons)');
    assert.deepEqual([radical!.dominant_smiles, radical!.weakest_ch_bond, radical!.top_f_plus_atom], [null, null, null]);
    // Water: no C-H bond; its one Fukui entry without a structure to tell hydrogens by.
    assert.deepEqual([water!.weakest_ch_bond, water!.weakest_ch_bde_kcal_mol, water!.top_f_plus_atom, water!.top_f_minus], [null, null, 0, 0.7]);
    assert.equal(csv[0], result.columns.join(','));
    assert.equal(csv[1], '0,0,,C=O,,7.4,C=O,0,,0-2,88.12,0,0.41,1,0.55');
    assert.equal(csv.length, 4);
  });

  it('refuses results of different molecules, and a result of another job type', async () => {
    await assert.rejects(
      run({ pka_artifact_id: 'b-pka', bde_artifact_id: 'a-bde' }),
      (e: unknown) => e instanceof JobInputError && e.message === 'the results cover different molecules: pka 1, bde 3',
    );
    await assert.rejects(
      run({ pka_artifact_id: 'c-pka', bde_artifact_id: 'a-bde' }),
      (e: unknown) => e instanceof JobInputError && /^row 0: the results are of different molecules \(record ids x, 0\)$/.test(e.message),
    );
    await assert.rejects(run({ pka_artifact_id: 'a-bde' }), (e: unknown) => e instanceof JobInputError && e.message === "pka_artifact_id is not a pka job's result");
    await assert.rejects(run({ pka_artifact_id: 'missing' }), (e: unknown) => e instanceof JobInputError && e.message === 'the pka result cannot be read: no artifact missing');
  });
});
