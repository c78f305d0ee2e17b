// Per-molecule cost of describeMolecule in RDKit MinimalLib (WASM), single thread, over the
// fixture set: the figure to compare with scripts/rdkit/baseline.py (native RDKit).
// Not a test. Run: node --import tsx scripts/rdkit/bench-wasm.ts [--passes N] [--breakdown]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMolecule, _internal } from '../../src/chem/properties/index.js';
import { loadRDKit } from '../../src/chem/rdkit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const passes = Number(args[args.indexOf('--passes') + 1]) || (args.includes('--passes') ? 3 : 3);
const fixtures = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/chem/reference.json'), 'utf8')) as { molecules: { smiles: string }[] };
const smiles = fixtures.molecules.map((m) => m.smiles);

const t0 = performance.now();
const rdkit = await loadRDKit();
const loadMs = performance.now() - t0;
const t1 = performance.now();
describeMolecule(rdkit, 'CCO'); // compiles the query molecules
const firstCallMs = performance.now() - t1;

for (const s of smiles.slice(0, 100)) describeMolecule(rdkit, s);
let best = Infinity;
let bestCpu = Infinity;
for (let p = 0; p < passes; p++) {
  const t = performance.now();
  const c = process.cpuUsage();
  for (const s of smiles) describeMolecule(rdkit, s);
  const wall = performance.now() - t;
  const cu = process.cpuUsage(c);
  if (wall < best) {
    best = wall;
    bestCpu = (cu.user + cu.system) / 1000;
  }
}
const heapBefore = process.memoryUsage().rss;

const out: Record<string, unknown> = {
  rdkit_version: rdkit.version(),
  molecules: smiles.length,
  passes,
  threads: 1,
  load_ms: Math.round(loadMs),
  first_call_ms: Math.round(firstCallMs),
  describe_ms_per_molecule: +(best / smiles.length).toFixed(4),
  describe_molecules_per_second: +((1000 * smiles.length) / best).toFixed(1),
  describe_cpu_ms_per_molecule: +(bestCpu / smiles.length).toFixed(4),
  rss_mb: Math.round(heapBefore / 2 ** 20),
};

if (args.includes('--breakdown')) {
  // Where the time goes, one stage at a time (stages repeat the parse).
  const stage = (name: string, fn: (s: string) => void) => {
    const c = process.cpuUsage();
    for (const s of smiles) fn(s);
    const cu = process.cpuUsage(c);
    out[`${name}_cpu_ms`] = +((cu.user + cu.system) / 1000 / smiles.length).toFixed(4);
  };
  stage('parse', (s) => rdkit.get_mol(s)?.delete());
  stage('parse_json', (s) => {
    const m = rdkit.get_mol(s);
    if (m) {
      _internal.readMolGraph(m.get_json());
      m.delete();
    }
  });
  stage('parse_descriptors', (s) => {
    const m = rdkit.get_mol(s);
    if (m) {
      m.get_descriptors();
      m.delete();
    }
  });
}
console.log(JSON.stringify(out));
