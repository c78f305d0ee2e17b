// `receptor_prepare` (docs/structure.md, "Receptor preparation"): a protein from an upload or an
// RCSB PDB entry made ready for docking and simulation: waters and hetero groups out unless kept,
// missing heavy atoms filled by PDBFixer, hydrogens and protonation states at a pH by PDB2PQR with
// PROPKA. One result item: atoms, hydrogens_added, changes, protonation; the prepared PDB as the
// port `receptor` (of kind receptor: the result artifact's id is a docking job's
// receptor_artifact_id). The receptor is read and checked as docking reads it
// (kit/docking-inputs.ts): a file that is not a protein is a 422 at submit.
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { JobInputError, type JobType, type OutputRecord } from '../job-type.js';
import { makeScratch, removeScratch } from '../../engines/scratch.js';
import { MAX_LISTED_GROUPS, RECEPTOR_PDB, ReceptorProblem } from '../../engines/docking/receptor.js';
import { prepareProtein } from '../../engines/receptor/prepare.js';
import { checkReceptorPayload, checkDockingInputs, dockingInputs } from './kit/docking-inputs.js';
import { EngineLogs, toolsFor } from './kit/run.js';
import { OVERHEAD_SEC, SAFETY } from './kit/calibration.js';

const Payload = Type.Object(
  {
    receptor_artifact_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded PDB file of the protein (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id' }),
    ),
    pdb_id: Type.Optional(Type.String({ pattern: '^[0-9][A-Za-z0-9]{3}$', description: 'An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format' })),
    ph: Type.Optional(Type.Number({ minimum: 0, maximum: 14, default: 7.4, description: 'pH of the protonation states (PROPKA through PDB2PQR)' })),
    keep_waters: Type.Optional(Type.Boolean({ default: false, description: 'Keep the waters (they are removed by default)' })),
    keep_hetero: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,3}$' }), {
        maxItems: 50,
        default: [],
        description: 'Residue names of hetero groups to keep (e.g. HEM, ZN); every other hetero group is removed. Kept groups get no hydrogens',
      }),
    ),
    fill_missing: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          "Add the missing heavy atoms of the residues present (side chains, terminal OXT) with PDBFixer. Gaps (missing residues) are listed, never built. false: PDBFixer adds nothing, though PDB2PQR still rebuilds a residue's few missing heavy atoms (listed in changes)",
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

const Str = Type.String();
const Residue = Type.String({ description: '`RESNAME CHAIN NUMBER` (e.g. HIS A 110; chain _ when blank)' });
const Item = Type.Object(
  {
    index: Type.Integer(),
    id: Str,
    name: Type.Union([Str, Type.Null()]),
    error: Type.Null(),
    detail: Type.Null(),
    atoms: Type.Integer({ description: 'Atoms of the prepared PDB, hydrogens included' }),
    hydrogens_added: Type.Integer({ description: "Hydrogens of the prepared PDB: all added by PDB2PQR (the input's own are dropped first)" }),
    changes: Type.Array(Type.Object({ residue: Residue, what: Str }, { additionalProperties: false }), {
      description: 'Atoms added (per residue) and groups removed (waters, hetero groups)',
    }),
    protonation: Type.Array(Type.Object({ residue: Residue, state: Str }, { additionalProperties: false }), {
      description: 'Every His (HID, HIE, HIP), and every Asp, Glu, Lys, Cys, Arg, Tyr not in its usual state (ASH, GLH, LYN, CYX, CYM, ARN, TYM)',
    }),
    missing_residues: Type.Array(Type.Object({ chain: Str, where: Str, residues: Type.Integer(), terminal: Type.Boolean() }, { additionalProperties: false }), {
      description: 'Gaps in the chains (residues of SEQRES without coordinates): not built',
    }),
  },
  { additionalProperties: false },
);

export const ReceptorPrepareResult = Type.Object(
  {
    job_type: Type.Literal('receptor_prepare'),
    method: Type.Literal('pdbfixer+pdb2pqr'),
    receptor: Type.Object({}, { additionalProperties: true, description: 'The input: artifact_id or pdb_id (with its source), sha256, residues, hetero groups removed and kept' }),
    ph: Type.Number(),
    fill_missing: Type.Boolean(),
    keep_waters: Type.Boolean(),
    keep_hetero: Type.Array(Str),
    openmm_version: Type.Union([Str, Type.Null()], { description: "PDBFixer's OpenMM" }),
    pdb2pqr_version: Type.Union([Str, Type.Null()]),
    summary: Type.Object({ structures: Type.Integer(), completed: Type.Integer(), errors: Type.Integer() }, { additionalProperties: false }),
    items: Type.Array(Item, { minItems: 1, maxItems: 1 }),
    ports: Type.Object({ receptor: Str, logs: Str }, { additionalProperties: false }),
  },
  { $id: 'ReceptorPrepareResult', additionalProperties: false },
);

