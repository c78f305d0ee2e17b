// `pose_check` (docs/structure.md, "Pose checks and interactions"): each pose (a 3D molblock,
// coordinates kept) checked PoseBusters-style in its receptor (bond lengths, angles, aromatic ring
// flatness, stereochemistry, internal and protein clashes) and profiled by PLIP (hydrogen bonds,
// salt bridges, pi stacking, cation-pi, hydrophobic contacts, halogen bonds), with a 2D
// interaction diagram per pose, and each pose's strain (GFN-FF, engines/poses/strain.ts) unless
// `strain: false`. The receptor is read as docking reads it (kit/docking-inputs.ts).
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { isMolblock } from '../../chem/jobs/handlers.js';
import { makeScratch, removeScratch } from '../../engines/scratch.js';
import { RECEPTOR_PDB } from '../../engines/docking/receptor.js';
import { checkPose, poseInteractions } from '../../engines/poses/check.js';
import { poseStrain } from '../../engines/poses/strain.js';
import { ItemFailure } from '../../engines/tools.js';
import type { JobType, OutputRecord } from '../job-type.js';
import { OVERHEAD_SEC, SAFETY } from './kit/calibration.js';
import { checkReceptorPayload, checkDockingInputs, dockingInputs, type DockingPayload } from './kit/docking-inputs.js';
import { engineJob } from './kit/engine-job.js';
import { countStructures, MAX_MOLBLOCK_CHARS, MAX_STRUCTURES, structureFields } from './kit/payload.js';
import { item, result } from './kit/results.js';
import { InteractionsSchema, PoseChecksSchema, StrainSchema } from './kit/pose-results.js';
import { engineOutput, runItems } from './kit/run.js';
import { displayName, loadStructures } from './kit/structures.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    molecules: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_MOLBLOCK_CHARS }), {
        minItems: 1,
        maxItems: MAX_STRUCTURES,
        description: `The poses (1 to ${MAX_STRUCTURES}): each a molblock with 3D coordinates in the receptor's frame (kept as given). Exactly one of molecules and input_artifact_id (an uploaded SDF, or a docking result with port "poses")`,
      }),
    ),
    receptor_artifact_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id' }),
    ),
    pdb_id: Type.Optional(
      Type.String({ pattern: '^[0-9][A-Za-z0-9]{3}$', description: 'An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format; its waters and hetero groups are removed' }),
    ),
    reference_smiles: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 2_000 }), {
        minItems: 1,
        maxItems: MAX_STRUCTURES,
        description:
          'The stereochemistry each pose must keep, as SMILES: one for every pose, or one per pose in input order. Without it a pose is compared with the atom parities its molblock declares',
      }),
    ),
    strain: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          "Compute each pose's strain_kcal_mol (GFN-FF: the pose relaxed with its heavy atoms restrained, minus the lowest conformer of the same molecule, ALPB water; about 1 s for a small ligand, 15 s for imatinib). false skips it (strain_kcal_mol null)",
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & DockingPayload;

export const PoseCheckResult = result(
  'PoseCheckResult',
  'pose_check',
  item(
    {
      checks: PoseChecksSchema,
      strain_kcal_mol: StrainSchema,
      interactions: InteractionsSchema,
      heavy_atoms: Type.Integer(),
    },
    'A pose checked in its receptor',
  ),
  { receptor: Type.Record(Type.String(), Type.Unknown()) },
);

/** One pose's checks, PLIP and two RDKit runs: about 2 s measured on 1IEP (docs/structure.md). */
const SEC_PER_POSE = 3;
/** One pose's strain: 1 s for a small ligand, 15 s for imatinib (30 conformers; docs/structure.md); a drug-sized pose is the case to plan for. */
const STRAIN_SEC_PER_POSE = 15;
const RECEPTOR_SEC = 1;
const STRAIN_NOT_ASKED = { computed: false, reason: 'not asked for (payload strain: false)' };

function checkPayload(p: Payload, n: number): void {
  checkReceptorPayload(p);
  p.molecules?.forEach((m, i) => {
    if (!isMolblock(m)) throw invalid(['molecules', i], `pose ${i} is not a molblock: a pose is a molblock with 3D coordinates (a SMILES has no pose)`, m.slice(0, 200));
  });
  if (p.reference_smiles && p.reference_smiles.length !== 1 && p.reference_smiles.length !== n)
    throw invalid(['reference_smiles'], `give one reference SMILES for every pose or one per pose (${n}), not ${p.reference_smiles.length}`, p.reference_smiles.length);
}

