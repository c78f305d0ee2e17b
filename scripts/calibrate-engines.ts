// Calibration of the engine job types' cost model (src/compute/types/engine/calibration.ts;
// docs/jobs.md, "Calibration of the engine estimates"):
//
//   node --import tsx scripts/calibrate-engines.ts [--methods gfn2,gfnff,pm7] [--tasks singlepoint,optimize,frequencies]
//
// Runs the engines the way the job types do (Open Babel 3D preparation, then xtb or MOPAC on one
// thread through runEngine) on reference molecules from 3 to about 60 heavy atoms, times each
// calculation (wall clock: an engine is one process on one thread), and fits
// `seconds = base + perAtom2 x atoms^2` per method and task by least squares. Prints the
// measurements, the fit, the current constants and the ratio measured / modelled, so that the
// constants can be checked or replaced.
import os from 'node:os';
import { discoverEngines } from '../src/compute/engines/discovery.js';
import { makeScratch, removeScratch } from '../src/compute/engines/scratch.js';
import { runEngine } from '../src/compute/engines/process.js';
import { ENGINE_COSTS, type EngineTask } from '../src/compute/types/engine/calibration.js';
import { runQm } from '../src/compute/types/engine/qm.js';
import type { QmMethod } from '../src/compute/types/engine/payload.js';
import type { EngineTools } from '../src/compute/types/engine/run.js';
import { readMolblockAtoms, type Prepared } from '../src/compute/types/engine/structures.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? dflt;
};
const METHODS = arg('methods', 'gfn2,gfn1,gfnff,pm7,pm6').split(',') as QmMethod[];
const TASKS = arg('tasks', 'singlepoint,optimize,frequencies').split(',') as EngineTask[];

/** Reference molecules of growing size (common drugs and building blocks). */
const MOLECULES = [
  'O',
  'CCO',
  'c1ccccc1',
  'CC(=O)Oc1ccccc1C(=O)O',
  'CN1C=NC2=C1C(=O)N(C(=O)N2C)C',
  'CC(C)Cc1ccc(cc1)C(C)C(=O)O',
  'CC(=O)Nc1ccc(O)cc1',
  'CN1CCC[C@H]1c1cccnc1',
  'OC(=O)c1ccccc1O',
  'CCN(CC)CC(=O)Nc1c(C)cccc1C',
  'COc1ccc2nc([nH]c2c1)S(=O)Cc1ncc(C)c(OC)c1C',
  'CC(C)NCC(O)COc1cccc2ccccc12',
  'Cc1ccc(cc1Nc1nccc(n1)c1cccnc1)NC(=O)c1ccc(CN2CCN(C)CC2)cc1',
  'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O',
];

async function main() {
  const engines = await discoverEngines();
  for (const e of ['xtb', 'mopac', 'obabel'] as const) if (!engines[e].available) throw new Error(`${e} is not installed (npm run setup:engines)`);
  const signal = new AbortController().signal;
  const tools: EngineTools = {
    threads: 1,
    run: (engine, args, cwd, opts = {}) =>
      runEngine({ path: engines[engine].path!, args, cwd, input: opts.input, threads: 1, memoryBytes: 4 * 1024 ** 3, timeoutMs: opts.timeoutMs ?? 30 * 60_000, signal }),
  };
  console.log(
    `engines: xtb ${engines.xtb.version}, mopac ${engines.mopac.version}, obabel ${engines.obabel.version}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  // Prepare each molecule once (Open Babel), timing it.
  const prepared = [];
  let prepSec = 0;
  for (const [index, smiles] of MOLECULES.entries()) {
    const dir = makeScratch('calibrate');
    const t0 = performance.now();
    // As prepare() does for a SMILES (src/compute/types/engine/structures.ts), without RDKit's atom count check.
    const r = await runEngine({
      path: engines.obabel.path!,
      args: [`-:${smiles}`, '--gen3d', '-h', '-omol'],
      cwd: dir,
      threads: 1,
      memoryBytes: 2 * 1024 ** 3,
      timeoutMs: 120_000,
      signal,
    });
    const info = { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: true, smiles: null, error: null };
    const p: Prepared = { index, id: String(index), input: smiles, info, molblock: r.stdout, ...readMolblockAtoms(r.stdout) };
    prepSec += (performance.now() - t0) / 1000;
    prepared.push(p);
    removeScratch(dir);
  }
  console.log(`3D preparation (obabel --gen3d): ${(prepSec / MOLECULES.length).toFixed(3)} s per molecule on average`);
  for (const method of METHODS) {
    for (const task of TASKS) {
      if (task === 'frequencies' && (method === 'pm6' || method === 'gfn1')) continue;
      const points: { atoms: number; sec: number }[] = [];
      for (const p of prepared) {
        if (p.symbols.length > 70 && method !== 'gfnff' && task === 'frequencies') continue;
        const dir = makeScratch('calibrate');
        const t0 = performance.now();
        try {
          const extra = task === 'frequencies' ? (method.startsWith('pm') ? ['FORCE'] : ['--hess']) : undefined;
          await runQm(tools, dir, p, { method, charge: 0, multiplicity: 1, optimize: task === 'optimize' ? {} : undefined, extra });
          points.push({ atoms: p.symbols.length, sec: (performance.now() - t0) / 1000 });
        } catch (err) {
          console.log(`  ${method} ${task} ${MOLECULES[p.index]}: ${(err as Error).message.slice(0, 120)}`);
        } finally {
          removeScratch(dir);
        }
      }
      // Least squares for sec = base + k * atoms^2.
      const n = points.length;
      const xs = points.map((q) => q.atoms * q.atoms);
      const mx = xs.reduce((a, b) => a + b, 0) / n;
      const my = points.reduce((a, q) => a + q.sec, 0) / n;
      const k = Math.max(
        0,
        points.reduce((a, q, i) => a + (xs[i]! - mx) * (q.sec - my), 0) /
          Math.max(
            1e-12,
            xs.reduce((a, x) => a + (x - mx) ** 2, 0),
          ),
      );
      const base = Math.max(0, my - k * mx);
      const cur = ENGINE_COSTS[method]?.[task];
      const worst = Math.max(...points.map((q) => q.sec / ((cur?.base ?? 0) + (cur?.perAtom2 ?? 0) * q.atoms * q.atoms)));
      console.log(
        `${method.padEnd(5)} ${task.padEnd(11)} n=${n} fit base ${base.toFixed(3)} s + ${k.toExponential(2)} s x atoms^2 | current ${cur?.base} + ${cur?.perAtom2} | worst measured/modelled ${worst.toFixed(2)} | ${points.map((q) => `${q.atoms}:${q.sec.toFixed(2)}`).join(' ')}`,
      );
    }
  }
}

await main();
