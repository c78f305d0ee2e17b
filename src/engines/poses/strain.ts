// A pose's strain (docs/structure.md, "Pose checks and interactions"; issue 36): the GFN-FF
// energy of the pose after a restrained relaxation, minus the lowest GFN-FF energy of a conformer
// search of the same molecule, both in ALPB water. What a job (pose_check, and docking on each of
// its poses) calls for one pose; nothing here imports src/compute.
//
// 1. RDKit (src/engines/rdkit/program.ts, command `pose`) completes the pose's hydrogens
//    (AddHs addCoords: the pose's atoms keep their coordinates, the new hydrogens are appended)
//    and embeds ETKDG conformers of that molecule in the same atom order (seed 42, MMFF94).
// 2. The pose is optimised with xtb --gfnff --alpb water, its heavy atoms restrained by xtb's
//    `$constrain atoms:` (a harmonic spring on every heavy-heavy distance, to its value in the
//    pose): hydrogens move freely, heavy atoms by about 0.1-0.3 A. The force constant is
//    RESTRAINT_PER_ATOM / (heavy atoms - 1), so that the springs on one atom add up to the same
//    stiffness whatever the molecule's size. E_pose is then a plain single point (no restraint
//    energy) on the relaxed geometry, as xtb gives it on that file by hand.
// 3. Each conformer is optimised the same way without restraints (src/engines/questions/forms.ts,
//    lowestEnergy); E_min is the lowest, and min(E_min, E_pose) so that a pose below the search
//    gives 0.
import fs from 'node:fs';
import path from 'node:path';
import { readMolblockAtoms } from '../molblock.js';
import { HARTREE_PER_KCAL, runXtb } from '../qm/xtb.js';
import { conformersToEmbed, lowestEnergy } from '../questions/forms.js';
import { runRdkit } from '../rdkit/program.js';
import { ItemFailure, type EngineTools, type Prepared, type Structure } from '../tools.js';

/** The solvent of both sides (ALPB): a bound ligand left its water, the reference is in water. */
export const STRAIN_SOLVENT = 'water';
/** Eh/bohr^2: the springs on one heavy atom add up to this (0.005 per distance for imatinib's 37 heavy atoms). */
export const RESTRAINT_PER_ATOM = 0.18;
/** ETKDG's seed for the conformer search. */
export const STRAIN_SEED = 42;
export const STRAIN_METHOD = 'GFN-FF (xtb), heavy atoms restrained to the pose, minus the lowest of an ETKDG conformer search; both in ALPB water';

/** What RDKit's `pose` command gives. */
interface PoseInputs {
  molblock: string;
  hydrogens_added: number;
  heavy_atoms: number[];
  charge: number;
  multiplicity: number;
  rotatable: number;
  smiles: string;
  molblocks: string[];
}

export interface PoseStrain {
  /** kcal/mol, 0.01; null when it could not be computed (details.reason says why). */
  strainKcalMol: number | null;
  details: Record<string, unknown>;
  /** The relaxed pose with every hydrogen (V2000), whose single point is E_pose; null when not computed. */
  relaxedMolblock: string | null;
}

/** "1-5,7,9-12" from 1-based indices. */
function atomRanges(ids: number[]): string {
  const out: string[] = [];
  for (let k = 0; k < ids.length;) {
    let j = k;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    out.push(j === k ? String(ids[k]) : `${ids[k]}-${ids[j]}`);
    k = j + 1;
  }
  return out.join(',');
}

/** The xcontrol restraining the heavy atoms (0-based) to their distances in the pose; null with fewer than two. */
export function restraintInput(heavy: number[]): { text: string; forceConstant: number } | null {
  if (heavy.length < 2) return null;
  const forceConstant = Math.round((RESTRAINT_PER_ATOM / (heavy.length - 1)) * 1e6) / 1e6;
  return { text: `$constrain\n  force constant=${forceConstant}\n  atoms: ${atomRanges(heavy.map((i) => i + 1))}\n$end\n`, forceConstant };
}

function heavyRmsd(a: number[][], b: number[][], heavy: number[]): number {
  const sum = heavy.reduce((s, i) => s + (a[i]![0]! - b[i]![0]!) ** 2 + (a[i]![1]! - b[i]![1]!) ** 2 + (a[i]![2]! - b[i]![2]!) ** 2, 0);
  return Math.sqrt(sum / Math.max(1, heavy.length));
}

