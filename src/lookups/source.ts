// The contract between the engine and one source client. Adding a source is one file in
// sources/ exporting a SourceDefinition, plus one line in sources/index.ts.
import type { UpstreamClient } from './http.js';
import type { EndpointName, HostKey, SourceId, SourceResult } from './types.js';

/** Per-request parameters a client may use (already validated and defaulted by the engine). */
export interface LookupParams {
  limit: number;
  threshold: number;
  organism: string | null;
  properties: readonly string[];
}

interface SourceContext {
  /** One client per host the definition declares, already bound to the source's rate limiter. */
  hosts: Partial<Record<HostKey, UpstreamClient>>;
}

export interface SourceClient {
  /**
   * Looks up one query. Answers found / not_found / invalid_query; throws UpstreamFailure
   * (timeout or upstream error) when the service could not answer.
   */
  lookup(operation: string, query: string, params: LookupParams): Promise<SourceResult>;
}

export interface SourceDefinition {
  /** Registry key (unique): e.g. 'pubchem-view'. */
  key: string;
  /** `source` of the items; also the name CRUCIBLE_LOOKUPS_DISABLED uses. */
  source: SourceId;
  endpoint: EndpointName;
  operations: readonly string[];
  license: string;
  attribution: string;
  /** Hosts this source calls; disabling any of them disables the source. */
  hosts: readonly HostKey[];
  /** Calls per second, shared by every request of the process (keyed by `source`). */
  ratePerSecond: number;
  /** Operations whose queries are SMILES: sent only with allowStructures. */
  structureOperations?: readonly string[];
  /** Operations whose queries are compound names: a name that is a structure is held back. */
  compoundNameOperations?: readonly string[];
  /** Extra fields that distinguish cache entries (e.g. a schema version of the parsed data). */
  cacheVersion?: number;
  create(ctx: SourceContext): SourceClient;
}

export function hostOf(ctx: SourceContext, key: HostKey): UpstreamClient {
  const h = ctx.hosts[key];
  if (!h) throw new Error(`host ${key} not configured`);
  return h;
}

// Small parsing helpers shared by the clients.
export const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
export const num = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
export const int = (v: unknown): number | null => {
  const n = num(v);
  return n !== null && Number.isInteger(n) ? n : null;
};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
