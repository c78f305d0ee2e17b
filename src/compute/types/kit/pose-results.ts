// The result schemas of a checked pose (docs/structure.md, "Pose checks and interactions"): what
// pose_check gives per pose and docking adds to each of its poses.
import { Type } from '@sinclair/typebox';
import { CHECK_NAMES, INTERACTION_TYPES } from '../../../engines/poses/check.js';

const Interaction = Type.Object(
  {
    type: Type.Union(
      INTERACTION_TYPES.map((t) => Type.Literal(t)),
      { description: "PLIP's interaction type" },
    ),
    ligand_atoms: Type.Array(Type.Integer(), { description: "The pose's atoms (0-based, molblock order): the acceptor or donor, the ring, the charged group, the carbon" }),
    residue: Type.String({ description: 'RESNAME CHAIN NUMBER, e.g. MET A 318' }),
    distance_a: Type.Union([Type.Number(), Type.Null()], { description: 'Donor-acceptor, centre-centre or atom-atom distance (A), as PLIP gives it' }),
  },
  { additionalProperties: false },
);

export const PoseChecksSchema = Type.Object(
  {
    passed: Type.Boolean({ description: 'true when no check failed' }),
    failed: Type.Array(Type.Union(CHECK_NAMES.map((c) => Type.Literal(c)))),
    details: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
      description:
        'Per check its figures: counts, tolerance and the worst bond, angle, pair or ring; strain: method, solvent, conformers, e_pose_hartree, e_min_hartree, heavy_atom_rmsd_after_relaxation, or the reason it is null',
    }),
  },
  { additionalProperties: false },
);

export const StrainSchema = Type.Union([Type.Number(), Type.Null()], {
  description:
    'GFN-FF energy of the pose relaxed with its heavy atoms restrained, minus the lowest of a conformer search of the same molecule (ALPB water), kcal/mol, never negative; null when not asked for or not computable (checks.details.strain.reason)',
});

export const InteractionsSchema = Type.Array(Interaction, {
  description: 'Hydrogen bonds first, then salt bridges, pi stacking, cation-pi, hydrophobic contacts and halogen bonds; shortest first within a type',
});
