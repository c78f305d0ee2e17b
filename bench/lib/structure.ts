// S. Structure-based design (docs/performance.md, "S. Structure-based design"; docs/structure.md):
// through the API, the wall time of receptor_prepare on 1IEP given without hydrogens, of a pocket
// search on 1IEP, and of docking imatinib into 1IEP (exhaustiveness 8, 9 poses: energy_range 10)
// with every pose checked, profiled by PLIP and its strain computed, against the same docking
// without them (the same seed: the same poses); then the job's own functions on those 9 poses
// directly, timed apart: the checks and interactions (the pose program, PLIP) and the strain
// (RDKit's conformers, xtb's GFN-FF). Target: the checks and interactions cost less than 10% of
// the docking itself.
import fs from 'node:fs';
import path from 'node:path';
import { boxOf, DATA } from './docking.js';
import { localTools } from '../../src/engines/local-tools.js';
import { makeScratch, removeScratch } from '../../src/engines/scratch.js';
import { checkPose, poseInteractions } from '../../src/engines/poses/check.js';
import { poseStrain, type SearchCache } from '../../src/engines/poses/strain.js';
import { benchApi, type BenchInstance } from './instance.js';

const IMATINIB = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1';

export interface StructureFigure {
  prepareSec: number;
  pocketsSec: number;
  pocketCenterToLigand: number;
  /** The docking job's runtime (its worker's) with the checks and without them. */
  dockingSec: number;
  vinaOnlySec: number;
  poses: number;
  passing: number;
  /** The 9 poses' checks and interactions, and their strain (one conformer search), run directly. */
  checksSec: number;
  strainSec: number;
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

async function runJob(inst: BenchInstance, type: string, payload: Record<string, unknown>): Promise<{ sec: number; result: any; artifact: string; pid: string }> {
  const t0 = performance.now();
  const { process_id: pid } = await benchApi(inst, 'POST', '/jobs/submit', { job_name: `bench ${type}`, job_type: type, payload });
  for (;;) {
    const s = await benchApi(inst, 'GET', `/jobs/status?process_id=${pid}`);
    if (s.status === 'completed')
      return { sec: (performance.now() - t0) / 1000, result: await benchApi(inst, 'GET', `/jobs/result?process_id=${pid}`), artifact: s.result_artifact_id, pid };
    if (s.status === 'error' || s.status === 'cancelled') throw new Error(`${type} ${s.status}: ${s.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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

  const payload = { molecules: [IMATINIB], receptor_artifact_id: withHId, box: boxOf('1iep'), exhaustiveness: 8, num_modes: 9, energy_range: 10 };
  const dock = await runJob(inst, 'docking', payload);
  const bare = await runJob(inst, 'docking', { ...payload, pose_checks: false });
  const runtime = async (pid: string) => (await benchApi(inst, 'GET', `/jobs/info?process_id=${pid}`)).info.runtime_seconds as number;
  const poses = dock.result.items[0].poses as { molblock: string; checks: { passed: boolean }; strain_kcal_mol: number | null }[];

  // The same functions on the same poses, directly, one after the other.
  const tools = await localTools(1);
  const dir = makeScratch('bench-structure');
  try {
    const receptorPdb = path.join(dir, 'receptor.pdb');
    fs.writeFileSync(receptorPdb, withH);
    const t0 = performance.now();
    for (const [k, p] of poses.entries()) {
      const pdir = path.join(dir, `c${k}`);
      fs.mkdirSync(pdir);
      const { complex } = await checkPose(tools, pdir, { receptorPdb, molblock: p.molblock, referenceSmiles: IMATINIB });
      await poseInteractions(tools, pdir, { molblock: p.molblock, complex });
    }
    const t1 = performance.now();
    const searches: SearchCache = new Map();
    const structure = { index: 0, id: '0', input: IMATINIB, info: { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: true, smiles: null, error: null } };
    for (const [k, p] of poses.entries()) {
      const sdir = path.join(dir, `s${k}`);
      fs.mkdirSync(sdir);
      await poseStrain(tools, sdir, structure as never, p.molblock, searches);
    }
    const t2 = performance.now();
    return {
      prepareSec: prep.sec,
      pocketsSec: pockets.sec,
      pocketCenterToLigand: distance,
      dockingSec: await runtime(dock.pid),
      vinaOnlySec: await runtime(bare.pid),
      poses: poses.length,
      passing: poses.filter((p) => p.checks.passed).length,
      checksSec: (t1 - t0) / 1000,
      strainSec: (t2 - t1) / 1000,
      strains: poses.map((p) => p.strain_kcal_mol),
    };
  } finally {
    removeScratch(dir);
  }
}
