// Version skew of the describe fixtures (docs/performance.md, "A native chemistry core?"): every
// molecule of test/fixtures/chem/reference.json (made by scripts/rdkit/make_fixtures.py)
// described again by native RDKit 2022.09 (Debian python3-rdkit, make_fixtures.describe) and by
// Crucible's properties engine on RDKit MinimalLib 2026.09 (WASM, what /describe answers);
// per property, how many molecules differ: at all (exact fields; numbers beyond 1e-6) and beyond
// the tolerances of test/chem/properties.test.ts. What a native core on Debian's RDKit would
// change in /describe's answers.
//
// Not a test. Run: node --import tsx scripts/native-prototype/fixture-skew.ts [--json out.json]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMolecule } from '../../src/chem/properties/index.js';
import { loadRDKit } from '../../src/chem/rdkit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/chem/reference.json'), 'utf8')) as { rdkit_version: string; molecules: { smiles: string }[] };
const smiles = fixture.molecules.map((m) => m.smiles);

// Native 2022.09, recomputed now with the generator's own describe().
const py = `
import json, sys
sys.path.insert(0, sys.argv[1])
import rdkit
from rdkit import Chem
import make_fixtures
out = []
for s in json.load(sys.stdin):
    m = Chem.MolFromSmiles(s)
    out.append(None if m is None else make_fixtures.describe(m))
print(json.dumps({'rdkit_version': rdkit.__version__, 'values': out}))
`;
const native = JSON.parse(
  execFileSync('/usr/bin/python3', ['-c', py, path.join(root, 'scripts/rdkit')], { input: JSON.stringify(smiles), encoding: 'utf8', maxBuffer: 1 << 28 }),
) as { rdkit_version: string; values: (Record<string, unknown> | null)[] };

const rdkit = await loadRDKit();
rdkit.disable_logging();

type Check = { field: string; native: (n: Record<string, unknown>) => unknown; wasm: (p: Record<string, unknown>) => unknown; tol?: number };
const alerts = (p: Record<string, unknown>, k: string) => (p.alerts as Record<string, unknown>)[k];
const CHECKS: Check[] = [
  ...['formula', 'heavy_atoms', 'hbd', 'rotatable_bonds', 'aromatic_rings', 'formal_charge'].map((f) => ({
    field: f,
    native: (n: Record<string, unknown>) => n[f],
    wasm: (p: Record<string, unknown>) => p[f],
  })),
  { field: 'hba', native: (n) => n.hba, wasm: (p) => p.hba },
  ...(
    [
      ['mw', 0.01],
      ['monoisotopic_mass', 0.01],
      ['clogp', 0.01],
      ['tpsa', 0.01],
      ['qed', 0.005],
    ] as const
  ).map(([f, tol]) => ({ field: f, native: (n: Record<string, unknown>) => n[f], wasm: (p: Record<string, unknown>) => p[f], tol })),
  { field: 'pains', native: (n) => n.pains, wasm: (p) => alerts(p, 'pains') },
  { field: 'brenk', native: (n) => n.brenk, wasm: (p) => alerts(p, 'brenk') },
];

const counts: Record<string, { differ: number; beyond_test_tolerance: number }> = {};
for (const c of CHECKS) counts[c.field] = { differ: 0, beyond_test_tolerance: 0 };
let described = 0;
let notDescribed = 0;
for (let i = 0; i < smiles.length; i++) {
  const n = native.values[i];
  const p = describeMolecule(rdkit, smiles[i]!).properties as unknown as Record<string, unknown> | null;
  if (!n || !p) {
    notDescribed++;
    continue;
  }
  described++;
  for (const c of CHECKS) {
    const a = c.wasm(p);
    const b = c.native(n);
    if (c.tol !== undefined && typeof a === 'number' && typeof b === 'number') {
      if (Math.abs(a - b) > 1e-6) counts[c.field]!.differ++;
      if (Math.abs(a - b) > c.tol) counts[c.field]!.beyond_test_tolerance++;
    } else if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) {
      counts[c.field]!.differ++;
      counts[c.field]!.beyond_test_tolerance++;
    }
  }
}
const withAny = Object.values(counts).reduce((s, c) => s + c.differ, 0);
const out = {
  fixture_rdkit: fixture.rdkit_version,
  native_rdkit: native.rdkit_version,
  wasm_rdkit: rdkit.version(),
  molecules: smiles.length,
  described,
  not_described: notDescribed,
  values_differ: withAny,
  per_property: counts,
};
const json = process.argv.indexOf('--json');
if (json > 0) fs.writeFileSync(process.argv[json + 1]!, JSON.stringify(out, null, 2));
console.log(JSON.stringify(out, null, 2));
