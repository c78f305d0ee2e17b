// The utilities' inputs as JSON Schemas (docs/utilities.md): one per tool, shared by
// POST /utilities/run and /utilities/submit (the request body is a oneOf tagged by `tool`, so
// a generated client gets one type per tool) and by the asynchronous request's job. The
// schemas hold the asynchronous limits; the synchronous ones are checked in limits.ts.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CONVERT_OUTPUTS, FINGERPRINT_TYPES } from './types.js';
import { MAX_MOLBLOCK_CHARS } from './read.js';

/** Most molecules of one asynchronous request (or of its input artifact). */
export const MAX_ASYNC_MOLECULES = 100_000;

/** A string enum as one JSON Schema `enum` (one clear error message, one type in a generated client). */
const Enum = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });

const Molecules = (max: number, description: string) => Type.Array(Type.String({ minLength: 1, maxLength: MAX_MOLBLOCK_CHARS }), { minItems: 1, maxItems: max, description });

const ArtifactId = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

const moleculeSource = {
  molecules: Type.Optional(
    Molecules(MAX_ASYNC_MOLECULES, 'The molecules, in the input format (SMILES, molblocks); results come back in this order. Give this or input_artifact_id'),
  ),
  input_artifact_id: Type.Optional(ArtifactId('An uploaded molecule set (SMILES or SDF) instead of `molecules`')),
  port: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The artifact's port holding the molecules (default: its only or first molecule port)" })),
  input_format: Type.Optional(
    Enum(['auto', 'smiles', 'molblock', 'inchi'] as const, {
      default: 'auto',
      description: 'How to read each molecule: auto (a molblock when it has an "M  END" line, InChI when it starts with "InChI=", else SMILES), smiles, molblock or inchi',
    }),
  ),
};

const fingerprintFields = {
  type: Type.Optional(
    Enum(FINGERPRINT_TYPES, { default: 'morgan', description: 'Fingerprint: morgan, rdkit (paths 1..7), atom_pair, topological_torsion, maccs (167 keys) or pattern' }),
  ),
  radius: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, default: 2, description: 'Morgan radius (0..6, default 2: ECFP4-like)' })),
  n_bits: Type.Optional(Type.Integer({ minimum: 64, maximum: 16_384, default: 2048, description: 'Bits (64..16384, default 2048; MACCS keys always have 167)' })),
  features: Type.Optional(
    Type.Boolean({ default: false, description: 'Morgan with feature invariants (FCFP); not available in this RDKit build: true is a 422 (docs/utilities.md)' }),
  ),
};

export const ConvertInput = Type.Object(
  {
    ...moleculeSource,
    outputs: Type.Optional(
      Type.Array(Enum(CONVERT_OUTPUTS), {
        minItems: 1,
        uniqueItems: true,
        default: ['smiles', 'inchi', 'inchikey'],
        description: `What to write for each molecule, any of: ${CONVERT_OUTPUTS.join(', ')} (default smiles, inchi, inchikey)`,
      }),
    ),
  },
  { $id: 'UtilityConvertInput', additionalProperties: false },
);

export const FingerprintsInput = Type.Object(
  {
    ...moleculeSource,
    ...fingerprintFields,
    format: Type.Optional(
      Enum(['bits', 'hex', 'base64'] as const, {
        default: 'bits',
        description: 'bits: the on-bit indices; hex or base64: the packed bit vector, bit i in byte i/8, least significant bit first (the FPS convention)',
      }),
    ),
  },
  { $id: 'UtilityFingerprintsInput', additionalProperties: false },
);

export const SimilarityInput = Type.Object(
  {
    queries: Molecules(MAX_ASYNC_MOLECULES, 'Query molecules'),
    library: Type.Optional(Molecules(MAX_ASYNC_MOLECULES, 'The library searched; give this or library_artifact_id')),
    library_artifact_id: Type.Optional(ArtifactId('An uploaded molecule set as the library')),
    port: moleculeSource.port,
    input_format: moleculeSource.input_format,
    ...fingerprintFields,
    metric: Type.Optional(Enum(['tanimoto', 'dice', 'cosine'] as const, { default: 'tanimoto', description: 'Similarity of two bit vectors, as RDKit DataStructs' })),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'Smallest score of a hit (0..1, default 0)' })),
    top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'Most hits per query, best first (1..1000, default 10)' })),
  },
  { $id: 'UtilitySimilarityInput', additionalProperties: false },
);

