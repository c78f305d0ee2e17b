// The in-memory LookupCache (an LRU bounded by entries, with per-entry TTL). The durable,
// shared implementation is a database table: see docs/lookups.md for its DDL.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { LookupCache } from './types.js';

export const DEFAULT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

export class MemoryLookupCache implements LookupCache {
  private readonly lru: LRUCache<string, { value: unknown }>;

  constructor(maxEntries = 10_000) {
    this.lru = new LRUCache({ max: maxEntries, ttlAutopurge: false });
  }

  async get(key: string): Promise<unknown> {
    const hit = this.lru.get(key);
    // Hand out a copy: a caller mutating a result must not change the cached one.
    return hit ? structuredClone(hit.value) : undefined;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.lru.set(key, { value: structuredClone(value) }, { ttl: Math.max(1, ttlMs) });
  }

  get size(): number {
    return this.lru.size;
  }
}

/** Opaque cache key: no query text (it may be a proprietary structure) is kept in the cache. */
export function cacheKey(parts: unknown[]): string {
  return 'lookup:v1:' + createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
