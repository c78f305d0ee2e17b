// Item errors say why, and /describe items carry identifiers: RDKit's reason for an input it
// refuses (`detail`), inputs too large for RDKit's parser refused before it parses them (a
// 900-carbon chain used to crash the WASM parser: "memory access out of bounds"), and the
// canonical SMILES, InChI and InChIKey of every molecule read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const CHAIN_900 = 'C'.repeat(900);

describe('chemistry item details', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0], { CRUCIBLE_CHEM_CACHE: '0' });
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  it('/describe: each refused input says why; molecules carry canonical SMILES, InChI and InChIKey', async () => {
    const inputs = ['CC(=O)Oc1ccccc1C(=O)O', 'C1CC', 'CC(C', 'C(C)(C)(C)(C)C', 'c1cccc1', '', CHAIN_900, 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', '*CC'];
    const r = await h.req('POST', '/api/v1/describe', { token, body: { smiles: inputs } });
    assert.equal(r.status, 200);
    const items = r.body.items as { error: string | null; detail: string | null; canonical_smiles: string | null; inchi: string | null; inchikey: string | null }[];
    assert.deepEqual(
      items.map((i) => [i.error, i.detail]),
      [
        [null, null],
        ['unparseable', 'unclosed ring'],
        ['unparseable', 'extra open parentheses at position 3'],
        ['unparseable', 'explicit valence for atom # 0 C, 5, is greater than permitted'],
        ['unparseable', "Can't kekulize mol: Unkekulized atoms: 0 1 2 3 4"],
        ['unparseable', 'empty input'],
        ['too_large', '900 atoms; at most 200 heavy atoms (300 atoms in all)'],
        [null, null],
        [null, null],
      ],
    );
    assert.deepEqual(
      [items[0], items[7]].map((i) => [i?.canonical_smiles, i?.inchi, i?.inchikey]),
      [
        ['CC(=O)Oc1ccccc1C(=O)O', 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)', 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N'],
        ['Cn1c(=O)c2c(ncn2C)n(C)c1=O', 'InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3', 'RYYVLZVUVIJVGH-UHFFFAOYSA-N'],
      ],
    );
    assert.deepEqual([items[8]?.canonical_smiles, items[8]?.inchi, items[8]?.inchikey], ['*CC', null, null], 'a dummy atom has no InChI');
    for (const i of items.slice(1, 7)) assert.deepEqual([i.canonical_smiles, i.inchi, i.inchikey], [null, null, null]);
  });

  it('/describe: the chain that crashed the parser is refused before parsing, and the pool keeps serving', async () => {
    for (const n of [900, 1500, 1999]) {
      const r = await h.req('POST', '/api/v1/describe', { token, body: { smiles: ['C'.repeat(n), 'CCO'] } });
      assert.equal(r.body.items[0].error, 'too_large', `${n} carbons`);
      assert.equal(r.body.items[1].error, null, 'the next item is described');
    }
  });

  it('/depict and /depict/reactions: refused inputs say why', async () => {
    const m = await h.req('POST', '/api/v1/depict', { token, body: { smiles: ['C1CC', CHAIN_900, 'c1ccccc1'] } });
    assert.deepEqual(
      m.body.items.map((i: { error: string | null; detail: string | null }) => [i.error, i.detail]),
      [
        ['unparseable', 'unclosed ring'],
        ['too_large', '900 atoms; at most 200 heavy atoms (300 atoms in all)'],
        [null, null],
      ],
    );
    const r = await h.req('POST', '/api/v1/depict/reactions', { token, body: { reactions: ['CC>>C1C', 'CCO', 'CCO.CC(=O)O>[H+]>CC(=O)OCC'] } });
    assert.deepEqual(
      r.body.items.map((i: { error: string | null; detail: string | null }) => [i.error, i.detail]),
      [
        ['unparseable', 'unclosed ring'],
        ['unparseable', 'a reaction SMILES has three parts: reactants>agents>products'],
        [null, null],
      ],
    );
  });
});

describe('reaction drawings', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0], { CRUCIBLE_CHEM_CACHE: '0' });
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  /** Font sizes (px) of the atom labels of a drawing. */
  function labelSizes(svg: string): number[] {
    return [...svg.matchAll(/<text[^>]*font-size:(\d+(?:\.\d+)?)px/g)].map((m) => Number(m[1]));
  }

  it('draws agents at the scale of the molecules (one-atom and larger agents alike)', async () => {
    const reactions = [
      'CCO.CC(=O)O>[H+]>CC(=O)OCC',
      'c1ccccc1Br.OB(O)c1ccccc1>[Pd].CCO>c1ccc(cc1)-c1ccccc1',
      'CC(=O)Cl.NCc1ccccc1>CCN(CC)CC.ClCCl>CC(=O)NCc1ccccc1',
      'CC(=O)O.OCC>>CC(=O)OCC',
    ];
    const r = await h.req('POST', '/api/v1/depict/reactions', { token, body: { reactions } });
    assert.equal(r.status, 200);
    for (const [i, item] of (r.body.items as { svg: string | null; error: string | null }[]).entries()) {
      assert.equal(item.error, null, reactions[i]);
      const sizes = labelSizes(item.svg ?? '');
      assert.ok(sizes.length > 0, `${reactions[i]} has labels`);
      // RDKit alone drew [H+] at 49 px beside 20 px labels, and [Pd].CCO at 4 px beside 11 px.
      // Charges are drawn smaller than their atom (about 0.6 of it), hence the lower bound of 1/2.
      const median = [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)] ?? 0;
      assert.ok(Math.max(...sizes) <= 1.5 * median && Math.min(...sizes) >= median / 2, `${reactions[i]}: label sizes ${sizes.join(', ')} px`);
    }
  });
});
