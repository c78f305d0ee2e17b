// Request rules and response shapes of the six lookup endpoints, as plain constants (for the
// engine) and as TypeBox schemas (for the routes and the OpenAPI document). The `data` of an
// item has one schema per operation (DATA_SCHEMAS), documented in docs/lookups.md too.
import { Type, type TSchema } from '@sinclair/typebox';
import type { EndpointName } from './types.js';
import { ITEM_STATUSES } from './types.js';

// ---------------------------------------------------------------------------------------------
// Operations and limits

export const OPERATIONS = {
  compounds: ['names'],
  bioactivity: ['molecule', 'target', 'molecule_activities', 'target_activities', 'similarity', 'substructure'],
  targets: ['target_associations', 'disease_associations', 'target_drugs', 'disease_drugs'],
  proteins: ['entry', 'search'],
  structures: ['entry', 'by_uniprot', 'search'],
  properties: ['experimental'],
} as const satisfies Record<EndpointName, readonly string[]>;

/**
 * Property names accepted in `properties` of /lookup/properties, each with the PUG-View
 * headings (TOCHeading under "Chemical and Physical Properties" > "Experimental Properties")
 * whose values it collects, in this order. Heading names as PubChem spells them (see
 * docs/lookups.md for their provenance). `other` holds the critical constants and the other
 * measured values that have no name of their own here.
 */
export const PROPERTY_HEADINGS = {
  boiling_point: ['Boiling Point'],
  melting_point: ['Melting Point'],
  density: ['Density'],
  vapor_pressure: ['Vapor Pressure'],
  heat_of_vaporization: ['Heat of Vaporization'],
  viscosity: ['Viscosity'],
  surface_tension: ['Surface Tension'],
  other: [
    'Critical Temperature & Pressure',
    'Enthalpy of Sublimation',
    'Dielectric Constant',
    'Ionization Potential',
    'Relative Evaporation Rate',
    'Optical Rotation',
    'Other Experimental Properties',
  ],
  flash_point: ['Flash Point'],
  autoignition_temperature: ['Autoignition Temperature'],
  solubility: ['Solubility'],
  logp: ['LogP'],
  vapor_density: ['Vapor Density'],
  refractive_index: ['Refractive Index'],
  heat_of_combustion: ['Heat of Combustion'],
  dissociation_constants: ['Dissociation Constants'],
  henrys_law_constant: ["Henry's Law Constant"],
  decomposition: ['Decomposition'],
} as const satisfies Record<string, readonly string[]>;
export type PropertyName = keyof typeof PROPERTY_HEADINGS;
export const PROPERTY_NAMES = Object.keys(PROPERTY_HEADINGS) as PropertyName[];
/** The reference's default set. `other` (critical constants and other measured values) and the rest are opt-in. */
export const DEFAULT_PROPERTIES: readonly PropertyName[] = ['boiling_point', 'melting_point', 'density', 'vapor_pressure', 'heat_of_vaporization', 'viscosity', 'surface_tension'];

export const LIMITS = {
  maxQueries: 20,
  maxQueryLength: 100,
  maxSmilesLength: 500,
  bioactivityLimit: { min: 1, max: 1000, default: 10 },
  similarityThreshold: { min: 40, max: 100, default: 70 },
  targetsLimit: { min: 1, max: 100, default: 10 },
  structuresLimit: { min: 1, max: 100, default: 10 },
  propertiesLimit: { min: 1, max: 50, default: 3 },
  /** Proteins has no `limit` field: a search returns this many entries. */
  proteinsSearchRows: 10,
  organismMaxLength: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Request schemas (the route's `body` schema). The engine re-checks everything, including the
// rule a JSON schema cannot say simply: bioactivity IDs and names at most 100 characters,
// SMILES (similarity, substructure) at most 500.

const enumOf = (values: readonly string[], description: string) => Type.Unsafe<string>({ type: 'string', enum: [...values], description });

const queryList = (maxLength: number, description: string) => Type.Array(Type.String({ minLength: 1, maxLength }), { minItems: 1, maxItems: LIMITS.maxQueries, description });

// Nullable fields are one schema with a type list (JSON Schema 2020-12, OpenAPI 3.1), not a
// union with null: a union makes the validator report a second, misleading issue ("should be
// null") beside the real one (e.g. "at most 1000").
const optInt = (r: { min: number; max: number; default: number }, description: string) =>
  Type.Optional(
    Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: r.min, maximum: r.max, description: `${description} (${r.min} to ${r.max}, default ${r.default})` }),
  );

