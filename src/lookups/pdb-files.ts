// RCSB PDB coordinate files, for docking receptors given as a `pdb_id` (docs/engines.md,
// "Docking"). The file host's real path: GET files:/download/{ID}.pdb answers the entry in the
// PDB format (text: HEADER, ATOM/HETATM, ... END), or 404 when there is no such entry or the
// entry has no PDB-format file (the largest structures have mmCIF files only). The host comes
// from CRUCIBLE_RCSB_FILES_URL (default https://files.rcsb.org); the `rcsb` source's switch
// (CRUCIBLE_LOOKUPS_DISABLED=rcsb), rate limit, licence, attribution and the lookup cache apply
// as to the other RCSB calls.
import { cacheKey, DEFAULT_CACHE_TTL_MS, MemoryLookupCache } from './cache.js';
import { UpstreamClient, UpstreamFailure, type FetchLike } from './http.js';
import { sharedRateLimiters, type RateLimiterRegistry } from './rate-limit.js';
import { rcsbSource } from './sources/rcsb.js';
import { DEFAULT_HOSTS, type HostKey, type LookupCache } from './types.js';

/** A classic four-character PDB ID (1IEP). */
export const PDB_FILE_ID_RE = /^[0-9][A-Za-z0-9]{3}$/;
/** The largest file accepted (a receptor over this size is refused anyway). */
export const MAX_PDB_FILE_BYTES = 50 * 1024 * 1024;

export type PdbFileAnswer =
  | { status: 'found'; pdb_id: string; text: string; url: string; source: 'rcsb'; license: string; attribution: string }
  | { status: 'not_found' | 'invalid_query'; pdb_id: string }
  | { status: 'disabled'; pdb_id: string; detail: string }
  | { status: 'upstream_error' | 'timeout'; pdb_id: string; detail: string };

export interface PdbFilesOptions {
  /** Base URLs per host (the config's `lookups.urls`); only `rcsb_files` is used. */
  urls?: Partial<Record<HostKey, string>>;
  /** Disabled sources or hosts (the config's `lookups.disabled`): `rcsb` or `rcsb_files` turns this off. */
  disabled?: readonly string[];
  cache?: LookupCache;
  cacheTtlMs?: number;
  /** Per call (default 30 s: a file is larger than an API answer). */
  timeoutMs?: number;
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  rateLimiters?: RateLimiterRegistry;
  ratePerSecond?: number;
  fetch?: FetchLike;
  logger?: { warn(obj: Record<string, unknown>, msg: string): void };
}

const CACHE_VERSION = 1;

/** Fetches PDB-format files from RCSB PDB; a found or missing entry is cached, a failure never. */
export class PdbFiles {
  private readonly client: UpstreamClient;
  private readonly disabled: boolean;
  private readonly cache: LookupCache;
  private readonly ttlMs: number;
  private readonly logger: PdbFilesOptions['logger'] | null;
  private readonly inflight = new Map<string, Promise<PdbFileAnswer>>();

  constructor(o: PdbFilesOptions = {}) {
    const off = new Set((o.disabled ?? []).map((s) => s.trim().toLowerCase()));
    this.disabled = off.has('rcsb') || off.has('rcsb_files');
    this.cache = o.cache ?? new MemoryLookupCache();
    this.ttlMs = o.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    this.logger = o.logger ?? null;
    this.client = new UpstreamClient({
      baseUrl: o.urls?.rcsb_files || DEFAULT_HOSTS.rcsb_files,
      source: 'rcsb_files',
      limiter: (o.rateLimiters ?? sharedRateLimiters).get(rcsbSource.source, o.ratePerSecond ?? rcsbSource.ratePerSecond),
      timeoutMs: o.timeoutMs ?? 30_000,
      retries: o.retries,
      backoffBaseMs: o.backoffBaseMs,
      backoffMaxMs: o.backoffMaxMs,
      maxBodyBytes: MAX_PDB_FILE_BYTES,
    });
  }

  /** The public page of an entry. */
  static entryUrl(id: string): string {
    return `https://www.rcsb.org/structure/${id}`;
  }

  /** The PDB-format file of entry `pdbId` (any letter case). */
  async fetch(pdbId: string): Promise<PdbFileAnswer> {
    const id = pdbId.trim().toUpperCase();
    if (!PDB_FILE_ID_RE.test(id)) return { status: 'invalid_query', pdb_id: id };
    if (this.disabled) return { status: 'disabled', pdb_id: id, detail: 'the rcsb source is disabled on this server (CRUCIBLE_LOOKUPS_DISABLED)' };
    const key = cacheKey(['rcsb-files', CACHE_VERSION, 'pdb', id]);
    const hit = await this.cache.get(key).catch(() => undefined);
    if (isAnswer(hit)) return hit;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.download(id, key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async download(id: string, key: string): Promise<PdbFileAnswer> {
    let answer: PdbFileAnswer;
    try {
      const res = await this.client.request(`/download/${id}.pdb`, { headers: { accept: 'chemical/x-pdb, text/plain;q=0.9, */*;q=0.1' } });
      if (res.status === 404 || res.status === 410) answer = { status: 'not_found', pdb_id: id };
      else if (res.status !== 200) throw new UpstreamFailure('upstream', `rcsb files: HTTP ${res.status}`, res.status);
      else if (!/^(HEADER|ATOM |HETATM|REMARK|COMPND|TITLE |CRYST1|MODEL )/m.test(res.text))
        throw new UpstreamFailure('upstream', 'rcsb files: the answer is not a PDB-format file', res.status);
      else
        answer = {
          status: 'found',
          pdb_id: id,
          text: res.text,
          url: PdbFiles.entryUrl(id),
          source: 'rcsb',
          license: rcsbSource.license,
          attribution: rcsbSource.attribution,
        };
    } catch (err) {
      if (!(err instanceof UpstreamFailure)) throw err;
      this.logger?.warn({ source: 'rcsb', operation: 'pdb_file', detail: err.message }, 'lookups: upstream call failed');
      return { status: err.kind === 'timeout' ? 'timeout' : 'upstream_error', pdb_id: id, detail: err.message };
    }
    await this.cache.set(key, answer, this.ttlMs).catch((err: unknown) => this.logger?.warn({ err: (err as Error).message }, 'lookups: cache write failed'));
    return answer;
  }
}

function isAnswer(v: unknown): v is PdbFileAnswer {
  if (!v || typeof v !== 'object') return false;
  const s = (v as { status?: unknown }).status;
  return (s === 'found' && typeof (v as { text?: unknown }).text === 'string') || s === 'not_found';
}
