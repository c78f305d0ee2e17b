// POST /workflows/validate (docs/workflows.md): a valid spec gets an order of its steps; an
// invalid one gets every problem at once, each located in the spec: unknown job types,
// duplicate ids, unknown ports and steps, mistyped port bindings, cycles, params that fail the
// job type's own schema or rules (a filter expression that does not parse); size limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const TRIAGE = {
  name: 'library triage',
  inputs: { library: { type: 'molecules' }, max_mw: { type: 'number', default: 500 } },
  steps: [
    { id: 'depict', job_type: 'depict', inputs: { molecules: '$steps.cluster.outputs.assignments' } },
    { id: 'filter', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'mw <= 500 and clogp < 5 and not pains' } },
    { id: 'cluster', job_type: 'cluster', inputs: { molecules: '$steps.filter.outputs.molecules' }, params: { cutoff: 0.4 } },
    { id: 'props', job_type: 'properties', inputs: { molecules: '$steps.filter.outputs.molecules' } },
  ],
  outputs: { clusters: '$steps.cluster.outputs.clusters', drawings: '$steps.depict.outputs.depictions' },
};

for (const backend of [BACKENDS[0]]) {
  describe(`POST /workflows/validate [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend);
      token = (await h.user()).token;
    });
    after(() => h?.close());
    const validate = (spec: unknown) => h.req('POST', '/api/v1/workflows/validate', { token, body: { spec } });

    it('a valid spec: valid, no errors, the steps in dependency order; an unused input is a warning', async () => {
      const r = await validate(TRIAGE);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.valid, r.body.errors], [true, []]);
      assert.deepEqual(r.body.step_order, ['filter', 'cluster', 'props', 'depict']);
      assert.deepEqual(
        r.body.warnings.map((w: { loc: unknown[] }) => w.loc),
        [['spec', 'inputs', 'max_mw']],
      );
    });

    it('an invalid spec: every problem at once, each at its location', async () => {
      const bad = {
        name: 'broken',
        inputs: { library: { type: 'molecules' }, n: { type: 'number' } },
        steps: [
          { id: 'a', job_type: 'filter', inputs: { molecules: '$steps.b.outputs.molecules' }, params: { expression: 'mw <= (500' } },
          { id: 'b', job_type: 'filter', inputs: { molecules: '$steps.a.outputs.molecules' }, params: { expression: 'weight < 3' } },
          { id: 'b', job_type: 'teleport' },
          { id: 'c', job_type: 'cluster', inputs: { molecules: '$steps.p.outputs.table', compounds: '$inputs.library' }, params: { cutoff: 2 } },
          { id: 'p', job_type: 'properties', inputs: { molecules: '$inputs.n' } },
          { id: 'd', job_type: 'depict', inputs: { molecules: '$steps.ghost.outputs.x' }, params: { width: '$inputs.nope' } },
        ],
        outputs: { x: '$steps.a.outputs.nothing' },
      };
      const r = await validate(bad);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.valid, false);
      const locs = r.body.errors.map((e: { loc: unknown[] }) => e.loc.join('.'));
      for (const expected of [
        'spec.steps.2.id', // duplicate
        'spec.steps.2.job_type', // unknown type
        'spec.steps.0.params.expression', // does not parse
        'spec.steps.1.params.expression', // unknown name
        'spec.steps.3.inputs.molecules', // csv into molecules
        'spec.steps.3.inputs.compounds', // no such port
        'spec.steps.3.params.cutoff', // the cluster schema's maximum
        'spec.steps.4.inputs.molecules', // a number input into a molecules port
        'spec.steps.5.inputs.molecules', // unknown step
        'spec.steps.5.params.width', // unknown workflow input
        'spec.outputs.x', // no such output port
      ])
        assert.ok(locs.includes(expected), `${expected} in ${locs.join(', ')}`);
      const cycle = r.body.errors.find((e: { type: string }) => e.type === 'cycle');
      assert.ok(cycle, 'the a <-> b cycle is reported');
      assert.deepEqual(r.body.step_order, []);
    });

    it('POST /workflows/estimate: per-step job estimates, their sum, the critical path; an invalid spec is a 422 at its locations', async () => {
      const r = await h.req('POST', '/api/v1/workflows/estimate', { token, body: { spec: TRIAGE } });
      assert.equal(r.status, 200, r.text);
      const steps = Object.fromEntries(r.body.steps.map((x: { step_id: string; cost: number; expected_runtime_sec: number }) => [x.step_id, x]));
      assert.deepEqual(Object.keys(steps).sort(), ['cluster', 'depict', 'filter', 'props']);
      const sum = Object.values(steps).reduce((a: number, x) => a + (x as { cost: number }).cost, 0);
      assert.ok(Math.abs(r.body.cost - sum) < 1e-9 && r.body.cost > 0);
      const t = (id: string) => (steps[id] as { expected_runtime_sec: number }).expected_runtime_sec;
      assert.ok(Math.abs(r.body.expected_runtime_sec - (t('filter') + Math.max(t('cluster') + t('depict'), t('props')))) < 1e-9);
      assert.equal(steps.filter.assumptions.molecules, 1000);
      const bad = await h.req('POST', '/api/v1/workflows/estimate', {
        token,
        body: { spec: { ...TRIAGE, steps: [{ id: 'x', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: 'nope > 1' } }] } },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.errors[0].loc, ['body', 'spec', 'steps', 0, 'params', 'expression']);
    });

    it('malformed specs are reported at their location; more than 50 steps is an error; over 256 KiB is a 413', async () => {
      const r = await validate({ name: 'x', steps: [{ id: '1bad', job_type: 'depict', extra: 1 }] });
      assert.equal(r.body.valid, false);
      assert.deepEqual(r.body.errors.map((e: { loc: unknown[] }) => e.loc.join('.')).sort(), ['spec.steps.0.extra', 'spec.steps.0.id']);
      const many = await validate({ name: 'x', steps: Array.from({ length: 51 }, (_, i) => ({ id: `s${i}`, job_type: 'wait', params: { seconds: 1 } })) });
      assert.deepEqual(
        many.body.errors.map((e: { loc: unknown[]; type: string }) => [e.loc.join('.'), e.type]),
        [['spec.steps', 'too_long']],
      );
      const huge = await validate({ name: 'x', description: 'y'.repeat(300 * 1024), steps: [] });
      assert.equal(huge.status, 413);
      assert.equal(huge.body.type, '/api/v1/problems/payload-too-large');
    });
  });
}