const job = engineJob<Payload>('pose_check', { interactions: 'svg', table: 'table' }, ['plip', 'rdkit'], {
  summary: 'PoseBusters-style checks of ligand poses in a receptor and their PLIP interactions, with a 2D interaction diagram per pose',
  payload: Payload,
  result: PoseCheckResult,
  methods: ['posebusters', 'plip', 'rdkit', 'gfnff', 'alpb', 'xtb'],
  async estimate(p, ctx) {
    const n = await countStructures(p, ctx);
    checkPayload(p, n);
    await checkDockingInputs(p, ctx);
    const perPose = SEC_PER_POSE + (p.strain === false ? 0 : STRAIN_SEC_PER_POSE);
    return {
      expectedRuntimeSec: Math.round((OVERHEAD_SEC + RECEPTOR_SEC + SAFETY * perPose * n) * 1000) / 1000,
      assumptions: {
        poses: n,
        strain: p.strain !== false,
        model: `overhead + receptor + ${SAFETY} x poses x (${SEC_PER_POSE} s checks and PLIP${p.strain === false ? '' : ` + ${STRAIN_SEC_PER_POSE} s strain`}) (docs/structure.md, "Pose checks and interactions")`,
      },
    };
  },
  async run(ctx) {
    const p = ctx.payload;
    const dir = makeScratch('pose-check');
    try {
      const receptorPdb = path.join(dir, RECEPTOR_PDB);
      const { receptor } = await dockingInputs(ctx, receptorPdb);
      const structures = await loadStructures(ctx);
      const svgs: OutputRecord[] = [];
      const run = await runItems(ctx, structures, { perCallTimeoutMs: 300_000, label: 'pose' }, async (s, tools, idir) => {
        if (!isMolblock(s.input) || !s.info.has3d) throw new ItemFailure('not_3d', 'a pose is a molblock with 3D coordinates; this structure has none');
        const reference = p.reference_smiles ? (p.reference_smiles[s.index] ?? p.reference_smiles[0]) : null;
        const { checks, complex, heavyAtoms } = await checkPose(tools, idir, { receptorPdb, molblock: s.input, referenceSmiles: reference });
        const { interactions, svg } = await poseInteractions(tools, idir, { molblock: s.input, complex, title: displayName(s) });
        svgs.push({ id: s.id, files: { primary: { name: 'interactions.svg', content: svg, contentType: 'image/svg+xml' } }, metrics: { index: s.index } });
        const strain = p.strain === false ? null : await poseStrain(tools, idir, s, s.input);
        checks.details.strain = strain ? strain.details : STRAIN_NOT_ASKED;
        const count = (t: string) => interactions.filter((i) => i.type === t).length;
        return {
          fields: { checks, strain_kcal_mol: strain?.strainKcalMol ?? null, interactions, heavy_atoms: heavyAtoms },
          structures: [],
          row: {
            passed: checks.passed ? 1 : 0,
            failed: checks.failed.join(' '),
            hbonds: count('hbond'),
            interactions: interactions.length,
            strain_kcal_mol: strain?.strainKcalMol ?? '',
          },
        };
      });
      const out = engineOutput('pose_check', 'posebusters', run, {
        receptor: { ...receptor.source, sha256: receptor.sha256, residues: receptor.info.residues, removed_hetero: receptor.info.removed, kept_hetero: receptor.info.kept },
        plip_version: ctx.deps.engines?.plip.version ?? null,
        rdkit_version: ctx.deps.engines?.rdkit.version ?? null,
      });
      const ports = (out.result as { ports: Record<string, string> }).ports;
      delete ports.structures;
      delete out.ports!.structures;
      ports.interactions =
        "each pose's 2D interaction diagram (image/svg+xml; record id = the pose's id): the ligand, the residues it touches, a dashed line per interaction coloured by type";
      out.ports!.interactions = { format: 'svg', kind: 'svg', records: svgs.sort((a, b) => (a.metrics!.index as number) - (b.metrics!.index as number)) };
      return out;
    } finally {
      removeScratch(dir);
    }
  },
});

/** The strain needs xtb: lane plip-rdkit-xtb, or plip-rdkit with strain: false. */
export const poseCheckJob: JobType<Payload> = {
  ...job,
  engines: (p) => (p.strain === false ? ['plip', 'rdkit'] : ['plip', 'rdkit', 'xtb']),
  engineSets: [
    ['plip', 'rdkit', 'xtb'],
    ['plip', 'rdkit'],
  ],
};
