// POST /workflows/validate (docs/workflows.md): a valid spec gets an order of its steps; an
// invalid one gets every problem at once, each located in the spec: unknown job types,
// duplicate ids, unknown ports and steps, mistyped port bindings, cycles, params that fail the
// job type's own schema or rules (a filter expression that does not parse); size limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { validateSpec } from '../../src/workflows/spec.js';

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

    it("names are looked up as the spec's own: constructor, toString and __proto__ are no input, port or output", async () => {
      const r = await validate({
        name: 'builtins',
        inputs: { library: { type: 'molecules' } },
        steps: [
          { id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.constructor' }, params: { expression: 'mw < 500' } },
          { id: 'draw', job_type: 'depict', inputs: { molecules: '$steps.keep.outputs.toString', constructor: '$inputs.library' } },
          { id: 'more', job_type: 'filter', inputs: { molecules: '$inputs.library' }, params: { expression: '$inputs.hasOwnProperty' } },
        ],
        outputs: { a: '$steps.keep.outputs.constructor', b: '$steps.keep.outputs.__proto__', c: '$steps.keep.outputs.valueOf' },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.valid, false);
      assert.deepEqual(r.body.errors.map((e: { loc: unknown[]; type: string }) => [e.loc.join('.'), e.type]).sort(), [
        ['spec.outputs.a', 'port'],
        ['spec.outputs.b', 'reference'], // not even a reference: a port name starts with a letter
        ['spec.outputs.c', 'port'],
        ['spec.steps.0.inputs.molecules', 'reference'],
        ['spec.steps.1.inputs.constructor', 'port'],
        ['spec.steps.1.inputs.molecules', 'port'],
        ['spec.steps.2.params.expression', 'reference'],
      ]);
      // A param named __proto__ (HTTP refuses such JSON; a spec built in the process may have one)
      // is a param the job type does not have, not the payload's prototype.
      const proto = JSON.parse('{"name":"p","steps":[{"id":"w","job_type":"wait","params":{"__proto__":{"seconds":1}}}]}');
      const p = await validateSpec(proto, async () => ({ expectedRuntimeSec: 1, assumptions: {} }));
      assert.deepEqual(p.errors.map((e) => [e.loc.join('.'), e.type]).sort(), [
        ['spec.steps.0.params.__proto__', 'extra_forbidden'],
        ['spec.steps.0.params.seconds', 'missing'],
      ]);
    });

    it('input, output and port names follow their pattern; a default fits its type; a wrong port does not hide a cycle', async () => {
      const long = `a${'b'.repeat(999)}`;
      const spec = {
        name: 'names',
        inputs: { '<script>alert(1)</script>': { type: 'number' }, '': { type: 'number' }, '../x': { type: 'string' }, [long]: { type: 'number' }, ok: { type: 'molecules' } },
        steps: [{ id: 'keep', job_type: 'filter', inputs: { molecules: '$inputs.ok', 'bad port': '$inputs.ok' }, params: { expression: 'mw < 500' } }],
        outputs: { '<b>': '$steps.keep.outputs.molecules', kept: '$steps.keep.outputs.molecules' },
      };
      const r = await validate(spec);
      assert.equal(r.body.valid, false);
      assert.deepEqual(r.body.errors.map((e: { loc: unknown[]; type: string }) => [e.loc.join('.'), e.type]).sort(), [
        ['spec.inputs.', 'string_pattern_mismatch'],
        ['spec.inputs.../x', 'string_pattern_mismatch'],
        ['spec.inputs.<script>alert(1)</script>', 'string_pattern_mismatch'],
        [`spec.inputs.${long}`, 'string_pattern_mismatch'],
        ['spec.outputs.<b>', 'string_pattern_mismatch'],
        ['spec.steps.0.inputs.bad port', 'string_pattern_mismatch'],
      ]);
      assert.match(r.body.errors[0].msg, /names are letters, digits and _, starting with a letter, at most 64 characters/);
      // Nothing of the kind is stored.
      const saved = await h.req('POST', '/api/v1/workflows', { token, body: { spec } });
      assert.equal(saved.status, 422, saved.text);
      const { rows } = await h.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_versions WHERE spec->>'name' = 'names'`);
      assert.equal(rows[0]!.n, 0);

      // Defaults are checked as a run checks its inputs.
      const defaults = await validate({
        name: 'defaults',
        inputs: {
          n: { type: 'integer', default: 1.5 },
          x: { type: 'number', default: 'ten' },
          s: { type: 'string', default: '' },
          b: { type: 'boolean', default: 1 },
          lib: { type: 'molecules', default: 42 },
          fine: { type: 'integer', default: 3 },
        },
        steps: [{ id: 'w', job_type: 'wait', params: { seconds: 1 } }],
      });
      assert.deepEqual(
        defaults.body.errors.map((e: { loc: unknown[]; type: string }) => [e.loc.join('.'), e.type]),
        [
          ['spec.inputs.n.default', 'type_error'],
          ['spec.inputs.x.default', 'type_error'],
          ['spec.inputs.s.default', 'type_error'],
          ['spec.inputs.b.default', 'type_error'],
          ['spec.inputs.lib.default', 'type_error'],
        ],
      );

      // a reads b through a port b does not have, b reads a: still a cycle.
      const cycle = await validate({
        name: 'cycle',
        inputs: {},
        steps: [
          { id: 'a', job_type: 'filter', inputs: { molecules: '$steps.b.outputs.nope' }, params: { expression: 'mw < 500' } },
          { id: 'b', job_type: 'filter', inputs: { molecules: '$steps.a.outputs.molecules' }, params: { expression: 'mw < 500' } },
        ],
      });
      const types = cycle.body.errors.map((e: { type: string }) => e.type);
      assert.ok(types.includes('port') && types.includes('cycle'), JSON.stringify(cycle.body.errors));
      assert.deepEqual(cycle.body.step_order, []);
    });

    it('estimates are rounded: runtimes to the millisecond, money to the micro-dollar', async () => {
      const milli = (x: number) => Math.round(x * 1000) / 1000 === x;
      const micro = (x: number) => Math.round(x * 1_000_000) / 1_000_000 === x;
      // filter (its molecules inline) -> depict: the critical path is a sum of two step estimates
      // (2.009 + 10.8 is 12.809000000000001 in floating point).
      const smiles = ['CCO', 'CCN', 'CCC', 'CCCl', 'CCBr', 'CCF', 'CCS', 'CCI', 'COC', 'CNC', 'CC=O', 'C#N'];
      for (let n = 1; n <= smiles.length; n++) {
        const chain = {
          name: 'chain',
          steps: [
            { id: 'keep', job_type: 'filter', params: { smiles: smiles.slice(0, n), expression: 'mw < 500' } },
            { id: 'draw', job_type: 'depict', inputs: { molecules: '$steps.keep.outputs.molecules' } },
          ],
        };
        const r = await h.req('POST', '/api/v1/workflows/estimate', { token, body: { spec: chain } });
        assert.equal(r.status, 200, r.text);
        const times = [r.body.expected_runtime_sec, ...r.body.steps.map((x: { expected_runtime_sec: number }) => x.expected_runtime_sec)];
        const money = [r.body.cost, ...r.body.steps.map((x: { cost: number }) => x.cost)];
        assert.ok(times.every(milli) && money.every(micro), `${n}: ${JSON.stringify([times, money])}`);
        const sum = r.body.steps.reduce((a: number, x: { expected_runtime_sec: number }) => a + x.expected_runtime_sec, 0);
        assert.equal(r.body.expected_runtime_sec, Math.round(sum * 1000) / 1000, 'a chain: the sum of its steps');
        const job = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'filter', payload: { smiles: smiles.slice(0, n), expression: 'mw < 500' } } });
        assert.equal(job.status, 200, job.text);
        assert.ok(milli(job.body.expected_runtime_sec) && micro(job.body.cost), JSON.stringify(job.body));
      }
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
