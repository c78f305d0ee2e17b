// What a 422 says about the input it refuses (issue 32; docs/api-decisions.md, "Errors"): a
// choice among fixed values names every allowed value (a solvent, a method), and a key named
// __proto__ (or a constructor holding a prototype) is refused as such, at its location, not as
// a body that is "not valid JSON".
// Run: node --import tsx --test test/foundation/input-messages.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QM_METHODS } from '../../src/compute/types/kit/payload.js';
import { SOLVENTS } from '../../src/engines/qm/solvents.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

for (const backend of onlyOn('postgres')) {
  describe(`what a 422 says about the input [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend);
      token = (await h.user()).token;
    });
    after(async () => h?.close());

    it('a bad solvent or method names every allowed value', async () => {
      const r = await h.req('POST', '/api/v1/jobs/estimate', {
        token,
        body: { job_type: 'singlepoint', payload: { molecules: ['CCO'], method: 'm06-2x', solvent: 'ethanol' } },
      });
      assert.equal(r.status, 422, r.text);
      const at = (field: string) => (r.body.errors as { loc: string[]; msg: string; type: string; input: unknown }[]).filter((e) => e.loc.join('.') === `body.payload.${field}`);
      const [solvent] = at('solvent');
      const [method] = at('method');
      assert.equal(at('solvent').length, 1, JSON.stringify(r.body.errors));
      assert.equal(at('method').length, 1, JSON.stringify(r.body.errors));
      assert.deepEqual([solvent!.type, solvent!.input, method!.type, method!.input], ['enum', 'ethanol', 'enum', 'm06-2x']);
      for (const s of Object.keys(SOLVENTS)) assert.ok(solvent!.msg.includes(`"${s}"`), `${s} in ${solvent!.msg}`);
      assert.match(solvent!.msg, /^Input should be "acetone", .*"water" or null$/);
      assert.equal(method!.msg, `Input should be "gfn2", "gfn1", "gfnff", "pm7", "pm6", "hf", "pbe", "pbe0", "b3lyp", "wb97x-d", "b3lyp-d3bj" or "pbe0-d3bj"`);
      assert.deepEqual([...QM_METHODS], ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6']);
      // A job type that takes fewer methods names only those.
      const conformers = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'conformers', payload: { molecules: ['CCO'], method: 'pm7' } } });
      assert.equal(conformers.status, 422, conformers.text);
      const m = (conformers.body.errors as { loc: string[]; msg: string }[]).find((e) => e.loc.join('.') === 'body.payload.method');
      assert.ok(m && !m.msg.includes('"pm7"') && m.msg.includes('"gfn2"'), JSON.stringify(conformers.body.errors));
      // A value of the wrong type gets the same list, and not one "should be of type string" per value.
      const typed = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'singlepoint', payload: { molecules: ['CCO'], solvent: 7 } } });
      assert.equal(typed.status, 422);
      assert.equal(typed.body.errors.length, 1, JSON.stringify(typed.body.errors));
      assert.match(typed.body.errors[0].msg, /"water" or null$/);
    });

    it('a __proto__ key, or a constructor holding a prototype, is refused as such at its location', async () => {
      const cases: [string, (string | number)[]][] = [
        ['{"smiles":["C"],"__proto__":{"polluted":true}}', ['body', '__proto__']],
        ['{"smiles":["C"],"__proto__":null}', ['body', '__proto__']],
        ['{"smiles":["C"],"opts":[{"a":1},{"constructor":{"prototype":{"polluted":true}}}]}', ['body', 'opts', 1, 'constructor', 'prototype']],
      ];
      for (const [body, loc] of cases) {
        const r = await h.req('POST', '/api/v1/describe', { token, raw: { body, type: 'application/json' } });
        assert.equal(r.status, 422, body);
        assert.equal(r.body.type, '/api/v1/problems/http-422');
        assert.deepEqual([r.body.errors[0].type, r.body.errors[0].loc], ['forbidden_key', loc], body);
        assert.match(r.body.detail, /__proto__.*not accepted/);
        assert.doesNotMatch(r.body.detail, /not valid JSON/);
      }
      // A constructor key without a prototype is an ordinary key (here: not in the schema).
      const plain = await h.req('POST', '/api/v1/describe', { token, raw: { body: '{"smiles":["C"],"constructor":{"x":1}}', type: 'application/json' } });
      assert.deepEqual([plain.status, plain.body.errors[0].type], [422, 'extra_forbidden']);
      // A body that is not JSON is still said to be so.
      const broken = await h.req('POST', '/api/v1/describe', { token, raw: { body: '{"smiles":["C"],"__proto__":', type: 'application/json' } });
      assert.equal(broken.status, 400);
      assert.match(broken.body.detail, /not valid JSON/);
    });
  });
}
