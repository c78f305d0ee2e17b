// The web console (docs/console.md): the single-page app built from web/ into web/dist, served as
// static files at /app. It is a client of the public API like any other (same origin, /api/v1);
// these routes only hand out its files, without credentials.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { addPageHeaders } from './page-headers.js';

export const CONSOLE_PREFIX = '/app';

/** web/dist, from src/http (tests, tsx) or dist/http (npm start): both sit two levels below the root. */
export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/**
 * The console's page may load only its own files and talk only to its own origin. Depictions are
 * inline SVG and React sets inline styles, hence 'unsafe-inline' for styles (never for scripts).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** onRoute: the console's files need no credential (the API calls the page makes do). */
export function markConsolePublic(route: RouteOptions): void {
  if (route.url === CONSOLE_PREFIX || route.url.startsWith(`${CONSOLE_PREFIX}/`)) route.config = { ...(route.config ?? {}), auth: 'none' };
}

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Crucible console</title></head><body><main><h1>The console is not built</h1><p>Run <code>npm start</code> (it builds the console when needed) or <code>npm run build --workspace crucible-web</code>, then reload. The API is at <a href="/api/v1">/api/v1</a>.</p></main></body></html>`;

export async function registerConsole(app: FastifyInstance, dir = CONSOLE_DIR): Promise<void> {
  await app.register(async (scope) => {
    addPageHeaders(scope, CSP);
    // Before the first build (or when web/dist was removed): say how to build it, not a bare 404.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || request.url.split('?')[0] !== `${CONSOLE_PREFIX}/`) return;
      if (fs.existsSync(path.join(dir, 'index.html'))) return;
      return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(notBuilt);
    });
    scope.get(CONSOLE_PREFIX, { schema: { hide: true }, config: { auth: 'none' } }, async (_request, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 302));
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: `${CONSOLE_PREFIX}/`,
      // @fastify/swagger-ui registers @fastify/static too: no reply decorators from this one.
      decorateReply: false,
      index: ['index.html'],
      // Files built after the server started are found too (a wildcard route, not a list made at start).
      wildcard: true,
      // Hashed file names under assets/ never change; index.html is checked on every load.
      cacheControl: false,
      setHeaders(res, file) {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
      // The build writes .gz files beside the assets (web/vite.config.ts): served to clients that accept gzip.
      preCompressed: true,
    });
  });
}
