// `docking` (docs/engines.md, "Docking"): AutoDock Vina docks each ligand
// into a rigid receptor within a box. The receptor is an uploaded PDB file or an RCSB PDB entry,
// prepared once per content (waters and other hetero groups out unless kept, hydrogens at the
// job's pH, PDBQT by Open Babel) and cached on the worker's machine; each ligand is given 3D
// coordinates, protonated at the pH and written as a PDBQT with its torsion tree. Result items:
// `poses` [{molblock, score_kcal_mol, rmsd_lb, rmsd_ub}] best first; ports poses (SDF), table
// (CSV: best score per ligand) and logs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { JobInputError, type OutputRecord } from '../job-type.js';
import { makeScratch, removeScratch } from '../../engines/scratch.js';
import {
  checkDockingInputs,
  checkDockingPayload,
  DEFAULT_PADDING,
  DEFAULT_SEED,
  dockingEstimate,
  dockingInputs,
  MAX_BOX_SIDE,
  MAX_LIGANDS,
  type DockingPayload,
} from './kit/docking-inputs.js';
import { AUTO_SITE, ITS_LIGAND } from '../../engines/docking/box.js';
import { countStructures, MAX_MOLBLOCK_CHARS, structureFields } from './kit/payload.js';
import { prepareReceptor, RECEPTOR_PDB, ReceptorProblem } from '../../engines/docking/receptor.js';
import { EngineLogs, engineOutput, runItems, toolsFor, type ItemResult } from './kit/run.js';
import { checkStructure, loadStructures } from './kit/structures.js';
import { sdfRecord } from '../../engines/molblock.js';
import { prepareLigand, runVina } from '../../engines/docking/vina.js';
import { engineJob } from './kit/engine-job.js';
import { DockingResult } from './kit/results.js';
import { PROTONATION_ENGINES, protonateRawReceptor, receptorProtonationField } from './kit/docking-protonation.js';
import { checkDockedPoses, diagramRecords, dockingPoseFields, orderPoses, poseCheckSeconds, type CheckedPose } from './kit/docking-poses.js';
import type { EngineName } from '../../engines/catalog.js';
import { isMolblock } from '../../chem/jobs/handlers.js';
import { displayName } from './kit/structures.js';

/** A receptor the engines cannot use is the job's input problem (charged, as the user's). */
function receptorInputError(err: unknown): never {
  throw err instanceof ReceptorProblem ? new JobInputError(err.message) : err;
}

const Vec3 = (item: Record<string, unknown>, description: string) => Type.Array(Type.Number(item), { minItems: 3, maxItems: 3, description });

const Payload = Type.Object(
  {
    ...structureFields(),
    molecules: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_MOLBLOCK_CHARS }), {
        minItems: 1,
        description: `The ligands (1 to ${MAX_LIGANDS}): each a SMILES (3D coordinates built) or a molblock (3D coordinates kept). Exactly one of molecules and input_artifact_id`,
      }),
    ),
    receptor_artifact_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id' }),
    ),
    pdb_id: Type.Optional(Type.String({ pattern: '^[0-9][A-Za-z0-9]{3}$', description: 'An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format' })),
    keep_hetero: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,3}$' }), {
        maxItems: 50,
        default: [],
        description: 'Residue names of hetero groups to keep in the receptor (e.g. HEM, ZN; HOH keeps the waters); every other hetero group is removed',
      }),
    ),
    box: Type.Optional(
      Type.Object(
        {
          center: Vec3({ minimum: -10_000, maximum: 10_000 }, 'Centre of the search box, x y z (A)'),
          size: Vec3({ exclusiveMinimum: 0, maximum: MAX_BOX_SIDE }, `Edge lengths of the search box, x y z (A), each at most ${MAX_BOX_SIDE}`),
        },
        { additionalProperties: false },
      ),
    ),
    reference_ligand_artifact_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'An uploaded ligand pose (SDF, MOL, MOL2 or PDB): the box is its extent plus padding on every side. Exactly one of box and this',
      }),
    ),
    box_site: Type.Optional(
      Type.String({
        pattern: `^(?:[A-Za-z0-9]{1,3}|${ITS_LIGAND}|${AUTO_SITE})$`,
        description:
          'A hetero group of the receptor by residue name (e.g. STI, 1IEP\'s imatinib), or "ligand" for its ligand (its one hetero group that is not water, an ion, an additive or kept; a 422 lists the groups when there are several): the box is its first group\'s extent plus padding on every side; the group is removed unless kept. "auto": the box of the receptor\'s best pocket (the pockets job\'s first, docs/structure.md "Pockets"; the result\'s box says which). Exactly one of box, reference_ligand_artifact_id and this',
      }),
    ),
    keep_best: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIGANDS,
        description: "Port `best`: the best pose of each of this many best-scoring ligands, best first (for a workflow's next step)",
      }),
    ),
    padding: Type.Optional(Type.Number({ minimum: 0, maximum: 30, description: `A of space around the reference ligand or site on every side (default ${DEFAULT_PADDING})` })),
    exhaustiveness: Type.Optional(Type.Integer({ minimum: 1, maximum: 64, default: 8, description: "Vina's exhaustiveness (independent Monte Carlo runs)" })),
    scoring: Type.Optional(
      Type.Union([Type.Literal('vina'), Type.Literal('vinardo')], {
        default: 'vina',
        description: 'Vina 1.2\'s scoring function: vina, or vinardo (Quiroga and Villarreal 2016: a simpler steric term and no hydrogen-bond cap; docs/structure.md, "Rescoring")',
      }),
    ),
    num_modes: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 9, description: 'Poses kept per ligand at most (within energy_range of the best)' })),
    energy_range: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 20, default: 3, description: "Vina's energy range: poses kept only within this many kcal/mol of the best (Vina's default 3)" }),
    ),
    seed: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: `Vina's random seed (default ${DEFAULT_SEED}): the same seed and inputs give the same poses` }),
    ),
    ph: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 14 }), Type.Null()], {
        default: 7.4,
        description:
          "pH at which the ligands, and a receptor given without hydrogens, are protonated (Open Babel's model); null: hydrogens by valence only. A receptor with its hydrogens keeps them",
      }),
    ),
    ...dockingPoseFields,
    ...receptorProtonationField,
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & DockingPayload;

