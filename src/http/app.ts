// Builds the Fastify application: shared HTTP concerns first, then the routes of every module
// in src/modules/index.ts under /api/v1.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { SHARED_SCHEMAS } from '../api/schemas.js';
import { MODULES } from '../modules/index.js';
import type { Services } from '../services.js';
import { addSharedSchema } from '../validation.js';
import { readVersion } from '../version.js';
import { makeAuthHook } from './auth.js';
import { sharedSerializerCompiler } from './serializers.js';
import { drainingServer } from './draining.js';
import { clientErrorHandler, frameworkErrors } from './edge-errors.js';
import { installErrorHandling, renderProblem } from './errors.js';
import { installJsonBodyCheck, installTextCheck } from './json-body.js';
import { installBodyIdleTimeout } from './body-idle.js';
import { makeIdempotencyHooks } from './idempotency.js';
import { lazyChildLoggerFactory } from './lazy-logger.js';
import { markDocsPublic, registerOpenApi } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { rateWindows } from './rate-sync.js';
import { requestIdFrom } from './request-id.js';
import { validatorCompiler } from './validation.js';
import { logDestination } from '../log.js';
import { registerMcp } from '../mcp/http.js';
import { markConsolePublic, registerConsole } from './console.js';

export const API_PREFIX = '/api/v1';

/** Headers whose values never reach a log line. */
const REDACT = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'];

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Send the standard log (same level and redaction) to this stream instead of stdout. */
  logStream?: NodeJS.WritableStream;
  /** Extra route modules (the test harness registers its own probes here). */
  plugins?: ((app: FastifyInstance, services: Services) => Promise<void>)[];
  /**
   * Compile every route's request validators and response serializers (with their validators)
   * before listening (validation.ts, serializers.ts); `crucible serve` does. Otherwise each is
   * compiled on the first request that needs it (a test file's app compiles only what it uses).
   */
  eagerSchemas?: boolean;
}

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const draining = drainingServer();
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, stream: opts.logStream ?? logDestination() },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    // Request logs carry method and path only: query strings may hold secrets (GET /auth/refresh).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    // Problems (application/problem+json with X-Request-Id) also for bad URLs, requests the HTTP
    // parser rejects (e.g. 431) and requests that arrive while shutting down (draining.ts).
    frameworkErrors,
    clientErrorHandler,
    serverFactory: draining.serverFactory,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler(opts.eagerSchemas ?? false));
  const schemas: TSchema[] = [...SHARED_SCHEMAS, ...MODULES.flatMap((m) => m.schemas ?? [])];
  app.setSerializerCompiler(sharedSerializerCompiler(schemas, opts.eagerSchemas ?? false));
  for (const s of schemas) {
    app.addSchema(s);
    addSharedSchema(s);
  }

  installErrorHandling(app);
  app.decorateRequest('renderProblem', function (this: FastifyRequest, err: unknown) {
    return renderProblem(this, err);
  });
  // JSON everywhere (plus forms for login only, see auth/routes.ts, and multipart for uploads):
  // a text/plain or form body is a 415.
  app.removeContentTypeParser('text/plain');
  installJsonBodyCheck(app);
  installTextCheck(app);
  installBodyIdleTimeout(app, config.bodyIdleTimeoutSec);

  // While shutting down, new requests get 503 and connections that become idle are closed at
  // once, so keep-alive clients cannot hold the process open.
  app.addHook('preClose', (done) => {
    draining.start();
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
  // Every route gets its own auth hook (first in its onRequest list), built from its config;
  // hooks that only some routes need are attached to those routes, not run on every request.
  app.addHook('onRoute', markDocsPublic);
  app.addHook('onRoute', markConsolePublic);
  // Request rate limits hold across the instances on one PostgreSQL database (rate-limit.ts).
  const limiter = new RateLimiter({ store: services.db.kind === 'postgres' ? rateWindows(services.db) : null, log: services.log });
  app.addHook('onClose', () => limiter.close());
  const authDeps = { authenticator: services.authenticator, limiter, tiers: config.tiers };
  const idem = makeIdempotencyHooks(services.db);
  const deprecationHeaders = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const dep = request.routeOptions.config.deprecated!;
    reply.header('deprecation', 'true');
    reply.header('sunset', dep.sunset.toUTCString());
    reply.header('link', `<${dep.successor}>; rel="successor-version"`);
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const cfg = route.config as { idempotency?: boolean | 'always'; deprecated?: unknown } | undefined;
    const list = <T>(existing: T | T[] | undefined): T[] => (existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]);
    const add = <T>(existing: T | T[] | undefined, hook: T): T[] => [...list(existing), hook];
    route.onRequest = [makeAuthHook(authDeps, route), ...list(route.onRequest)];
    if (cfg?.idempotency) {
      route.preHandler = add(route.preHandler, idem.preHandler as never);
      route.onSend = add(route.onSend, idem.onSend as never);
      route.onResponse = add(route.onResponse, idem.onResponse as never);
    }
    if (cfg?.deprecated) route.onSend = add(route.onSend, deprecationHeaders as never);
  });
  // POST /mcp: the MCP server (src/mcp, docs/mcp.md); it reads the routes' schemas as they register.
  registerMcp(app, services);
  if ((app.log as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled?.('info') ?? true) {
    app.addHook('onResponse', async (request, reply) => {
      // One line per request, without query strings or credentials.
      request.log.info(
        { method: request.method, route: request.routeOptions.url ?? request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    });
  }

  await registerOpenApi(app, readVersion());
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());

  // Where to start: `/` and `/api/v1` point to the web console, the reference and the OpenAPI
  // document (HTML for browsers, JSON otherwise).
  const home = { name: 'Crucible', version: readVersion(), api: API_PREFIX, console: '/app/', docs: '/docs', openapi: '/openapi.json', health: `${API_PREFIX}/health/ready` };
  const homePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Crucible</title></head><body><h1>Crucible ${home.version}</h1><p>Open the <a href="/app/">web console</a> to work without code. The API is under <code>${API_PREFIX}</code>: read the <a href="/docs">reference</a> or fetch the <a href="/openapi.json">OpenAPI document</a>; <a href="${home.health}">readiness</a>.</p></body></html>`;
  for (const url of ['/', API_PREFIX, `${API_PREFIX}/`]) {
    app.get(url, { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
      if (/text\/html/.test(request.headers.accept ?? '')) return reply.type('text/html; charset=utf-8').send(homePage);
      return home;
    });
  }

  // The web console (docs/console.md): static files at /app, a client of the routes below.
  await registerConsole(app);

  await app.register(
    async (api) => {
      for (const m of MODULES) if (m.routes) await api.register(m.routes, { services });
      for (const plugin of opts.plugins ?? []) await plugin(api, services);
    },
    { prefix: API_PREFIX },
  );
  return app;
}
