// Writes src/chem/data/monoisotopic.json: for every element, the isotope RDKit MinimalLib
// (@rdkit/rdkit, the WASM build that computes `monoisotopic_mass`) weighs an atom of natural
// composition at in ExactMolWt, i.e. the exact mass of `[Sym]`, and that isotope's mass number.
//
// Why: src/chem/data/elements.json comes from Debian's RDKit 2022.09, whose "most common
// isotope" is wrong for V (50V, 0.25 %, instead of 51V), Rn (211 instead of 222) and Ra (223
// instead of 226); RDKit 2026.09 fixed its table. The mass-spectrometry hints (adducts, isotope
// pattern) take the monoisotopic isotope from this file, so that their M equals
// `monoisotopic_mass` for every element. test/chem/properties.test.ts checks the file against
// the MinimalLib it runs with.
//
// Run: node --import tsx scripts/rdkit/export_monoisotopic.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRDKit } from '../../src/chem/rdkit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = path.join(root, 'src/chem/data');

interface ElementRow {
  z: number;
  symbol: string;
  most_common_isotope: number;
  most_common_isotope_mass: number;
  isotope_masses: [number, number][];
}

const elements = (JSON.parse(fs.readFileSync(path.join(dataDir, 'elements.json'), 'utf8')) as { elements: ElementRow[] }).elements;
const rdkit = await loadRDKit();
const rows: [number, string, number, number][] = [];
const changed: string[] = [];
for (const e of elements) {
  if (e.z === 0) continue;
  const mol = rdkit.get_mol(`[${e.symbol}]`);
  if (!mol || !mol.is_valid()) throw new Error(`MinimalLib cannot read [${e.symbol}]`);
  let mass: number;
  try {
    mass = (JSON.parse(mol.get_descriptors()) as { exactmw: number }).exactmw;
  } finally {
    mol.delete();
  }
  // The isotope of RDKit's table nearest to that mass (the tables agree to 1e-5 u or better).
  let best = e.isotope_masses[0] ?? [Math.round(mass), mass];
  for (const iso of e.isotope_masses) if (Math.abs(iso[1] - mass) < Math.abs(best[1] - mass)) best = iso;
  const massNumber = Math.abs(best[1] - mass) < 0.01 ? best[0] : Math.round(mass);
  rows.push([e.z, e.symbol, massNumber, mass]);
  if (massNumber !== e.most_common_isotope || Math.abs(mass - e.most_common_isotope_mass) > 1e-6) {
    changed.push(`${e.symbol}: ${e.most_common_isotope} ${e.most_common_isotope_mass} (RDKit 2022.09) -> ${massNumber} ${mass}`);
  }
}

const out = path.join(dataDir, 'monoisotopic.json');
const head = JSON.stringify({
  rdkit_version: rdkit.version(),
  generator: 'scripts/rdkit/export_monoisotopic.ts',
  note: '[z, symbol, mass number, exact mass]: the isotope MinimalLib ExactMolWt gives an atom of natural composition',
});
fs.writeFileSync(out, `${head.slice(0, -1)}, "elements": [\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`);
process.stderr.write(`wrote ${path.relative(root, out)} (MinimalLib ${rdkit.version()}); differs from elements.json for:\n${changed.map((c) => `  ${c}\n`).join('')}`);