export const SubstructureInput = Type.Object(
  {
    ...moleculeSource,
    query: Type.String({ minLength: 1, maxLength: 2000, description: 'The substructure, as SMARTS or SMILES' }),
    query_format: Type.Optional(Enum(['auto', 'smarts', 'smiles'] as const, { default: 'auto', description: 'auto reads SMARTS first, then SMILES' })),
    use_chirality: Type.Optional(Type.Boolean({ default: false, description: 'Stereo must match too' })),
    max_matches: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000, description: 'Most matches listed per molecule (RDKit maxMatches, default 1000)' })),
    svg: Type.Optional(Type.Boolean({ default: false, description: 'Add a 300x220 SVG of each matching molecule with the matches highlighted, drawn as POST /depict draws it' })),
  },
  { $id: 'UtilitySubstructureInput', additionalProperties: false },
);

export const McsInputSchema = Type.Object(
  {
    molecules: Molecules(50, '2 to 50 molecules'),
    input_format: moleculeSource.input_format,
    timeout_sec: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 10, default: 2, description: 'Time allowed (1..10 s, default 2); when it runs out the best so far comes back with timed_out true' }),
    ),
    atom_compare: Type.Optional(Enum(['elements', 'any', 'isotopes'] as const, { default: 'elements' })),
    bond_compare: Type.Optional(Enum(['order', 'any', 'order_exact'] as const, { default: 'order' })),
    ring_matches_ring_only: Type.Optional(Type.Boolean({ default: false })),
    complete_rings_only: Type.Optional(Type.Boolean({ default: false })),
    match_valences: Type.Optional(Type.Boolean({ default: false })),
    match_chiral_tag: Type.Optional(Type.Boolean({ default: false })),
  },
  { $id: 'UtilityMcsInput', additionalProperties: false },
);

export const MAX_RGROUP_MOLECULES = 1000;

export const RGroupsInput = Type.Object(
  {
    cores: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
      minItems: 1,
      maxItems: 10,
      description: 'Cores as SMARTS or SMILES (1..10), labelled R groups ([*:1]) optional',
    }),
    molecules: Molecules(MAX_RGROUP_MOLECULES, `Molecules to decompose (at most ${MAX_RGROUP_MOLECULES}, 100 synchronously)`),
    input_format: moleculeSource.input_format,
    only_match_at_rgroups: Type.Optional(Type.Boolean({ default: false, description: 'Only allow substituents at the labelled R groups of the cores' })),
  },
  { $id: 'UtilityRGroupsInput', additionalProperties: false },
);

export const TOOL_INPUTS = {
  convert: ConvertInput,
  fingerprints: FingerprintsInput,
  similarity: SimilarityInput,
  substructure: SubstructureInput,
  mcs: McsInputSchema,
  rgroups: RGroupsInput,
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;
export const TOOL_NAMES = Object.keys(TOOL_INPUTS) as ToolName[];
export type ToolInput<T extends ToolName> = Static<(typeof TOOL_INPUTS)[T]>;

/** The component name of a call of `tool` (`{tool, input}`): UtilityConvertCall, ... */
export const toolCallId = (tool: ToolName) => `${TOOL_INPUTS[tool].$id ?? tool}`.replace(/Input$/, 'Call');

/** `{tool, input}` of each tool (Utility<Tool>Call): the branches of the request bodies. */
export const TOOL_CALLS: TSchema[] = TOOL_NAMES.map((tool) =>
  Type.Unsafe({
    $id: toolCallId(tool),
    type: 'object',
    description: `The ${tool} tool and its input`,
    required: ['tool', 'input'],
    additionalProperties: false,
    properties: { tool: { type: 'string', const: tool }, input: { $ref: TOOL_INPUTS[tool].$id } },
  }),
);

/**
 * `{tool, input}`: a oneOf of the Utility<Tool>Call schemas tagged by `tool` (their schemas are
 * registered beside TOOL_INPUTS; the OpenAPI document adds the discriminator's mapping).
 */
export function toolRequestSchema($id: string, description: string): TSchema {
  return Type.Unsafe({
    $id,
    type: 'object',
    description,
    required: ['tool'],
    discriminator: { propertyName: 'tool' },
    oneOf: TOOL_NAMES.map((tool) => ({ $ref: toolCallId(tool) })),
  });
}
