// What docking adds to each pose (docs/structure.md, "Docking's poses"): the pose checks and
// PLIP's interactions of pose_check (src/engines/poses/), the 2D interaction diagram as a record
// of the `interactions` port, and the order the caller asked for (Vina's score, the checks
// passed, or the strain).
import path from 'node:path';
import fs from 'node:fs';
import { Type } from '@sinclair/typebox';
import { checkPose, poseInteractions, type Interaction, type PoseChecks } from '../../../engines/poses/check.js';
import { poseStrain, type SearchCache } from '../../../engines/poses/strain.js';
import type { EngineTools, Structure } from '../../../engines/tools.js';
import type { Pose } from '../../../engines/docking/vina.js';
import type { OutputRecord } from '../../job-type.js';
import { SAFETY } from './calibration.js';

export const POSE_ORDERS = ['score', 'checks', 'strain'] as const;
export type PoseOrder = (typeof POSE_ORDERS)[number];

/** The payload fields docking takes for its poses' checks and order. */
export const dockingPoseFields = {
  pose_checks: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        "Check every pose PoseBusters-style, compute its strain (GFN-FF) and profile its interactions with PLIP (as pose_check does; docs/structure.md), with a 2D diagram per pose in the `interactions` port. false: Vina's poses alone",
    }),
  ),
  pose_order: Type.Optional(
    Type.Union(
      POSE_ORDERS.map((o) => Type.Literal(o)),
      {
        default: 'score',
        description:
          "Each ligand's poses: by Vina's score (best first), by the checks (the poses that pass every check first, then fewer failed, then by score) or by strain (lowest first, then by score; poses without a strain last). The best port and table take each ligand's first pose",
      },
    ),
  ),
};

export interface CheckedPose extends Pose {
  checks?: PoseChecks;
  strain_kcal_mol?: number | null;
  interactions?: Interaction[];
}

/**
 * One pose's checks, PLIP and its strain relaxation (about 2 s and 1.5 s on 1IEP), and one
 * conformer search per ligand for the strain's reference (about 10 s for imatinib; docs/structure.md).
 */
export const CHECK_SEC_PER_POSE = 3.5;
export const SEARCH_SEC_PER_LIGAND = 10;

/** The estimate's seconds for the checks of `ligands` ligands' poses (at most `numModes` each). */
export function poseCheckSeconds(ligands: number, numModes: number): number {
  return SAFETY * ligands * (SEARCH_SEC_PER_LIGAND + CHECK_SEC_PER_POSE * numModes);
}

/**
 * Checks each of a ligand's poses in the receptor (its PDB file), computes its strain and profiles
 * its interactions, with each pose's 2D diagram (SVG). `reference`: the stereochemistry the poses must keep (the
 * ligand's SMILES when it was given as one).
 */
export async function checkDockedPoses(
  tools: EngineTools,
  dir: string,
  input: { receptorPdb: string; poses: Pose[]; reference: string | null; title: string; structure: Structure; onPose?: (done: number, of: number) => void },
): Promise<{ poses: CheckedPose[]; svgs: Map<CheckedPose, string> }> {
  const poses: CheckedPose[] = [];
  const svgs = new Map<CheckedPose, string>();
  // The poses are one molecule: one conformer search is the strain's reference for them all.
  const searches: SearchCache = new Map();
  for (const [k, pose] of input.poses.entries()) {
    input.onPose?.(k, input.poses.length);
    const pdir = path.join(dir, `pose-${k + 1}`);
    fs.mkdirSync(pdir, { recursive: true });
    const { checks, complex } = await checkPose(tools, pdir, { receptorPdb: input.receptorPdb, molblock: pose.molblock, referenceSmiles: input.reference });
    const { interactions, svg } = await poseInteractions(tools, pdir, { molblock: pose.molblock, complex, title: `${input.title}, Vina pose ${k + 1}` });
    const strain = await poseStrain(tools, pdir, input.structure, pose.molblock, searches);
    checks.details.strain = strain.details;
    const checked = { ...pose, checks, strain_kcal_mol: strain.strainKcalMol, interactions };
    poses.push(checked);
    svgs.set(checked, svg);
  }
  return { poses, svgs };
}

/** The `interactions` records of a ligand's poses in their final order: ids `<ligand id>-<pose>`, as the poses port's. */
export function diagramRecords(ordered: CheckedPose[], svgs: Map<CheckedPose, string>, ligand: { id: string; index: number }): OutputRecord[] {
  return ordered.flatMap((q, k) => {
    const svg = svgs.get(q);
    return svg === undefined
      ? []
      : [
          {
            id: `${ligand.id}-${k + 1}`,
            files: { primary: { name: 'interactions.svg', content: svg, contentType: 'image/svg+xml' } },
            metrics: { index: ligand.index, pose: k + 1 },
          },
        ];
  });
}

/** The poses in the order asked for; ties by Vina's score, then Vina's own order. */
export function orderPoses<T extends CheckedPose>(poses: T[], order: PoseOrder): T[] {
  const vina = new Map(poses.map((p, k) => [p, k]));
  const cmp = (x: number, y: number) => (x === y ? 0 : x < y ? -1 : 1);
  const byScore = (a: T, b: T) => cmp(a.score_kcal_mol, b.score_kcal_mol) || vina.get(a)! - vina.get(b)!;
  // A pose without the figure goes after those with it.
  const key = (p: T) =>
    order === 'checks' ? (p.checks ? p.checks.failed.length : Infinity) : order === 'strain' ? (typeof p.strain_kcal_mol === 'number' ? p.strain_kcal_mol : Infinity) : 0;
  return [...poses].sort((a, b) => cmp(key(a), key(b)) || byScore(a, b));
}
