// Cancel of a DFT calculation (docs/engines.md, "DFT"): aborting the job's signal kills Psi4, and
// NWChem's mpirun with every rank, within a second; no process of the calculation's session is
// left, and none works in its scratch directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { runDft } from '../../src/engines/dft/run.js';
import { sessionMembers } from '../../src/engines/process.js';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import { benzene, directTools } from './dft-helpers.js';
import { engineProcesses, within } from './helpers.js';

describe('cancelling a DFT calculation', () => {
  for (const [engine, threads] of [
    ['psi4', 1],
    ['nwchem', 2],
  ] as const) {
    it(`${engine} on ${threads} thread(s): every process of the calculation is gone within a second of the abort`, { timeout: 120_000 }, async () => {
      const controller = new AbortController();
      const pids: number[] = [];
      const tools = await directTools(threads, controller.signal, pids);
      const dir = makeScratch(`cancel${engine}`);
      try {
        const calc = runDft(engine, tools, dir, benzene(), { method: 'b3lyp', basis: 'def2-tzvp', charge: 0, multiplicity: 1 });
        const settled = calc.then(
          () => 'finished',
          (e: Error) => e.message,
        );
        // The calculation is running: for NWChem, mpirun and its ranks (one per thread) in the
        // session, each rank already nwchem (a rank forked by mpirun shows mpirun's command line
        // until it execs).
        const expected = engine === 'nwchem' ? 1 + threads : 1;
        const cmds = () =>
          sessionMembers(pids[0]!).map((pid) => {
            try {
              return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
            } catch {
              return '';
            }
          });
        const ranksUp = () => engine !== 'nwchem' || cmds().filter((c) => /nwchem calc\.nw$/.test(c) && !/mpirun/.test(c)).length === threads;
        await within(
          `${engine} runs`,
          60_000,
          () => pids.length > 0 && sessionMembers(pids[0]!).length >= expected && engineProcesses(process.pid).some((p) => p.cmd.includes(engine)) && ranksUp(),
          50,
        );
        const members = sessionMembers(pids[0]!);
        if (engine === 'nwchem')
          assert.ok(
            cmds().some((c) => /mpirun/.test(c)),
            cmds().join('\n'),
          );
        const t0 = Date.now();
        controller.abort(new Error('cancelled'));
        const ms = await within('the calculation is gone', 5_000, () => sessionMembers(pids[0]!).every((pid) => !alive(pid)) && engineProcesses(process.pid).length === 0, 10);
        assert.ok(ms < 1_000, `${engine}'s processes were gone ${ms} ms after the abort`);
        assert.equal(await settled, 'cancelled');
        for (const pid of members) assert.ok(!alive(pid), `process ${pid} is left`);
        assert.ok(Date.now() - t0 < 5_000);
      } finally {
        removeScratch(dir);
      }
    });
  }
});

/** Whether `pid` runs (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
