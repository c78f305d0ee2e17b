// The pKa calibration (docs/questions.md, "pKa calibration"): for each molecule of
// data/public/pka/train.csv, ΔE = E(deprotonated) - E(protonated) of its marked site, by the
// pka job's own code (src/engines/questions/pka.ts: RDKit's conformers, GFN2/ALPB water, the
// lowest), then one line per site class by least squares (aliphatic amines with the number of
// N-H and a tertiary term), the leave-one-out error of each, and the residuals. Writes
// data/public/pka/deltas.json (the energies behind the fit) and
// src/engines/questions/pka-calibration.ts, and prints the docs' tables.
//   node --import tsx scripts/questions/calibrate-pka.ts [--fit-only] [--jobs 2]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import { findSites, PKA_KEEP, stateEnergies, type FoundSite } from '../../src/engines/questions/pka.js';
import { conformersToEmbed } from '../../src/engines/questions/forms.js';
import { localTools } from '../../src/engines/local-tools.js';
import { mappedAtoms, pool, readCsv } from './common.js';
import type { Structure } from '../../src/engines/tools.js';

const DATA = 'data/public/pka/train.csv';
const DELTAS = 'data/public/pka/deltas.json';
const OUT = 'src/engines/questions/pka-calibration.ts';

interface Row {
  name: string;
  smiles: string;
  kind: string;
  pka: number;
  class: string;
  site: number;
  hydrogens: number;
  delta: number;
}

async function measure(): Promise<Row[]> {
  const tools = await localTools();
  const rows = readCsv(fs.readFileSync(DATA, 'utf8'));
  const out: Row[] = [];
  const jobs = Number(process.argv[process.argv.indexOf('--jobs') + 1] ?? 2) || 2;
  await pool(rows, jobs, async (r) => {
    const site = mappedAtoms(r.smiles!)[1] ?? -1;
    const smiles = r.smiles!.replace(/:1\]/g, ']');
    const dir = makeScratch('pka-calibration');
    try {
      const s: Structure = { index: 0, id: '0', input: smiles, info: { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: null } };
      const found = await findSites(tools, dir, smiles);
      const hit = found.sites.find((x: FoundSite) => x.atom_index === site);
      if (!hit || hit.class !== r.class || hit.kind !== r.kind)
        throw new Error(`${r.name}: the catalogue finds ${JSON.stringify(hit)} at atom ${site}, the data says ${r.class} ${r.kind}`);
      const e = await stateEnergies(tools, dir, s, [hit], [[0], [1]], { conformers: conformersToEmbed(found.rotatable), keep: PKA_KEEP });
      const d = (e.energies[1]! - e.energies[0]!) * 627.5094740631;
      const delta = hit.kind === 'acid' ? d : -d;
      out.push({ name: r.name!, smiles, kind: r.kind!, pka: Number(r.pka), class: r.class!, site, hydrogens: hit.hydrogens, delta });
      console.error(`${r.name}: ΔE ${delta.toFixed(2)} kcal/mol (${e.optimisations} optimisations)`);
    } finally {
      removeScratch(dir);
    }
  });
  return out.sort((a, b) => rows.findIndex((r) => r.name === a.name) - rows.findIndex((r) => r.name === b.name));
}

/** Least squares of y on the columns of x (with an intercept column appended). */
function lstsq(x: number[][], y: number[]): number[] {
  const X = x.map((r) => [...r, 1]);
  const k = X[0]!.length;
  const A = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => X.reduce((t, r) => t + r[i]! * r[j]!, 0)));
  const b = Array.from({ length: k }, (_, i) => X.reduce((t, r, n) => t + r[i]! * y[n]!, 0));
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    [b[c], b[p]] = [b[p]!, b[c]!];
    for (let r = c + 1; r < k; r++) {
      const f = A[r]![c]! / A[c]![c]!;
      for (let j = c; j < k; j++) A[r]![j]! -= f * A[c]![j]!;
      b[r]! -= f * b[c]!;
    }
  }
  const w = new Array<number>(k).fill(0);
  for (let c = k - 1; c >= 0; c--) w[c] = (b[c]! - A[c]!.slice(c + 1).reduce((t, v, j) => t + v * w[c + 1 + j]!, 0)) / A[c]![c]!;
  return w;
}

