// POST /mcp: the MCP server over Streamable HTTP (docs/mcp.md). The route is authenticated like
// every route (X-Api-Key, or `Authorization: Bearer` with an API key or an access token; the auth
// hook, rate limit included), needs the read scope, and is stateless: each request gets a server for its caller, so any instance
// answers any request. Answers stream as server-sent events (progress during waits) or JSON.
// GET and DELETE /mcp answer 405 (no standalone stream, no sessions to end), as the
// specification allows.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { readVersion } from '../version.js';
import type { Credentials } from './api.js';
import { PngRenderer } from './png.js';
import { RouteIndex } from './schemas.js';
import { createMcpServer, ToolList, type McpDeps } from './server.js';

/** Tool calls may carry whole workflow specs and SMILES lists, as the routes they call do. */
const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Mounts /mcp on `app`, and an onRoute hook that keeps the routes' schemas for the tools' input
 * schemas: call it before the modules' routes are registered.
 */
export function registerMcp(app: FastifyInstance, services: Services): void {
  const routes = new RouteIndex();
  app.addHook('onRoute', (route) => routes.add(route));
  const png = new PngRenderer();
  const closing = new AbortController();
  app.addHook('preClose', (done) => {
    closing.abort();
    done();
  });
  app.addHook('onClose', async () => png.close());
  const deps: McpDeps = { app, routes, png, closing: closing.signal, version: readVersion(), log: services.log };
  const catalog = new ToolList(deps);
  // Every tool's route and schema is resolved once all routes are registered: a tool naming a
  // route that does not exist (or a schema that does not resolve) stops the start, not a call.
  app.addHook('onReady', async () => void catalog.all());

  void app.register(async (scope) => {
    // Remote MCP clients that send only `Authorization: Bearer <token>` can send an API key so:
    // it is moved to X-Api-Key before the auth hook (a route's own, so it runs after this one) reads it.
    scope.addHook('onRequest', (request, _reply, done) => {
      const auth = request.headers.authorization;
      if (typeof auth === 'string' && /^Bearer crk_/i.test(auth) && request.headers['x-api-key'] === undefined) {
        request.headers['x-api-key'] = auth.slice(7).trim();
        delete request.headers.authorization;
      }
      done();
    });
    scope.post('/mcp', { bodyLimit: MCP_BODY_LIMIT, schema: { hide: true }, config: { scope: 'read' } }, async (request, reply) => {
      const credentials: Credentials = {};
      for (const h of ['x-api-key', 'authorization'] as const) {
        const v = request.headers[h];
        if (typeof v === 'string') credentials[h] = v;
      }
      const server = createMcpServer(deps, catalog, { principal: request.principal!, credentials, ip: request.ip });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The transport writes the answer itself; the headers the hooks set (request id, rate limit) go with it.
      reply.hijack();
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string | string[] | number);
      reply.raw.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });
  });
}
