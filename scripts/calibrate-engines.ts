// Calibration of the engine job types' cost model (src/compute/types/kit/calibration.ts;
// docs/jobs.md, "Calibration of the engine estimates"):
//
//   node --import tsx scripts/calibrate-engines.ts [--methods gfn2,gfnff,pm7] [--tasks singlepoint,optimize,frequencies,reactivity]
//
// Runs the engines the way the job types do (Open Babel 3D preparation, then xtb or MOPAC on one
// thread through runEngine) on reference molecules from 3 to about 60 heavy atoms, times each
// calculation (wall clock: an engine is one process on one thread), and fits
// `seconds = base + perAtom2 x atoms^2` per method and task by least squares. Prints the
// measurements, the fit, the current constants and the ratio measured / modelled, so that the
// constants can be checked or replaced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoverEngines } from '../src/engines/discovery.js';
import { makeScratch, removeScratch } from '../src/engines/scratch.js';
import { runEngine } from '../src/engines/process.js';
import { costSec, ENGINE_COSTS, type EngineTask } from '../src/compute/types/kit/calibration.js';
import { runQm } from '../src/compute/types/kit/qm.js';
import type { QmMethod } from '../src/compute/types/kit/payload.js';
import { readMolblockAtoms } from '../src/engines/molblock.js';
import { xtbReactivity } from '../src/engines/qm/reactivity.js';
import type { EngineTools, Prepared } from '../src/engines/tools.js';

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

/** Least squares of sec = base + k2 a^2 + k3 a^3; a term that comes out negative is dropped. */
function fitCost(points: { atoms: number; sec: number }[]): { base: number; perAtom2: number; perAtom3: number } {
  const solve = (cols: ((a: number) => number)[]): number[] => {
    const m = cols.length;
    const A = cols.map((f) => cols.map((g) => points.reduce((t, q) => t + f(q.atoms) * g(q.atoms), 0)));
    const b = cols.map((f) => points.reduce((t, q) => t + f(q.atoms) * q.sec, 0));
    for (let i = 0; i < m; i++)
      for (let j = i + 1; j < m; j++) {
        const r = A[j]![i]! / A[i]![i]!;
        for (let k = i; k < m; k++) A[j]![k]! -= r * A[i]![k]!;
        b[j]! -= r * b[i]!;
      }
    const x = new Array<number>(m).fill(0);
    for (let i = m - 1; i >= 0; i--) x[i] = (b[i]! - A[i]!.slice(i + 1).reduce((t, v, k) => t + v * x[i + 1 + k]!, 0)) / A[i]![i]!;
    return x;
  };
  const one = () => 1;
  const sq = (a: number) => a * a;
  const cube = (a: number) => a * a * a;
  const [base, k2, k3] = solve([one, sq, cube]) as [number, number, number];
  if (k2 >= 0 && k3 >= 0) return { base: Math.max(0, base), perAtom2: k2, perAtom3: k3 };
  if (k3 < 0) {
    const [b2, q2] = solve([one, sq]) as [number, number];
    return { base: Math.max(0, b2), perAtom2: Math.max(0, q2), perAtom3: 0 };
  }
  const [b3, q3] = solve([one, cube]) as [number, number];
  return { base: Math.max(0, b3), perAtom2: 0, perAtom3: Math.max(0, q3) };
}

async function main() {
  const engines = await discoverEngines();
  for (const e of ['xtb', 'mopac', 'obabel'] as const) if (!engines[e].available) throw new Error(`${e} is not installed (npm run setup:engines)`);
  const signal = new AbortController().signal;
  // Each engine call through bash's `time`: its CPU seconds (user + system) are added to `cpu`.
  let cpu = 0;
  const tools: EngineTools = {
    threads: 1,
    async run(engine, args, cwd, opts = {}) {
      const r = await runEngine({
        path: '/bin/bash',
        args: ['-c', 'TIMEFORMAT="%U %S"; { time "$0" "$@" 2>&3 ; } 3>&2 2>.cpu', engines[engine].path!, ...args],
        cwd,
        input: opts.input,
        threads: 1,
        memoryBytes: 4 * 1024 ** 3,
        timeoutMs: opts.timeoutMs ?? 30 * 60_000,
        signal,
      });
      const [u, sy] = fs.readFileSync(path.join(cwd, '.cpu'), 'utf8').trim().split(/\s+/).map(Number);
      cpu += (u ?? 0) + (sy ?? 0);
      return r;
    },
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
    // As prepare() does for a SMILES (src/engines/prepare.ts), without RDKit's atom count check.
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
      if (task === 'reactivity' && method !== 'gfn2') continue; // the reactivity job type runs GFN2 only
      const points: { atoms: number; sec: number }[] = [];
      for (const p of prepared) {
        if (p.symbols.length > 70 && method !== 'gfnff' && task === 'frequencies') continue;
        const dir = makeScratch('calibrate');
        cpu = 0;
        try {
          const extra = task === 'frequencies' ? (method.startsWith('pm') ? ['FORCE'] : ['--hess']) : undefined;
          // reactivity: its optimisation and property runs as the job type makes them (src/engines/qm/reactivity.ts).
          if (task === 'reactivity') await xtbReactivity(tools, dir, p, { charge: 0, multiplicity: 1 });
          else await runQm(tools, dir, p, { method, charge: 0, multiplicity: 1, optimize: task === 'optimize' ? {} : undefined, extra });
          points.push({ atoms: p.symbols.length, sec: cpu });
        } catch (err) {
          console.log(`  ${method} ${task} ${MOLECULES[p.index]}: ${(err as Error).message.slice(0, 120)}`);
        } finally {
          removeScratch(dir);
        }
      }
      const fit = fitCost(points);
      const cur = ENGINE_COSTS[method]?.[task];
      const worst = cur ? Math.max(...points.map((q) => q.sec / costSec(cur, q.atoms))) : NaN;
      console.log(
        `${method.padEnd(5)} ${task.padEnd(11)} n=${points.length} fit { base: ${fit.base.toFixed(3)}, perAtom2: ${fit.perAtom2.toExponential(2)}, perAtom3: ${fit.perAtom3.toExponential(2)} } | current ${JSON.stringify(cur)} | worst measured/modelled ${worst.toFixed(2)} | cpu s by atoms ${points.map((q) => `${q.atoms}:${q.sec.toFixed(2)}`).join(' ')}`,
      );
    }
  }
}

await main();