// Aliphatic amines: the N-H count and a tertiary term (docs/questions.md, "pKa calibration").
const features = (r: Row, withH: boolean) => (withH ? [r.delta, r.hydrogens, r.hydrogens === 0 ? 1 : 0] : [r.delta]);
const predict = (w: number[], f: number[]) => f.reduce((t, v, i) => t + v * w[i]!, 0) + w[w.length - 1]!;

function fitClass(rows: Row[], withH: boolean) {
  const w = lstsq(
    rows.map((r) => features(r, withH)),
    rows.map((r) => r.pka),
  );
  const loo = rows.map((r, i) => {
    const rest = rows.filter((_, j) => j !== i);
    const wi = lstsq(
      rest.map((q) => features(q, withH)),
      rest.map((q) => q.pka),
    );
    return predict(wi, features(r, withH)) - r.pka;
  });
  const mae = (v: number[]) => v.reduce((t, x) => t + Math.abs(x), 0) / v.length;
  return { w, residuals: rows.map((r) => predict(w, features(r, withH)) - r.pka), loo, looMae: mae(loo), fitMae: mae(rows.map((r) => predict(w, features(r, withH)) - r.pka)) };
}

const rows = process.argv.includes('--fit-only') ? (JSON.parse(fs.readFileSync(DELTAS, 'utf8')) as Row[]) : await measure();
if (!process.argv.includes('--fit-only')) fs.writeFileSync(DELTAS, `${JSON.stringify(rows, null, 1)}\n`);
const classes = [...new Set(rows.map((r) => r.class))];
const lines: string[] = [];
const table = ['| class | molecules | pKa = | fit MAE | leave-one-out MAE |', '|---|---|---|---|---|'];
const residuals = ['| molecule | class | ΔE (kcal/mol) | pKa | fitted | leave-one-out |', '|---|---|---|---|---|---|'];
let looAll: number[] = [];
for (const c of classes) {
  const rs = rows.filter((r) => r.class === c);
  const withH = c === 'aliphatic amine';
  const f = fitClass(rs, withH);
  looAll = looAll.concat(f.loo);
  const [slope, h, tertiary] = f.w;
  const intercept = f.w[f.w.length - 1]!;
  lines.push(
    `  ${JSON.stringify(c)}: { slope: ${slope!.toFixed(5)}, intercept: ${intercept.toFixed(4)}${withH ? `, perHydrogen: ${h!.toFixed(4)}, tertiary: ${tertiary!.toFixed(4)}` : ''}, n: ${rs.length}, looMae: ${f.looMae.toFixed(3)} },`,
  );
  table.push(
    `| ${c} | ${rs.length} | ${slope!.toFixed(4)} ΔE ${intercept >= 0 ? '+' : '-'} ${Math.abs(intercept).toFixed(3)}${withH ? ` ${h! >= 0 ? '+' : '-'} ${Math.abs(h!).toFixed(3)} n(N-H) ${tertiary! >= 0 ? '+' : '-'} ${Math.abs(tertiary!).toFixed(3)} [tertiary]` : ''} | ${f.fitMae.toFixed(2)} | ${f.looMae.toFixed(2)} |`,
  );
  rs.forEach((r, i) =>
    residuals.push(`| ${r.name} | ${c} | ${r.delta.toFixed(2)} | ${r.pka.toFixed(2)} | ${(r.pka + f.residuals[i]!).toFixed(2)} | ${(r.pka + f.loo[i]!).toFixed(2)} |`),
  );
}
const one = fitClass(rows, false);
console.log(table.join('\n'));
console.log(
  `\nAll ${rows.length} sites: leave-one-out MAE per class lines ${(looAll.reduce((t, x) => t + Math.abs(x), 0) / looAll.length).toFixed(2)}; one line over all classes ${one.looMae.toFixed(2)}\n`,
);
console.log(residuals.join('\n'));
const header = fs.readFileSync(OUT, 'utf8').split('export const PKA_LINES')[0]!;
fs.writeFileSync(OUT, `${header}export const PKA_LINES: Readonly<Record<string, PkaLine>> = {\n${lines.join('\n')}\n};\n`);
execFileSync('npx', ['prettier', '--write', OUT], { stdio: 'ignore' });
