// npm run bench:engines — the compute engines through the API against the same engine
// commands run directly, in the same run (docs/performance.md, "Engines"):
//
// A. Throughput: N GFN2 optimisations of drug-sized molecules (3D structures given, so the
//    API adds only its own work: claim, Open Babel's hydrogen check, result artifact) through
//    an instance with 2 job slots, against `xargs -P 2 xtb ...` on the same structures.
//    Target: the API at least 0.9x the direct throughput.
// B. Cancel: M cancels of a running GFN2 optimisation; the time from the cancel's answer to
//    the engine process being gone (p50, p99). Target: p99 under 1 s.
// C. An ensemble: a 50-conformer GFN2 conformer search of ibuprofen, wall time and cost
//    (when the `conformers` job type is registered).
// D. Docking: imatinib into 1IEP (or p59 into 5X72) from its SMILES, one ligand through the API
//    (submit to completed) against the job's own `vina` command run directly on the same prepared
//    files (bench/lib/docking.ts), --dock-reps times each, interleaved; the median ratio. Target:
//    the API at most 5% slower.
//
// E. Estimates (only when asked, `--only E`): every engine job type's estimate against its charge
//    on small molecules, one job at a time (bench/lib/estimates.ts), and the table of docs/jobs.md
//    ("Calibration of the engine estimates"). Target: every ratio estimate / charge at most 2.
//    `--types conformers,scan` measures only those types.
// F. DFT (only when asked, `--only F`; about 45 minutes on two cores): 10 B3LYP/def2-SVP single
//    points of drugs of 10 to 37 heavy atoms through the API (2 job slots) against the same Psi4
//    inputs run directly two at a time (bench/lib/dft.ts); the throughput ratio (target at least
//    0.95), each job's estimate against its charge (target within 2x) and the fit of the SCF time
//    over basis functions with its leave-one-out error (docs/jobs.md, "Calibration of the DFT
//    estimates"). Then ibuprofen's GFN2 ensemble re-ranked at B3LYP-D3(BJ)/def2-SVP: wall time and cost.
// S. Structure-based design (only when asked, `--only S`): receptor_prepare, pockets, and imatinib
//    docked into 1IEP with its 9 poses checked (bench/lib/structure.ts).
// Q. Chemistry questions (only when asked, `--only Q`): pka, tautomers and bde of 10 drugs through
//    the API, one job each, 2 job slots: wall time, cost, estimate / charge (bench/lib/questions.ts).
//
//   npm run bench:engines [-- --n 50 --cancels 20 --dock-reps 3 --dock-5x72 --only ABCD]
//   npm run bench:engines -- --only E [--types conformers]
//   npm run bench:engines -- --only F [--dft-n 10 | --dft-only sildenafil,imatinib] [--rerank-top 10]
//   npm run bench:engines -- --only Q [--q-types pka,tautomers,bde --q-n 10 --bde-energies gfn2|b3lyp --q-out rows.json]
//   npm run bench:engines -- --only S
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoverEngines } from '../src/engines/discovery.js';
import { JOB_TYPES } from '../src/compute/registry.js';
import { dftFigure, dftTable } from './lib/dft.js';
import { dockingFigure } from './lib/docking.js';
import { estimateRows, estimateTable } from './lib/estimates.js';
import { questionFigure, type QuestionRow, questionTable } from './lib/questions.js';
import { structureFigure } from './lib/structure.js';
import { benchApi, startInstance, type BenchInstance } from './lib/instance.js';
import { engineProcesses } from '../test/engines/helpers.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 50);
const CANCELS = arg('cancels', 20);
/** D: the complex docked (1iep: imatinib, minutes per run; 5x72: p59, seconds) and the interleaved repetitions. */
const DOCK_COMPLEX = process.argv.includes('--dock-5x72') ? '5x72' : '1iep';
const DOCK_REPS = arg('dock-reps', 1);
/** --only ABD: the parts to run (all by default). */
const ONLY = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '').toUpperCase() : 'ABCD';
const part = (p: string) => ONLY.includes(p);
const secs = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');

/** Drug-sized molecules (15 to 35 heavy atoms), repeated to N. */
const DRUGS = [
  'CC(=O)Oc1ccccc1C(=O)O',
  'CN1C=NC2=C1C(=O)N(C(=O)N2C)C',
  'CC(C)Cc1ccc(cc1)C(C)C(=O)O',
  'CC(=O)Nc1ccc(O)cc1',
  'CCN(CC)CC(=O)Nc1c(C)cccc1C',
  'CC(C)NCC(O)COc1cccc2ccccc12',
  'COc1ccc2nc([nH]c2c1)S(=O)Cc1ncc(C)c(OC)c1C',
  'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O',
  'CN1CCN(CC1)C(=O)c1ccc(cc1)Nc1nccc(n1)-c1cccnc1',
  'O=C(O)c1ccccc1Nc1cccc(c1)C(F)(F)F',
];

