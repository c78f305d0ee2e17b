import fs from 'node:fs';
import { localTools } from '../src/engines/local-tools.js';
import { computePka, PKA_KEEP } from '../src/engines/questions/pka.js';
import { rankTautomers } from '../src/engines/questions/tautomers.js';
import { computeBdes } from '../src/engines/questions/bde.js';
import { makeScratch } from '../src/engines/scratch.js';
import { DFT_MOLECULES } from '../bench/lib/dft.js';
const ticks = () => { const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; };
const base = await localTools();
let calls: Record<string, number> = {};
const tools = { threads: 1, run: async (e: any, a: any, c: any, o: any) => { calls[e] = (calls[e] ?? 0) + 1; return base.run(e, a, c, o); } };
const which = process.argv[2]!;
for (const [name, smi] of DFT_MOLECULES.slice(0, Number(process.argv[3] ?? 10))) {
  calls = {};
  const t = ticks(), w = Date.now();
  const s = { index: 0, id: '0', input: smi, info: {} as never };
  let extra = '';
  if (which === 'pka') { const r = await computePka(tools as any, makeScratch('c'), s, { ph: 7.4, keep: PKA_KEEP }); extra = `opts ${r.optimisations} sites ${r.sites.filter(x=>x.pka!==null).length}`; }
  if (which === 'tautomers') { const r = await rankTautomers(tools as any, makeScratch('c'), s, { solvent: 'water', max: 50 }); extra = `count ${r.count}`; }
  if (which === 'bde') { const r = await computeBdes(tools as any, makeScratch('c'), s, { method: 'gfn2' }); extra = `bonds ${r.bonds.length}`; }
  console.log(`${name}: cpu ${(ticks() - t).toFixed(1)} s wall ${((Date.now() - w) / 1000).toFixed(1)} s ${extra} calls ${JSON.stringify(calls)}`);
}
