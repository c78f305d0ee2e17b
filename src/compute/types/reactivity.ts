// `reactivity` (docs/engines.md, "Reactivity"): each structure optimised with GFN2-xTB (in the
// solvent if given), then on that geometry xtb's --vomega (HOMO and LUMO of the neutral, vertical
// IP and EA, global electrophilicity index) and --vfukui (condensed Fukui indices per atom).
// Result items: molblock, homo_ev, lumo_ev, ip_ev, ea_ev, electrophilicity_ev, fukui
// [{atom_index, f_plus, f_minus, f_zero}], each figure as xtb prints it; the `depictions` port
// holds a drawing per structure with its top sites of electrophilic and nucleophilic attack.
import { Type, type Static } from '@sinclair/typebox';
import type { OutputRecord } from '../job-type.js';
import { SOLVENTS } from '../../engines/qm/solvents.js';
import { sitesDrawing, topSites, xtbReactivity, type SitesDrawing } from '../../engines/qm/reactivity.js';
import { structureFields, type QmPayload } from './kit/payload.js';
import { qmEstimate, runQmItems } from './kit/qm.js';
import { engineOutput } from './kit/run.js';
import { displayName } from './kit/structures.js';
import { engineJob } from './kit/engine-job.js';
import { chemPool } from './molecule-jobs.js';
import { ReactivityResult } from './kit/results.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    method: Type.Optional(
      Type.Literal('gfn2', {
        default: 'gfn2',
        description: 'gfn2 (GFN2-xTB) only: xtb\'s vertical IP/EA, electrophilicity index and Fukui indices are GFN2\'s (docs/engines.md, "Reactivity")',
      }),
    ),
    solvent: Type.Optional(
      Type.Union([Type.Union(Object.keys(SOLVENTS).map((s) => Type.Literal(s))), Type.Null()], {
        default: null,
        description: 'Implicit solvent (ALPB in xtb) of the optimisation and of the property calculations; null: gas phase',
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & QmPayload;

/** The drawing of a structure's sites, pixels (a title row above, two legend rows below the molecule). */
export const SITES_SIZE = { width: 460, height: 380 };

export const reactivityJob = engineJob<Payload>('reactivity', { structures: 'molecules', table: 'table', depictions: 'svg' }, ['obabel', 'xtb'], {
  summary:
    'HOMO/LUMO, vertical IP and EA, global electrophilicity and condensed Fukui indices (f+, f-, f0 per atom) of the GFN2-xTB optimised structure, with a drawing of the top sites of attack',
  payload: Payload,
  result: ReactivityResult,
  methods: ['gfn2', 'alpb', 'openbabel'],
  methodsOf: (p) => ['gfn2', ...(p.solvent ? ['alpb'] : []), 'openbabel'],
  estimate: (p, ctx) => qmEstimate(p, ctx, 'reactivity'),
  async run(ctx) {
    const p = ctx.payload;
    const drawings: { index: number; id: string; drawing: SitesDrawing }[] = [];
    let version: string | null = null;
    const run = await runQmItems(ctx, 'reactivity', async ({ s, tools, dir, spin, prepared }) => {
      const r = await xtbReactivity(tools, dir, prepared, { solvent: p.solvent, ...spin });
      version ??= r.xtbVersion;
      const fields = {
        molblock: r.molblock,
        homo_ev: r.homoEv,
        lumo_ev: r.lumoEv,
        ip_ev: r.ipEv,
        ea_ev: r.eaEv,
        electrophilicity_ev: r.electrophilicityEv,
        fukui: r.fukui,
      };
      const sites = topSites(r.fukui, prepared.symbols);
      const scalars = {
        homo_ev: r.homoEv,
        lumo_ev: r.lumoEv,
        ip_ev: r.ipEv,
        ea_ev: r.eaEv,
        electrophilicity_ev: r.electrophilicityEv,
        nucleophilic_attack_sites: sites.nucleophilic.join(' '),
        electrophilic_attack_sites: sites.electrophilic.join(' '),
      };
      drawings.push({ index: s.index, id: s.id, drawing: sitesDrawing(r.molblock, r.fukui, displayName(s)) });
      return { fields, structures: [{ molblock: r.molblock, props: scalars }], row: scalars };
    });
    ctx.progress(0.98, 'drawing the sites of attack');
    drawings.sort((a, b) => a.index - b.index);
    const drawn = await chemPool(ctx).runItems(
      'depict_marked',
      drawings.map((d) => d.drawing),
      SITES_SIZE,
    );
    const records: OutputRecord[] = [];
    drawings.forEach((d, k) => {
      const o = drawn[k];
      if (!o?.ok || !o.value.svg) return; // a structure RDKit cannot draw has its figures, not a drawing
      records.push({
        id: d.id,
        files: { primary: { name: 'reactive-sites.svg', content: o.value.svg, contentType: 'image/svg+xml' } },
        metrics: { index: d.index },
      });
    });
    const out = engineOutput('reactivity', 'gfn2', run, { solvent: p.solvent ?? null, xtb_version: version });
    (out.result as { ports: Record<string, string> }).ports.depictions =
      'a drawing per structure (image/svg+xml; record id = the structure id): the top sites of nucleophilic attack (largest f+, blue) and electrophilic attack (largest f-, orange), atom indices shown';
    out.ports!.depictions = { format: 'svg', kind: 'svg', records };
    return out;
  },
});
