// Per-route metadata read by the shared hooks (auth, scopes, idempotency, rate limits),
// so that no handler checks credentials itself.
import type { Principal } from '../modules/auth/principal.js';
import type { IdempotencyContext } from './idempotency.js';

/** none: public; any: API key or access token; token: access token only (API keys get 403). */
export type AuthMode = 'none' | 'any' | 'token';
export type Scope = 'read' | 'write';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Default 'any'. */
    auth?: AuthMode;
    /** Default: 'read' for GET/HEAD, 'write' otherwise. */
    scope?: Scope;
    /** The route accepts Idempotency-Key; API-key callers must send it. */
    idempotency?: boolean;
    /** Deprecated route: sets Deprecation/Sunset/Link headers and the OpenAPI flag. */
    deprecated?: { sunset: Date; successor: string };
  }
  interface FastifyRequest {
    principal: Principal | null;
    idempotency: IdempotencyContext | null;
  }
}

export function requiredScope(method: string, configured?: Scope): Scope {
  if (configured) return configured;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