const round = (x: number, n: number) => Math.round(x * 10 ** n) / 10 ** n;

/**
 * The strain of one pose (a 3D molblock, with none, some or all of its hydrogens) in `dir`:
 * never throws for a problem of the pose (RDKit or xtb failing); strainKcalMol is then null and
 * details.reason says why.
 */
/** The conformer searches done so far, by molecule (SMILES and charge): a ligand's poses share one (docking). */
export type SearchCache = Map<string, { energyHartree: number; optimised: number }>;

export async function poseStrain(tools: EngineTools, dir: string, s: Structure, molblock: string, searches?: SearchCache): Promise<PoseStrain> {
  const work = path.join(dir, 'strain');
  const base = { computed: false, method: STRAIN_METHOD, solvent: `alpb ${STRAIN_SOLVENT}` };
  try {
    fs.mkdirSync(work, { recursive: true });
    // The rotatable bonds of the molecule decide how many conformers; RDKit counts them on the pose itself.
    const probe = await runRdkit<PoseInputs>(tools, work, { command: 'pose', molblock, conformers: 0 });
    const known = searches?.get(`${probe.smiles} ${probe.charge}`);
    const inputs = known ? probe : await runRdkit<PoseInputs>(tools, work, { command: 'pose', molblock, conformers: conformersToEmbed(probe.rotatable), seed: STRAIN_SEED });
    if (!known && !inputs.molblocks.length) throw new ItemFailure('engine_failed', `RDKit gave no 3D conformer of ${inputs.smiles}`);
    const pose: Prepared = { ...s, molblock: inputs.molblock, ...readMolblockAtoms(inputs.molblock) };
    const xtb = { method: 'gfnff' as const, solvent: STRAIN_SOLVENT, charge: inputs.charge, multiplicity: inputs.multiplicity };

    // The restrained relaxation, then E_pose as a single point on the relaxed geometry.
    const relaxDir = path.join(work, 'relax');
    fs.mkdirSync(relaxDir, { recursive: true });
    const restraint = restraintInput(inputs.heavy_atoms);
    if (restraint) fs.writeFileSync(path.join(relaxDir, 'restrain.inp'), restraint.text);
    const relaxed = await runXtb(tools, relaxDir, pose, { ...xtb, optimize: { level: 'normal' }, extra: restraint ? ['--input', 'restrain.inp'] : [] });
    const pointDir = path.join(work, 'pose');
    fs.mkdirSync(pointDir, { recursive: true });
    const relaxedPrepared: Prepared = { ...pose, molblock: relaxed.molblock, ...readMolblockAtoms(relaxed.molblock) };
    const point = await runXtb(tools, pointDir, relaxedPrepared, xtb);
    const ePose = point.energyHartree;

    // The conformer search of the same molecule (same atom order, charge and solvent).
    const search =
      known ??
      (await lowestEnergy(
        tools,
        work,
        s,
        { smiles: inputs.smiles, charge: inputs.charge, molblocks: inputs.molblocks },
        {
          solvent: STRAIN_SOLVENT,
          keep: inputs.molblocks.length,
          multiplicity: inputs.multiplicity,
          method: 'gfnff',
        },
      ));
    searches?.set(`${inputs.smiles} ${inputs.charge}`, { energyHartree: search.energyHartree, optimised: search.optimised });
    const eMin = Math.min(search.energyHartree, ePose);
    return {
      strainKcalMol: round((ePose - eMin) / HARTREE_PER_KCAL, 2),
      details: {
        ...base,
        computed: true,
        conformers: search.optimised,
        e_pose_hartree: ePose,
        e_min_hartree: eMin,
        pose_below_search: ePose < search.energyHartree,
        heavy_atom_rmsd_after_relaxation: round(heavyRmsd(pose.coords, relaxedPrepared.coords, inputs.heavy_atoms), 3),
        hydrogens_added: inputs.hydrogens_added,
        restraint: restraint ? { xtb: '$constrain atoms: (every heavy-heavy distance)', force_constant_eh_bohr2: restraint.forceConstant } : null,
        charge: inputs.charge,
      },
      relaxedMolblock: relaxed.molblock,
    };
  } catch (err) {
    if (!(err instanceof ItemFailure)) throw err;
    return { strainKcalMol: null, details: { ...base, reason: `not computed: ${err.message}` }, relaxedMolblock: null };
  }
}
