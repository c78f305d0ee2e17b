// Canonical SMILES of the NCI set on one thread, in one run: the N-API prototype over Debian's
// native RDKit 2022.09 (canon.node, ./build.sh), RDKit MinimalLib 2026.09 (WASM, as a Crucible
// chemistry thread runs it: get_mol + get_smiles) and native Python (python3-rdkit 2022.09:
// MolFromSmiles + MolToSmiles). Best of `passes` passes after a warm-up pass; also how many
// molecules the two RDKit versions write a different canonical SMILES for.
//
// Not a test. Run: ./build.sh && node --import tsx scripts/native-prototype/bench.ts [--passes 3] [--limit 5000]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { loadRDKit } from '../../src/chem/rdkit.js';
import { readSmilesFile } from '../rdkit/smiles-file.js';

const { values: a } = parseArgs({
  options: { passes: { type: 'string', default: '3' }, limit: { type: 'string', default: '5000' }, smiles: { type: 'string', default: '/usr/share/RDKit/Data/NCI/first_5K.smi' } },
});
const passes = Math.max(1, Number(a.passes));
const smiles = readSmilesFile(a.smiles, Number(a.limit));
const addon = createRequire(import.meta.url)('./build/canon.node') as { canonicalSmiles(s: string[]): (string | null)[]; rdkitVersion(): string };

function best(fn: () => void): number {
  fn();
  let b = Infinity;
  for (let p = 0; p < passes; p++) {
    const t = performance.now();
    fn();
    b = Math.min(b, performance.now() - t);
  }
  return Math.round((1000 * smiles.length) / b);
}

// The addon, 20 molecules per call (an API request's batch) and all in one call.
const batches: string[][] = [];
for (let i = 0; i < smiles.length; i += 20) batches.push(smiles.slice(i, i + 20));
const nativeAddon20 = best(() => {
  for (const b of batches) addon.canonicalSmiles(b);
});
const nativeAddonAll = best(() => addon.canonicalSmiles(smiles));

const rdkit = await loadRDKit();
rdkit.disable_logging();
const wasmOut: (string | null)[] = new Array<string | null>(smiles.length);
const wasm = best(() => {
  for (let i = 0; i < smiles.length; i++) {
    const m = rdkit.get_mol(smiles[i]!);
    if (!m) {
      wasmOut[i] = null;
      continue;
    }
    wasmOut[i] = m.is_valid() ? m.get_smiles() : null;
    m.delete();
  }
});

const py = `
import sys, time, json
from rdkit import Chem, RDLogger
RDLogger.DisableLog('rdApp.*')
smi = [l.split()[0] for l in open(sys.argv[1]) if l.strip()][: int(sys.argv[2])]
def run():
    for s in smi:
        m = Chem.MolFromSmiles(s)
        if m is not None: Chem.MolToSmiles(m)
run()
b = min((lambda t: (run(), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(int(sys.argv[3])))
print(json.dumps({'per_sec': round(len(smi) / b)}))
`;
const python = (JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, a.smiles, String(smiles.length), String(passes)], { encoding: 'utf8' })) as { per_sec: number }).per_sec;

const nativeOut = addon.canonicalSmiles(smiles);
let differ = 0;
let readByOneOnly = 0;
for (let i = 0; i < smiles.length; i++) {
  if ((nativeOut[i] === null) !== (wasmOut[i] === null)) readByOneOnly++;
  else if (nativeOut[i] !== wasmOut[i]) differ++;
}
console.log(
  JSON.stringify({
    molecules: smiles.length,
    passes,
    threads: 1,
    addon_rdkit: addon.rdkitVersion(),
    wasm_rdkit: rdkit.version(),
    addon_per_sec_20_per_call: nativeAddon20,
    addon_per_sec_one_call: nativeAddonAll,
    wasm_per_sec: wasm,
    python_per_sec: python,
    addon_over_wasm: +(nativeAddon20 / wasm).toFixed(2),
    canonical_smiles_differ: differ,
    read_by_one_version_only: readByOneOnly,
  }),
);
