// The monthly allowance at the HTTP level (docs/usage.md): 200 concurrent utility calls against
// an allowance of 150, spread over two API instances on one PostgreSQL database (one instance
// on PGlite), give exactly 150 answers and 50 refusals with Retry-After at the month's end; an
// asynchronous request that would pass the allowance creates nothing; enterprise is unlimited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openPostgres } from '../../src/db/postgres.js';
import { buildApp } from '../../src/http/app.js';
import { closeServices, createServices } from '../../src/instance.js';
import { periodOf } from '../../src/modules/usage/service.js';
import type { Services } from '../../src/services.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ALLOWANCE = 150;

for (const backend of BACKENDS) {
  describe(`monthly allowance over HTTP [${backend.name}]`, () => {
    let h: Harness;
    let second: { services: Services; app: FastifyInstance; base: string } | null = null;
    let bases: string[] = [];
    before(async () => {
      h = await startHarness(backend, { CRUCIBLE_TIER_FREE_MONTHLY_CALLS: String(ALLOWANCE), CRUCIBLE_TIER_FREE_REQUESTS_PER_MINUTE: '100000' }, { workers: 1 });
      bases = [h.base];
      if (h.dbUrl) {
        const services = await createServices(h.config, await openPostgres(h.dbUrl), { queue: false });
        const app = await buildApp(services, { logger: false });
        await app.listen({ host: '127.0.0.1', port: 0 });
        second = { services, app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
        bases.push(second.base);
      }
    });
    after(async () => {
      if (second) {
        await second.app.close();
        await closeServices(second.services).catch(() => undefined);
      }
      await h?.close();
    });

    const call = (base: string, token: string) =>
      fetch(`${base}/api/v1/utilities/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'convert', input: { molecules: ['CCO'], outputs: ['smiles'] } }),
      });

    it(`200 concurrent calls against an allowance of ${ALLOWANCE}${backend.name === 'postgres' ? ' on two instances' : ''}: exactly ${ALLOWANCE} succeed`, async () => {
      const u = await h.user({ tier: 'free' });
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => call(bases[i % bases.length]!, u.token)));
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, ALLOWANCE);
      assert.equal(statuses.filter((s) => s === 403).length, 200 - ALLOWANCE);
      const refusal = responses.find((r) => r.status === 403)!;
      const body = (await refusal.json()) as { type: string; detail: string; resets_at?: string };
      assert.equal(body.type, '/api/v1/problems/monthly-allowance-exceeded');
      const end = periodOf().end;
      assert.match(body.detail, new RegExp(end.toISOString().replace(/[.]/g, '\\.')));
      const retryAfter = Number(refusal.headers.get('retry-after'));
      const expected = (end.getTime() - Date.now()) / 1000;
      assert.ok(Math.abs(retryAfter - expected) < 30, `Retry-After ${retryAfter} is the time to the month's end (${expected})`);
      const usage = await h.req('GET', '/api/v1/usage', { token: u.token });
      assert.deepEqual([usage.body.calls.utilities, usage.body.calls.remaining], [ALLOWANCE, 0]);

      // An asynchronous request now would pass the allowance: refused, nothing created.
      const s = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'convert', input: { molecules: ['CCO'] } } });
      assert.equal(s.status, 403);
      assert.equal((await h.req('GET', '/api/v1/utilities/requests', { token: u.token })).body.total, 0);
    });

    it('an asynchronous request counting more than is left is refused whole', async () => {
      const u = await h.user({ tier: 'free' });
      const s = await h.req('POST', '/api/v1/utilities/submit', { token: u.token, body: { tool: 'convert', input: { molecules: Array(ALLOWANCE * 100 + 1).fill('C') } } });
      assert.equal(s.status, 403, s.text);
      const usage = await h.req('GET', '/api/v1/usage', { token: u.token });
      assert.equal(usage.body.calls.utilities, 0);
      assert.equal((await h.req('GET', '/api/v1/utilities/requests', { token: u.token })).body.total, 0);
    });

    it('enterprise is unlimited', async () => {
      const u = await h.user({ tier: 'enterprise' });
      const responses = await Promise.all(Array.from({ length: ALLOWANCE + 20 }, (_, i) => call(bases[i % bases.length]!, u.token)));
      assert.deepEqual([...new Set(responses.map((r) => r.status))], [200]);
      const usage = await h.req('GET', '/api/v1/usage', { token: u.token });
      assert.deepEqual([usage.body.calls.utilities, usage.body.calls.allowance, usage.body.calls.remaining], [ALLOWANCE + 20, null, null]);
    });
  });
}
