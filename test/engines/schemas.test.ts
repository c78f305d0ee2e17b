// The OpenAPI document publishes every job type's payload (<Type>Payload) and the engine job
// types' results (<Type>Result); each engine type's real result, from a tiny job, validates
// against its published schema (docs/engines.md).
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { after, before, describe, it } from 'node:test';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** A tiny payload of each engine job type (types not registered yet are skipped). */
const SAMPLES: Record<string, Record<string, unknown>> = {
  optimize: { molecules: ['O', 'C1CC'], method: 'gfnff' },
  singlepoint: { molecules: ['N'], method: 'pm7' },
  conformers: { molecules: ['CCCC'], method: 'gfnff', max_conformers: 5 },
  frequencies: { molecules: ['O'], method: 'gfnff' },
  scan: { molecules: ['CCCC'], method: 'gfnff', dihedral: [0, 1, 2, 3], start_deg: 0, end_deg: 180, steps: 3 },
};
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

describe('engine payloads and results in the OpenAPI document [pglite]', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 1 });
    doc = (await h.req('GET', '/openapi.json')).body;
  });
  after(() => h?.close());

  it('lists a payload component for every job type and a result component for every engine type', () => {
    const components = Object.keys(doc.components.schemas);
    for (const name of JOB_TYPES.keys()) assert.ok(components.includes(`${pascal(name)}Payload`), `${name} payload`);
    for (const name of ['Optimize', 'Singlepoint', 'Conformers', 'Frequencies', 'Scan', 'Docking', 'Reactivity']) assert.ok(components.includes(`${name}Result`), name);
    assert.deepEqual(
      doc.components.schemas.OptimizePayload.properties.method.anyOf.map((x: { const?: string; enum?: string[] }) => x.const ?? x.enum?.[0]),
      ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6', 'hf', 'pbe', 'pbe0', 'b3lyp', 'wb97x-d', 'b3lyp-d3bj', 'pbe0-d3bj'],
    );
    assert.deepEqual(
      doc.components.schemas.OptimizePayload.properties.basis.anyOf.map((x: { const?: string; enum?: string[] }) => x.const ?? x.enum?.[0]),
      ['def2-svp', 'def2-tzvp', '6-31g*', 'cc-pvdz'],
    );
  });

  for (const [type, payload] of Object.entries(SAMPLES)) {
    it(`a real ${type} result validates against ${pascal(type)}Result`, { skip: JOB_TYPES.has(type) ? false : `${type} is not registered` }, async () => {
      const u = await h.user();
      await h.credit(u.userId, 2);
      const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: type, job_type: type, payload } });
      assert.equal(r.status, 200, r.text);
      const done = await h.waitForJob(u.token, r.body.process_id, undefined, 120_000);
      assert.equal(done.status, 'completed', done.message ?? '');
      const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${r.body.process_id}`, { token: u.token })).body as { items: { error: string | null }[] };
      const ajv = new Ajv({ strict: false, allErrors: true });
      const validate = ajv.compile({ ...doc.components.schemas[`${pascal(type)}Result`], $id: undefined });
      assert.ok(validate(result), JSON.stringify(validate.errors?.slice(0, 5)));
      assert.ok(
        result.items.some((i) => i.error === null),
        'at least one item succeeded',
      );
    });
  }
});
