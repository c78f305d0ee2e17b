// Pose checks and interactions (docs/structure.md, "Pose checks and interactions"): what a job
// (pose_check, and docking on each of its poses) calls for one pose in a receptor. `checkPose`
// runs the pose program's PoseBusters-style checks and writes the complex; `poseInteractions`
// runs PLIP on that complex and reads its report back onto the pose's atom indices, with the 2D
// diagram. Nothing here imports src/compute; a problem of one pose is an ItemFailure.
import fs from 'node:fs';
import path from 'node:path';
import { runPythonProgram } from '../rdkit/program.js';
import { ItemFailure, lastLines, type EngineTools } from '../tools.js';
import { POSE_PROGRAM } from './program.js';

export const CHECK_NAMES = ['bond_lengths', 'bond_angles', 'aromatic_ring_flatness', 'stereochemistry', 'internal_clash', 'protein_clash'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
export const INTERACTION_TYPES = ['hbond', 'salt_bridge', 'pi_stack', 'cation_pi', 'hydrophobic', 'halogen'] as const;

export interface PoseChecks {
  passed: boolean;
  failed: CheckName[];
  /** Per check its figures: counts, tolerance, the worst pair or ring (docs/structure.md). */
  details: Record<string, Record<string, unknown>>;
}

export interface Interaction {
  type: (typeof INTERACTION_TYPES)[number];
  /** 0-based indices in the pose's molblock. */
  ligand_atoms: number[];
  /** RESNAME CHAIN NUMBER, e.g. `MET A 318`. */
  residue: string;
  distance_a: number | null;
}

/** The complex the checks wrote, for PLIP: its file and the serial of the pose's first atom. */
export interface PoseComplex {
  file: string;
  firstSerial: number;
}

const COMPLEX = 'complex.pdb';

/**
 * The checks of one pose (a V2000/V3000 molblock with 3D coordinates) against the receptor's PDB
 * file, and the complex (receptor + pose as HETATM LIG) written into `dir` for poseInteractions.
 * `referenceSmiles`: the stereochemistry the pose must keep (else the molblock's atom parities).
 */
export async function checkPose(
  tools: EngineTools,
  dir: string,
  input: { receptorPdb: string; molblock: string; referenceSmiles?: string | null },
): Promise<{ checks: PoseChecks; complex: PoseComplex; heavyAtoms: number }> {
  const file = path.join(dir, COMPLEX);
  const out = await runPythonProgram<{ checks: PoseChecks; first_serial: number; heavy_atoms: number; mismatch?: string }>(tools, dir, POSE_PROGRAM, {
    command: 'check',
    molblock: input.molblock,
    receptor: input.receptorPdb,
    complex: file,
    reference_smiles: input.referenceSmiles ?? null,
  });
  // A pose that is not its ligand (another molecule's atoms) is the item's error, not a failed check.
  if (out.mismatch) throw new ItemFailure('pose_mismatch', out.mismatch);
  return { checks: out.checks, complex: { file, firstSerial: out.first_serial }, heavyAtoms: out.heavy_atoms };
}

/**
 * PLIP's interactions of the pose in the complex (`plipcmd -f complex.pdb -x`, its XML report),
 * each on the pose's atom indices, and the 2D interaction diagram (SVG) titled `title`.
 */
export async function poseInteractions(
  tools: EngineTools,
  dir: string,
  input: { molblock: string; complex: PoseComplex; title?: string },
): Promise<{ interactions: Interaction[]; svg: string }> {
  const outDir = path.join(dir, 'plip');
  fs.mkdirSync(outDir, { recursive: true });
  const r = await tools.run('plip', ['-f', input.complex.file, '-x', '-o', outDir], dir, { threads: 1, timeoutMs: 300_000 });
  if (!fs.existsSync(path.join(outDir, 'report.xml'))) throw new ItemFailure('engine_failed', `PLIP: ${plipMessage(r.stderr || r.stdout)}`);
  return runPythonProgram<{ interactions: Interaction[]; svg: string }>(tools, dir, POSE_PROGRAM, {
    command: 'interactions',
    molblock: input.molblock,
    first_serial: input.complex.firstSerial,
    plip_dir: outDir,
    title: input.title ?? '',
  });
}

/** PLIP's own message: its last error line (a Python exception's), else the tail of its output. */
function plipMessage(text: string): string {
  const lines = text.split('\n').filter((l) => /error|exception/i.test(l) && !/^\s*File /.test(l));
  return lines.length ? lines[lines.length - 1]!.trim().slice(0, 500) : lastLines(text);
}
