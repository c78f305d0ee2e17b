// The bond dissociation enthalpy calibration (docs/questions.md, "Bond energy calibration"): for
// each bond of data/public/bde/train.csv, the raw BDE by the bde job's own code
// (src/engines/questions/bde.ts) with GFN2 energies and with B3LYP/def2-SVP single points, then
// one line per method by least squares (BDE = slope x raw + intercept), its leave-one-out error
// and residuals. Writes data/public/bde/raw.json (the values behind the fit) and
// src/engines/questions/bde-calibration.ts, and prints the docs' tables.
//   node --import tsx scripts/questions/calibrate-bde.ts [--fit-only] [--jobs 2]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { localTools } from '../../src/engines/local-tools.js';
import { bondsOf, computeBdes, type BdeMethod } from '../../src/engines/questions/bde.js';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import type { Structure } from '../../src/engines/tools.js';
import { mappedAtoms, pool, readCsv } from './common.js';

const DATA = 'data/public/bde/train.csv';
const RAW = 'data/public/bde/raw.json';
const OUT = 'src/engines/questions/bde-calibration.ts';
const METHODS: BdeMethod[] = ['gfn2', 'b3lyp'];

interface Row {
  name: string;
  smiles: string;
  bde: number;
  atoms: [number, number];
  raw: Record<string, number>;
}

async function measure(): Promise<Row[]> {
  const tools = await localTools();
  const rows = readCsv(fs.readFileSync(DATA, 'utf8'));
  const out: Row[] = [];
  const jobs = Number(process.argv[process.argv.indexOf('--jobs') + 1] ?? 2) || 2;
  await pool(rows, jobs, async (r) => {
    const mapped = mappedAtoms(r.smiles!);
    const smiles = r.smiles!.replace(/:\d\]/g, ']');
    const dir = makeScratch('bde-calibration');
    try {
      const s: Structure = { index: 0, id: '0', input: smiles, info: { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: null } };
      let atoms: [number, number];
      if (r.bond === 'X-H') {
        const found = await bondsOf(tools, dir, smiles, [[mapped[1]!, -1]], 0);
        if (found.bonds[0]!.error) throw new Error(`${r.name}: ${found.bonds[0]!.error}`);
        atoms = found.bonds[0]!.atoms;
      } else atoms = [mapped[1]!, mapped[2]!];
      const raw: Record<string, number> = {};
      for (const method of METHODS) raw[method] = (await computeBdes(tools, dir, s, { bonds: [atoms], method })).bonds[0]!.raw_kcal_mol;
      out.push({ name: r.name!, smiles, bde: Number(r.bde_kcal_mol), atoms, raw });
      console.error(`${r.name}: ${METHODS.map((m) => `${m} ${raw[m]!.toFixed(2)}`).join(', ')} (experiment ${r.bde_kcal_mol})`);
    } finally {
      removeScratch(dir);
    }
  });
  return out.sort((a, b) => rows.findIndex((r) => r.name === a.name) - rows.findIndex((r) => r.name === b.name));
}

function fit(xs: number[], ys: number[]): [number, number] {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxy = xs.reduce((t, x, i) => t + (x - mx) * (ys[i]! - my), 0);
  const sxx = xs.reduce((t, x) => t + (x - mx) ** 2, 0);
  const slope = sxy / sxx;
  return [slope, my - slope * mx];
}

const rows = process.argv.includes('--fit-only') ? (JSON.parse(fs.readFileSync(RAW, 'utf8')) as Row[]) : await measure();
if (!process.argv.includes('--fit-only')) fs.writeFileSync(RAW, `${JSON.stringify(rows, null, 1)}\n`);
const lines: string[] = [];
const table = ['| energies | bonds | BDE = | raw MAE | fit MAE | leave-one-out MAE |', '|---|---|---|---|---|---|'];
const residuals = [
  `| bond | experiment | ${METHODS.map((m) => `${m} raw | ${m} fitted | ${m} leave-one-out`).join(' | ')} |`,
  `|---|---|${METHODS.map(() => '---|---|---').join('|')}|`,
];
const cells = rows.map((r) => [r.name, r.bde.toFixed(1)]);
const mae = (v: number[]) => v.reduce((t, x) => t + Math.abs(x), 0) / v.length;
for (const m of METHODS) {
  const xs = rows.map((r) => r.raw[m]!);
  const ys = rows.map((r) => r.bde);
  const [slope, intercept] = fit(xs, ys);
  const loo = rows.map((_, i) => {
    const [a, b] = fit(
      xs.filter((_, j) => j !== i),
      ys.filter((_, j) => j !== i),
    );
    return a * xs[i]! + b;
  });
  const fitted = xs.map((x) => slope * x + intercept);
  const looMae = mae(loo.map((v, i) => v - ys[i]!));
  lines.push(`  ${m}: { slope: ${slope.toFixed(5)}, intercept: ${intercept.toFixed(4)}, n: ${rows.length}, looMae: ${looMae.toFixed(3)} },`);
  table.push(
    `| ${m} | ${rows.length} | ${slope.toFixed(4)} raw ${intercept >= 0 ? '+' : '-'} ${Math.abs(intercept).toFixed(2)} | ${mae(xs.map((x, i) => x - ys[i]!)).toFixed(2)} | ${mae(fitted.map((v, i) => v - ys[i]!)).toFixed(2)} | ${looMae.toFixed(2)} |`,
  );
  rows.forEach((r, i) => cells[i]!.push(r.raw[m]!.toFixed(1), fitted[i]!.toFixed(1), loo[i]!.toFixed(1)));
}
for (const c of cells) residuals.push(`| ${c.join(' | ')} |`);
console.log(`${table.join('\n')}\n\n${residuals.join('\n')}`);
const header = fs.readFileSync(OUT, 'utf8').split('export const BDE_LINES')[0]!;
fs.writeFileSync(OUT, `${header}export const BDE_LINES: Readonly<Record<string, BdeLine>> = {\n${lines.join('\n')}\n};\n`);
execFileSync('npx', ['prettier', '--write', OUT], { stdio: 'ignore' });
