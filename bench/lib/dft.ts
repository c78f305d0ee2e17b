// F. DFT single points (docs/performance.md, "Engines"; docs/jobs.md, "Calibration of the DFT
// estimates"): drug-sized molecules of 10 to 40 heavy atoms at B3LYP/def2-SVP, as `singlepoint`
// jobs through the API (2 job slots) against the same Psi4 inputs (src/engines/dft/psi4.ts's
// psi4Input on the same 3D structures) run directly two at a time, in the same run. Reports the
// throughput ratio (target at least 0.95), each job's estimate against its charge (target within
// 2x), the energies of both sides (equal), and the fit of one SCF's time over basis functions N
// (seconds = base + k N^p, p scanned, base and k by least squares) with its leave-one-out error.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { psi4Input } from '../../src/engines/dft/psi4.js';
import type { Engines } from '../../src/engines/discovery.js';
import { readMolblockAtoms } from '../../src/engines/molblock.js';
import { OVERHEAD_SEC, PREPARE_SEC, SAFETY } from '../../src/compute/types/kit/calibration.js';
import { benchApi, type BenchInstance } from './instance.js';

/** 10 to 37 heavy atoms: common drugs. */
export const DFT_MOLECULES: [string, string][] = [
  ['paracetamol', 'CC(=O)Nc1ccc(O)cc1'],
  ['aspirin', 'CC(=O)Oc1ccccc1C(=O)O'],
  ['caffeine', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C'],
  ['ibuprofen', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O'],
  ['lidocaine', 'CCN(CC)CC(=O)Nc1c(C)cccc1C'],
  ['propranolol', 'CC(C)NCC(O)COc1cccc2ccccc12'],
  ['penicillin G', 'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O'],
  ['omeprazole', 'COc1ccc2nc([nH]c2c1)S(=O)Cc1ncc(C)c(OC)c1C'],
  ['sildenafil', 'CCCc1nn(C)c2c(=O)[nH]c(-c3cc(S(=O)(=O)N4CCN(C)CC4)ccc3OCC)nc12'],
  ['imatinib', 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'],
];

export interface DftRow {
  name: string;
  heavy: number;
  functions: number;
  directSec: number;
  directEnergy: number;
  apiEnergy: number;
  estimateSec: number;
  runtimeSec: number;
  ratio: number;
}

export interface DftFigure {
  rows: DftRow[];
  directSec: number;
  apiSec: number;
  fit: { base: number; k: number; p: number; looPct: number; residualsPct: number[] };
  /** Each job's estimate had the fit been in force (the same overhead, preparation and safety factor), against its runtime. */
  fittedRatios: number[];
}

/** Runs `jobs` two at a time. */
async function twoAtATime<T>(items: T[], run: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/** seconds = base + k N^p: p on a grid (2 to 4), base and k by least squares at each p; the p of the smallest squared relative error. */
export function fitScf(points: { n: number; sec: number }[]): { base: number; k: number; p: number; sse: number } {
  let best = { base: 0, k: 0, p: 0, sse: Infinity };
  for (let p = 2; p <= 4.0001; p += 0.05) {
    // Relative errors: weight each point by 1/sec^2, so the small molecules count as much as the large.
    const w = points.map((q) => 1 / q.sec ** 2);
    const x = points.map((q) => q.n ** p);
    const S = (f: (i: number) => number) => points.reduce((t, _, i) => t + w[i]! * f(i), 0);
    const s1 = S(() => 1);
    const sx = S((i) => x[i]!);
    const sxx = S((i) => x[i]! ** 2);
    const sy = S((i) => points[i]!.sec);
    const sxy = S((i) => x[i]! * points[i]!.sec);
    const det = s1 * sxx - sx * sx;
    let k = (s1 * sxy - sx * sy) / det;
    let base = (sy - k * sx) / s1;
    if (base < 0) {
      base = 0;
      k = sxy / sxx;
    }
    const sse = S((i) => (points[i]!.sec - base - k * x[i]!) ** 2);
    if (sse < best.sse) best = { base, k, p, sse };
  }
  return best;
}

/** The first `count` molecules, or those named in `only`. */
export async function dftFigure(inst: BenchInstance, engines: Engines, count = DFT_MOLECULES.length, only?: string[]): Promise<DftFigure> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-dft-'));
  try {
    const chosen = only ? DFT_MOLECULES.filter(([name]) => only.includes(name)) : DFT_MOLECULES.slice(0, count);
    const mols = chosen.map(([name, smiles]) => {
      const molblock = execFileSync(engines.obabel.path!, [`-:${smiles}`, '--gen3d', '-h', '-omol'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const atoms = readMolblockAtoms(molblock);
      return { name, molblock, ...atoms, heavy: atoms.symbols.filter((s) => s !== 'H').length };
    });
    const call = { method: 'b3lyp', basis: 'def2-svp', charge: 0, multiplicity: 1 } as const;

    // Direct: the job's own Psi4 input and command (src/engines/dft/psi4.ts), two at a time.
    const direct = new Map<string, { sec: number; energy: number; nbf: number }>();
    const t0 = performance.now();
    await twoAtATime(mols, async (m) => {
      const dir = path.join(work, `direct-${m.name.replace(/\W/g, '')}`);
      fs.mkdirSync(path.join(dir, 'psi-scratch'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'calc.in'), psi4Input(m, call, 1));
      const t = performance.now();
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(engines.psi4.path!, ['-n', '1', 'calc.in', 'calc.out'], {
          cwd: dir,
          stdio: 'ignore',
          detached: true,
          env: { ...process.env, PSI_SCRATCH: path.join(dir, 'psi-scratch'), OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' },
        });
        child.once('error', reject);
        child.once('exit', resolve);
      });
      const out = JSON.parse(fs.readFileSync(path.join(dir, 'crucible.json'), 'utf8')) as { energy: number; nbf: number };
      if (code !== 0 || typeof out.energy !== 'number') throw new Error(`psi4 on ${m.name} failed (${code})`);
      direct.set(m.name, { sec: (performance.now() - t) / 1000, energy: out.energy, nbf: out.nbf });
      console.log(`  direct ${m.name}: ${((performance.now() - t) / 1000).toFixed(1)} s, N ${out.nbf}`);
    });
    const directSec = (performance.now() - t0) / 1000;

    // Through the API: one singlepoint job per molecule, the same 3D structure, 2 job slots.
    const t1 = performance.now();
    const ids: string[] = [];
    for (const m of mols)
      ids.push(
        (
          await benchApi(inst, 'POST', '/jobs/submit', {
            job_name: `dft ${m.name}`,
            job_type: 'singlepoint',
            payload: { molecules: [m.molblock], method: 'b3lyp', basis: 'def2-svp' },
          })
        ).process_id,
      );
    for (const id of ids)
      for (;;) {
        const s = await benchApi(inst, 'GET', `/jobs/status?process_id=${id}`);
        if (s.status === 'completed') break;
        if (s.status === 'error' || s.status === 'cancelled') throw new Error(`job ${id} ${s.status}: ${s.message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    const apiSec = (performance.now() - t1) / 1000;

    const rows: DftRow[] = [];
    for (const [i, m] of mols.entries()) {
      const info = (await benchApi(inst, 'GET', `/jobs/info?process_id=${ids[i]}`)).info;
      const item = (await benchApi(inst, 'GET', `/jobs/result?process_id=${ids[i]}`)).items[0];
      const d = direct.get(m.name)!;
      rows.push({
        name: m.name,
        heavy: m.heavy,
        functions: d.nbf,
        directSec: d.sec,
        directEnergy: d.energy,
        apiEnergy: item.energy_hartree,
        estimateSec: info.expected_runtime_sec,
        runtimeSec: info.runtime_seconds,
        ratio: info.expected_billing_cost / Math.max(1e-6, info.charged_amount),
      });
    }
    const points = rows.map((r) => ({ n: r.functions, sec: r.directSec }));
    // A fit of three constants wants a few more molecules than that (--dft-only of two: none).
    if (points.length < 4) {
      const none = rows.map(() => NaN);
      return { rows, directSec, apiSec, fit: { base: NaN, k: NaN, p: NaN, looPct: NaN, residualsPct: none }, fittedRatios: none };
    }
    const fit = fitScf(points);
    const predict = (f: { base: number; k: number; p: number }, n: number) => f.base + f.k * n ** f.p;
    const residualsPct = points.map((q) => (100 * (q.sec - predict(fit, q.n))) / q.sec);
    const loo = points.map((q, i) => {
      const f = fitScf(points.filter((_, j) => j !== i));
      return Math.abs((100 * (q.sec - predict(f, q.n))) / q.sec);
    });
    const fittedRatios = rows.map((r) => (OVERHEAD_SEC + SAFETY * (PREPARE_SEC + predict(fit, r.functions))) / r.runtimeSec);
    return { rows, directSec, apiSec, fit: { base: fit.base, k: fit.k, p: fit.p, looPct: loo.reduce((a, b) => a + b, 0) / loo.length, residualsPct }, fittedRatios };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A figure, or a dash where there is none (no fit). */
const fmtOrDash = (v: number, f: (v: number) => string) => (Number.isNaN(v) ? '-' : f(v));

/** The table of docs/jobs.md and docs/performance.md. */
export function dftTable(f: DftFigure): string {
  const lines = [
    '| molecule | heavy atoms | N (def2-SVP) | Psi4 directly (s) | through the API (s) | estimate (s) | estimate / charge | with the fit | fit residual | energy API - direct (Eh) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  f.rows.forEach((r, i) =>
    lines.push(
      `| ${r.name} | ${r.heavy} | ${r.functions} | ${r.directSec.toFixed(1)} | ${r.runtimeSec.toFixed(1)} | ${r.estimateSec.toFixed(1)} | ${r.ratio.toFixed(2)} | ${fmtOrDash(f.fittedRatios[i]!, (v) => v.toFixed(2))} | ${fmtOrDash(f.fit.residualsPct[i]!, (v) => `${v.toFixed(0)}%`)} | ${(r.apiEnergy - r.directEnergy).toExponential(1)} |`,
    ),
  );
  return lines.join('\n');
}