export const REQUEST_SCHEMAS = {
  compounds: Type.Object(
    { names: queryList(LIMITS.maxQueryLength, 'Compound names, 1 to 20, each 1 to 100 characters. Only names are sent; a SMILES or InChI is a structure and is not sent.') },
    { additionalProperties: false },
  ),
  bioactivity: Type.Object(
    {
      operation: enumOf(OPERATIONS.bioactivity, 'ChEMBL operation'),
      queries: queryList(LIMITS.maxSmilesLength, 'ChEMBL IDs or names (at most 100 characters); SMILES for similarity and substructure (at most 500)'),
      limit: optInt(LIMITS.bioactivityLimit, 'Rows per query'),
      threshold: optInt(LIMITS.similarityThreshold, 'Similarity cut-off in percent (similarity only)'),
    },
    { additionalProperties: false },
  ),
  targets: Type.Object(
    {
      operation: enumOf(OPERATIONS.targets, 'Open Targets operation'),
      queries: queryList(LIMITS.maxQueryLength, 'Gene symbols or Ensembl gene IDs (target_*), disease IDs or names (disease_*)'),
      limit: optInt(LIMITS.targetsLimit, 'Rows per query'),
    },
    { additionalProperties: false },
  ),
  proteins: Type.Object(
    {
      operation: enumOf(OPERATIONS.proteins, 'UniProt operation'),
      queries: queryList(LIMITS.maxQueryLength, 'UniProt accessions (entry) or gene/protein names (search)'),
      organism: Type.Optional(
        Type.Unsafe<string | null>({ type: ['string', 'null'], minLength: 1, maxLength: LIMITS.organismMaxLength, description: 'search only: organism name or NCBI taxon ID' }),
      ),
    },
    { additionalProperties: false },
  ),
  structures: Type.Object(
    {
      operation: enumOf(OPERATIONS.structures, 'RCSB PDB operation'),
      queries: queryList(LIMITS.maxQueryLength, 'PDB IDs (entry), UniProt accessions (by_uniprot) or free text (search)'),
      limit: optInt(LIMITS.structuresLimit, 'Entries per query'),
    },
    { additionalProperties: false },
  ),
  properties: Type.Object(
    {
      operation: enumOf(OPERATIONS.properties, 'Must be experimental'),
      queries: queryList(LIMITS.maxQueryLength, 'PubChem CIDs or compound names'),
      properties: Type.Optional(
        Type.Unsafe<string[] | null>({
          type: ['array', 'null'],
          items: enumOf(PROPERTY_NAMES, 'Property name'),
          minItems: 1,
          maxItems: PROPERTY_NAMES.length,
          description: `Properties to return (default: ${DEFAULT_PROPERTIES.join(', ')})`,
        }),
      ),
      limit: optInt(LIMITS.propertiesLimit, 'Values per property'),
    },
    { additionalProperties: false },
  ),
} satisfies Record<EndpointName, TSchema>;

// ---------------------------------------------------------------------------------------------
// `data` schemas, one per operation

const S = Type.String();
const N = Type.Number();
const NS = Type.Union([Type.String(), Type.Null()]);
const NN = Type.Union([Type.Number(), Type.Null()]);
const NI = Type.Union([Type.Integer(), Type.Null()]);
const obj = (props: Record<string, TSchema>, description?: string) => Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });

const ChemblMolecule = obj(
  {
    molecule_chembl_id: S,
    pref_name: NS,
    molecule_type: NS,
    max_phase: NN,
    first_approval: NI,
    canonical_smiles: NS,
    standard_inchi_key: NS,
    molecular_formula: NS,
    molecular_weight: NN,
    alogp: NN,
    similarity: Type.Optional(NN),
  },
  'A ChEMBL molecule (molecule_structures and molecule_properties flattened)',
);
const ChemblTarget = obj(
  {
    target_chembl_id: S,
    pref_name: NS,
    target_type: NS,
    organism: NS,
    tax_id: NI,
    accessions: Type.Array(S),
    gene_symbols: Type.Array(S),
  },
  'A ChEMBL target',
);
const ChemblActivity = obj(
  {
    activity_id: NI,
    molecule_chembl_id: NS,
    molecule_pref_name: NS,
    target_chembl_id: NS,
    target_pref_name: NS,
    target_organism: NS,
    assay_chembl_id: NS,
    assay_type: NS,
    assay_description: NS,
    standard_type: NS,
    standard_relation: NS,
    standard_value: NN,
    standard_units: NS,
    pchembl_value: NN,
    document_chembl_id: NS,
    document_year: NI,
  },
  'A ChEMBL activity row',
);

