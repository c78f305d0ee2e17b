// POST /lookup/{compounds,bioactivity,targets,proteins,structures,properties}: live science
// lookups (src/lookups/). The routes are thin: the body schema (REQUEST_SCHEMAS) validates,
// the engine re-checks the rules a schema cannot say (IDs and names at most 100 characters
// where SMILES may have 500; blank queries), holds structures back unless the caller is an API
// key with allow_structure_search, answers repeats from the database cache and calls the source.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import { AppError, invalidInput, type Issue } from '../../errors.js';
import { ENDPOINTS, LIMITS, LookupRequestError, OPERATIONS, PROPERTY_NAMES, SourceDisabledError, type EndpointName } from '../../lookups/index.js';
import type { Principal } from '../../api/principal.js';
import type { Services } from '../../services.js';
import { LOOKUP_REQUEST_SCHEMAS, LOOKUP_RESPONSE_SCHEMAS, LOOKUP_SCHEMAS } from './schemas.js';

export { LOOKUP_SCHEMAS };

const ops = (e: EndpointName) => OPERATIONS[e].map((o) => `\`${o}\``).join(', ');

const PRIVACY =
  'Structures (SMILES, InChI) are sent to the source only for an API key with `allow_structure_search`; access tokens never send them. A structure held back answers the item status `structure_egress_not_allowed`.';
const FREE_TEXT =
  'A query that carries a structure (an InChI, never sent; or a SMILES written with SMILES-only syntax: bonds, branches, brackets, ring-closure digits or aromatic atoms) is sent only for an API key with `allow_structure_search`, otherwise it answers `structure_egress_not_allowed`. All-uppercase strings such as the gene symbols `CS` or `CNP` are sent.';
const COMMON =
  'Every item carries the source, its licence and a status (`found`, `not_found`, `invalid_query`, `structure_egress_not_allowed`, `upstream_error`, `timeout`); a failing source fails its items only (200 overall). Answers are cached for 24 h. 503 `source-disabled` when the source is disabled on the server.';

const DOCS: Record<EndpointName, { summary: string; description: string }> = {
  compounds: {
    summary: 'Compound names to PubChem CIDs, titles and SMILES',
    description: `PubChem PUG-REST. Up to ${LIMITS.maxQueries} names, each 1 to ${LIMITS.maxQueryLength} characters. Only names are sent: a SMILES or InChI given as a name is a structure, answers \`structure_egress_not_allowed\` and is never sent, whoever asks. ${COMMON}`,
  },
  bioactivity: {
    summary: 'ChEMBL molecules, targets, activities, similarity and substructure search',
    description: `ChEMBL REST. Operations: ${ops('bioactivity')}. Molecule, target and the activities operations send only IDs and names (at most ${LIMITS.maxQueryLength} characters). Similarity and substructure take SMILES (at most ${LIMITS.maxSmilesLength} characters) and run only for API keys with \`allow_structure_search\`; an InChI is sent in no operation, and a target name that carries a SMILES is sent only for such keys. \`limit\` rows per query ${LIMITS.bioactivityLimit.min} to ${LIMITS.bioactivityLimit.max} (default ${LIMITS.bioactivityLimit.default}); \`threshold\` (similarity, percent) ${LIMITS.similarityThreshold.min} to ${LIMITS.similarityThreshold.max} (default ${LIMITS.similarityThreshold.default}). ${PRIVACY} ${COMMON}`,
  },
  targets: {
    summary: 'Open Targets target-disease associations and drugs',
    description: `Open Targets Platform GraphQL. Operations: ${ops('targets')}, by gene symbol, Ensembl gene ID or disease ID/name. \`limit\` ${LIMITS.targetsLimit.min} to ${LIMITS.targetsLimit.max} (default ${LIMITS.targetsLimit.default}). ${FREE_TEXT} ${COMMON}`,
  },
  proteins: {
    summary: 'UniProt entries by accession, or search by gene or protein name',
    description: `UniProt REST. Operations: ${ops('proteins')}. \`organism\` (search only): a name or a numeric NCBI taxon ID; a search returns ${LIMITS.proteinsSearchRows} entries. ${FREE_TEXT} ${COMMON}`,
  },
  structures: {
    summary: 'RCSB PDB entries by ID, by UniProt accession, or free-text search',
    description: `RCSB PDB Search and Data APIs. Operations: ${ops('structures')}. \`limit\` ${LIMITS.structuresLimit.min} to ${LIMITS.structuresLimit.max} (default ${LIMITS.structuresLimit.default}). ${FREE_TEXT} ${COMMON}`,
  },
  properties: {
    summary: 'Measured (experimental) properties from PubChem',
    description: `PubChem PUG-View. \`operation\` must be \`experimental\`; queries are CIDs or compound names. Default property set: boiling point, melting point, density, vapor pressure, heat of vaporization, viscosity, surface tension; \`other\` holds critical constants and other measured values (PubChem headings Critical Temperature & Pressure, Enthalpy of Sublimation, Dielectric Constant, Ionization Potential, Relative Evaporation Rate, Optical Rotation, Other Experimental Properties). Accepted names: ${PROPERTY_NAMES.map((n) => `\`${n}\``).join(', ')}; every value names its PubChem \`heading\`. Up to \`limit\` values per property (default ${LIMITS.propertiesLimit.default}), each with its source reference; values from suppliers without an allowed licence are dropped and counted in \`data.excluded\`. A structure given as a name is never sent. ${COMMON}`,
  },
};

/** True only for an API key whose owner turned allow_structure_search on; access tokens never send structures. */
export function allowsStructures(p: Principal): boolean {
  return p.via === 'api_key' && p.allowStructureSearch === true;
}

function validationProblem(issues: Issue[]) {
  return invalidInput(issues);
}

export const lookupRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { lookups } = services;
  const tags = ['science lookups'];
  // Looking up changes nothing: the read scope covers it (the reference, Authentication rule 5).
  const config = { scope: 'read' as const };
  // The engine's output is already the documented shape (test/lookups-api checks every answer
  // against these schemas); `data` is a per-operation union, which a compiled serializer would
  // have to re-validate branch by branch on every item.
  const serializerCompiler = () => (data: unknown) => JSON.stringify(data);

  for (const endpoint of ENDPOINTS) {
    app.post(
      `/lookup/${endpoint}`,
      {
        config,
        serializerCompiler,
        schema: {
          operationId: `lookup${endpoint.charAt(0).toUpperCase()}${endpoint.slice(1)}`,
          tags,
          summary: DOCS[endpoint].summary,
          description: DOCS[endpoint].description,
          body: Type.Ref(LOOKUP_REQUEST_SCHEMAS[endpoint]),
          response: {
            200: Type.Ref(LOOKUP_RESPONSE_SCHEMAS[endpoint], {
              description: endpoint === 'compounds' ? '`{attribution, compounds: CompoundItem[]}`' : 'LookupResponse: `{attribution, results: LookupItem[]}`, one item per query',
            }),
            503: { description: 'Problem `source-disabled`: the source is disabled on this server', $ref: 'Problem#' },
          },
        },
      },
      async (request) => {
        const allowStructures = allowsStructures(principalOf(request));
        try {
          return await lookups.run(endpoint, request.body, { allowStructures, requestId: String(request.id) });
        } catch (err) {
          if (err instanceof LookupRequestError) throw validationProblem(err.errors);
          if (err instanceof SourceDisabledError) throw new AppError('source-disabled', err.message, { extra: { source: err.source } });
          throw err;
        }
      },
    );
  }
};
