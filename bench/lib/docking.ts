// The docking figure of npm run bench:engines (docs/engines.md, "Docking"): one ligand docked
// through the API (submit to completed: the receptor's preparation from cache or not, the
// ligand's preparation, Vina, the result artifact) against the same `vina` command run directly
// on the same prepared files (the job's own command line, read from its log). The job's
// preparation is deterministic, so the direct run's poses are the API's, which is checked.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoverEngines } from '../../src/engines/discovery.js';
import { engineEnv, runEngine } from '../../src/engines/process.js';
import { preparationInput, prepareReceptor, readReceptor, sha256 } from '../../src/engines/docking/receptor.js';
import type { EngineTools } from '../../src/engines/tools.js';
import { prepareLigand, readPoses } from '../../src/engines/docking/vina.js';
import { rmsdToCrystal } from '../../test/engines/docking-helpers.js';
import { benchApi, type BenchInstance } from './instance.js';

export const DATA = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../data/public/docking');
const IMATINIB = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1';
export const P59 = 'Fc1ccccc1[C@@H]1Nc2ccccc2C(=O)N1c1ccccc1';

export interface DockingFigure {
  complex: string;
  exhaustiveness: number;
  threads: number;
  /** Submit to completed, through the API (polled every 100 ms), per repetition. */
  apiSec: number[];
  /** The job's vina command, run directly on the same files, per repetition. */
  vinaSec: number[];
  /** apiSec / vinaSec of each repetition. */
  ratios: number[];
  /** The median of the repetitions' ratios (target: at most 1.05). */
  ratio: number;
  bestScore: number;
  samePoses: boolean;
  /** The API's top-3 poses' RMSD to the crystal ligand (heavy atoms, in place, symmetry-aware: obrms), A: the redocking figure at these settings. */
  crystalRmsd: number[];
}

const api = benchApi;

