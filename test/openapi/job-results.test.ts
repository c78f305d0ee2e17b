// GET /jobs/result in the OpenAPI document (docs/api-decisions.md, "The OpenAPI document"):
// every registered job type has a result schema (<Type>Result), a branch of JobResult
// discriminated by job_type, and a real result of each type validates against both. The engine
// types' results are checked by the engine tests (their jobs need the engines and a receptor),
// the chemistry questions' and the profile table's by the profile template's test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { JOB_TYPES } from '../../src/compute/registry.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/** 60 distinct molecules (alcohols, amines, fluorides, chlorides of 1 to 15 carbons) with a made-up target. */
const ROWS = ['O', 'N', 'F', 'Cl'].flatMap((end, k) => Array.from({ length: 15 }, (_, i) => ({ smiles: 'C'.repeat(i + 1) + end, target: i * 0.3 + k })));

/** A small payload of each job type that runs without the engines. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  properties: { smiles: ['CCO', 'c1ccccc1O', 'not a smiles'] },
  depict: { smiles: ['CCO', 'C1CC'] },
  similarity_search: { query: 'CCO', smiles: ['CCO', 'CCCO', 'c1ccccc1', 'xx'], threshold: 0.1 },
  substructure_search: { query: '[OX2H]', smiles: ['CCO', 'CC', 'OCCO'] },
  cluster: { smiles: ['CCO', 'CCCO', 'c1ccccc1', 'c1ccccc1C', 'xx'], cutoff: 0.6 },
  filter: { smiles: ['CCO', 'c1ccccc1', 'CCCCCCCCCCCCCCCCCCCCCCCC'], expression: 'mw < 200' },
  wait: { seconds: 1 },
  mpnn_train: { model_name: 'openapi-check', task: 'regression', rows: ROWS, hyperparameters: { epochs: 2, hidden_size: 32, depth: 2, batch_size: 16 } },
  mpnn_predict: { model: 'public/esol-logs', smiles: ['CCO', 'c1ccccc1', 'xx'] },
};

/** Engine job types: their real results are checked against <Type>Result where their jobs run. */
const CHECKED_BY_ENGINE_TESTS: Record<string, string> = {
  optimize: 'test/engines/schemas.test.ts',
  singlepoint: 'test/engines/schemas.test.ts',
  conformers: 'test/engines/schemas.test.ts',
  frequencies: 'test/engines/schemas.test.ts',
  scan: 'test/engines/schemas.test.ts',
  docking: 'test/engines/docking.test.ts',
  pose_check: 'test/engines/pose-check.test.ts',
  pockets: 'test/engines/pockets.test.ts',
  properties_qm: 'test/engines/dft-properties.test.ts',
  rerank: 'test/engines/dft-rerank.test.ts',
  reactivity: 'test/engines/reactivity.test.ts',
  pka: 'test/engines/pka.test.ts',
  tautomers: 'test/engines/tautomers.test.ts',
  bde: 'test/engines/bde.test.ts',
  receptor_prepare: 'test/engines/receptor-prepare.test.ts',
  profile_table: 'test/workflows/profile.test.ts',
};

for (const backend of onlyOn('pglite')) {
  describe(`job results in the OpenAPI document [${backend.name}]`, () => {
    let h: Harness;
    let doc: any;
    let ajv: Ajv;
    const validator = (name: string): ValidateFunction => ajv.getSchema(`openapi#/components/schemas/${name}`)!;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 2 });
      doc = (await h.req('GET', '/openapi.json')).body;
      ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ $id: 'openapi', components: doc.components });
    });
    after(() => h?.close());

    it('every registered job type has a result schema, a branch of JobResult, and a sample checked here or in an engine test', () => {
      const jobResult = doc.components.schemas.JobResult;
      assert.equal(jobResult.discriminator.propertyName, 'job_type');
      for (const type of JOB_TYPES.keys()) {
        const name = `${pascal(type)}Result`;
        const schema = doc.components.schemas[name];
        assert.ok(schema, `${name} is published`);
        assert.deepEqual(schema.required?.[0], 'job_type', `${name} leads with job_type`);
        assert.equal(jobResult.discriminator.mapping[type], `#/components/schemas/${name}`, `JobResult maps ${type}`);
        assert.ok(SAMPLES[type] || CHECKED_BY_ENGINE_TESTS[type], `${type} has a sample result checked against ${name}`);
      }
      assert.equal(jobResult.oneOf.length, JOB_TYPES.size);
      const ok = doc.paths['/api/v1/jobs/result'].get.responses;
      assert.equal(ok['200'].content['application/json'].schema.$ref, '#/components/schemas/JobResult');
      assert.match(ok['409'].description, /job-not-finished/);
      assert.equal(ok['409'].content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
      const multi = doc.paths['/api/v1/jobs/result-multiple'].get.responses['200'].content['application/json'].schema;
      assert.deepEqual(multi.additionalProperties.oneOf, [{ $ref: '#/components/schemas/JobResult' }, { $ref: '#/components/schemas/Problem' }]);
    });

    it('a real result of each type validates against its <Type>Result and JobResult; result-multiple maps ids to results and problems', async () => {
      const u = await h.user();
      await h.credit(u.userId, 5);
      const ids: Record<string, string> = {};
      for (const [type, payload] of Object.entries(SAMPLES)) {
        const r = await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: type, job_type: type, payload } });
        assert.equal(r.status, 200, `${type}: ${r.text}`);
        ids[type] = r.body.process_id;
      }
      const early = await h.req('GET', `/api/v1/jobs/result?process_id=${ids.wait}`, { token: u.token });
      assert.equal(early.status, 409, 'a running job has no result yet');
      assert.equal(early.body.type, '/api/v1/problems/job-not-finished');
      assert.ok(validator('Problem')(early.body));
      for (const [type, id] of Object.entries(ids)) {
        const done = await h.waitForJob(u.token, id, undefined, 120_000);
        assert.equal(done.status, 'completed', `${type}: ${done.message}`);
        const result = (await h.req('GET', `/api/v1/jobs/result?process_id=${id}`, { token: u.token })).body;
        assert.equal(result.job_type, type);
        const own = validator(`${pascal(type)}Result`);
        assert.ok(own(result), `${type}: ${JSON.stringify(own.errors?.slice(0, 5))}`);
        const any = validator('JobResult');
        assert.ok(any(result), `${type} as JobResult: ${JSON.stringify(any.errors?.slice(0, 5))}`);
      }
      const [waitId, clusterId, missing] = [ids.wait ?? '', ids.cluster ?? '', '00000000-0000-4000-8000-000000000000'];
      const multi = await h.req('GET', `/api/v1/jobs/result-multiple?process_ids=${waitId},${clusterId},${missing}`, { token: u.token });
      assert.equal(multi.status, 200);
      assert.deepEqual(multi.body[waitId], { job_type: 'wait', slept_seconds: 1 });
      assert.equal(multi.body[clusterId].job_type, 'cluster');
      assert.equal(multi.body[missing].status, 404);
      const [result, problem] = [validator('JobResult'), validator('Problem')];
      for (const value of Object.values<any>(multi.body))
        assert.ok(result(value) !== problem(value), `exactly one of JobResult and Problem: ${JSON.stringify(value).slice(0, 300)}`);
    });
  });
}
