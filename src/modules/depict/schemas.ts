import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';
import { MAX_HEAVY_ATOMS, MAX_INPUT_CHARS, MAX_ITEMS, MOLECULE_SIZE, REACTION_SIZE } from '../../chem/limits.js';

const size = (s: { min: number; max: number; default: number }, what: string) =>
  Type.Integer({ minimum: s.min, maximum: s.max, default: s.default, description: `${what} of the drawing in pixels (${s.min} to ${s.max}, default ${s.default})` });

export const DepictRequest = Type.Object(
  {
    smiles: Type.Array(Type.String({ description: 'A molecule as SMILES' }), {
      minItems: 1,
      maxItems: MAX_ITEMS,
      description: `1 to ${MAX_ITEMS} SMILES; a bad one yields an item with an error, not a failed request`,
    }),
    width: Type.Optional(size(MOLECULE_SIZE.width, 'Width')),
    height: Type.Optional(size(MOLECULE_SIZE.height, 'Height')),
  },
  { $id: 'DepictRequest', additionalProperties: false },
);
export type DepictRequest = Static<typeof DepictRequest>;

export const DepictReactionsRequest = Type.Object(
  {
    reactions: Type.Array(Type.String({ description: 'A reaction as reaction SMILES: reactants>agents>products' }), {
      minItems: 1,
      maxItems: MAX_ITEMS,
      description: `1 to ${MAX_ITEMS} reaction SMILES; a bad one yields an item with an error, not a failed request`,
    }),
    width: Type.Optional(size(REACTION_SIZE.width, 'Width')),
    height: Type.Optional(size(REACTION_SIZE.height, 'Height')),
  },
  { $id: 'DepictReactionsRequest', additionalProperties: false },
);
export type DepictReactionsRequest = Static<typeof DepictReactionsRequest>;

export const DepictErrorSchema = Type.Union([Type.Literal('unparseable'), Type.Literal('too_large'), Type.Literal('render_failed')]);

export const Depiction = Type.Object(
  {
    svg: Nullable(Type.String(), {
      description:
        'A standalone SVG document of the requested width and height (width, height and viewBox set), safe to inline in a web page: no scripts, event handlers or external references. Null when error is set.',
    }),
    error: Nullable(DepictErrorSchema, {
      description: `unparseable (RDKit cannot read it as SMILES), too_large (over ${MAX_INPUT_CHARS} characters or over ${MAX_HEAVY_ATOMS} heavy atoms), render_failed (RDKit could not draw it in time)`,
    }),
    detail: Nullable(Type.String(), {
      description: 'Why, when error is set: RDKit\'s reason, e.g. "unclosed ring", "extra open parentheses at position 3", "250 heavy atoms; at most 200"',
    }),
  },
  { $id: 'Depiction', additionalProperties: false },
);

export const DepictResponse = Type.Object(
  { items: Type.Array(Type.Ref(Depiction), { description: 'One entry per input, in input order' }) },
  { $id: 'DepictResponse', additionalProperties: false },
);

export const DEPICT_SCHEMAS = [DepictRequest, DepictReactionsRequest, Depiction, DepictResponse];
