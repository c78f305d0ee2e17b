// `tautomers` (docs/questions.md, "Tautomers"): each molecule's tautomers (RDKit's enumerator),
// ranked by GFN2 free energy in the solvent, with their populations at 298.15 K. Inline
// molecules are enumerated at submit where this process has RDKit's library: more tautomers
// than `max_tautomers` is a 422 naming the limit, and the estimate counts them.
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { SOLVENTS } from '../../engines/qm/solvents.js';
import { MAX_TAUTOMERS, rankTautomers, TAUTOMER_KEEP, type TautomerEnumeration } from '../../engines/questions/tautomers.js';
import { engineJob } from './kit/engine-job.js';
import { countStructures, structureFields } from './kit/payload.js';
import { TautomersResult } from './kit/question-results.js';
import { checkQuestion, expectedConformers, gfn2Only, questionEstimate } from './kit/questions.js';
import { QM_CALL_MS } from './kit/qm.js';
import { engineOutput, runItems } from './kit/run.js';
import { loadStructures } from './kit/structures.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    solvent: Type.Optional(
      Type.Union([Type.Union(Object.keys(SOLVENTS).map((s) => Type.Literal(s))), Type.Null()], { default: 'water', description: "xtb's ALPB implicit solvent; null: gas phase" }),
    ),
    method: gfn2Only(),
    max_tautomers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TAUTOMERS,
        default: 50,
        description: `A molecule with more tautomers than this is refused (a 422 at submit for inline molecules, an item error too_many_tautomers otherwise); at most ${MAX_TAUTOMERS}`,
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

/** Tautomers assumed when they cannot be counted at submit (an uploaded set, a process without RDKit's library). */
const ASSUMED_TAUTOMERS = 4;
/**
 * A molecule's GFN2 work by its tautomers: each tautomer's conformers optimised, and free
 * energies (Hessians) for those near the lowest: about a third of them past the first, at most 10
 * (docs/questions.md, "Estimates").
 */
function tautomerWork(count: number, rotatable: number): { rdkitRuns: number; optimisations: number; hessians: number } {
  return { rdkitRuns: 1, optimisations: count * expectedConformers(rotatable, TAUTOMER_KEEP), hessians: Math.min(10, Math.round(1 + count / 3)) };
}

export const tautomersJob = engineJob<Payload>('tautomers', { structures: 'molecules', table: 'table' }, ['rdkit', 'xtb'], {
  summary: 'Tautomers enumerated by RDKit and ranked by GFN2-xTB free energy in a solvent (ALPB), with their populations',
  payload: Payload,
  result: TautomersResult,
  methods: ['gfn2', 'alpb', 'rdkit', 'rrho'],
  methodsOf: (p) => ['gfn2', ...(p.solvent === null ? [] : ['alpb']), 'rdkit', 'rrho'],
  async estimate(p, ctx) {
    const n = await countStructures(p, ctx);
    const max = p.max_tautomers ?? 50;
    if (!p.molecules || !ctx.structureInfo) return questionEstimate('tautomers', new Array<null>(n).fill(null), () => tautomerWork(ASSUMED_TAUTOMERS, 3));
    const infos = await ctx.structureInfo(p.molecules, { rotatable: true });
    const counts: number[] = [];
    for (const [i, m] of p.molecules.entries()) {
      const e = infos[i]!.error ? null : await ctx.rdkit?.<TautomerEnumeration>({ command: 'tautomers', smiles: m, max, conformers: 0 });
      if (e?.over)
        throw invalid(
          ['molecules', i],
          `RDKit enumerates more than ${max} tautomers of this molecule: max_tautomers is ${max} (at most ${MAX_TAUTOMERS})`,
          m,
          'too_many_tautomers',
        );
      counts.push(e?.count ?? ASSUMED_TAUTOMERS);
    }
    return questionEstimate(
      'tautomers',
      infos.map((i) => (i.error ? null : i)),
      (i) => tautomerWork(counts[i]!, infos[i]!.rotatable ?? 0),
    );
  },
  async run(ctx) {
    const p = ctx.payload;
    const solvent = p.solvent === undefined ? 'water' : p.solvent;
    const structures = await loadStructures(ctx);
    const run = await runItems(ctx, structures, { perCallTimeoutMs: QM_CALL_MS, label: 'tautomers' }, async (s, tools, dir) => {
      checkQuestion(s, 'Tautomer ranking', { closedShell: true });
      const r = await rankTautomers(tools, dir, s, { solvent, max: p.max_tautomers ?? 50 });
      const best = r.tautomers[0]!;
      const fields = { smiles: best.smiles, tautomers: r.tautomers, count: r.count };
      return {
        fields,
        structures: r.tautomers.map((t) => ({ molblock: t.molblock, props: { smiles: t.smiles, relative_kcal: t.relative_kcal, fraction: t.fraction } })),
        row: { main_tautomer: best.smiles, fraction: best.fraction, tautomers: r.count },
      };
    });
    return engineOutput('tautomers', 'gfn2', run, { solvent, temperature_k: 298.15 });
  },
});
