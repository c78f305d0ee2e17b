// `depict`: an SVG drawing (as POST /depict) of each molecule of a list or of an uploaded
// molecule set.
//
// Output (docs/jobs.md): result.json with the counts, the per-molecule items up to
// INLINE_ITEMS molecules (the SVG text inline only up to INLINE_SVGS molecules) and the
// per-item errors; port `depictions` with one image/svg+xml record per drawn molecule.
import { Type, type Static } from '@sinclair/typebox';
import { MOLECULE_SIZE } from '../../chem/limits.js';
import type { OutputRecord } from '../job-type.js';
import { INLINE_ITEMS, inputSummary, libraryEstimate, libraryFields, libraryJob, loadLibrary, mapAsync, Spool, type LibraryItem } from './molecule-jobs.js';
import { InputSummary, labelFields } from './result-parts.js';

/** Up to this many molecules, result.json carries the SVG text of each item too. */
export const INLINE_SVGS = 50;

const Payload = Type.Object(
  {
    ...libraryFields('The molecules to draw'),
    width: Type.Optional(
      Type.Integer({
        minimum: MOLECULE_SIZE.width.min,
        maximum: MOLECULE_SIZE.width.max,
        default: MOLECULE_SIZE.width.default,
        description: 'Drawing width in pixels (as /depict)',
      }),
    ),
    height: Type.Optional(
      Type.Integer({
        minimum: MOLECULE_SIZE.height.min,
        maximum: MOLECULE_SIZE.height.max,
        default: MOLECULE_SIZE.height.default,
        description: 'Drawing height in pixels (as /depict)',
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

interface Drawn {
  index: number;
  id: string;
  svg: string;
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a depict job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
  input: InputSummary,
  size: Type.Object({ width: Type.Integer(), height: Type.Integer() }, { additionalProperties: false }),
  summary: Type.Object({ molecules: Count, depicted: Count, unparseable: Count, too_large: Count, render_failed: Count, failed: Count }, { additionalProperties: false }),
  items: Type.Union(
    [
      Type.Array(
        Type.Object(
          {
            ...labelFields,
            svg: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The SVG, for up to 100 molecules (svg_inline)' })),
            error: Type.Union([Type.String(), Type.Null()]),
          },
          { additionalProperties: false },
        ),
      ),
      Type.Null(),
    ],
    { description: 'One per molecule in input order, up to 1,000 molecules (else null: the port has the drawings)' },
  ),
  items_inline: Type.Boolean(),
  svg_inline: Type.Boolean(),
};

export const depictJob = libraryJob<Payload>(
  'depict',
  { depictions: 'svg' },
  {
    methods: ['smiles'],
    summary: 'An SVG drawing (as POST /depict) of each molecule of a SMILES list or an uploaded molecule set',
    payload: Payload,
    result: { fields: ResultFields, description: 'depict: an SVG drawing of each molecule' },

    estimate: (p, ctx) => libraryEstimate(p, ctx, ['depict', 'writeRecord']),

    async run(ctx) {
      const width = ctx.payload.width ?? MOLECULE_SIZE.width.default;
      const height = ctx.payload.height ?? MOLECULE_SIZE.height.default;
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
      const total = items.length;
      const spool = Spool.create<Drawn>(ctx.signal);
      const inline: { index: number; id: string; name?: string; smiles: string; svg?: string | null; error: string | null }[] = [];
      const note = (t: LibraryItem, svg: string | null, error: string | null) => {
        if (total > INLINE_ITEMS) return;
        inline.push({ index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles || t.original || '', ...(total <= INLINE_SVGS ? { svg } : {}), error });
      };
      let drawn = 0;
      try {
        await library.run('depict', { width, height, key: false }, 'drawn', async (t, out) => {
          if (!out) return note(t, null, t.error!);
          if (out.ok && out.value.svg) {
            drawn++;
            await spool.write({ index: t.index, id: t.id, svg: out.value.svg });
            return note(t, out.value.svg, null);
          }
          note(t, null, errors.failed(t, out, 'render_failed'));
        });
      } catch (err) {
        spool.discard();
        throw err;
      }
      ctx.progress(0.95, 'writing the result');
      return {
        result: {
          job_type: 'depict',
          input: inputSummary(ctx.payload, total),
          size: { width, height },
          summary: { molecules: total, depicted: drawn, ...errors.breakdown(['unparseable', 'too_large', 'render_failed']) },
          items: total <= INLINE_ITEMS ? inline : null,
          items_inline: total <= INLINE_ITEMS,
          svg_inline: total <= INLINE_SVGS,
          ports: { depictions: 'one image/svg+xml record per drawn molecule (id = molecule id)' },
          ...errors.toJSON(),
        },
        ports: {
          depictions: {
            format: 'svg',
            kind: 'depiction',
            records: mapAsync(spool.read(), (d): OutputRecord => ({
              id: d.id,
              files: { primary: { name: 'depiction.svg', content: d.svg, contentType: 'image/svg+xml' } },
              metrics: { index: d.index },
            })),
          },
        },
      };
    },
  },
);
