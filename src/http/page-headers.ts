// The headers of the pages a browser opens (the console at /app, the reference at /docs):
// no content-type sniffing, no Referer sent to other sites (a page's URL may hold a job id),
// and each page's Content-Security-Policy on its HTML (docs/api-decisions.md, "Browser pages").
import type { FastifyInstance } from 'fastify';

export const REFERRER_POLICY = 'no-referrer';

/** Adds the headers to every answer of `scope` (its HTML gets `csp` too). */
export function addPageHeaders(scope: FastifyInstance, csp: string): void {
  scope.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', REFERRER_POLICY);
    if (/^text\/html/.test(String(reply.getHeader('content-type') ?? ''))) reply.header('content-security-policy', csp);
    return payload;
  });
}
