// The WASM limit of the sync chemistry path (docs/performance.md, "Utilities"): RDKit MinimalLib
// alone, on one thread in Node, over a .smi file, for the three operations `npm run
// bench:utilities` measures end to end:
//   smiles  get_mol + get_smiles (canonical SMILES)
//   morgan  get_mol + get_morgan_fp_as_uint8array (radius 2, 2048 bits)
//   depict  get_mol + get_svg_with_highlights (300 x 220, atom labels as <text>, RDKit's own depictor)
// and, beside each, Crucible's worker-side handler of the same item (the size checks, the
// read rules, the SVG sanitiser: what a chemistry thread does per item), so that the gap between
// the two is our per-item overhead inside the thread. Best of `passes` passes after one warm-up
// pass (WASM code tiers up over the first thousand molecules). Prints one JSON object.
//
// Not a test. Run: node --import tsx scripts/rdkit/wasm-limit.ts [--smiles FILE] [--limit N] [--passes N] [--ops smiles,morgan,depict] [--bare-only]
import { parseArgs } from 'node:util';
import { depictMolecule, moleculeDrawOptions } from '../../src/chem/depict.js';
import { loadRDKit } from '../../src/chem/rdkit.js';
import { convert, fingerprint } from '../../src/chem/utilities/handlers.js';
import { readSmilesFile } from './smiles-file.js';

const { values: a } = parseArgs({
  options: {
    smiles: { type: 'string', default: '/usr/share/RDKit/Data/NCI/first_5K.smi' },
    limit: { type: 'string', default: '5000' },
    passes: { type: 'string', default: '3' },
    ops: { type: 'string', default: 'smiles,morgan,depict' },
    'bare-only': { type: 'boolean', default: false },
  },
});
const smiles = readSmilesFile(a.smiles, Number(a.limit));
const passes = Math.max(1, Number(a.passes));

const rdkit = await loadRDKit();
rdkit.disable_logging();
rdkit.prefer_coordgen(false); // as the chemistry threads (src/chem/worker.ts)

const MORGAN = JSON.stringify({ radius: 2, nBits: 2048 });
const DRAW = moleculeDrawOptions({ width: 300, height: 220 });
/** The bare MinimalLib calls of one item. */
const BARE: Record<string, (s: string) => void> = {
  smiles(s) {
    const m = rdkit.get_mol(s);
    if (!m) return;
    m.get_smiles();
    m.delete();
  },
  morgan(s) {
    const m = rdkit.get_mol(s);
    if (!m) return;
    m.get_morgan_fp_as_uint8array(MORGAN);
    m.delete();
  },
  depict(s) {
    const m = rdkit.get_mol(s);
    if (!m) return;
    m.get_svg_with_highlights(DRAW);
    m.delete();
  },
};
/** Crucible's worker-side handler of the same item (src/chem/utilities/handlers.ts, src/chem/depict.ts). */
const HANDLER: Record<string, (s: string) => void> = {
  smiles: (s) => convert(rdkit, s, { inputFormat: 'auto', outputs: ['smiles'] }),
  morgan: (s) => fingerprint(rdkit, s, { type: 'morgan', radius: 2, nBits: 2048, inputFormat: 'auto' }),
  depict: (s) => depictMolecule(rdkit, s, { width: 300, height: 220, key: false }),
};

/** Molecules per second of the best pass, by the clock and by this thread's CPU time (the second holds on a busy machine). */
function rate(fn: (s: string) => void): [number, number] {
  for (const s of smiles) fn(s); // warm-up pass
  let best = Infinity;
  let bestCpu = Infinity;
  for (let p = 0; p < passes; p++) {
    const t = performance.now();
    const c = process.cpuUsage();
    for (const s of smiles) fn(s);
    best = Math.min(best, performance.now() - t);
    const cu = process.cpuUsage(c);
    bestCpu = Math.min(bestCpu, (cu.user + cu.system) / 1000);
  }
  return [Math.round((1000 * smiles.length) / best), Math.round((1000 * smiles.length) / bestCpu)];
}

const out: Record<string, unknown> = { rdkit_version: rdkit.version(), molecules: smiles.length, passes, threads: 1 };
for (const op of a.ops.split(',')) {
  if (!BARE[op]) throw new Error(`unknown op ${op}: smiles, morgan or depict`);
  [out[`${op}_per_sec`], out[`${op}_per_cpu_sec`]] = rate(BARE[op]);
  if (!a['bare-only']) [out[`${op}_handler_per_sec`], out[`${op}_handler_per_cpu_sec`]] = rate(HANDLER[op]!);
}
console.log(JSON.stringify(out));
