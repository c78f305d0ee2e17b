// Scopes come from each route's metadata, per method: one route that serves GET and POST
// needs `read` for the GET and `write` for the POST (the auth hook is built per route at
// registration, so a route with several methods must not take the first method's scope).
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

async function probe(app: FastifyInstance) {
  app.route({ method: ['GET', 'POST'], url: '/test/both', handler: async (request) => ({ method: request.method }) });
}

describe('scopes per method on a multi-method route', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { plugins: [probe] });
  });
  after(async () => h?.close());

  it('a read-only key may GET but not POST; a write-only key may POST but not GET', async () => {
    const u = await h.user();
    const ro = await h.key(u.token, { name: 'ro', scopes: ['read'] });
    const wo = await h.key(u.token, { name: 'wo', scopes: ['write'] });
    const get = await h.req('GET', '/api/v1/test/both', { key: ro.secret });
    assert.equal(get.status, 200);
    assert.equal(get.body.method, 'GET');
    const post = await h.req('POST', '/api/v1/test/both', { key: ro.secret, body: {} });
    assert.equal(post.status, 403);
    assert.equal(post.body.type, '/api/v1/problems/insufficient-scope');
    assert.match(post.body.detail, /"write" scope that POST \/api\/v1\/test\/both/);
    assert.equal((await h.req('POST', '/api/v1/test/both', { key: wo.secret, body: {} })).status, 200);
    const woGet = await h.req('GET', '/api/v1/test/both', { key: wo.secret });
    assert.equal(woGet.status, 403);
    assert.equal(woGet.body.type, '/api/v1/problems/insufficient-scope');
  });
});
