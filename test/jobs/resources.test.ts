// What a job's resource buys: its vCPUs are the chemistry threads the job may use at once, and
// its estimate (hence its reservation and price) is computed for that many. `default` (1 vCPU)
// never occupies more than one thread; `cpu-4` spreads over up to four (all of a smaller pool).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChemPool } from '../../src/chem/pool.js';
import { CALIBRATION } from '../../src/compute/types/calibration.js';
import { RESOURCES } from '../../src/compute/resources.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const SMILES = Array.from({ length: 1000 }, (_, i) => `${'C'.repeat((i % 12) + 1)}O`);

/** The model of calibration.ts: describe work spreads over the vCPUs, writing records does not. */
function expectedSeconds(n: number, vcpu: number): number {
  const { overheadSec, SAFETY, perMoleculeMs } = CALIBRATION;
  return overheadSec + (SAFETY * n * (perMoleculeMs.describe / vcpu + perMoleculeMs.writeRecord)) / 1000;
}

describe('chemistry pool: a job uses at most its lanes', () => {
  let pool: ChemPool;
  before(() => {
    pool = new ChemPool({ threads: 2, cacheEntries: 0 });
  });
  after(async () => pool?.close());

  it('runs one task at a time with one lane, and both threads without a bound', async () => {
    const mols = SMILES.slice(0, 64);
    const one = await pool.runItems('describe', mols, { key: false }, 1);
    assert.ok(one.every((o) => o.ok));
    assert.equal(pool.stats().peakRunning, 1, 'a one-lane call never has two tasks running');
    const all = await pool.runItems('describe', mols, { key: false });
    assert.ok(all.every((o) => o.ok));
    assert.equal(pool.stats().peakRunning, 2, 'an unbounded call uses both threads');
    // Same answers either way, in input order.
    assert.deepEqual(
      one.map((o) => (o.ok ? o.value.properties?.formula : null)),
      all.map((o) => (o.ok ? o.value.properties?.formula : null)),
    );
  });
});

for (const backend of BACKENDS) {
  describe(`job resources [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend);
      token = (await h.user()).token;
    });
    after(async () => h?.close());

    it('estimates a 1,000-molecule properties job for the resource it asks for', async () => {
      const out: Record<string, { cost: number; expected_runtime_sec: number; rate_per_sec: number }> = {};
      for (const resource of ['default', 'cpu-4']) {
        const r = await h.req('POST', '/api/v1/jobs/estimate', { token, body: { job_type: 'properties', resource, payload: { smiles: SMILES } } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.resource, resource);
        out[resource] = r.body;
      }
      for (const [name, e] of Object.entries(out)) {
        const resource = RESOURCES[name];
        assert.ok(resource, `${name} is a resource`);
        assert.ok(Math.abs(e.expected_runtime_sec - expectedSeconds(1000, resource.vcpu)) < 0.002, `${name}: ${e.expected_runtime_sec}`);
        assert.equal(e.rate_per_sec, resource.rateMicrosPerSec / 1e6);
        assert.ok(Math.abs(e.cost - e.expected_runtime_sec * e.rate_per_sec) < 1e-6);
      }
      // Four vCPUs finish sooner; the price per second is four times, the total is not.
      const { default: one, 'cpu-4': four } = out;
      assert.ok(one && four);
      assert.ok(four.expected_runtime_sec < one.expected_runtime_sec / 2);
      assert.ok(four.cost < 4 * one.cost * 0.6);
    });
  });
}
