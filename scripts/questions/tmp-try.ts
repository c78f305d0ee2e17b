import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import { computePka, PKA_KEEP } from '../../src/engines/questions/pka.js';
import { localTools } from '../../src/engines/local-tools.js';
import { pool } from './common.js';
const mols: [string, string][] = process.argv.slice(2).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]);
const tools = await localTools();
await pool(mols, 2, async ([name, smi]) => {
  const dir = makeScratch('try');
  const t = Date.now();
  try {
    const s = { index: 0, id: '0', input: smi, info: { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: null } };
    const r = await computePka(tools, dir, s as never, { ph: 7.4, keep: PKA_KEEP });
    console.log(name, ((Date.now() - t) / 1000).toFixed(0) + 's', r.sites.map((x) => `${x.atom_index}${x.element} ${x.class} ${x.pka} (dE ${x.delta_kcal})`).join('; '));
  } finally { removeScratch(dir); }
});
