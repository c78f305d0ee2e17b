// Shared types of the science lookups: endpoints, operations, item statuses, the shapes a
// route returns (LookupResponse, LookupItem, CompoundItem of the API reference), the cache
// interface and the errors the engine raises.

export type EndpointName = 'compounds' | 'bioactivity' | 'targets' | 'proteins' | 'structures' | 'properties';
export const ENDPOINTS: readonly EndpointName[] = ['compounds', 'bioactivity', 'targets', 'proteins', 'structures', 'properties'];

/** The name a source carries in items (`source`) and in CRUCIBLE_LOOKUPS_DISABLED. */
export type SourceId = 'pubchem' | 'chembl' | 'opentargets' | 'uniprot' | 'rcsb';

/** Base-URL keys, one per upstream host (the config's `lookups.urls` keys). */
export type HostKey = 'pubchem' | 'chembl' | 'opentargets' | 'uniprot' | 'rcsb_search' | 'rcsb_data' | 'rcsb_files';
export const HOST_KEYS: readonly HostKey[] = ['pubchem', 'chembl', 'opentargets', 'uniprot', 'rcsb_search', 'rcsb_data', 'rcsb_files'];

/** Public hosts (scheme + host); the path of every call is the service's real path. */
export const DEFAULT_HOSTS: Record<HostKey, string> = {
  pubchem: 'https://pubchem.ncbi.nlm.nih.gov',
  chembl: 'https://www.ebi.ac.uk',
  opentargets: 'https://api.platform.opentargets.org',
  uniprot: 'https://rest.uniprot.org',
  rcsb_search: 'https://search.rcsb.org',
  rcsb_data: 'https://data.rcsb.org',
  /** Coordinate files (docking receptors by PDB ID: src/lookups/pdb-files.ts). */
  rcsb_files: 'https://files.rcsb.org',
};

export type ItemStatus = 'found' | 'not_found' | 'invalid_query' | 'structure_egress_not_allowed' | 'upstream_error' | 'timeout';
export const ITEM_STATUSES: readonly ItemStatus[] = ['found', 'not_found', 'invalid_query', 'structure_egress_not_allowed', 'upstream_error', 'timeout'];

/** LookupItem of the API reference. */
export interface LookupItem {
  source: string;
  license: string;
  operation: string;
  status: ItemStatus;
  query: string | null;
  record_id: string | null;
  title: string | null;
  url: string | null;
  release: string | null;
  data: unknown;
  /** Why, when status is upstream_error or timeout (DNS failure, connection refused, HTTP status, timeout after N s). */
  detail?: string;
}

/** LookupResponse of the API reference. */
export interface LookupResponse {
  attribution: string;
  results: LookupItem[];
}

/**
 * CompoundItem of the API reference (the compound-name lookup). `record_id` and `release`
 * are additive fields (the reference allows new optional response fields within v1) so that
 * every lookup item carries them.
 */
export interface CompoundItem {
  name: string;
  source: string;
  license: string;
  status: ItemStatus;
  cid: number | null;
  other_cids: number[] | null;
  smiles: string | null;
  title: string | null;
  url: string | null;
  record_id: string | null;
  release: string | null;
  /** Why, when status is upstream_error or timeout. */
  detail?: string;
}

export interface CompoundsResponse {
  attribution: string;
  compounds: CompoundItem[];
}

/** Request body of every endpoint but `compounds`. Unused fields are ignored per endpoint. */
export interface LookupRequest {
  operation: string;
  queries: string[];
  limit?: number | null;
  threshold?: number | null;
  organism?: string | null;
  properties?: string[] | null;
}

export interface RunOptions {
  /** True only for an API key with `allow_structure_search`; access tokens never. */
  allowStructures: boolean;
  /** The request's id, logged with an upstream failure. */
  requestId?: string;
}

/** What a source client answers for one query. Errors are thrown as UpstreamFailure. */
export interface SourceResult {
  status: 'found' | 'not_found' | 'invalid_query';
  record_id?: string | null;
  title?: string | null;
  url?: string | null;
  release?: string | null;
  data?: unknown;
}

/**
 * Response cache. Keys are opaque strings (a SHA-256 of source, operation, parameters and
 * query, so no query text is stored); values are JSON-serialisable. The durable
 * implementation is a database table (DDL in docs/lookups.md).
 */
export interface LookupCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** Optional: several keys in one round trip (the engine reads a request's keys at once). Missing keys are absent from the map. */
  getMany?(keys: readonly string[]): Promise<Map<string, unknown>>;
}

/** One entry of a 422 `errors[]` (docs/api-decisions.md, "Errors"). */
export interface LookupValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

/** The request is invalid: the route answers 422 with `errors`. Nothing was sent upstream. */
export class LookupRequestError extends Error {
  readonly errors: LookupValidationIssue[];
  constructor(errors: LookupValidationIssue[]) {
    super(errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; '));
    this.name = 'LookupRequestError';
    this.errors = errors;
  }
}

/** The endpoint's source is disabled (CRUCIBLE_LOOKUPS_DISABLED): the route answers 503 `source-disabled`. */
export class SourceDisabledError extends Error {
  readonly slug = 'source-disabled' as const;
  readonly source: SourceId;
  readonly endpoint: EndpointName;
  constructor(source: SourceId, endpoint: EndpointName) {
    super(`The ${source} source behind /lookup/${endpoint} is disabled on this server`);
    this.name = 'SourceDisabledError';
    this.source = source;
    this.endpoint = endpoint;
  }
}
