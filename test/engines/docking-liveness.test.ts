// No request stalls the server (docs/reliability.md; docs/engines.md, "Docking"): a receptor of
// almost 50 MB (the largest accepted, 646,000 atoms) is decoded, hashed, parsed and checked
// against the box in the receptor reader's thread, never on the event loop. While it is
// estimated (twice: once with a box that misses it, a 422 that needs every atom read) and read
// as the job's run reads it (with the text Open Babel prepares), GET /health/live, asked every
// 50 ms from a thread of its own, answers within 200 ms every time. Read on the event loop, the
// file held it for 0.8 to 2 s (hash, parse and filter), and its decoding into one string for
// 50 to 250 ms more.
//
// The job's own run is not part of the window: Open Babel's start (a child process) holds the
// event loop of a large process for a while, which is the engine runtime's matter, not reading.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { RunContext } from '../../src/compute/job-type.js';
import { dockingInputs, type DockingPayload } from '../../src/compute/types/kit/docking-inputs.js';
import { jobArtifactsFrom } from '../../src/modules/artifacts/job-results.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { collectGarbage, probeSummary, startLivenessProbe } from '../helpers/liveness-probe.js';
import { boxOf, readData, uploadFile } from './docking-helpers.js';

const STALL_MS = 200;
const MAX_BYTES = 50 * 1024 * 1024;

/** Builds 1IEP's receptor copied side by side along x (60 A apart) up to just under 50 MB, in a thread whose heap goes with it. */
const BUILD = `
const { parentPort, workerData } = require('node:worker_threads');
const atoms = workerData.text.split('\\n').filter((l) => l.startsWith('ATOM  '));
const lines = [];
let bytes = 4;
build: for (let copy = 0; ; copy++)
  for (const l of atoms) {
    const line = l.slice(0, 30) + (Number(l.slice(30, 38)) + (copy % 20) * 60).toFixed(3).padStart(8) + l.slice(38) + '\\n';
    if (bytes + line.length > workerData.maxBytes - 1000) break build;
    lines.push(line);
    bytes += line.length;
  }
const bytesOut = new TextEncoder().encode(lines.join('') + 'END\\n');
parentPort.postMessage({ bytes: bytesOut, atoms: lines.length }, [bytesOut.buffer]);
`;

/** 1IEP's receptor copied side by side along x (60 A apart) up to just under 50 MB, and its atom count: the box of 1IEP's ligand holds the first copy. */
async function largeReceptor(): Promise<{ file: Buffer; atoms: number }> {
  const w = new Worker(BUILD, { eval: true, workerData: { text: readData('1iep_receptorH.pdb'), maxBytes: MAX_BYTES } });
  const built = await new Promise<{ bytes: Uint8Array; atoms: number }>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  await w.terminate();
  return { file: Buffer.from(built.bytes.buffer, built.bytes.byteOffset, built.bytes.byteLength), atoms: built.atoms };
}

for (const backend of onlyOn('pglite')) {
  describe(`a large receptor never stalls the server [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
    });
    after(() => h?.close());

    /** What the job's run reads (docking.ts): the receptor through the same artifacts port, the text Open Babel prepares written to `file`. */
    const runInputs = (userId: string, payload: DockingPayload, file: string) => {
      const files = jobArtifactsFrom(h.services.artifacts);
      return dockingInputs({ payload, readFile: (id: string, max: number) => files.readFile(userId, id, max), deps: {} } as unknown as RunContext<DockingPayload>, file);
    };

    it('estimating a 50 MB receptor and reading it for the run: /health/live answers within 200 ms throughout', async (t) => {
      const u = await h.user();
      await h.credit(u.userId, 50);
      const { file, atoms } = await largeReceptor();
      assert.ok(file.length > 49 * 1024 * 1024 && file.length < MAX_BYTES, String(file.length));
      const receptor = await uploadFile(h, u.token, 'large.pdb', file);
      const payload = { molecules: ['c1ccccc1O'], receptor_artifact_id: receptor, box: boxOf('1iep'), exhaustiveness: 1, pose_checks: false };
      const estimate = (p: Record<string, unknown>) => h.req('POST', '/api/v1/jobs/estimate', { token: u.token, body: { job_type: 'docking', payload: p } });

      // Warm-up with 1IEP's own receptor: the code on these paths is loaded and the reader's
      // thread started (from sources, tsx compiles a module on the event loop when it is first
      // imported), so the probe measures the large file, not the first use of the code.
      const small = await uploadFile(h, u.token, '1iep.pdb', readData('1iep_receptorH.pdb'));
      assert.equal((await estimate({ ...payload, receptor_artifact_id: small })).status, 200);
      const pdb = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-liveness-')), 'receptor.pdb');
      assert.equal((await runInputs(u.userId, { ...payload, receptor_artifact_id: small }, pdb)).receptor.info.atoms, 4412);

      collectGarbage();
      const probe = startLivenessProbe(h.base, 50);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      let times: number[];
      try {
        const e = await estimate(payload);
        assert.equal(e.status, 200, e.text);
        // A box that misses the receptor is told at submit: every atom was read and checked.
        const miss = await estimate({ ...payload, box: { center: [0, 0, -500], size: [10, 10, 10] } });
        assert.equal(miss.status, 422, miss.text);
        assert.match(miss.text, /holds no atom of the receptor, whose atoms span x -13\.3\.\.1178\.6, y 30\.8\.\.73\.3, z -8\.7\.\.53\.9 A/, 'the 20 copies side by side');
        const run = await runInputs(u.userId, payload, pdb);
        assert.deepEqual([run.receptor.info.atoms, run.receptor.info.residues, run.box], [atoms, 274, boxOf('1iep')]);
      } finally {
        times = await probe.stop();
        loop.disable();
      }
      assert.equal(fs.statSync(pdb).size, file.length, 'the text Open Babel prepares, written by the reader: every line, hydrogens kept');
      fs.rmSync(path.dirname(pdb), { recursive: true, force: true });
      t.diagnostic(`${probeSummary(times)}; the event loop's longest delay ${(loop.max / 1e6).toFixed(0)} ms`);
      const worst = Math.max(...times);
      assert.ok(times.length >= 10, probeSummary(times));
      assert.ok(worst < STALL_MS, `/health/live took ${worst.toFixed(0)} ms: ${probeSummary(times)}`);
    });
  });
}
