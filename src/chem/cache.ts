// A bounded LRU cache for drawings and descriptions, keyed by the canonical input (canonical
// SMILES from RDKit for molecules, the trimmed text for reactions) and the drawing size.
//
// Canonical keys need RDKit, which runs in the workers; so the cache holds two maps:
// - results: `<kind>|<size>|<canonical>` -> result (the bulk of the memory, one entry per molecule);
// - aliases: `<kind>|<size>|<input as sent>` -> result key, so an input seen before is served
//   without a worker round trip; a new spelling of a known molecule is computed once (the worker
//   canonicalises it) and from then on served from the same entry.
// Both are bounded by entries, and results also by approximate bytes.
import { LRUCache } from 'lru-cache';

/** Default bound on the approximate size of the cached results. */
const MAX_RESULT_BYTES = 256 * 1024 * 1024;

interface CacheStats {
  enabled: boolean;
  entries: number;
  hits: number;
  misses: number;
}

export class ChemCache {
  readonly capacity: number;
  private readonly results: LRUCache<string, object> | null;
  private readonly aliases: LRUCache<string, string> | null;
  private hits = 0;
  private misses = 0;

  /** `entries` = 0 switches the cache off; `maxBytes` bounds the results' approximate size. */
  constructor(entries: number, maxBytes = MAX_RESULT_BYTES) {
    this.capacity = Math.max(0, Math.floor(entries));
    if (this.capacity === 0) {
      this.results = null;
      this.aliases = null;
      return;
    }
    this.results = new LRUCache<string, object>({
      max: this.capacity,
      maxSize: maxBytes,
      // Strings are UTF-16 in memory; results are mostly one SVG or a small properties object.
      sizeCalculation: (v) => 2 * approxLength(v) + 64,
    });
    this.aliases = new LRUCache<string, string>({ max: this.capacity * 2 });
  }

  get enabled(): boolean {
    return this.results !== null;
  }

  /** The cached result for an input as sent, or undefined. */
  get<T extends object>(kind: string, input: string, variant: string): T | undefined {
    if (!this.results || !this.aliases) return undefined;
    const canonical = this.aliases.get(`${kind}|${variant}|${input}`);
    const hit = canonical === undefined ? undefined : (this.results.get(canonical) as T | undefined);
    if (hit === undefined) this.misses++;
    else this.hits++;
    return hit;
  }

  /**
   * Stores a result under its canonical key, and the input as sent as an alias of it. When the
   * molecule is already cached (another spelling came first) the cached result is kept and
   * returned, so that every spelling of a molecule gets the same answer while it is cached.
   */
  set<T extends object>(kind: string, input: string, variant: string, canonical: string, value: T): T {
    if (!this.results || !this.aliases) return value;
    const key = `${kind}|${variant}|${canonical}`;
    const existing = this.results.get(key) as T | undefined;
    if (existing === undefined) this.results.set(key, value);
    this.aliases.set(`${kind}|${variant}|${input}`, key);
    if (canonical !== input) this.aliases.set(`${kind}|${variant}|${canonical}`, key);
    return existing ?? value;
  }

  stats(): CacheStats {
    return { enabled: this.enabled, entries: this.results?.size ?? 0, hits: this.hits, misses: this.misses };
  }

  clear(): void {
    this.results?.clear();
    this.aliases?.clear();
  }
}

function approxLength(v: object): number {
  let n = 0;
  for (const x of Object.values(v)) {
    if (typeof x === 'string') n += x.length;
    else if (x && typeof x === 'object') n += JSON.stringify(x).length;
  }
  return n;
}
