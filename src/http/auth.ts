// The one place where credentials, token-only routes, scopes and rate limits are enforced,
// from each route's `config` (src/api/route.ts). Handlers read `request.principal`.
//
// The hook is attached to every route when it is registered (from an onRoute hook in
// app.ts), with the route's metadata resolved then rather than on each request. It runs in
// callback style and finishes synchronously when the credential is already cached and the rate
// limit is decided in memory, so the common authenticated request costs no promise and no extra
// microtask turn.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { tierNameOf, type TierLimits, type TierName } from '../config.js';
import type { Authenticator } from '../modules/auth/authenticator.js';
import { credentialId, type Principal } from '../api/principal.js';
import { httpProblem, problem } from './problems.js';
import type { RateLimiter } from './rate-limit.js';
import { requiredScope } from '../api/route.js';

export interface AuthHookDeps {
  authenticator: Authenticator;
  limiter: RateLimiter;
  tiers: Record<TierName, TierLimits>;
}

type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** The onRequest hook for one route, built from that route's `config`. */
export function makeAuthHook({ authenticator, limiter, tiers }: AuthHookDeps, route: Pick<RouteOptions, 'method' | 'url' | 'config'>): OnRequest {
  const cfg = (route.config ?? {}) as { auth?: 'none' | 'any' | 'token'; scope?: 'read' | 'write' };
  const mode = cfg.auth ?? 'any';
  // One route may serve several methods, each with its own default scope (GET read, POST write).
  const scopes = new Map((Array.isArray(route.method) ? route.method : [route.method]).map((m) => [m, requiredScope(m, cfg.scope)]));

  if (mode === 'none') {
    return function publicRoute(request, reply, done) {
      reply.header('x-request-id', request.id);
      request.principal = null;
      request.idempotency = null;
      done();
    };
  }

  /** Admits the request or throws; a promise when the rate limit is counted in the database (rate-limit.ts). */
  function admit(request: FastifyRequest, reply: FastifyReply, p: Principal | null): void | Promise<void> {
    if (!p) {
      throw httpProblem(401, 'this endpoint needs a credential: an X-Api-Key header or Authorization: Bearer <access token>', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    const counting = limiter.hit(reply, credentialId(p), tiers[tierNameOf(p.tier)].requestsPerMinute);
    if (counting) return counting.then(() => authorize(request, p));
    authorize(request, p);
  }

  function authorize(request: FastifyRequest, p: Principal): void {
    if (mode === 'token' && p.via === 'api_key') {
      throw problem('api-key-management-forbidden', 'this endpoint needs an access token (Authorization: Bearer); API keys cannot use it');
    }
    const scope = scopes.get(request.method) ?? requiredScope(request.method, cfg.scope);
    if (!p.scopes.has(scope)) throw problem('insufficient-scope', `this API key lacks the "${scope}" scope that ${request.method} ${route.url} needs`);
    request.principal = p;
  }

  return function authHook(request, reply, done) {
    reply.header('x-request-id', request.id);
    request.principal = null;
    request.idempotency = null;
    let found: Principal | null | Promise<Principal | null>;
    try {
      found = authenticator.authenticate(request.headers['x-api-key'], request.headers.authorization);
      if (!(found instanceof Promise)) {
        const counting = admit(request, reply, found);
        if (counting) return doneWhen(counting, done);
        done();
        return;
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    found.then(
      (p) => {
        let counting: void | Promise<void>;
        try {
          counting = admit(request, reply, p);
        } catch (err) {
          done(err as Error);
          return;
        }
        if (counting) return doneWhen(counting, done);
        done();
      },
      (err: Error) => done(err),
    );
  };
}

/** Calls `done` when the request's count in the database settles (rate-limit.ts). */
function doneWhen(counting: Promise<void>, done: HookHandlerDoneFunction): void {
  counting.then(
    () => done(),
    (err: Error) => done(err),
  );
}

/** The principal of an authenticated route (the hook guarantees it is set). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} used principalOf without authentication`);
  return request.principal;
}