export function boxOf(name: string) {
  const v = Object.fromEntries(
    fs
      .readFileSync(path.join(DATA, `${name}_receptor.box.txt`), 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => l.split('=').map((x) => x.trim())),
  ) as Record<string, string>;
  return { center: ['x', 'y', 'z'].map((a) => Number(v[`center_${a}`])), size: ['x', 'y', 'z'].map((a) => Number(v[`size_${a}`])) } as {
    center: [number, number, number];
    size: [number, number, number];
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * Docks imatinib into 1IEP (or p59 into 5X72) through `inst` (which needs a job runtime) and
 * directly, `reps` times each, interleaved (API then direct, then direct then API, ...: on a
 * shared machine the load drifts, and both sides see the same drift). `resource` default:
 * 1 vCPU, so both sides run Vina on one thread. The API's pose checks are off (Vina against Vina;
 * bench/lib/structure.ts measures the checks).
 */
export async function dockingFigure(
  inst: BenchInstance,
  o: { complex?: '1iep' | '5x72'; exhaustiveness?: number; resource?: 'default' | 'cpu-4'; reps?: number } = {},
): Promise<DockingFigure> {
  const complex = o.complex ?? '1iep';
  const exhaustiveness = o.exhaustiveness ?? 8;
  const smiles = complex === '1iep' ? IMATINIB : P59;
  const receptorText = fs.readFileSync(path.join(DATA, `${complex}_receptorH.pdb`), 'utf8');
  const form = new FormData();
  form.append('mode', 'file');
  form.append('file', new Blob([receptorText]), `${complex}_receptorH.pdb`);
  const up = await fetch(`${inst.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${inst.user.token}` } });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const receptor = ((await up.json()) as { id: string }).id;
  const box = boxOf(complex);

  const dockThroughApi = async () => {
    const t0 = performance.now();
    const { process_id: pid } = await api(inst, 'POST', '/jobs/submit', {
      job_name: 'bench docking',
      job_type: 'docking',
      resource: o.resource ?? 'default',
      payload: { molecules: [smiles], receptor_artifact_id: receptor, box, exhaustiveness, pose_checks: false },
    });
    let status: { status: string; message: string | null; result_artifact_id: string | null };
    for (;;) {
      status = await api(inst, 'GET', `/jobs/status?process_id=${pid}`);
      if (['completed', 'error', 'cancelled'].includes(status.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const sec = (performance.now() - t0) / 1000;
    if (status.status !== 'completed') throw new Error(`the docking job ended ${status.status}: ${status.message}`);
    const result = await api(inst, 'GET', `/jobs/result?process_id=${pid}`);
    const log: string = await api(inst, 'GET', `/artifacts/${status.result_artifact_id}/download?record=0&port=logs`);
    return { sec, result, log };
  };
  const first = await dockThroughApi();
  const apiSec = [first.sec];
  const result = first.result;
  const vinaLine = /^\$ vina (.+)$/m.exec(first.log)?.[1];
  if (!vinaLine) throw new Error('no vina command in the job log');

  // The same files, prepared as the job prepares them; then the job's vina command.
  const engines = await discoverEngines();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-bench-docking-'));
  try {
    const tools: EngineTools = {
      threads: 1,
      run: (engine, args, cwd, r = {}) =>
        runEngine({ path: engines[engine].path!, args, cwd, threads: r.threads ?? 1, memoryBytes: 4 * 1024 ** 3, timeoutMs: 3_600_000, signal: new AbortController().signal }),
    };
    const info = readReceptor(receptorText, []);
    await prepareReceptor({ sha256: sha256(receptorText), info, input: preparationInput(info), keep: [], ph: 7.4 }, tools, dir, engines.obabel.version ?? '', {
      dir: path.join(dir, 'cache'),
      userId: 'bench',
    });
    const read = (await inst.services.chem.runItems('structure_info', [smiles], {}, 1))[0];
    if (!read?.ok) throw new Error('RDKit cannot read the ligand');
    const structure = { index: 0, id: '0', input: smiles, info: read.value };
    const lig = await prepareLigand(structure, tools, dir, 7.4);
    const args = vinaLine.split(' ').map((a) => (a.endsWith('receptor.pdbqt') ? path.join(dir, 'receptor.pdbqt') : a));
    // In its own session, with the engines' environment, as the job starts it (src/engines/process.ts):
    // Linux's scheduler shares the CPU between sessions (autogroups) before processes, so on a busy
    // machine a process in the benchmark's session would get a smaller share than the job's engine.
    const dockDirectly = async () => {
      const t1 = performance.now();
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(engines.vina.path!, args, { cwd: dir, stdio: 'ignore', detached: true, env: engineEnv(1, dir) });
        child.once('error', reject);
        child.once('exit', (c) => resolve(c));
      });
      if (code !== 0) throw new Error(`vina failed (${code})`);
      return (performance.now() - t1) / 1000;
    };
    const vinaSec = [await dockDirectly()];
    const direct = readPoses(fs.readFileSync(path.join(dir, 'poses.pdbqt'), 'utf8'), lig);
    for (let r = 1; r < (o.reps ?? 1); r++) {
      if (r % 2) {
        vinaSec.push(await dockDirectly());
        apiSec.push((await dockThroughApi()).sec);
      } else {
        apiSec.push((await dockThroughApi()).sec);
        vinaSec.push(await dockDirectly());
      }
    }
    const ratios = apiSec.map((a, i) => a / (vinaSec[i] as number));
    const samePoses = JSON.stringify(direct.map((p) => p.score_kcal_mol)) === JSON.stringify(result.items[0].poses.map((p: { score_kcal_mol: number }) => p.score_kcal_mol));
    return {
      complex,
      exhaustiveness,
      threads: Number(/--cpu (\d+)/.exec(vinaLine)?.[1] ?? 1),
      apiSec,
      vinaSec,
      ratios,
      ratio: median(ratios),
      bestScore: result.items[0].best_score_kcal_mol,
      samePoses,
      crystalRmsd: result.items[0].poses.slice(0, 3).map((p: { molblock: string }) => rmsdToCrystal(complex === '1iep' ? '1iep_ligand.sdf' : '5x72_ligand_p59.sdf', p.molblock)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
