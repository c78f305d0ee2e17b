// The estimate's terms (RDKit runs, GFN2 optimisations, optimisations x atoms^2, Hessian seconds)
// of pka, tautomers and bde for the benchmark's drugs, from POST /jobs/estimate of an in-process
// instance (nothing runs), joined to runtimes measured earlier (a CSV of type,molecule,runtime_sec),
// as the rows scripts/questions/fit-costs.ts reads (docs/questions.md, "Estimates"):
//   node --import tsx scripts/questions/estimate-terms.ts runtimes.csv > rows.json
import fs from 'node:fs';
import { DFT_MOLECULES } from '../../bench/lib/dft.js';
import { benchApi, startInstance } from '../../bench/lib/instance.js';

const runtimes = fs
  .readFileSync(process.argv[2]!, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','))
  .map(([type, molecule, sec]) => ({ type: type!, molecule: molecule!, runtimeSec: Number(sec) }));
const inst = await startInstance('pglite', { workers: 1 });
try {
  const rows = [];
  for (const r of runtimes) {
    const smiles = DFT_MOLECULES.find(([name]) => name === r.molecule)?.[1];
    if (!smiles) throw new Error(`${r.molecule} is not one of the benchmark's drugs`);
    const payload = { molecules: [smiles], ...(r.type === 'bde' ? { energies: 'gfn2' } : {}) };
    const e = await benchApi(inst, 'POST', '/jobs/estimate', { job_type: r.type, payload });
    rows.push({ ...r, assumptions: e.assumptions });
  }
  console.log(JSON.stringify(rows, null, 1));
} finally {
  await inst.close();
}
