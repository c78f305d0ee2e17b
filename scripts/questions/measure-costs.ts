// The CPU of the chemistry questions' work (docs/questions.md, "Estimates"): runs pka,
// tautomers or bde (GFN2 energies) on the benchmark's drugs with the job's own code and prints,
// per molecule, the CPU of this process and its engine children (from /proc), the wall time,
// the calculations counted and the engine calls.
//   node --import tsx scripts/questions/measure-costs.ts pka|tautomers|bde [count | name,name,...]
import fs from 'node:fs';
import { DFT_MOLECULES } from '../../bench/lib/dft.js';
import { localTools } from '../../src/engines/local-tools.js';
import { computeBdes } from '../../src/engines/questions/bde.js';
import { computePka, PKA_KEEP } from '../../src/engines/questions/pka.js';
import { rankTautomers } from '../../src/engines/questions/tautomers.js';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import type { EngineTools, Structure } from '../../src/engines/tools.js';

/** CPU seconds of this process and its waited-for children (utime, stime, cutime, cstime). */
function cpu(): number {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

const which = process.argv[2] ?? 'pka';
const base = await localTools();
let calls: Record<string, number> = {};
/** Wall seconds by kind of call (engine, and for xtb whether it optimised or computed a Hessian). */
let seconds: Record<string, number> = {};
const tools: EngineTools = {
  threads: 1,
  run: async (engine, args, cwd, opts) => {
    calls[engine] = (calls[engine] ?? 0) + 1;
    const kind = `${engine}${args.includes('--hess') ? ' hessian' : args.some((a) => a.startsWith('--opt')) ? ' optimisation' : ''}`;
    const t = performance.now();
    try {
      return await base.run(engine, args, cwd, opts);
    } finally {
      seconds[kind] = (seconds[kind] ?? 0) + (performance.now() - t) / 1000;
    }
  },
};
const pick = process.argv[3] ?? '10';
const molecules = /^\d+$/.test(pick) ? DFT_MOLECULES.slice(0, Number(pick)) : DFT_MOLECULES.filter(([name]) => pick.split(',').includes(name));
for (const [name, smiles] of molecules) {
  calls = {};
  seconds = {};
  const t = cpu();
  const w = Date.now();
  const s: Structure = { index: 0, id: '0', input: smiles, info: { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: null } };
  const dir = makeScratch('measure-costs');
  let counted = '';
  try {
    if (which === 'pka') {
      const r = await computePka(tools, dir, s, { ph: 7.4, keep: PKA_KEEP });
      counted = `optimisations ${r.optimisations}, calibrated sites ${r.sites.filter((x) => x.pka !== null).length}`;
    } else if (which === 'tautomers') counted = `tautomers ${(await rankTautomers(tools, dir, s, { solvent: 'water', max: 50 })).count}`;
    else counted = `bonds ${(await computeBdes(tools, dir, s, { method: 'gfn2' })).bonds.length}`;
  } finally {
    removeScratch(dir);
  }
  console.log(
    `${name}: CPU ${(cpu() - t).toFixed(1)} s, wall ${((Date.now() - w) / 1000).toFixed(1)} s, ${counted}, calls ${JSON.stringify(calls)}, wall s by kind ${JSON.stringify(Object.fromEntries(Object.entries(seconds).map(([k, v]) => [k, Math.round(v * 10) / 10])))}`,
  );
}