const api = benchApi;

/**
 * Waits for every job, asking about one at a time (the first unfinished one, every 200 ms): a
 * status call for each job every round (250 calls a second for 50 jobs) took CPU from the
 * engines and cost the API side about 14% of its throughput on 2 cores.
 */
async function waitAll(inst: BenchInstance, ids: string[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const s = await api(inst, 'GET', `/jobs/status?process_id=${id}`);
      if (s.status === 'completed') break;
      if (s.status === 'error' || s.status === 'cancelled') throw new Error(`job ${id} ${s.status}: ${s.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main() {
  const engines = await discoverEngines();
  if (!engines.xtb.available || !engines.obabel.available) throw new Error('xtb and Open Babel are needed: npm run setup:engines');
  console.log(`# bench:engines  ${new Date().toISOString()}  ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}; xtb ${engines.xtb.version}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-engines-'));
  // The structures: 3D with hydrogens (Open Babel), the same files for both sides.
  const molblocks: string[] = [];
  for (let i = 0; i < (part('A') ? N : 0); i++) {
    const smiles = DRUGS[i % DRUGS.length]!;
    molblocks.push(execFileSync(engines.obabel.path!, [`-:${smiles}`, '--gen3d', '-h', '-omol'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  }

  // A. Direct: the job's own xtb command (src/engines/qm/xtb.ts), two at a time.
  const direct = path.join(work, 'direct');
  fs.mkdirSync(direct);
  molblocks.forEach((m, i) => {
    fs.mkdirSync(path.join(direct, String(i)));
    fs.writeFileSync(path.join(direct, String(i), 'structure.sdf'), `${m.trimEnd()}\n$$$$\n`);
  });
  const t0 = performance.now();
  const x = spawnSync(
    'bash',
    ['-c', `ls | xargs -P 2 -I{} sh -c 'cd {} && OMP_NUM_THREADS=1 ${engines.xtb.path} structure.sdf --gfn 2 --chrg 0 --uhf 0 --opt normal --json -P 1 > out.txt 2>&1'`],
    { cwd: direct, stdio: 'inherit' },
  );
  const directSec = (performance.now() - t0) / 1000;
  if (x.status !== 0) throw new Error('the direct xtb runs failed');

  // A. Through the API: N jobs of one structure each, 2 job slots.
  const inst = await startInstance('pglite', { workers: part('E') && !/[ABCDFQ]/.test(ONLY) ? 1 : 2 });
  let apiSec = 0;
  try {
    if (part('A')) {
      const t1 = performance.now();
      const ids: string[] = [];
      for (const m of molblocks)
        ids.push((await api(inst, 'POST', '/jobs/submit', { job_name: 'bench', job_type: 'optimize', payload: { molecules: [m], method: 'gfn2' } })).process_id);
      await waitAll(inst, ids);
      apiSec = (performance.now() - t1) / 1000;
      const charged = (await api(inst, 'GET', '/wallet')).balance_usd as number;
      console.log(
        `A. ${N} GFN2 optimisations: direct (xargs -P 2) ${directSec.toFixed(1)} s = ${(N / directSec).toFixed(2)}/s; API (2 slots) ${apiSec.toFixed(1)} s = ${(N / apiSec).toFixed(2)}/s; ratio API/direct throughput ${(directSec / apiSec).toFixed(3)} (target >= 0.9); charged $${(1000 - charged).toFixed(4)}`,
      );
    }

    // B. Cancel to engine gone.
    if (part('B')) {
      const big = 'CC(C)Cc1ccc(cc1)C(C)C(=O)NCCCCCCCCCCCCc1ccc(cc1)C(C)C(=O)NCCCCCCCCc1ccccc1';
      const gone: number[] = [];
      for (let i = 0; i < CANCELS; i++) {
        const id = (await api(inst, 'POST', '/jobs/submit', { job_name: 'cancel', job_type: 'optimize', payload: { molecules: [big], method: 'gfn2' } })).process_id as string;
        while (!engineProcesses(process.pid).some((p) => /\bxtb\b/.test(p.cmd))) await new Promise((r) => setTimeout(r, 20));
        await api(inst, 'DELETE', `/jobs/cancel?process_id=${id}`);
        const tc = performance.now();
        while (engineProcesses(process.pid).length) await new Promise((r) => setTimeout(r, 2));
        gone.push(performance.now() - tc);
      }
      console.log(
        `B. cancel -> engine gone, ${CANCELS} cancels: p50 ${pct(gone, 50).toFixed(0)} ms, p99 ${pct(gone, 99).toFixed(0)} ms, max ${Math.max(...gone).toFixed(0)} ms (target p99 < 1000 ms)`,
      );
    }

    // C. A 50-conformer ensemble.
    if (!part('C')) {
      // not asked for
    } else if (JOB_TYPES.has('conformers')) {
      const t2 = performance.now();
      const before = (await api(inst, 'GET', '/wallet')).balance_usd as number;
      const id = (
        await api(inst, 'POST', '/jobs/submit', {
          job_name: 'ensemble',
          job_type: 'conformers',
          payload: { molecules: ['CC(C)Cc1ccc(cc1)C(C)C(=O)O'], method: 'gfn2', max_conformers: 50 },
        })
      ).process_id as string;
      await waitAll(inst, [id]);
      const res = await api(inst, 'GET', `/jobs/result?process_id=${id}`);
      const after = (await api(inst, 'GET', '/wallet')).balance_usd as number;
      console.log(
        `C. ibuprofen GFN2 conformer search (max 50): ${((performance.now() - t2) / 1000).toFixed(1)} s wall, ${res.items[0].conformers?.length ?? 0} conformers kept, charged $${(before - after).toFixed(4)}`,
      );
    } else console.log('C. skipped: the conformers job type is not registered');

    // D. Docking, when Vina is there.
    if (!part('D')) {
      // not asked for
    } else if (engines.vina.available && JOB_TYPES.has('docking')) {
      const d = await dockingFigure(inst, { complex: DOCK_COMPLEX, exhaustiveness: 8, reps: DOCK_REPS });
      console.log(
        `D. docking ${d.complex} (exhaustiveness ${d.exhaustiveness}, ${d.threads} thread, ${d.ratios.length} interleaved runs each): API ${secs(d.apiSec)} s, vina directly ${secs(d.vinaSec)} s, ratios ${d.ratios.map((r) => r.toFixed(3)).join(', ')}, median ${d.ratio.toFixed(3)} (target <= 1.05); best ${d.bestScore} kcal/mol, same poses: ${d.samePoses}; top-3 RMSD to the crystal pose ${d.crystalRmsd.map((r) => r.toFixed(2)).join(', ')} A (target: one within 2.0)`,
      );
    } else console.log('D. skipped: AutoDock Vina or the docking job type is missing');

    // E. Estimate against charge, per engine job type.
    if (part('E')) {
      const types = process.argv.includes('--types') ? process.argv[process.argv.indexOf('--types') + 1]!.split(',') : undefined;
      const rows = await estimateRows(inst, { types, docking: engines.vina.available && JOB_TYPES.has('docking') });
      console.log(`E. estimate / charge per engine job type (one job at a time, load ${os.loadavg()[0]!.toFixed(2)}; target at most 2):\n${estimateTable(rows)}`);
    }

    // F. DFT single points, and a re-ranking.
    if (part('F')) {
      if (!engines.psi4.available || !engines.nwchem.available) throw new Error('Psi4 and NWChem are needed: npm run setup:engines');
      const only = process.argv.includes('--dft-only') ? process.argv[process.argv.indexOf('--dft-only') + 1]!.split(',') : undefined;
      const f = await dftFigure(inst, engines, arg('dft-n', 10), only);
      const n = f.rows.length;
      console.log(
        `F. ${n} B3LYP/def2-SVP single points: Psi4 directly (2 at a time) ${f.directSec.toFixed(1)} s = ${((3600 * n) / f.directSec).toFixed(1)}/h; API (2 slots) ${f.apiSec.toFixed(1)} s = ${((3600 * n) / f.apiSec).toFixed(1)}/h; ratio API/direct throughput ${(f.directSec / f.apiSec).toFixed(3)} (target >= 0.95); estimate / charge ${Math.min(...f.rows.map((r) => r.ratio)).toFixed(2)} to ${Math.max(...f.rows.map((r) => r.ratio)).toFixed(2)} (target within 2x)`,
      );
      console.log(
        Number.isNaN(f.fit.base)
          ? '   no fit of one SCF: it wants at least 4 molecules (--dft-only named fewer)'
          : `   fit of one SCF (Psi4, one thread): ${f.fit.base.toFixed(2)} + ${f.fit.k.toExponential(3)} x N^${f.fit.p.toFixed(2)} s; leave-one-out mean error ${f.fit.looPct.toFixed(0)}%`,
      );
      console.log(dftTable(f));
      // --rerank-top 0: the single points alone.
      if (arg('rerank-top', 10) > 0) {
        const before = (await api(inst, 'GET', '/wallet')).balance_usd as number;
        const t3 = performance.now();
        const conf = (
          await api(inst, 'POST', '/jobs/submit', {
            job_name: 'ibuprofen ensemble',
            job_type: 'conformers',
            payload: { molecules: ['CC(C)Cc1ccc(cc1)C(C)C(=O)O'], method: 'gfn2' },
          })
        ).process_id as string;
        await waitAll(inst, [conf]);
        const confSec = (performance.now() - t3) / 1000;
        const artifact = (await api(inst, 'GET', `/jobs/status?process_id=${conf}`)).result_artifact_id as string;
        const t4 = performance.now();
        const rr = (
          await api(inst, 'POST', '/jobs/submit', {
            job_name: 'ibuprofen rerank',
            job_type: 'rerank',
            payload: { input_artifact_id: artifact, port: 'structures', method: 'b3lyp-d3bj', basis: 'def2-svp', top_n: arg('rerank-top', 10) },
          })
        ).process_id as string;
        await waitAll(inst, [rr]);
        const rrSec = (performance.now() - t4) / 1000;
        const after = (await api(inst, 'GET', '/wallet')).balance_usd as number;
        const item = (await api(inst, 'GET', `/jobs/result?process_id=${rr}`)).items[0];
        if (item.error) throw new Error(`the re-ranking failed: ${item.error}: ${item.detail}`);
        console.log(
          `   ibuprofen: GFN2 search ${confSec.toFixed(1)} s (${item.ensemble_size} conformers), re-ranking the lowest ${item.reranked} at B3LYP-D3(BJ)/def2-SVP ${rrSec.toFixed(1)} s wall; both charged $${(before - after).toFixed(4)}; DFT relative ${item.conformers.map((c: { relative_kcal: number }) => c.relative_kcal.toFixed(2)).join(' ')} kcal/mol (GFN2 ${item.conformers.map((c: { xtb_relative_kcal: number }) => c.xtb_relative_kcal.toFixed(2)).join(' ')})`,
        );
      }
    }

    // S. Structure-based design: receptor preparation, pockets, and docking with its pose checks and strain.
    if (part('S')) {
      const f = await structureFigure(inst);
      const pct = (v: number) => ((100 * v) / f.vinaOnlySec).toFixed(1);
      console.log(
        `S. 1IEP: receptor_prepare (no hydrogens given) ${f.prepareSec.toFixed(1)} s; pockets ${f.pocketsSec.toFixed(1)} s (best pocket ${f.pocketCenterToLigand.toFixed(2)} A from imatinib's centroid); docking imatinib (exhaustiveness 8, ${f.poses} poses) ${f.dockingSec.toFixed(1)} s with the checks and strain, ${f.vinaOnlySec.toFixed(1)} s without (job runtimes); the ${f.poses} poses run directly: checks and interactions ${f.checksSec.toFixed(1)} s (${pct(f.checksSec)}% of the docking without them; target < 10%), strain ${f.strainSec.toFixed(1)} s (${pct(f.strainSec)}%); ${f.passing} of ${f.poses} poses pass every check; strains ${f.strains.join(' ')} kcal/mol`,
      );
    }

    // Q. The chemistry questions: pka, tautomers and bde (GFN2 energies unless --bde-energies b3lyp) on drug-sized molecules.
    if (part('Q')) {
      const types = process.argv.includes('--q-types') ? process.argv[process.argv.indexOf('--q-types') + 1]!.split(',') : ['pka', 'tautomers', 'bde'];
      const energies = process.argv.includes('--bde-energies') ? process.argv[process.argv.indexOf('--bde-energies') + 1]! : 'gfn2';
      const out = process.argv.includes('--q-out') ? process.argv[process.argv.indexOf('--q-out') + 1]! : null;
      const all: QuestionRow[] = [];
      for (const type of types) {
        const f = await questionFigure(inst, type, type === 'bde' ? { energies } : {}, arg('q-n', 10));
        all.push(...f.rows);
        // The rows with the estimates' terms, for scripts/questions/fit-costs.ts.
        if (out) fs.writeFileSync(out, JSON.stringify(all, null, 1));
        const ratios = f.rows.map((r) => r.ratio);
        console.log(
          `Q. ${type}${type === 'bde' ? ` (${energies} energies)` : ''}: ${f.rows.length} molecules in ${f.wallSec.toFixed(1)} s wall (2 job slots), $${f.costUsd.toFixed(4)}; estimate / charge ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)} (target within 2x)\n${questionTable(f)}`,
        );
      }
    }
  } finally {
    await inst.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
