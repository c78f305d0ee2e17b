// An engine that runs past its job's runtime limit (docs/jobs.md: 3 x expected + grace) is
// killed, the job ends `error` saying so, and it is charged at most up to the limit. An
// uploaded set is estimated at 40 atoms a structure (about 18 s for three, a limit of 54 s);
// three structures of 194 atoms (GFN2 takes up to 200) need minutes even on a fast machine
// (one 124-atom optimisation alone took 27 s on two cores), as a hung engine would.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { engineProcesses, within } from './helpers.js';

/** 194 atoms with hydrogens: GFN2's optimisation of it runs about (194/40)^3 = 114 times the 40-atom estimate. */
const HUGE_SMILES = 'CC(C)Cc1ccc(cc1)C(C)C(=O)NCCCCCCCCCCCCc1ccc(cc1)C(C)C(=O)NCCCCCCCCCCc1ccc(cc1)C(C)C(=O)NCCCCCCCc1ccc(cc1)C(C)C(=O)NCc1ccccc1';

const run = promisify(execFile);

describe('an engine past the runtime limit [pglite]', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0], { CRUCIBLE_RUNTIME_GRACE_SEC: '1' }, { workers: 1 });
  });
  after(() => h?.close());

  it('is killed at the limit; the job ends error "runtime limit exceeded", charged at most its limit', { timeout: 240_000 }, async () => {
    const u = await h.user();
    await h.credit(u.userId, 5);
    const one = (await run('obabel', [`-:${HUGE_SMILES}`, '--gen3d', '-h', '-osdf'])).stdout;
    const sdf = [1, 2, 3].map((i) => one.replace(/^.*\n/, `long ${i}\n`)).join('');
    const form = new FormData();
    form.append('mode', 'molecules');
    form.append('file', new Blob([sdf]), 'long.sdf');
    const up = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } });
    const upText = await up.text();
    assert.equal(up.status, 201, upText);
    const artifactId = (JSON.parse(upText) as { id: string }).id;
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: u.token,
      body: { job_name: 'hangs', job_type: 'optimize', payload: { input_artifact_id: artifactId, method: 'gfn2' } },
    });
    assert.equal(r.status, 200, r.text);
    const info0 = (await h.req('GET', `/api/v1/jobs/info?process_id=${r.body.process_id}`, { token: u.token })).body.info;
    const limitSec = 3 * info0.expected_runtime_sec + 1;
    await within('xtb runs', 120_000, () => engineProcesses(process.pid).some((p) => /\bxtb\b/.test(p.cmd)), 50);
    const done = await h.waitForJob(u.token, r.body.process_id, undefined, 200_000);
    assert.equal(done.status, 'error');
    assert.match(done.message ?? '', /runtime limit exceeded/);
    await within('no engine is left', 2_000, () => engineProcesses(process.pid).length === 0);
    const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${r.body.process_id}`, { token: u.token })).body.info;
    assert.ok(info.runtime_seconds <= limitSec + 2, `ran ${info.runtime_seconds} s against a limit of ${limitSec} s`);
    assert.ok(info.charged_amount <= info0.rate_per_sec * (limitSec + 2) + 1e-6 && info.charged_amount > 0, `charged ${info.charged_amount}`);
  });
});