/** One engine call may take this long; the job's runtime limit is the real bound. */
const PER_CALL_MS = 60 * 60_000;

/** The best-scoring ligands (their best pose), best first: `n` of them, or all. */
function bestLigands(items: ItemResult[], n: number | undefined) {
  return items
    .flatMap((it) => {
      const pose = (it.fields.poses as { molblock: string; score_kcal_mol: number }[] | undefined)?.[0];
      return !it.error && pose ? [{ index: it.index, id: it.id, name: it.name, score: pose.score_kcal_mol, molblock: pose.molblock }] : [];
    })
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, n ?? items.length);
}

/**
 * Vina and Open Babel; with the pose checks RDKit's program, PLIP and xtb (the strain); with PROPKA
 * for a raw receptor PDBFixer and PDB2PQR: the lanes docking's jobs travel in.
 */
const CHECK_ENGINES: EngineName[] = ['rdkit', 'plip', 'xtb'];
const enginesOf = (checks: boolean, propka: boolean): EngineName[] => ['obabel', 'vina', ...(checks ? CHECK_ENGINES : []), ...(propka ? PROTONATION_ENGINES : [])];
const DOCKING_ENGINES = {
  sets: [enginesOf(false, false), enginesOf(true, false), enginesOf(false, true), enginesOf(true, true)],
  of: (p: Payload): EngineName[] => enginesOf(p.pose_checks !== false, p.receptor_protonation !== 'openbabel'),
};

