// `pockets` (docs/structure.md, "Pockets"): the cavities of a receptor with no ligand given, by
// a LIGSITE grid search (src/engines/pockets/ligsite.ts) in a worker thread. The receptor is an
// uploaded PDB file or an RCSB PDB entry, read as docking reads it (kit/docking-inputs.ts: waters
// and hetero groups out, first model and alternate location); a file that is not a protein is a
// 422 at submit. Result: `pockets` [{rank, center, size, volume_a3, score, buriedness, residues}]
// best first; each `size` with `center` is a Vina box (docking's box_site "auto" takes the first).
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { JobType } from '../job-type.js';
import { makeScratch, removeScratch } from '../../engines/scratch.js';
import { RECEPTOR_PDB } from '../../engines/docking/receptor.js';
import { BOX_PADDING, GRID_SPACING, LINING_DISTANCE, MAX_SCAN, MIN_BURIED, MIN_POINTS, PROBE_RADIUS } from '../../engines/pockets/ligsite.js';
import { OVERHEAD_SEC, SAFETY } from './kit/calibration.js';
import { checkDockingInputs, checkReceptorPayload, receptorAtRun } from './kit/docking-inputs.js';
import { pocketsOfFile } from './kit/pockets.js';

export const MAX_POCKETS = 20;
/** Seconds of a search: a base (the thread, the grid) and a share per heavy atom (0.2 s for 1IEP's 2,300 heavy atoms; docs/structure.md, "Pockets"). */
const BASE_SEC = 0.5;
const SEC_PER_ATOM = 1e-4;

const Payload = Type.Object(
  {
    receptor_artifact_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'An uploaded PDB file of the receptor (at most 50 MB). Exactly one of receptor_artifact_id and pdb_id' }),
    ),
    pdb_id: Type.Optional(Type.String({ pattern: '^[0-9][A-Za-z0-9]{3}$', description: 'An RCSB PDB entry (e.g. 1IEP), fetched in the PDB format' })),
    max_pockets: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_POCKETS, default: 5, description: `The best pockets reported (1 to ${MAX_POCKETS})` })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

const Vec3 = (description: string) => Type.Array(Type.Number(), { minItems: 3, maxItems: 3, description });
const Result = Type.Object(
  {
    job_type: Type.Literal('pockets'),
    method: Type.Literal('ligsite'),
    receptor: Type.Object(
      { sha256: Type.String(), residues: Type.Integer(), heavy_atoms: Type.Integer() },
      { additionalProperties: true, description: 'The receptor searched, and where it came from' },
    ),
    parameters: Type.Record(Type.String(), Type.Number(), { description: 'The LIGSITE parameters (docs/structure.md, "Pockets")' }),
    grid: Type.Object({ spacing_a: Type.Number(), points: Type.Integer() }),
    pockets_found: Type.Integer({ description: 'Pockets found before max_pockets was applied' }),
    pockets: Type.Array(
      Type.Object(
        {
          rank: Type.Integer({ minimum: 1 }),
          center: Vec3('The mean of its grid points, x y z (A)'),
          size: Vec3(`Edge lengths of a box that holds it: its points' extent plus ${BOX_PADDING} A on every side (a Vina box with center)`),
          volume_a3: Type.Number({ description: 'Its grid points times the cell volume (A^3)' }),
          score: Type.Number({ description: 'Grid points x mean buriedness' }),
          buriedness: Type.Number({ description: 'Mean directions (of 7) with protein on both sides of its points' }),
          residues: Type.Array(Type.String(), {
            description: `The residues lining it (a heavy atom within ${LINING_DISTANCE} A of a point), as RESNAME CHAIN NUMBER (e.g. MET A 318)`,
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'Best first' },
    ),
    runtime_ms: Type.Integer({ description: 'The search, in its thread' }),
  },
  { additionalProperties: false, description: "A receptor's pockets, best first" },
);

export const pocketsJob: JobType<Payload> = {
  name: 'pockets',
  summary: 'Pockets of a receptor (an uploaded PDB file or an RCSB PDB entry) with no ligand given: a LIGSITE grid search, best first, each with a Vina box',
  payload: Payload,
  result: Result,
  runsOn: 'thread',
  methods: ['ligsite'],
  async estimate(p, ctx) {
    checkReceptorPayload(p);
    const { receptor } = await checkDockingInputs(p, ctx);
    const atoms = receptor ? receptor.info.atoms - receptor.info.hydrogens : 5_000;
    return {
      expectedRuntimeSec: Math.round((OVERHEAD_SEC + SAFETY * (BASE_SEC + SEC_PER_ATOM * atoms)) * 1000) / 1000,
      assumptions: { heavy_atoms: receptor ? atoms : '5,000 (the receptor is read when the job runs)', model: 'overhead + 1.25 x (0.5 s + 0.1 ms per heavy atom)' },
    };
  },
  async run(ctx) {
    const p = ctx.payload;
    const dir = makeScratch('pockets');
    try {
      const file = path.join(dir, RECEPTOR_PDB);
      const receptor = await receptorAtRun(ctx, file);
      ctx.progress(0.1, 'searching the grid for pockets');
      const s = await pocketsOfFile(file, p.max_pockets ?? 5, ctx);
      return {
        result: {
          job_type: 'pockets',
          method: 'ligsite',
          receptor: { ...receptor.source, sha256: receptor.sha256, residues: receptor.info.residues, heavy_atoms: s.atoms },
          parameters: {
            grid_spacing_a: GRID_SPACING,
            probe_radius_a: PROBE_RADIUS,
            max_scan_a: MAX_SCAN,
            directions: 7,
            min_buried_directions: MIN_BURIED,
            min_points: MIN_POINTS,
            lining_distance_a: LINING_DISTANCE,
            box_padding_a: BOX_PADDING,
          },
          grid: { spacing_a: s.spacing, points: s.grid_points },
          pockets_found: s.found,
          pockets: s.pockets,
          runtime_ms: s.ms,
        },
      };
    } finally {
      removeScratch(dir);
    }
  },
};
