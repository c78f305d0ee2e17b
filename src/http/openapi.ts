// OpenAPI 3.1 generated from the route schemas (the same ones that validate requests),
// with each route's security scheme, problem responses and deprecation added from its config.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { requiredScope, type AuthMode } from '../api/route.js';

const PROBLEM_STATUSES_AUTH = ['401', '403', '429'];
const PROBLEM_STATUSES_ALL = ['400', '404', '405', '413', '415', '422', '500'];

function securityFor(mode: AuthMode): Record<string, string[]>[] {
  if (mode === 'none') return [];
  if (mode === 'token') return [{ BearerAuth: [] }];
  return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
}

/** A problem response: served as application/problem+json, so documented under that media type. */
function problemResponse(description: string): Record<string, unknown> {
  return { description, content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } } };
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
        description:
          'Chemistry compute platform: structure drawings, molecular properties, paid compute jobs, artifacts, science lookups and a completion event feed. Errors are application/problem+json (RFC 7807) with a `retry` hint.',
      },
      servers: [{ url: '/' }],
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
      const responses: Record<string, unknown> = { ...((out.response as Record<string, unknown>) ?? {}) };
      for (const s of [...PROBLEM_STATUSES_ALL, ...(mode === 'none' ? [] : PROBLEM_STATUSES_AUTH), ...(cfg.idempotency ? ['409'] : [])]) {
        if (!responses[s]) responses[s] = problemResponse('Problem (application/problem+json)');
      }
      // Problems a route declares itself (`{ description, $ref: 'Problem#' }`) get the same media type.
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
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}
