// Builds the Fastify application: shared HTTP concerns first, then one plugin per API area.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { makeAuthHook } from './http/auth.js';
import { drainingServer } from './http/draining.js';
import { clientErrorHandler, frameworkErrors } from './http/edge-errors.js';
import { installErrorHandling } from './http/errors.js';
import { makeIdempotencyHooks } from './http/idempotency.js';
import { lazyChildLoggerFactory } from './http/lazy-logger.js';
import { markDocsPublic, registerOpenApi } from './http/openapi.js';
import { requestIdFrom } from './http/request-id.js';
import { SHARED_SCHEMAS } from './http/schemas.js';
import { addSharedSchema, validatorCompiler } from './http/validation.js';
import { ARTIFACT_SCHEMAS, artifactRoutes } from './modules/artifacts/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { TokenResponse } from './modules/auth/schemas.js';
import { DEPICT_SCHEMAS, depictRoutes } from './modules/depict/routes.js';
import { DESCRIBE_SCHEMAS, describeRoutes } from './modules/describe/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { KEY_SCHEMAS, keyRoutes } from './modules/keys/routes.js';
import { LOOKUP_SCHEMAS, lookupRoutes } from './modules/lookups/routes.js';
import { EVENT_SCHEMAS, eventRoutes } from './modules/events/routes.js';
import { jobRoutes } from './modules/jobs/routes.js';
import { JOB_SCHEMAS } from './modules/jobs/schemas.js';
import { WalletResponse, walletRoutes } from './modules/wallet/routes.js';
import type { Services } from './services.js';
import { readVersion } from './version.js';

export const API_PREFIX = '/api/v1';

/** Headers whose values never reach a log line. */
const REDACT = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'];

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Send the standard log (same level and redaction) to this stream instead of stdout. */
  logStream?: NodeJS.WritableStream;
  /** Extra route modules (the test harness registers its own probes here). */
  plugins?: ((app: FastifyInstance, services: Services) => Promise<void>)[];
}

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const draining = drainingServer();
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, ...(opts.logStream ? { stream: opts.logStream } : {}) },
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

  app.setValidatorCompiler(validatorCompiler);
  const schemas: TSchema[] = [...SHARED_SCHEMAS, TokenResponse, ...KEY_SCHEMAS, ...ARTIFACT_SCHEMAS, WalletResponse, ...JOB_SCHEMAS, ...EVENT_SCHEMAS, ...DEPICT_SCHEMAS, ...DESCRIBE_SCHEMAS, ...LOOKUP_SCHEMAS];
  for (const s of schemas) {
    app.addSchema(s);
    addSharedSchema(s);
  }

  installErrorHandling(app);
  // JSON everywhere (plus forms for login only, see auth/routes.ts, and multipart for uploads):
  // a text/plain or form body is a 415.
  app.removeContentTypeParser('text/plain');

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
  const authDeps = { authenticator: services.authenticator, limiter: services.limiter, tiers: config.tiers };
  const idem = makeIdempotencyHooks(services.db);
  const deprecationHeaders = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const dep = request.routeOptions.config.deprecated!;
    reply.header('deprecation', 'true');
    reply.header('sunset', dep.sunset.toUTCString());
    reply.header('link', `<${dep.successor}>; rel="successor-version"`);
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const cfg = route.config as { idempotency?: boolean; deprecated?: unknown } | undefined;
    const list = <T>(existing: T | T[] | undefined): T[] => (existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]);
    const add = <T>(existing: T | T[] | undefined, hook: T): T[] => [...list(existing), hook];
    route.onRequest = [makeAuthHook(authDeps, route) as never, ...list(route.onRequest)];
    if (cfg?.idempotency) {
      route.preHandler = add(route.preHandler, idem.preHandler as never);
      route.onSend = add(route.onSend, idem.onSend as never);
    }
    if (cfg?.deprecated) route.onSend = add(route.onSend, deprecationHeaders as never);
  });
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

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { services });
      await api.register(authRoutes, { services });
      await api.register(keyRoutes, { services });
      await api.register(artifactRoutes, { services });
      await api.register(depictRoutes, { services });
      await api.register(describeRoutes, { services });
      await api.register(eventRoutes, { services });
      await api.register(walletRoutes, { services });
      await api.register(jobRoutes, { services });
      await api.register(lookupRoutes, { services });
      for (const plugin of opts.plugins ?? []) await plugin(api, services);
    },
    { prefix: API_PREFIX },
  );
  return app;
}
