// OpenAPI 3.1 generated from the route schemas (the same ones that validate requests), with
// each route's security scheme, scope, idempotency header and deprecation added from its
// config; openapi-document.ts finishes the whole document (docs/api-decisions.md, "The OpenAPI
// document").
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { requiredScope, type AuthMode } from '../api/route.js';
import { readLicense } from '../version.js';
import { finishDocument, problemResponse, TAGS } from './openapi-document.js';
import { addPageHeaders } from './page-headers.js';

/**
 * The reference page at /docs (Swagger UI) loads only its own files (no inline script: its
 * initializer is a file; @fastify/swagger-ui leaves validatorUrl null, so no call to
 * validator.swagger.io), reads /docs/json, and "Try it out" calls this origin. Its icons are
 * data: URIs; it inserts a <style> element, hence 'unsafe-inline' for styles, never for scripts.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

function securityFor(mode: AuthMode): Record<string, string[]>[] {
  if (mode === 'none') return [];
  if (mode === 'token') return [{ BearerAuth: [] }];
  return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
}

/** package.json's licence (an SPDX identifier, Apache-2.0) as the document's: its name and SPDX identifier (docs/api-decisions.md). */
function license(): { name: string; identifier: string } {
  const id = readLicense();
  return { name: id, identifier: id };
}

/** onRoute hook: the browsable reference at /docs is public, like /openapi.json. */
export function markDocsPublic(route: RouteOptions): void {
  if (route.url === '/docs' || route.url.startsWith('/docs/')) route.config = { ...(route.config ?? {}), auth: 'none' };
}

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Crucible API',
        version,
        license: license(),
        description:
          'Chemistry compute platform: structure drawings, molecular properties, paid compute jobs, artifacts, science lookups and a completion event feed. Errors are application/problem+json (RFC 7807) with a `retry` hint.',
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key: crk_<prefix>_<secret>' },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/login-email' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const cfg = (route.config ?? {}) as { auth?: AuthMode; scope?: 'read' | 'write'; deprecated?: unknown; idempotency?: boolean | 'always' };
      const mode = cfg.auth ?? 'any';
      const out: Record<string, unknown> = { ...(schema ?? {}) };
      out.security = securityFor(mode);
      // A route registered for several methods documents the scope of its first.
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      if (mode !== 'none' && method) out['x-required-scope'] = requiredScope(method, cfg.scope);
      if (cfg.deprecated) out.deprecated = true;
      // The problems every operation shares are added by openapi-document.ts; those a route
      // declares itself (`{ description, $ref: 'Problem#' }`) are problem+json responses too.
      const responses: Record<string, unknown> = { ...((out.response as Record<string, unknown>) ?? {}) };
      for (const [s, r] of Object.entries(responses)) {
        const declared = r as { $ref?: string; description?: string };
        if (declared && declared.$ref === 'Problem#') responses[s] = problemResponse(declared.description ?? 'Problem');
      }
      out.response = responses;
      if (cfg.idempotency) {
        const headers = { ...((out.headers as Record<string, unknown>) ?? { type: 'object', properties: {} }) } as { type: string; properties: Record<string, unknown> };
        headers.properties = {
          ...headers.properties,
          'idempotency-key': {
            type: 'string',
            maxLength: 255,
            description: `Required for ${cfg.idempotency === 'always' ? 'every caller, access tokens included' : 'API-key callers'}: a new UUID per distinct request, the same on each retry`,
          },
        };
        if (cfg.idempotency === 'always') (headers as { required?: string[] }).required = ['idempotency-key'];
        out.headers = headers;
      }
      return { schema: out, url };
    },
    transformObject: (documentObject) => finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
  });
  // In a scope of its own: the page headers go on /docs only (swagger-ui's routes are in the scope).
  await app.register(async (scope) => {
    addPageHeaders(scope, DOCS_CSP);
    await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });
}