/** Seconds: PDBFixer and PDB2PQR with PROPKA take about 2 s for 1IEP's 2,200 heavy atoms (docs/structure.md). */
const BASE_SEC = 1.5;
const SEC_PER_ATOM = 0.001;
const ASSUMED_ATOMS = 5_000;

function checkPayload(p: Payload): void {
  checkReceptorPayload(p);
}

/** The groups kept from removal: keep_hetero, and the waters when keep_waters. */
const keptOf = (p: Payload) => [...(p.keep_hetero ?? []).map((k) => k.toUpperCase()), ...(p.keep_waters ? ['HOH'] : [])];

export const receptorPrepareJob: JobType<Payload> = {
  name: 'receptor_prepare',
  summary: 'Receptor preparation: waters and hetero groups removed, missing heavy atoms added (PDBFixer), protonation states at a pH (PDB2PQR with PROPKA)',
  payload: Payload,
  result: ReceptorPrepareResult,
  runsOn: 'process',
  engines: () => ['pdbfixer', 'pdb2pqr'],
  engineSets: [['pdbfixer', 'pdb2pqr']],
  methods: ['pdbfixer', 'pdb2pqr', 'propka'],
  async estimate(p, ctx) {
    checkPayload(p);
    const { receptor } = await checkDockingInputs({ ...p, keep_hetero: keptOf(p) }, ctx);
    const atoms = receptor ? receptor.info.atoms - receptor.info.hydrogens : null;
    return {
      expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * (BASE_SEC + SEC_PER_ATOM * 2 * (atoms ?? ASSUMED_ATOMS))) * 1000) / 1000,
      assumptions: {
        heavy_atoms: atoms ?? `${ASSUMED_ATOMS} (the receptor is read when the job runs)`,
        model: `overhead + ${SAFETY} x (${BASE_SEC} s + ${SEC_PER_ATOM} s x atoms with hydrogens, about twice the heavy atoms) (docs/structure.md, "Receptor preparation")`,
      },
    };
  },
  async run(ctx) {
    const p = ctx.payload;
    const ph = p.ph ?? 7.4;
    const fill = p.fill_missing ?? true;
    const dir = makeScratch('receptor-prepare');
    const logs = new EngineLogs();
    try {
      ctx.progress(0.01, 'reading the receptor');
      const { receptor } = await dockingInputs({ ...ctx, payload: { ...p, keep_hetero: keptOf(p) } }, path.join(dir, RECEPTOR_PDB));
      ctx.progress(0.05, 'PDBFixer, then PDB2PQR with PROPKA');
      const removed = receptor.info.removedGroups;
      const total = Object.values(receptor.info.removed).reduce((a, b) => a + b, 0);
      const prepared = await prepareProtein(toolsFor(ctx, logs, 0, 30 * 60_000), dir, {
        input: RECEPTOR_PDB,
        ph,
        fill,
        removed,
        removedMore: removed.length >= MAX_LISTED_GROUPS ? total - removed.length : 0,
      }).catch((err: unknown) => {
        throw err instanceof ReceptorProblem ? new JobInputError(err.message) : err;
      });
      const item = {
        index: 0,
        id: '0',
        name: null,
        error: null,
        detail: null,
        atoms: prepared.atoms,
        hydrogens_added: prepared.hydrogens,
        changes: prepared.changes,
        protonation: prepared.protonation,
        missing_residues: prepared.gaps,
      };
      const logRecords: OutputRecord[] = [...logs.byItem.values()].map((parts) => ({
        id: 'receptor',
        files: { primary: { name: 'receptor.log', content: parts.join('\n'), contentType: 'text/plain' } },
      }));
      return {
        result: {
          job_type: 'receptor_prepare',
          method: 'pdbfixer+pdb2pqr',
          receptor: { ...receptor.source, sha256: receptor.sha256, residues: receptor.info.residues, removed_hetero: receptor.info.removed, kept_hetero: receptor.info.kept },
          ph,
          fill_missing: fill,
          keep_waters: p.keep_waters ?? false,
          keep_hetero: (p.keep_hetero ?? []).map((k) => k.toUpperCase()),
          openmm_version: ctx.deps.engines?.pdbfixer.version ?? null,
          pdb2pqr_version: ctx.deps.engines?.pdb2pqr.version ?? null,
          summary: { structures: 1, completed: 1, errors: 0 },
          items: [item],
          ports: {
            receptor:
              "the prepared receptor (PDB with every hydrogen, AMBER residue names for the protonation states), one record; the result artifact's id is a docking job's receptor_artifact_id",
            logs: "PDBFixer's and PDB2PQR's output (bounded)",
          },
        },
        ports: {
          // Kind `receptor`: what a job reads of a result artifact given as a file (src/modules/artifacts/job-results.ts).
          receptor: {
            format: 'pdb',
            kind: 'receptor',
            records: [{ id: 'receptor', files: { primary: { name: 'receptor.pdb', content: await fs.promises.readFile(prepared.file), contentType: 'chemical/x-pdb' } } }],
          },
          logs: { format: 'text', kind: 'logs', records: logRecords },
        },
      };
    } finally {
      removeScratch(dir);
    }
  },
};
