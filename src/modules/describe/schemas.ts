import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';
import { MAX_HEAVY_ATOMS, MAX_INPUT_CHARS, MAX_ITEMS } from '../../chem/limits.js';
import { PROPERTIES_SCHEMAS } from '../../chem/properties/schema.js';

export const DescribeRequest = Type.Object(
  {
    smiles: Type.Array(Type.String({ description: 'A molecule as SMILES' }), {
      minItems: 1,
      maxItems: MAX_ITEMS,
      description: `1 to ${MAX_ITEMS} SMILES; a bad one yields an item with an error, not a failed request`,
    }),
  },
  { $id: 'DescribeRequest', additionalProperties: false },
);
export type DescribeRequest = Static<typeof DescribeRequest>;

export const Description = Type.Object(
  {
    properties: Nullable(Type.Ref('MolecularProperties'), { description: 'Null when error is set' }),
    error: Nullable(Type.Union([Type.Literal('unparseable'), Type.Literal('too_large'), Type.Literal('describe_failed')]), {
      description: `unparseable (RDKit cannot read it as SMILES), too_large (over ${MAX_INPUT_CHARS} characters or over ${MAX_HEAVY_ATOMS} heavy atoms), describe_failed (RDKit could not compute it in time)`,
    }),
    detail: Nullable(Type.String(), {
      description: 'Why, when error is set: RDKit\'s reason, e.g. "unclosed ring", "explicit valence for atom # 3 C, 5, is greater than permitted", "250 heavy atoms; at most 200"',
    }),
    canonical_smiles: Nullable(Type.String(), { description: "RDKit's canonical SMILES (null when error is set)" }),
    inchi: Nullable(Type.String(), { description: 'Standard InChI (null when error is set or RDKit cannot make one, e.g. with dummy atoms)' }),
    inchikey: Nullable(Type.String(), { description: 'Standard InChIKey (null with inchi)' }),
  },
  { $id: 'Description', additionalProperties: false },
);

export const DescribeResponse = Type.Object(
  { items: Type.Array(Type.Ref(Description), { description: 'One entry per input, in input order' }) },
  { $id: 'DescribeResponse', additionalProperties: false },
);

/** MolecularProperties and its parts first: Description refers to them. */
export const DESCRIBE_SCHEMAS = [...PROPERTIES_SCHEMAS, DescribeRequest, Description, DescribeResponse];