const Resolution = Type.Union([obj({ query: S, matched: S, entity: S }), Type.Null()], { description: 'How a symbol or name was resolved to an ID (null when an ID was given)' });
const OtTarget = obj({ id: S, approved_symbol: NS, approved_name: NS });
const OtDisease = obj({ id: S, name: NS });
const DatatypeScores = Type.Record(Type.String(), Type.Number(), { description: 'Association score per data type (genetic_association, known_drug, literature, ...)' });
const OtDrug = obj({
  drug_id: S,
  drug_name: NS,
  drug_type: NS,
  max_clinical_stage: NS,
  diseases: Type.Optional(Type.Array(OtDisease)),
  mechanisms: Type.Optional(Type.Array(obj({ mechanism_of_action: NS, action_type: NS, target_symbols: Type.Array(S) }))),
});

const UniprotSummary = obj({
  accession: S,
  uniprot_id: NS,
  reviewed: Type.Boolean(),
  protein_name: NS,
  gene_names: Type.Array(S),
  organism: Type.Union([obj({ scientific_name: NS, common_name: NS, taxon_id: NI }), Type.Null()]),
  length: NI,
});

const PdbEntrySummary = obj({ pdb_id: S, score: NN, title: NS, methods: Type.Array(S), resolution: NN });

const PropertyValue = obj(
  {
    value: S,
    number: Type.Optional(NN),
    unit: Type.Optional(NS),
    heading: Type.String({ description: 'The PUG-View heading the value was found under (for `other`: e.g. "Critical Temperature & Pressure")' }),
    reference: obj({
      source_name: NS,
      source_id: NS,
      name: NS,
      url: NS,
      license: S,
      license_url: NS,
      license_note: NS,
      citation: NS,
    }),
  },
  'One measured value with its source reference',
);

export const DATA_SCHEMAS = {
  compounds: {},
  bioactivity: {
    molecule: obj({ total_count: Type.Integer(), molecules: Type.Array(ChemblMolecule) }),
    target: obj({ total_count: Type.Integer(), targets: Type.Array(ChemblTarget) }),
    molecule_activities: obj({ molecule_chembl_id: S, resolution: Resolution, total_count: Type.Integer(), activities: Type.Array(ChemblActivity) }),
    target_activities: obj({ target_chembl_id: S, resolution: Resolution, total_count: Type.Integer(), activities: Type.Array(ChemblActivity) }),
    similarity: obj({ threshold: Type.Integer(), total_count: Type.Integer(), molecules: Type.Array(ChemblMolecule) }),
    substructure: obj({ total_count: Type.Integer(), molecules: Type.Array(ChemblMolecule) }),
  },
  targets: {
    target_associations: obj({
      target: OtTarget,
      resolution: Resolution,
      total_count: Type.Integer(),
      associations: Type.Array(obj({ disease: OtDisease, score: N, datatype_scores: DatatypeScores })),
    }),
    disease_associations: obj({
      disease: OtDisease,
      resolution: Resolution,
      total_count: Type.Integer(),
      associations: Type.Array(obj({ target: OtTarget, score: N, datatype_scores: DatatypeScores })),
    }),
    target_drugs: obj({ target: OtTarget, resolution: Resolution, total_count: Type.Integer(), drugs: Type.Array(OtDrug) }),
    disease_drugs: obj({ disease: OtDisease, resolution: Resolution, total_count: Type.Integer(), drugs: Type.Array(OtDrug) }),
  },
  proteins: {
    entry: obj({
      accession: S,
      uniprot_id: NS,
      entry_type: NS,
      reviewed: Type.Boolean(),
      protein_name: NS,
      ec_numbers: Type.Array(S),
      gene_names: Type.Array(S),
      organism: Type.Union([obj({ scientific_name: NS, common_name: NS, taxon_id: NI }), Type.Null()]),
      length: NI,
      mass: NI,
      sequence: NS,
      function: NS,
      pdb_ids: Type.Array(S),
      last_annotation_update: NS,
    }),
    search: obj({ organism: NS, total_count: NI, results: Type.Array(UniprotSummary) }),
  },
  structures: {
    entry: obj({
      pdb_id: S,
      title: NS,
      methods: Type.Array(S),
      resolution: NN,
      keywords: NS,
      deposit_date: NS,
      release_date: NS,
      polymer_entity_count: NI,
      molecular_weight: NN,
      citation: Type.Union([obj({ title: NS, journal: NS, year: NI, doi: NS, pubmed_id: NI }), Type.Null()]),
    }),
    by_uniprot: obj({ total_count: Type.Integer(), entries: Type.Array(PdbEntrySummary) }),
    search: obj({ total_count: Type.Integer(), entries: Type.Array(PdbEntrySummary) }),
  },
  properties: {
    experimental: obj({
      cid: Type.Integer(),
      title: NS,
      properties: Type.Record(Type.String(), Type.Array(PropertyValue), { description: 'Requested property name -> up to `limit` values' }),
      excluded: Type.Integer({ description: 'Values dropped because their depositor has no allowed licence' }),
    }),
  },
} satisfies Record<EndpointName, Record<string, TSchema>>;

