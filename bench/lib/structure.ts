// S. Structure-based design (docs/performance.md, "S. Structure-based design"; docs/structure.md):
// through the API, the wall time of receptor_prepare on 1IEP given without hydrogens, of a pocket
// search on 1IEP, and of docking imatinib into 1IEP (exhaustiveness 8, 9 poses) with every pose
// checked, profiled by PLIP and its strain computed. The docking job's ligand log times each
// program call: Vina's calls against those of the checks and interactions (the pose program and
// PLIP) and of the strain (RDKit's conformers and xtb's GFN-FF). Target: the checks and
// interactions cost less than 10% of the docking itself.
import fs from 'node:fs';
import path from 'node:path';
import { boxOf, DATA } from './docking.js';
import { benchApi, type BenchInstance } from './instance.js';

const IMATINIB = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1';

export interface StructureFigure {
  prepareSec: number;
  pocketsSec: number;
  pocketCenterToLigand: number;
  dockingSec: number;
  poses: number;
  passing: number;
  /** Milliseconds of the ligand's program calls, by what they were for. */
  ms: { vina: number; ligand: number; checks: number; strain: number };
  strains: (number | null)[];
}

async function upload(inst: BenchInstance, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('mode', 'file');
  form.append('file', new Blob([text]), name);
  const up = await fetch(`${inst.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${inst.user.token}` } });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  return ((await up.json()) as { id: string }).id;
}

async function runJob(inst: BenchInstance, type: string, payload: Record<string, unknown>): Promise<{ sec: number; result: any; artifact: string }> {
  const t0 = performance.now();
  const { process_id: pid } = await benchApi(inst, 'POST', '/jobs/submit', { job_name: `bench ${type}`, job_type: type, payload });
  for (;;) {
    const s = await benchApi(inst, 'GET', `/jobs/status?process_id=${pid}`);
    if (s.status === 'completed') return { sec: (performance.now() - t0) / 1000, result: await benchApi(inst, 'GET', `/jobs/result?process_id=${pid}`), artifact: s.result_artifact_id };
    if (s.status === 'error' || s.status === 'cancelled') throw new Error(`${type} ${s.status}: ${s.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each logged call of a job log (`$ program args` then `# exit code, N ms`): its program and script, and its time. */
export function loggedCalls(log: string): { program: string; ms: number }[] {
  const out: { program: string; ms: number }[] = [];
  const re = /^\$ (\S+)(?: (\S+))?.*\n# exit \S+, (\d+) ms/gm;
  for (let m = re.exec(log); m; m = re.exec(log)) out.push({ program: /\.py$/.test(m[2] ?? '') ? `${m[1]} ${m[2]}` : m[1]!, ms: Number(m[3]) });
  return out;
}

export async function structureFigure(inst: BenchInstance): Promise<StructureFigure> {
  const withH = fs.readFileSync(path.join(DATA, '1iep_receptorH.pdb'), 'utf8');
  const raw = withH
    .split('\n')
    .filter((l) => !/^(ATOM|HETATM)/.test(l) || l.slice(76, 78).trim() !== 'H')
    .join('\n');
  const rawId = await upload(inst, '1iep_raw.pdb', raw);
  const withHId = await upload(inst, '1iep_receptorH.pdb', withH);

  const prep = await runJob(inst, 'receptor_prepare', { receptor_artifact_id: rawId });
  const pockets = await runJob(inst, 'pockets', { receptor_artifact_id: withHId });
  const ligand = fs
    .readFileSync(path.join(DATA, '1iep_ligand.sdf'), 'utf8')
    .split('\n')
    .slice(4)
    .filter((l) => /^\s+-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+\s+[A-Z]/.test(l))
    .map((l) => [0, 10, 20].map((k) => Number(l.slice(k, k + 10))));
  const centroid = [0, 1, 2].map((k) => ligand.reduce((t, c) => t + c[k]!, 0) / ligand.length);
  const best = pockets.result.items?.[0]?.pockets?.[0] ?? pockets.result.pockets?.[0];
  const distance = Math.hypot(...[0, 1, 2].map((k) => best.center[k] - centroid[k]!));

  const dock = await runJob(inst, 'docking', { molecules: [IMATINIB], receptor_artifact_id: withHId, box: boxOf('1iep'), exhaustiveness: 8, num_modes: 9 });
  const log: string = await benchApi(inst, 'GET', `/artifacts/${dock.artifact}/download?record=0&port=logs`);
  const ms = { vina: 0, ligand: 0, checks: 0, strain: 0 };
  for (const c of loggedCalls(log)) {
    if (c.program === 'vina') ms.vina += c.ms;
    else if (c.program === 'obabel') ms.ligand += c.ms;
    else if (c.program === 'plip' || c.program.endsWith('crucible_poses.py')) ms.checks += c.ms;
    else ms.strain += c.ms; // RDKit's pose command and conformers, xtb's GFN-FF
  }
  const poses = dock.result.items[0].poses as { checks: { passed: boolean }; strain_kcal_mol: number | null }[];
  return {
    prepareSec: prep.sec,
    pocketsSec: pockets.sec,
    pocketCenterToLigand: distance,
    dockingSec: dock.sec,
    poses: poses.length,
    passing: poses.filter((p) => p.checks.passed).length,
    ms,
    strains: poses.map((p) => p.strain_kcal_mol),
  };
}
