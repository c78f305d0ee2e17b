// Services callable without a request: describe and depict take a plain command and return the
// plain result the routes send (docs/architecture.md, "Layout"), for workflows and the Assistant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { depictMolecules, depictReactions } from '../../src/modules/depict/service.js';
import { describeMolecules } from '../../src/modules/describe/service.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

describe('chemistry services without a request', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  it('describeMolecules answers what POST /describe answers, items in input order', async () => {
    const smiles = ['CC(=O)Oc1ccccc1C(=O)O', 'C1CC', 'CCO'];
    const direct = await describeMolecules(h.services.chem, { smiles });
    const api = await h.req('POST', '/api/v1/describe', { token, body: { smiles } });
    assert.equal(api.status, 200);
    assert.deepEqual(direct, api.body);
    assert.equal(direct.items[0]?.inchikey, 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
    assert.equal(direct.items[1]?.properties, null);
    assert.ok(direct.items[1]?.error && direct.items[1].detail, 'a bad molecule is an item error with a reason');
  });

  it('depictMolecules and depictReactions answer what POST /depict and /depict/reactions answer', async () => {
    const mol = await depictMolecules(h.services.chem, { smiles: ['c1ccccc1O'], width: 200, height: 150 });
    const molApi = await h.req('POST', '/api/v1/depict', { token, body: { smiles: ['c1ccccc1O'], width: 200, height: 150 } });
    assert.deepEqual(mol, molApi.body);
    assert.match(mol.items[0]?.svg ?? '', /^<\?xml|^<svg/);
    const rxn = await depictReactions(h.services.chem, { reactions: ['CCO.CC(=O)O>[H+]>CC(=O)OCC'] });
    const rxnApi = await h.req('POST', '/api/v1/depict/reactions', { token, body: { reactions: ['CCO.CC(=O)O>[H+]>CC(=O)OCC'] } });
    assert.deepEqual(rxn, rxnApi.body);
    assert.match(rxn.items[0]?.svg ?? '', /<svg/);
  });
});
