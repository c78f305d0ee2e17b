// `bde` (docs/questions.md, "Bond dissociation energies"): homolytic bond dissociation enthalpies
// at 298 K of each molecule's X-H bonds (one per set of symmetry-equivalent hydrogens on C, N,
// O and S) or of the bonds asked for, weakest first: GFN2 geometries and thermal parts, energies
// from B3LYP/def2-SVP single points (Psi4; the default) or GFN2 alone, through their calibration line.
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { BDE_KEEP, computeBdes, MAX_BONDS, type BdeMethod, type BondRequest } from '../../engines/questions/bde.js';
import { BDE_LINES } from '../../engines/questions/bde-calibration.js';
import type { EngineName } from '../../engines/catalog.js';
import { engineJob } from './kit/engine-job.js';
import { scfSeconds } from './kit/dft-cost.js';
import { countStructures, structureFields } from './kit/payload.js';
import { BdeResult } from './kit/question-results.js';
import { checkQuestion, expectedConformers, gfn2Only, questionEstimate } from './kit/questions.js';
import { QM_CALL_MS } from './kit/qm.js';
import { engineOutput, runItems } from './kit/run.js';
import { loadStructures } from './kit/structures.js';
import type { JobType } from '../job-type.js';
import type { StructureInfoOutcome } from '../../chem/jobs/types.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    bonds: Type.Optional(
      Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 10_000 }), { minItems: 2, maxItems: 2 }), {
        minItems: 1,
        maxItems: MAX_BONDS,
        description:
          "The bonds to break, [i, j] 0-based in the input's atom order (hydrogens after the heavy atoms). Default: every C-H, N-H, O-H and S-H bond, one per set of symmetry-equivalent hydrogens",
      }),
    ),
    method: gfn2Only('gfn2: GFN2-xTB (xtb) geometries and thermal parts (the energies: `energies`)'),
    energies: Type.Optional(
      Type.Union([Type.Literal('b3lyp'), Type.Literal('gfn2')], {
        default: 'b3lyp',
        description:
          'The electronic energies: b3lyp (B3LYP/def2-SVP single points by Psi4 on the GFN2 geometries; calibrated leave-one-out error 1.5 kcal/mol) or gfn2 (GFN2-xTB alone: fast, 7.5 kcal/mol). Geometries and thermal parts are GFN2 either way',
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

const ENERGIES: Record<BdeMethod, string> = { gfn2: 'GFN2-xTB alone (no DFT single points)', b3lyp: 'B3LYP/def2-SVP single points (Psi4) on GFN2 geometries' };
const energiesOf = (p: Payload): BdeMethod => p.energies ?? 'b3lyp';
/**
 * A radical's tight GFN2 optimisation, in optimisations of the model fitted on closed shells
 * (docs/questions.md, "Estimates"): fitted by scripts/questions/fit-costs.ts to the runtimes of
 * ten drugs' bde jobs on an idle machine (bench/data/questions-idle-2026-11-30-1347.json), with the
 * closed-shell model fixed; the estimate records it as `radical_share` for the next refit.
 */
const RADICAL_SHARE = 1.25;
/** An open-shell SCF costs about this many closed-shell ones. */
const UKS_FACTOR = 1.7;
/** Bonds assumed when they cannot be counted at submit. */
const ASSUMED_BONDS = 8;

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

const job = engineJob<Payload>('bde', { structures: 'molecules', table: 'table' }, ['rdkit', 'xtb'], {
  summary: 'Homolytic bond dissociation enthalpies at 298 K (X-H bonds by default, weakest first): GFN2-xTB geometries, GFN2 or B3LYP energies, calibrated',
  payload: Payload,
  result: BdeResult,
  methods: ['gfn2', 'rrho', 'rdkit', 'psi4', 'b3lyp', 'def2_svp'],
  methodsOf: (p) => ['gfn2', 'rrho', 'rdkit', ...(energiesOf(p) === 'b3lyp' ? ['psi4', 'b3lyp', 'def2_svp'] : [])],
  async estimate(p, ctx) {
    const n = await countStructures(p, ctx);
    const method = energiesOf(p);
    const infos: (StructureInfoOutcome | null)[] = p.molecules && ctx.structureInfo ? await ctx.structureInfo(p.molecules, { rotatable: true }) : new Array<null>(n).fill(null);
    const counts: number[] = [];
    for (const [i, info] of infos.entries()) {
      const found =
        p.molecules && info && !info.error ? await ctx.rdkit?.<{ bonds: BondRequest[] }>({ command: 'bonds', smiles: p.molecules[i], bonds: p.bonds, conformers: 0 }) : null;
      const bad = found?.bonds.find((b) => b.error);
      if (bad) throw invalid(['bonds'], `structure ${i}, bond [${bad.atoms.join(', ')}]: ${bad.error}`, p.bonds ?? null, 'invalid_bond');
      if (found && found.bonds.length > MAX_BONDS)
        throw invalid(['molecules', i], `${found.bonds.length} bonds to break: a bde job takes at most ${MAX_BONDS} per molecule`, p.molecules![i], 'too_many_bonds');
      counts.push(found?.bonds.length ?? p.bonds?.length ?? ASSUMED_BONDS);
    }
    // The parent's conformers and its tight optimisation; each radical from the parent and from its own conformers (RADICAL_SHARE
    // of an optimisation each); a Hessian per species.
    const est = questionEstimate('bde', infos, (i) => {
      const conformers = expectedConformers(infos[i]?.rotatable ?? 3, BDE_KEEP);
      return { rdkitRuns: 3, optimisations: conformers + 1 + RADICAL_SHARE * counts[i]! * (1 + conformers), hessians: 1 + counts[i]! };
    });
    est.assumptions.radical_share = RADICAL_SHARE;
    if (method === 'gfn2') return est;
    // The DFT single points: the parent and one radical per bond (the H atom once), def2-SVP functions from the atoms.
    const dft = infos.reduce((t, info, i) => {
      const heavy = info?.heavy ?? 20;
      const functions = 14 * heavy + 5 * ((info?.atoms ?? 40) - heavy);
      return t + scfSeconds('psi4', 'b3lyp', functions) * (1 + UKS_FACTOR * counts[i]!);
    }, 0);
    return {
      ...est,
      expectedRuntimeSec: round(est.expectedRuntimeSec + 1.25 * dft, 3),
      assumptions: { ...est.assumptions, dft_single_points: 'B3LYP/def2-SVP, Psi4 (docs/jobs.md)' },
    };
  },
  async run(ctx) {
    const p = ctx.payload;
    const method = energiesOf(p);
    const line = BDE_LINES[method];
    const structures = await loadStructures(ctx);
    const run = await runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label: 'bde' }, async (s, tools, dir) => {
      checkQuestion(s, 'A bond dissociation energy', { closedShell: true });
      const r = await computeBdes(tools, dir, s, { bonds: p.bonds as [number, number][] | undefined, method });
      const bonds = r.bonds
        .map((b) => ({ ...b, bde_kcal_mol: round(line ? line.slope * b.raw_kcal_mol + line.intercept : b.raw_kcal_mol, 2), raw_kcal_mol: round(b.raw_kcal_mol, 2) }))
        .sort((a, b) => a.bde_kcal_mol - b.bde_kcal_mol);
      const weakest = bonds[0];
      return {
        fields: { smiles: r.smiles, bonds, energies: method },
        structures: [{ molblock: r.parent, props: { weakest_bde_kcal_mol: weakest?.bde_kcal_mol ?? null } }],
        row: { weakest_bond: weakest ? weakest.atoms.join('-') : null, weakest_bde_kcal_mol: weakest?.bde_kcal_mol ?? null, bonds: bonds.length },
      };
    });
    return engineOutput('bde', 'gfn2', run, { energies: ENERGIES[method], calibrated: Boolean(line) });
  },
});

/** Psi4 too when the energies are B3LYP's (the default). */
export const bdeJob: JobType<Payload> = {
  ...job,
  engines: (p) => ['rdkit', 'xtb', ...(energiesOf(p) === 'b3lyp' ? (['psi4'] as EngineName[]) : [])],
  engineSets: [
    ['rdkit', 'xtb'],
    ['psi4', 'rdkit', 'xtb'],
  ],
};
