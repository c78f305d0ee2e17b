// The lookup engine: validates a request, holds structures back, answers repeats from the
// cache, and fans the queries of one request out to the endpoint's source with bounded
// concurrency. A route stays thin:
//
//   const body = await lookups.run('bioactivity', request.body, { allowStructures });
//
// run() throws LookupRequestError (-> 422 with `errors`) and SourceDisabledError
// (-> 503 `source-disabled`); upstream failures never fail the request, they become the
// item status `upstream_error` or `timeout`.
import { cacheKey, DEFAULT_CACHE_TTL_MS, MemoryLookupCache } from './cache.js';
import { UpstreamClient, UpstreamFailure, type FetchLike } from './http.js';
import { RateLimiterRegistry, sharedRateLimiters } from './rate-limit.js';
import { DEFAULT_PROPERTIES, LIMITS, OPERATIONS, PROPERTY_NAMES } from './schemas.js';
import type { LookupParams, SourceClient, SourceDefinition } from './source.js';
import { SOURCES } from './sources/index.js';
import { isCompoundData } from './sources/pubchem.js';
import { containsInchi, hasStructureInText, rdkitReadsStructure } from './structure.js';
import {
  DEFAULT_HOSTS,
  LookupRequestError,
  SourceDisabledError,
  type CompoundItem,
  type CompoundsResponse,
  type EndpointName,
  type HostKey,
  type ItemStatus,
  type LookupCache,
  type LookupItem,
  type LookupResponse,
  type LookupValidationIssue,
  type RunOptions,
  type SourceId,
  type SourceResult,
} from './types.js';

interface LookupLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface LookupServiceOptions {
  /** Base URLs per host (the config's `lookups.urls`); only scheme, host and port are used. */
  urls?: Partial<Record<HostKey, string>>;
  /** Disabled sources or hosts: pubchem, chembl, opentargets, uniprot, rcsb, rcsb_search, rcsb_data. */
  disabled?: readonly string[];
  cache?: LookupCache;
  /** Default 24 h. */
  cacheTtlMs?: number;
  /** Per upstream call, default 10 s. */
  timeoutMs?: number;
  /** Retries on 429/5xx/network errors, default 3. */
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  retryAfterMaxMs?: number;
  /** Calls per second per source (defaults: pubchem 5, others 10). */
  rateLimits?: Partial<Record<SourceId, number>>;
  /** Default: the process-wide registry, so every service instance shares the limits. */
  rateLimiters?: RateLimiterRegistry;
  /** Queries of one request looked up at once, default 8. */
  concurrency?: number;
  /**
   * Is a compound name really a structure (InChI, or SMILES of >= 2 atoms)? Default:
   * `rdkitReadsStructure` of structure.ts (RDKit's verdict on the first token, held to RDKit by
   * a reference table). An RDKit-backed check may be injected (off the event loop); the
   * built-in InChI and free-text rules apply on top of it, so together they hold back what
   * `looksLikeStructure` does. A throw counts as "structure" (fail closed).
   */
  isStructure?: (name: string) => boolean | Promise<boolean>;
  fetch?: FetchLike;
  userAgent?: string;
  logger?: LookupLogger;
  /** Replace the source registry (tests). */
  sources?: readonly SourceDefinition[];
}

/** A validated request with its defaults applied. */
export interface NormalizedLookupRequest {
  operation: string;
  queries: string[];
  params: LookupParams;
}

interface Registered {
  def: SourceDefinition;
  client: SourceClient;
}

const STATUS_FROM_FAILURE = (e: UpstreamFailure): ItemStatus => (e.kind === 'timeout' ? 'timeout' : 'upstream_error');

