// The `retry` hint of server faults: an unexpected error is a 500 with retry `terminal` (the
// same request would fail again), a known transient one (a lost database connection, a
// serialization failure or deadlock) a 503 with retry `upstream`; neither shows the error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

async function probe(app: FastifyInstance): Promise<void> {
  app.get('/test/bug', { config: { auth: 'none' } }, async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'rows') at /work/src/secret.ts:12");
  });
  app.get('/test/serialization', { config: { auth: 'none' } }, async () => {
    throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
  });
  app.get('/test/connection', { config: { auth: 'none' } }, async () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  });
}

describe('retry hints of server faults', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0], {}, { plugins: [probe] });
  });
  after(async () => h?.close());

  it('an unexpected error is 500 terminal; transient database faults are 503 upstream; no message leaks', async () => {
    const bug = await h.req('GET', '/api/v1/test/bug');
    assert.deepEqual([bug.status, bug.body.retry, bug.body.type], [500, 'terminal', '/api/v1/problems/http-500']);
    assert.ok(!/secret\.ts|Cannot read/.test(bug.text), 'the error is not shown');
    for (const path of ['/api/v1/test/serialization', '/api/v1/test/connection']) {
      const r = await h.req('GET', path);
      assert.deepEqual([r.status, r.body.retry, r.body.type], [503, 'upstream', '/api/v1/problems/http-503'], path);
      assert.ok(!/serialize|terminating/.test(r.text));
    }
  });
});
