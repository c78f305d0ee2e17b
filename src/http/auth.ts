// The one place where credentials, token-only routes, scopes and rate limits are enforced,
// from each route's `config` (see route-config.ts). Handlers read `request.principal`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TIER_NAMES, type TierLimits, type TierName } from '../config.js';
import type { Authenticator } from '../modules/auth/authenticator.js';
import { credentialId, type Principal } from '../modules/auth/principal.js';
import { httpProblem, problem } from './problems.js';
import type { RateLimiter } from './rate-limit.js';
import { requiredScope } from './route-config.js';

export interface AuthHookDeps {
  authenticator: Authenticator;
  limiter: RateLimiter;
  tiers: Record<TierName, TierLimits>;
}

export function makeAuthHook({ authenticator, limiter, tiers }: AuthHookDeps) {
  return async function authHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('x-request-id', request.id);
    request.principal = null;
    request.idempotency = null;
    if (request.is404) return;
    const cfg = request.routeOptions.config;
    const mode = cfg.auth ?? 'any';
    if (mode === 'none') return;
    const p = await authenticator.authenticate(request.headers['x-api-key'], request.headers.authorization);
    if (!p) {
      throw httpProblem(401, 'this endpoint needs a credential: an X-Api-Key header or Authorization: Bearer <access token>', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    reply.headers(limiter.hit(credentialId(p), tiers[TIER_NAMES[p.tier]].requestsPerMinute));
    if (mode === 'token' && p.via === 'api_key') {
      throw problem('api-key-management-forbidden', 'this endpoint needs an access token (Authorization: Bearer); API keys cannot use it');
    }
    const scope = requiredScope(request.method, cfg.scope);
    if (!p.scopes.has(scope)) throw problem('insufficient-scope', `this API key lacks the "${scope}" scope that ${request.method} ${request.routeOptions.url} needs`);
    request.principal = p;
  };
}

/** The principal of an authenticated route (the hook guarantees it is set). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} used principalOf without authentication`);
  return request.principal;
}