function oneOf(values: readonly string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

async function mapPool<T, R>(items: readonly T[], size: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  // One iterator shared by the workers: each takes the next item when it is free.
  const pending = items.entries();
  const worker = async () => {
    for (const [i, item] of pending) out[i] = await fn(item, i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  return out;
}

export class LookupService {
  private readonly byEndpoint = new Map<EndpointName, Registered>();
  private readonly disabled: Set<string>;
  private readonly cache: LookupCache;
  private readonly cacheTtlMs: number;
  private readonly concurrency: number;
  private readonly isStructure: (name: string) => boolean | Promise<boolean>;
  private readonly logger: LookupLogger | null;
  private readonly inflight = new Map<string, Promise<SourceResult>>();

  constructor(opts: LookupServiceOptions = {}) {
    this.disabled = new Set((opts.disabled ?? []).map((s) => s.trim().toLowerCase()));
    this.cache = opts.cache ?? new MemoryLookupCache();
    this.cacheTtlMs = opts.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    this.concurrency = opts.concurrency ?? 8;
    this.isStructure = opts.isStructure ?? rdkitReadsStructure;
    this.logger = opts.logger ?? null;
    const limiters = opts.rateLimiters ?? sharedRateLimiters;
    const clients = new Map<string, UpstreamClient>();
    for (const def of opts.sources ?? SOURCES) {
      if (this.byEndpoint.has(def.endpoint)) throw new Error(`two sources registered for /lookup/${def.endpoint}`);
      const limiter = limiters.get(def.source, opts.rateLimits?.[def.source] ?? def.ratePerSecond);
      const hosts: Partial<Record<HostKey, UpstreamClient>> = {};
      for (const h of def.hosts) {
        const id = `${def.source}:${h}`;
        let c = clients.get(id);
        if (!c) {
          c = new UpstreamClient({
            baseUrl: opts.urls?.[h] || DEFAULT_HOSTS[h],
            source: h,
            limiter,
            timeoutMs: opts.timeoutMs,
            retries: opts.retries,
            backoffBaseMs: opts.backoffBaseMs,
            backoffMaxMs: opts.backoffMaxMs,
            retryAfterMaxMs: opts.retryAfterMaxMs,
            userAgent: opts.userAgent,
            fetch: opts.fetch,
          });
          clients.set(id, c);
        }
        hosts[h] = c;
      }
      this.byEndpoint.set(def.endpoint, { def, client: def.create({ hosts }) });
    }
  }

  /** Allowed operations of an endpoint (the route's enum and its 422 message). */
  operations(endpoint: EndpointName): readonly string[] {
    return OPERATIONS[endpoint];
  }

  /** The source behind an endpoint: its name, licence and attribution. */
  describe(endpoint: EndpointName): { source: SourceId; license: string; attribution: string; operations: readonly string[] } {
    const r = this.registered(endpoint);
    return { source: r.def.source, license: r.def.license, attribution: r.def.attribution, operations: r.def.operations };
  }

  isDisabled(endpoint: EndpointName): boolean {
    const { def } = this.registered(endpoint);
    return this.disabled.has(def.source) || def.hosts.some((h) => this.disabled.has(h));
  }

  run(endpoint: 'compounds', request: unknown, opts: RunOptions): Promise<CompoundsResponse>;
  run(endpoint: Exclude<EndpointName, 'compounds'>, request: unknown, opts: RunOptions): Promise<LookupResponse>;
  run(endpoint: EndpointName, request: unknown, opts: RunOptions): Promise<LookupResponse | CompoundsResponse>;
  async run(endpoint: EndpointName, request: unknown, opts: RunOptions): Promise<LookupResponse | CompoundsResponse> {
    const norm = this.validate(endpoint, request);
    const { def, client } = this.registered(endpoint);
    if (this.isDisabled(endpoint)) throw new SourceDisabledError(def.source, endpoint);
    const allow = opts.allowStructures === true;
    // Structures are held back first; the cache is read for every other query at once (one
    // round trip to a database cache); only the misses go to the source.
    // A held-back query has no cache key: it is neither read from the cache nor sent.
    const planned = await Promise.all(
      norm.queries.map(async (query) => ({
        query,
        key: (await this.holdBack(def, norm.operation, query, allow)) ? null : cacheKey([def.key, def.cacheVersion ?? 1, norm.operation, norm.params, query.trim()]),
      })),
    );
    const cached = await this.readCache(planned.flatMap(({ key }) => (key === null ? [] : [key])));
    type Outcome = { status: ItemStatus; detail?: string } & Omit<SourceResult, 'status'>;
    const results = await mapPool(planned, this.concurrency, async ({ query, key }): Promise<{ query: string; r: Outcome }> => {
      if (key === null) return { query, r: { status: 'structure_egress_not_allowed' } };
      return { query, r: cached.get(key) ?? (await this.lookupOne(def, client, norm, query, key, opts.requestId)) };
    });
    if (endpoint === 'compounds') {
      const compounds: CompoundItem[] = results.map(({ query: name, r }) => {
        const d = r.status === 'found' && isCompoundData(r.data) ? r.data : null;
        return {
          name,
          source: def.source,
          license: def.license,
          status: r.status,
          cid: d ? d.cid : null,
          other_cids: d ? d.other_cids : null,
          smiles: d ? d.smiles : null,
          title: d ? d.title : null,
          url: r.status === 'found' ? (r.url ?? null) : null,
          record_id: r.status === 'found' ? (r.record_id ?? null) : null,
          release: r.status === 'found' ? (r.release ?? null) : null,
          ...(r.detail ? { detail: r.detail } : {}),
        };
      });
      return { attribution: def.attribution, compounds };
    }
    const items: LookupItem[] = results.map(({ query, r }) => {
      const found = r.status === 'found';
      return {
        source: def.source,
        license: def.license,
        operation: norm.operation,
        status: r.status,
        query,
        record_id: found ? (r.record_id ?? null) : null,
        title: found ? (r.title ?? null) : null,
        url: found ? (r.url ?? null) : null,
        release: found ? (r.release ?? null) : null,
        data: found ? (r.data ?? null) : null,
        ...(r.detail ? { detail: r.detail } : {}),
      };
    });
    return { attribution: def.attribution, results: items };
  }

  private registered(endpoint: EndpointName): Registered {
    const r = this.byEndpoint.get(endpoint);
    if (!r) throw new Error(`no source registered for /lookup/${endpoint}`);
    return r;
  }

  /**
   * Whether a query must not be sent (its item is then `structure_egress_not_allowed`).
   * The privacy rule (docs/lookups.md, "Privacy"):
   *  - an InChI is never sent, in any operation, whoever asks (no operation takes one);
   *  - structure operations (ChEMBL similarity, substructure) send their SMILES only with
   *    allowStructures (an API key with allow_structure_search);
   *  - compound-name operations never send a name that is a structure (RDKit's reading of it,
   *    `isStructure`), with or without permission: only names are sent there;
   *  - every other operation (free text and IDs) sends a query that carries a structure
   *    (`hasStructureInText`: InChI, or SMILES of >= 2 atoms with SMILES-only syntax) only with
   *    allowStructures. All-uppercase organic-subset strings (CS, CNP, CCO) are gene symbols and
   *    identifiers as often as SMILES and are sent there.
   */
  private async holdBack(def: SourceDefinition, operation: string, query: string, allowStructures: boolean): Promise<boolean> {
    const q = query.trim();
    if (containsInchi(q)) return true;
    if (def.structureOperations?.includes(operation)) return !allowStructures;
    if (def.compoundNameOperations?.includes(operation)) {
      if (hasStructureInText(q)) return true;
      try {
        return await this.isStructure(q);
      } catch (err) {
        this.logger?.warn({ err: (err as Error).message }, 'lookups: structure check failed; holding the query back');
        return true;
      }
    }
    return !allowStructures && hasStructureInText(q);
  }

  /** Cached answers for these keys (a cache failure is logged and counts as a miss). */
  private async readCache(keys: string[]): Promise<Map<string, SourceResult>> {
    const out = new Map<string, SourceResult>();
    if (keys.length === 0) return out;
    const usable = (v: unknown): v is SourceResult => !!v && typeof v === 'object' && typeof (v as SourceResult).status === 'string';
    try {
      if (this.cache.getMany) {
        for (const [k, v] of await this.cache.getMany([...new Set(keys)])) if (usable(v)) out.set(k, v);
      } else {
        await Promise.all(
          [...new Set(keys)].map(async (k) => {
            const v = await this.cache.get(k);
            if (usable(v)) out.set(k, v);
          }),
        );
      }
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'lookups: cache read failed');
    }
    return out;
  }

  /** One query the cache did not answer: from the source (identical queries in flight share one call), then into the cache. */
  private async lookupOne(
    def: SourceDefinition,
    client: SourceClient,
    norm: NormalizedLookupRequest,
    query: string,
    key: string,
    requestId: string | undefined,
  ): Promise<{ status: ItemStatus; detail?: string } & Omit<SourceResult, 'status'>> {
    const q = query.trim();
    let pending = this.inflight.get(key);
    if (!pending) {
      // The answer is handed out once it is in the cache, so a repeat that follows the response
      // (on any instance sharing the cache) is a hit. A failed write is logged, never fatal.
      pending = client
        .lookup(norm.operation, q, norm.params)
        .then(async (r) => {
          await this.cache.set(key, r, this.cacheTtlMs).catch((err) => this.logger?.warn({ err: (err as Error).message }, 'lookups: cache write failed'));
          return r;
        })
        .catch((err: unknown) => {
          // Logged once per upstream call (requests sharing it see the same failure), with the
          // source and the id of the request that made it; the query itself is never logged.
          if (err instanceof UpstreamFailure) this.logger?.warn({ source: def.source, operation: norm.operation, requestId, detail: err.message }, 'lookups: upstream call failed');
          throw err;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    try {
      return await pending;
    } catch (err) {
      if (err instanceof UpstreamFailure) return { status: STATUS_FROM_FAILURE(err), detail: err.message };
      this.logger?.warn({ source: def.source, operation: norm.operation, requestId, err: err instanceof Error ? err.message : String(err) }, 'lookups: source client failed');
      return { status: 'upstream_error', detail: `${def.source}: the answer could not be read` };
    }
  }

  /** Checks and normalises a request body; throws LookupRequestError listing every problem. */
  validate(endpoint: EndpointName, body: unknown): NormalizedLookupRequest {
    const errors: LookupValidationIssue[] = [];
    const issue = (type: string, loc: (string | number)[], msg: string, input: unknown) => errors.push({ type, loc, msg, input });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      issue('dict_type', [], 'Input should be a valid dictionary', body);
      throw new LookupRequestError(errors);
    }
    const b = body as Record<string, unknown>;
    const allowedFields: Record<EndpointName, string[]> = {
      compounds: ['names'],
      bioactivity: ['operation', 'queries', 'limit', 'threshold'],
      targets: ['operation', 'queries', 'limit'],
      proteins: ['operation', 'queries', 'organism'],
      structures: ['operation', 'queries', 'limit'],
      properties: ['operation', 'queries', 'properties', 'limit'],
    };
    for (const k of Object.keys(b)) if (!allowedFields[endpoint].includes(k)) issue('extra_forbidden', [k], 'Extra inputs are not permitted', b[k]);

    // operation
    const ops: readonly string[] = OPERATIONS[endpoint];
    let operation: string = OPERATIONS[endpoint][0];
    if (endpoint !== 'compounds') {
      const op = b.operation;
      if (op === undefined || op === null) issue('missing', ['operation'], `Field required; allowed operations: ${ops.join(', ')}`, op ?? null);
      else if (typeof op !== 'string') issue('string_type', ['operation'], 'Input should be a valid string', op);
      else if (!ops.includes(op)) issue('enum', ['operation'], `Input should be ${oneOf(ops)}`, op);
      else operation = op;
    }

    // queries
    const field = endpoint === 'compounds' ? 'names' : 'queries';
    const raw = b[field];
    const queries: string[] = [];
    const structureOp = endpoint === 'bioactivity' && ['similarity', 'substructure'].includes(operation);
    const maxLen = structureOp ? LIMITS.maxSmilesLength : LIMITS.maxQueryLength;
    if (raw === undefined || raw === null) issue('missing', [field], 'Field required', raw ?? null);
    else if (!Array.isArray(raw)) issue('list_type', [field], 'Input should be a valid list', raw);
    else if (raw.length === 0) issue('too_short', [field], 'List should have at least 1 item after validation, not 0', raw);
    else if (raw.length > LIMITS.maxQueries) issue('too_long', [field], `List should have at most ${LIMITS.maxQueries} items after validation, not ${raw.length}`, raw.length);
    else
      raw.forEach((q, i) => {
        if (typeof q !== 'string') issue('string_type', [field, i], 'Input should be a valid string', q);
        else if (q.trim().length === 0) issue('string_too_short', [field, i], 'String should have at least 1 character', q);
        else if (q.length > maxLen)
          issue(
            'string_too_long',
            [field, i],
            `String should have at most ${maxLen} characters${endpoint === 'bioactivity' && !structureOp ? ' (IDs and names; SMILES may have 500 for similarity and substructure)' : ''}`,
            q,
          );
        else queries.push(q);
      });

    const intParam = (name: string, r: { min: number; max: number; default: number }): number => {
      const v = b[name];
      if (v === undefined || v === null) return r.default;
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        issue('int_type', [name], 'Input should be a valid integer', v);
        return r.default;
      }
      if (v < r.min) issue('greater_than_equal', [name], `Input should be greater than or equal to ${r.min}`, v);
      else if (v > r.max) issue('less_than_equal', [name], `Input should be less than or equal to ${r.max}`, v);
      return v;
    };

    const params: LookupParams = { limit: 0, threshold: LIMITS.similarityThreshold.default, organism: null, properties: [] };
    switch (endpoint) {
      case 'bioactivity':
        params.limit = intParam('limit', LIMITS.bioactivityLimit);
        params.threshold = intParam('threshold', LIMITS.similarityThreshold);
        break;
      case 'targets':
        params.limit = intParam('limit', LIMITS.targetsLimit);
        break;
      case 'structures':
        params.limit = intParam('limit', LIMITS.structuresLimit);
        break;
      case 'proteins': {
        params.limit = LIMITS.proteinsSearchRows;
        const o = b.organism;
        if (o !== undefined && o !== null) {
          if (typeof o !== 'string') issue('string_type', ['organism'], 'Input should be a valid string', o);
          else if (o.trim().length === 0) issue('string_too_short', ['organism'], 'String should have at least 1 character', o);
          else if (o.length > LIMITS.organismMaxLength) issue('string_too_long', ['organism'], `String should have at most ${LIMITS.organismMaxLength} characters`, o);
          else if (operation === 'search') params.organism = o.trim();
        }
        break;
      }
      case 'properties': {
        params.limit = intParam('limit', LIMITS.propertiesLimit);
        const p = b.properties;
        if (p === undefined || p === null) params.properties = [...DEFAULT_PROPERTIES];
        else if (!Array.isArray(p)) issue('list_type', ['properties'], 'Input should be a valid list', p);
        else if (p.length === 0) issue('too_short', ['properties'], 'List should have at least 1 item after validation, not 0', p);
        else {
          const names: string[] = [];
          p.forEach((n, i) => {
            if (typeof n !== 'string' || !(PROPERTY_NAMES as string[]).includes(n)) issue('enum', ['properties', i], `Input should be ${oneOf(PROPERTY_NAMES)}`, n);
            else if (!names.includes(n)) names.push(n);
          });
          params.properties = names;
        }
        break;
      }
      default:
        break;
    }
    if (endpoint !== 'bioactivity') params.threshold = LIMITS.similarityThreshold.default;
    if (endpoint === 'bioactivity' && operation !== 'similarity') params.threshold = LIMITS.similarityThreshold.default;
    if (errors.length) throw new LookupRequestError(errors);
    return { operation, queries, params };
  }
}
