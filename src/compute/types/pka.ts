// `pka` (docs/questions.md, "pKa"): each molecule's ionisable sites with their micro pKa values
// (GFN2/ALPB water energies of the protonation states through a calibration line per site class),
// its microstates' populations at `ph`, and the dominant form with its charge.
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { computePka, PKA_KEEP } from '../../engines/questions/pka.js';
import { PKA_LINES } from '../../engines/questions/pka-calibration.js';
import { MAX_SITES, SITE_CATALOGUE, sitesFromMatches, type SiteClass } from '../../engines/questions/sites.js';
import { engineJob } from './kit/engine-job.js';
import { countStructures, structureFields } from './kit/payload.js';
import { PkaResult } from './kit/question-results.js';
import { checkQuestion, expectedConformers, gfn2Only, questionEstimate } from './kit/questions.js';
import { QM_CALL_MS } from './kit/qm.js';
import { engineOutput, runItems } from './kit/run.js';
import { loadStructures } from './kit/structures.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    ph: Type.Optional(Type.Number({ minimum: 0, maximum: 14, default: 7.4, description: 'The pH of the microstate populations' })),
    method: gfn2Only(),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

const SMARTS = SITE_CATALOGUE.map((c) => c.smarts);

/**
 * GFN2 optimisations of a molecule with `sites` calibrated sites: the neutral form, each site
 * changed, and the contexts of the second pass, which share forms: about 2 x sites forms (ten
 * drugs measured: 2, 4, 6 and 10 forms for 1, 2, 3 and 5 sites).
 */
export function pkaOptimisations(sites: number, conformers: number): number {
  return conformers * 2 * sites;
}

export const pkaJob = engineJob<Payload>('pka', { structures: 'molecules', table: 'table' }, ['rdkit', 'xtb'], {
  summary: 'pKa values of the ionisable sites, and the charge state and microstates at a pH (GFN2-xTB in ALPB water, calibrated per site class)',
  payload: Payload,
  result: PkaResult,
  methods: ['gfn2', 'alpb', 'rdkit'],
  methodsOf: () => ['gfn2', 'alpb', 'rdkit'],
  async estimate(p, ctx) {
    const n = await countStructures(p, ctx);
    if (!p.molecules || !ctx.structureInfo) return questionEstimate('pka', new Array<null>(n).fill(null), () => ({ rdkitRuns: 4, optimisations: pkaOptimisations(2, 3) }));
    const infos = await ctx.structureInfo(p.molecules, { smarts: SMARTS, rotatable: true });
    const counts = infos.map((info, i) => {
      const sites = info.error ? new Map<number, SiteClass>() : sitesFromMatches(info.matches ?? []);
      if (sites.size > MAX_SITES)
        throw invalid(['molecules', i], `${sites.size} ionisable sites: a pka job takes at most ${MAX_SITES} per molecule`, p.molecules![i], 'too_many_sites');
      return { calibrated: [...sites.values()].filter((c) => PKA_LINES[c.class]).length, rotatable: info.rotatable ?? 0 };
    });
    return questionEstimate(
      'pka',
      infos.map((i) => (i.error ? null : i)),
      (i) => ({ rdkitRuns: counts[i]!.calibrated > 1 ? 4 : 3, optimisations: pkaOptimisations(counts[i]!.calibrated, expectedConformers(counts[i]!.rotatable, PKA_KEEP)) }),
    );
  },
  async run(ctx) {
    const ph = ctx.payload.ph ?? 7.4;
    const structures = await loadStructures(ctx);
    const run = await runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label: 'pka' }, async (s, tools, dir) => {
      checkQuestion(s, 'pKa', { closedShell: true });
      const r = await computePka(tools, dir, s, { ph, keep: PKA_KEEP });
      const fields = { smiles: r.smiles, sites: r.sites, microstates: r.microstates, dominant_smiles: r.dominant_smiles, dominant_charge: r.dominant_charge };
      const row = {
        dominant_smiles: r.dominant_smiles,
        dominant_charge: r.dominant_charge,
        sites: r.sites.length,
        pka: r.sites.map((x) => `${x.atom_index}:${x.pka ?? 'null'}`).join(' '),
      };
      return { fields, structures: r.dominant_molblock ? [{ molblock: r.dominant_molblock, props: { dominant_charge: r.dominant_charge, ph } }] : [], row };
    });
    return engineOutput('pka', 'gfn2', run, { ph, solvent: 'water' });
  },
});