export const dockingJob = engineJob<Payload>('docking', { poses: 'molecules', best: 'molecules', table: 'table', interactions: 'svg' }, DOCKING_ENGINES, {
  summary: 'AutoDock Vina docking of ligands into a receptor (an uploaded PDB file or an RCSB PDB entry) within a box',
  payload: Payload,
  result: DockingResult,
  methods: ['vina', 'vina12', 'vinardo', 'openbabel', 'ligsite', 'posebusters', 'plip', 'gfnff', 'alpb', 'xtb'],
  methodsOf: (p) => [
    'vina12',
    'openbabel',
    p.scoring === 'vinardo' ? 'vinardo' : 'vina',
    ...(p.box_site === AUTO_SITE ? ['ligsite'] : []),
    ...(p.pose_checks === false ? [] : ['posebusters', 'plip', 'gfnff', 'alpb', 'xtb']),
  ],
  async estimate(p, ctx) {
    checkDockingPayload(p);
    const n = await countStructures(p, ctx);
    const { box, site } = await checkDockingInputs(p, ctx);
    let heavy: number[] = [];
    let torsions: (number | null)[] = [];
    if (p.molecules && ctx.structureInfo) {
      const infos = await ctx.structureInfo(p.molecules, { rotatable: true });
      heavy = infos.map((i) => (i.error ? 0 : i.heavy));
      torsions = infos.map((i) => (i.error ? 0 : (i.rotatable ?? null)));
    }
    // Vina's threads are the resource's, but no more than the machine has cores (a 2-core worker runs cpu-4's 4 threads at 2 cores' speed).
    const est = dockingEstimate(p, n, heavy, Math.min(ctx.resource.vcpu, os.availableParallelism()), box, site, torsions);
    if (p.pose_checks === false) return est;
    const checks = poseCheckSeconds(n, p.num_modes ?? 9);
    return {
      expectedRuntimeSec: Math.round((est.expectedRuntimeSec + checks) * 1000) / 1000,
      assumptions: { ...est.assumptions, pose_checks_sec: Math.round(checks * 10) / 10 },
    };
  },
  async run(ctx) {
    const p = ctx.payload;
    const ph = p.ph === undefined ? 7.4 : p.ph;
    const seed = p.seed ?? DEFAULT_SEED;
    const exhaustiveness = p.exhaustiveness ?? 8;
    const numModes = p.num_modes ?? 9;
    const energyRange = p.energy_range ?? 3;
    const scoring = p.scoring ?? 'vina';
    const poseChecks = p.pose_checks !== false;
    const poseOrder = p.pose_order ?? 'score';
    const diagrams: OutputRecord[] = [];
    const keep = (p.keep_hetero ?? []).map((k) => k.toUpperCase());
    const dir = makeScratch('docking');
    const receptorLogs = new EngineLogs();
    try {
      const receptorPdb = path.join(dir, RECEPTOR_PDB);
      const { receptor, box, boxSource } = await dockingInputs(ctx, receptorPdb);
      const structures = await loadStructures(ctx);
      ctx.progress(0.01, 'preparing the receptor');
      const receptorTools = toolsFor(ctx, receptorLogs, 0, PER_CALL_MS);
      const raw = await protonateRawReceptor(receptorTools, dir, { info: receptor.info, ph, mode: p.receptor_protonation ?? 'propka', sha256: receptor.sha256 }).catch(
        receptorInputError,
      );
      const prepared = await prepareReceptor(
        { sha256: raw?.sha256 ?? receptor.sha256, info: raw?.info ?? receptor.info, keep, ph },
        receptorTools,
        dir,
        ctx.deps.engines?.obabel.version ?? '',
        { dir: ctx.deps.cacheDir, userId: ctx.userId },
      ).catch(receptorInputError);
      const receptorFile = prepared.file;
      // Progress moves with Vina (docs/jobs.md, "Progress"): each ligand's share of 0.02..0.98
      // (as runItems counts them), 5% for its preparation, the rest as Vina's asterisks come.
      const total = structures.length;
      let started = 0;
      const ligandProgress = (k: number, fraction: number, message: string) =>
        ctx.progress(0.02 + (0.96 * (k + fraction)) / total, `ligand ${k + 1} of ${total}: ${message}`, { stage: 'dock', ligand: k + 1, ligands: total }, false);
      ctx.progress(0.02, `receptor prepared; docking ${total} ligand${total === 1 ? '' : 's'}`);
      const run = await runItems(ctx, structures, { perCallTimeoutMs: PER_CALL_MS, label: 'dock' }, async (s, tools, idir) => {
        const k = started++;
        checkStructure(s, 'vina');
        ligandProgress(k, 0, 'preparing the ligand');
        const lig = await prepareLigand(s, tools, idir, ph);
        ligandProgress(k, 0.05, 'docking with Vina, 0%');
        // With the pose checks, Vina's share ends at 0.8 of the ligand's and the checks take the rest.
        const vinaShare = poseChecks ? 0.75 : 0.95;
        const onProgress = (f: number) => ligandProgress(k, 0.05 + vinaShare * f, `docking with Vina, ${Math.round(100 * f)}%`);
        const vinaPoses = await runVina(tools, idir, lig, { receptor: receptorFile, box, exhaustiveness, numModes, energyRange, seed, scoring, onProgress }).catch(
          receptorInputError,
        );
        let poses: CheckedPose[] = vinaPoses;
        let svgs = new Map<CheckedPose, string>();
        if (poseChecks) {
          const onPose = (done: number, of: number) => ligandProgress(k, 0.8 + (0.2 * done) / of, `checking the poses, ${done} of ${of}`);
          // The SMILES's stereo is the reference, unless fragments (salts) were dropped: the pose is the rest.
          const reference = isMolblock(s.input) || lig.dropped ? null : s.input;
          ({ poses, svgs } = await checkDockedPoses(tools, idir, { receptorPdb, poses: vinaPoses, reference, title: displayName(s), structure: s, onPose }));
        }
        poses = orderPoses(poses, poseOrder);
        diagrams.push(...diagramRecords(poses, svgs, s));
        const best = Math.min(...poses.map((q) => q.score_kcal_mol));
        return {
          fields: { poses, best_score_kcal_mol: best, torsions: lig.torsions, charge: lig.charge, ...(lig.dropped ? { fragments_dropped: lig.dropped } : {}) },
          structures: poses.map((q, k) => ({
            molblock: q.molblock,
            props: {
              pose: k + 1,
              score_kcal_mol: q.score_kcal_mol,
              rmsd_lb: q.rmsd_lb,
              rmsd_ub: q.rmsd_ub,
              ...(q.checks ? { checks_passed: q.checks.passed ? 1 : 0, checks_failed: q.checks.failed.join(' ') } : {}),
            },
          })),
          row: {
            best_score_kcal_mol: best,
            poses: poses.length,
            torsions: lig.torsions,
            ...(poseChecks ? { poses_passing_checks: poses.filter((q) => q.checks?.passed).length } : {}),
          },
        };
      });
      const out = engineOutput(
        'docking',
        'vina',
        run,
        {
          receptor: {
            ...receptor.source,
            sha256: receptor.sha256,
            residues: receptor.info.residues,
            atoms_pdbqt: prepared.atoms,
            hydrogens: raw
              ? `added by PDBFixer and PDB2PQR with PROPKA at pH ${ph}`
              : prepared.hydrogens === 'kept'
                ? "the file's own"
                : `added by Open Babel at pH ${ph ?? 'of its valences'}`,
            ...(raw ? { preparation: raw.preparation } : {}),
            removed_hetero: receptor.info.removed,
            kept_hetero: receptor.info.kept,
            prepared_from_cache: prepared.cached,
          },
          box: { center: box.center, size: box.size, ...boxSource },
          exhaustiveness,
          scoring,
          pose_checks: poseChecks,
          pose_order: poseOrder,
          num_modes: numModes,
          energy_range: energyRange,
          seed,
          ph,
          vina_version: ctx.deps.engines?.vina.version ?? null,
          openbabel_version: ctx.deps.engines?.obabel.version ?? null,
        },
        'poses',
      );
      const best = bestLigands(run.items, p.keep_best);
      (out.result as Record<string, unknown>).best = best.map(({ index, id, name, score }) => ({ index, id, name, score_kcal_mol: score }));
      out.ports!.best = {
        format: 'sdf',
        kind: 'molecules',
        records: best.map((b, k) => ({
          id: b.id,
          files: {
            primary: { name: 'structure.sdf', content: sdfRecord(b.molblock, b.name ?? b.id, { rank: k + 1, score_kcal_mol: b.score }), contentType: 'chemical/x-mdl-sdfile' },
          },
          metrics: { rank: k + 1, score_kcal_mol: b.score },
        })),
      };
      (out.result as { ports: Record<string, string> }).ports.best =
        `the best pose of each of the ${best.length} best-scoring ligands (keep_best; all ligands without it), best first`;
      (out.result as { ports: Record<string, string> }).ports.poses =
        "every ligand's poses as SDF records (ids <ligand id>-<pose>, in pose_order, with score_kcal_mol, rmsd_lb, rmsd_ub and with the checks checks_passed and checks_failed as SDF fields)";
      if (poseChecks) {
        (out.result as { ports: Record<string, string> }).ports.interactions =
          "each pose's 2D interaction diagram (image/svg+xml; record ids <ligand id>-<pose> as the poses port's): the ligand, the residues it touches, a dashed line per interaction coloured by type";
        out.ports!.interactions = {
          format: 'svg',
          kind: 'svg',
          records: diagrams.sort((a, b) => (a.metrics!.index as number) - (b.metrics!.index as number) || (a.metrics!.pose as number) - (b.metrics!.pose as number)),
        };
      }
      // The receptor as docked (waters and hetero groups out unless kept, before Open Babel's
      // hydrogens and charges): what a viewer draws the poses in, whether it was uploaded or
      // fetched from RCSB. Read as bytes (never a string on the event loop: it can be 50 MB).
      out.ports!.receptor = {
        format: 'pdb',
        kind: 'receptor',
        records: [
          { id: 'receptor', files: { primary: { name: 'receptor.pdb', content: await fs.promises.readFile(path.join(dir, RECEPTOR_PDB)), contentType: 'chemical/x-pdb' } } },
        ],
      };
      (out.result as { ports: Record<string, string> }).ports.receptor =
        'the receptor as docked (PDB: waters and hetero groups removed unless kept, before hydrogens and charges were added), one record';
      const logs = out.ports!.logs!.records as OutputRecord[];
      const text = [...receptorLogs.byItem.values()].flat().join('\n');
      if (text) logs.unshift({ id: 'receptor', files: { primary: { name: 'receptor.log', content: text, contentType: 'text/plain' } } });
      return out;
    } finally {
      removeScratch(dir);
    }
  },
});
