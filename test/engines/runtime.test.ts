// The engine runtime through the API (docs/engines.md): GET /engines reports what the workers
// found; a job that needs an engine no live worker has is a 503 engine-unavailable naming its
// Debian package, with nothing reserved; cancel kills the engine's process group at once; the
// engines' logs are stored in the result artifact.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { scratchRoot } from '../../src/engines/scratch.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { engineProcesses, LONG_SMILES, within } from './helpers.js';

for (const backend of BACKENDS) {
  describe(`engines without a worker [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 0 });
    });
    after(() => h?.close());

    it('an engine job is a 503 engine-unavailable naming the Debian packages, at estimate and submit, and reserves nothing', async () => {
      const u = await h.user();
      await h.credit(u.userId, 1);
      for (const [path, body] of [
        ['/api/v1/jobs/estimate', { job_type: 'optimize', payload: { molecules: ['CCO'], method: 'gfn2' } }],
        ['/api/v1/jobs/submit', { job_name: 'x', job_type: 'optimize', payload: { molecules: ['CCO'], method: 'pm7' } }],
      ] as const) {
        const r = await h.req('POST', path, { token: u.token, body });
        assert.equal(r.status, 503, r.text);
        assert.equal(r.body.type, '/api/v1/problems/engine-unavailable');
        assert.equal(r.body.retry, 'terminal');
        assert.match(r.body.detail, body.payload.method === 'pm7' ? /mopac \(Debian package mopac\)/ : /xtb \(Debian package xtb\)/);
        assert.match(r.body.detail, /obabel \(Debian package openbabel\)/);
      }
      assert.deepEqual((await h.req('GET', '/api/v1/wallet', { token: u.token })).body, { balance_usd: 1, reserved_usd: 0, available_usd: 1, currency: 'USD' });
      assert.equal((await h.req('GET', '/api/v1/jobs/list', { token: u.token })).body.items.length, 0);
      // A bad payload is still a 422 first: validation does not depend on the engines.
      const bad = await h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'optimize', payload: { molecules: ['CCO'], method: 'm06-2x' } } });
      assert.equal(bad.status, 422, bad.text);
      const engines = await h.req('GET', '/api/v1/engines', { token: u.token });
      assert.equal(engines.status, 200, engines.text);
      assert.equal(engines.body.workers, 0);
      assert.ok(engines.body.engines.every((e: { available: boolean; job_types: string[] }) => !e.available && e.job_types.length === 0));
      // RDKit jobs still queue (a worker may start later).
      assert.equal((await h.req('POST', '/api/v1/jobs/submit', { token: u.token, body: { job_name: 'w', job_type: 'wait', payload: { seconds: 1 } } })).status, 200);
    });
  });
}

describe('engines with a worker [pglite]', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { workers: 1 });
  });
  after(() => h?.close());

  it('GET /engines reports each engine the worker found, its version, path, Debian package and job types', async () => {
    const u = await h.user();
    const r = await h.req('GET', '/api/v1/engines', { token: u.token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.workers, 1);
    const byName = new Map<string, any>(r.body.engines.map((e: { name: string }) => [e.name, e]));
    assert.deepEqual([...byName.keys()], ['xtb', 'mopac', 'obabel', 'vina', 'psi4', 'nwchem', 'rdkit', 'pdbfixer', 'pdb2pqr', 'plip']);
    assert.match(byName.get('xtb').version, /^6\.\d+\.\d+$/);
    assert.match(byName.get('obabel').version, /^3\.\d+\.\d+$/);
    assert.match(byName.get('mopac').version, /^\d+\.\d+\.\d+$/);
    assert.match(byName.get('vina').version, /^1\.2\.\d+$/);
    assert.match(byName.get('psi4').version, /^1\.3\.\d+$/);
    assert.match(byName.get('nwchem').version, /^7\.0\.\d+$/);
    assert.match(byName.get('rdkit').version, /^20\d\d\.\d\d\.\d+$/);
    assert.match(byName.get('pdbfixer').version, /^7\.\d+/); // OpenMM's, which PDBFixer runs on
    assert.match(byName.get('pdb2pqr').version, /^3\.\d+\.\d+$/);
    assert.match(byName.get('plip').version, /^2\.\d+\.\d+$/);
    for (const e of byName.values()) {
      assert.equal(e.available, true, e.name);
      assert.ok(fs.existsSync(e.path), e.path);
      assert.equal(e.workers, 1);
    }
    assert.deepEqual(
      [...byName.values()].map((e) => e.debian_package),
      ['xtb', 'mopac', 'openbabel', 'autodock-vina', 'psi4', 'nwchem', 'python3-rdkit', 'python3-pdbfixer', 'pdb2pqr', 'plip'],
    );
    for (const t of ['optimize', 'singlepoint']) {
      assert.ok(byName.get('xtb').job_types.includes(t), t);
      assert.ok(byName.get('mopac').job_types.includes(t), t);
    }
    assert.ok(byName.get('xtb').methods.includes('gfn2'));
  });

  it('cancel kills the engine at once (its process group), ends the job cancelled and removes its scratch directory', async () => {
    const u = await h.user();
    await h.credit(u.userId, 5);
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: u.token,
      body: { job_name: 'long', job_type: 'optimize', payload: { molecules: [LONG_SMILES], method: 'gfn2' } },
    });
    assert.equal(r.status, 200, r.text);
    await within('xtb runs', 60_000, () => engineProcesses(process.pid).some((p) => /\bxtb\b/.test(p.cmd)), 50);
    const dirs = fs.readdirSync(scratchRoot()).filter((d) => d.startsWith(`${process.pid}-`));
    assert.ok(dirs.length >= 1);
    const cancelled = await h.req('DELETE', `/api/v1/jobs/cancel?process_id=${r.body.process_id}`, { token: u.token });
    assert.equal(cancelled.status, 200, cancelled.text);
    const ms = await within('the engine is gone', 5_000, () => engineProcesses(process.pid).length === 0, 10);
    assert.ok(ms < 1_000, `the engine was gone ${ms} ms after the cancel answered`);
    await within('the scratch directory is removed', 5_000, () => !fs.readdirSync(scratchRoot()).some((d) => dirs.includes(d)));
    const info = (await h.req('GET', `/api/v1/jobs/info?process_id=${r.body.process_id}`, { token: u.token })).body.info;
    assert.equal(info.status, 'cancelled');
  });

  it("stores each structure's engine log in the result artifact", async () => {
    const u = await h.user();
    await h.credit(u.userId, 1);
    const r = await h.req('POST', '/api/v1/jobs/submit', {
      token: u.token,
      body: { job_name: 'logs', job_type: 'singlepoint', payload: { molecules: ['O', 'N'], method: 'gfnff' } },
    });
    assert.equal(r.status, 200, r.text);
    const done = await h.waitForJob(u.token, r.body.process_id, undefined, 60_000);
    assert.equal(done.status, 'completed', done.message ?? '');
    const art = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}`, { token: u.token })).body;
    const logs = art.manifest.ports.logs.records as { id: string }[];
    assert.deepEqual(
      logs.map((x) => x.id),
      ['0', '1'],
    );
    const text = (await h.req('GET', `/api/v1/artifacts/${done.result_artifact_id}/download?port=logs&record=1`, { token: u.token })).text;
    assert.match(text, /\$ obabel /);
    assert.match(text, /\$ xtb structure\.sdf --gfnff --chrg 0 --uhf 0 --json -P 1/);
    assert.match(text, /TOTAL ENERGY/);
  });
});
