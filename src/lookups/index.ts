// Public surface of the lookups library (the routes under src/modules/lookups/ use this).
export { LookupService, type LookupServiceOptions, type NormalizedLookupRequest } from './service.js';
export { MemoryLookupCache, DEFAULT_CACHE_TTL_MS, cacheKey } from './cache.js';
export { RateLimiterRegistry, SlidingWindowLimiter, sharedRateLimiters } from './rate-limit.js';
export { looksLikeStructure, smilesAtomCount, isInchi } from './structure.js';
export { classifyReferenceLicense, ALLOWED_LICENSES } from './licenses.js';
export { UpstreamFailure, UpstreamClient, type FetchLike } from './http.js';
export {
  OPERATIONS,
  PROPERTY_HEADINGS,
  PROPERTY_NAMES,
  DEFAULT_PROPERTIES,
  LIMITS,
  REQUEST_SCHEMAS,
  DATA_SCHEMAS,
  lookupItemSchema,
  lookupResponseSchema,
  CompoundItemSchema,
  CompoundsResponseSchema,
  type PropertyName,
} from './schemas.js';
export type { SourceDefinition, SourceClient, LookupParams } from './source.js';
export { SOURCES } from './sources/index.js';
export * from './types.js';
