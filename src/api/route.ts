// What a route module declares and reads, without depending on src/http: per-route metadata
// read by the shared hooks (auth, scopes, idempotency, rate limits, error locations), so that
// no handler checks credentials itself, and what those hooks leave on the request.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.js';
import type { Loc } from '../errors.js';
import type { Principal, Scope } from './principal.js';

export type { Principal, Scope };

/** A claimed Idempotency-Key: a route that writes in a transaction pins its response in it. */
export interface IdempotencyContext {
  key: string;
  userId: string;
  saved: boolean;
  /**
   * Pins `body` as the response replays answer. With `redacted` (a secret shown once, left out
   * of `body`), the first response is the route's own, complete one; else it is exactly `body`.
   */
  saveInTx(tx: Queryable, status: number, body: unknown, opts?: { redacted?: boolean }): Promise<void>;
}

/** none: public; any: API key or access token; token: access token only (API keys get 403). */
export type AuthMode = 'none' | 'any' | 'token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Default 'any'. */
    auth?: AuthMode;
    /** Default: 'read' for GET/HEAD, 'write' otherwise. */
    scope?: Scope;
    /** The route accepts Idempotency-Key; API-key callers must send it ('always': every caller must, access tokens too). */
    idempotency?: boolean | 'always';
    /** Deprecated route: sets Deprecation/Sunset/Link headers and the OpenAPI flag. */
    deprecated?: { sunset: Date; successor: string };
    /** Where the service's input sits in the request, rooting its error locations (default ["body"], or ["query"] for GET/DELETE). */
    input?: Loc;
  }
  interface FastifyRequest {
    principal: Principal | null;
    idempotency: IdempotencyContext | null;
    /** The problem+json body of an error answered inside another response. */
    renderProblem(err: unknown): Record<string, unknown>;
  }
}

/** The authenticated caller of a route that requires credentials. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} used principalOf without authentication`);
  return request.principal;
}

/**
 * What a service calls inside the transaction that writes: pins `answer(value)` (the value
 * itself by default) as the `status` response an Idempotency-Key replays (nothing when the
 * request carries no key).
 */
export function pinReply<T = unknown>(request: FastifyRequest, status: number, answer: (value: T) => unknown = (value) => value) {
  return (tx: Queryable, value: T): Promise<void> => request.idempotency?.saveInTx(tx, status, answer(value)) ?? Promise.resolve();
}

export function requiredScope(method: string, configured?: Scope): Scope {
  if (configured) return configured;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