// ---------------------------------------------------------------------------------------------
// Response schemas

const itemStatus = enumOf(ITEM_STATUSES, 'found, not_found, invalid_query, structure_egress_not_allowed, upstream_error or timeout');

/**
 * LookupItem of the API reference: `license`, `operation`, `source` and `status` required;
 * `data`, `query`, `record_id`, `release`, `title` and `url` optional (the engine always sends
 * them, null when they do not apply). Written as one variant per operation (`operation` is a
 * const in each), so the document says which `data` shape goes with which operation.
 */
export function lookupItemSchema(endpoint: Exclude<EndpointName, 'compounds'>): TSchema {
  const variants = Object.entries(DATA_SCHEMAS[endpoint] as Record<string, TSchema>).map(([operation, dataSchema]) =>
    Type.Object(
      {
        source: Type.String({ description: 'The source behind the endpoint (e.g. chembl)' }),
        license: Type.String({ description: "The source's licence terms" }),
        operation: Type.Literal(operation),
        status: itemStatus,
        query: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The query as given' })),
        record_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "The record's ID at the source (the best hit for searches)" })),
        title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        url: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "The record's public page" })),
        release: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Source data release, where the source reports one' })),
        data: Type.Optional(Type.Union([dataSchema, Type.Null()], { description: `The record for operation \`${operation}\`; null unless status is found` })),
        detail: Type.Optional(Type.String({ description: 'Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s' })),
      },
      { additionalProperties: false, title: `${endpoint} ${operation} item` },
    ),
  );
  return Type.Union(variants, { description: 'A LookupItem; the shape of `data` depends on `operation`' });
}

export function lookupResponseSchema(endpoint: Exclude<EndpointName, 'compounds'>): TSchema {
  return Type.Object(
    {
      attribution: Type.String({ description: 'The source, its licence and the citation it asks for' }),
      results: Type.Array(lookupItemSchema(endpoint), { description: 'One item per query, in query order' }),
    },
    { additionalProperties: false },
  );
}

/** CompoundItem of the API reference (`license`, `name`, `status` required), plus the additive `record_id` and `release`. */
export const CompoundItemSchema = Type.Object(
  {
    name: Type.String({ description: 'The name as given' }),
    source: Type.Optional(Type.String({ default: 'pubchem' })),
    license: Type.String(),
    status: itemStatus,
    cid: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'PubChem CID of the best match' })),
    other_cids: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'Further CIDs the name matches' })),
    smiles: Type.Optional(NS),
    title: Type.Optional(NS),
    url: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "The compound's PubChem page" })),
    record_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The CID as text (additive)' })),
    release: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Always null: PubChem reports no release (additive)' })),
    detail: Type.Optional(
      Type.String({ description: 'Why, when status is upstream_error or timeout: DNS failure, connection refused, HTTP status, timeout after N s (additive)' }),
    ),
  },
  { additionalProperties: false },
);

export const CompoundsResponseSchema = Type.Object(
  {
    attribution: Type.String({ description: 'The source, its licence and the citation it asks for' }),
    compounds: Type.Array(CompoundItemSchema, { description: 'One item per name, in input order' }),
  },
  { additionalProperties: false },
);
