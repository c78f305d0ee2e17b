import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../src/services.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// A route registered by the test harness that writes a row, so that we can count effects.
// `delay_ms` keeps a request in flight; `fail` answers 500 (a fault that must not be pinned).
async function probe(app: FastifyInstance, services: Services) {
  await services.db.exec('CREATE TABLE IF NOT EXISTS test_effects (id bigserial PRIMARY KEY, user_id uuid, note text)');
  app.post(
    '/test/effects',
    {
      config: { idempotency: true },
      schema: { body: Type.Object({ note: Type.String(), delay_ms: Type.Optional(Type.Integer()), fail: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) },
    },
    async (request, reply) => {
      const body = request.body as { note: string; delay_ms?: number; fail?: boolean };
      if (body.delay_ms) await new Promise((r) => setTimeout(r, body.delay_ms));
      if (body.fail) throw new Error('simulated fault');
      const { rows } = await services.db.query<{ id: number }>('INSERT INTO test_effects (user_id, note) VALUES ($1, $2) RETURNING id', [request.principal!.userId, body.note]);
      const [effect] = rows;
      if (!effect) throw new Error('INSERT ... RETURNING gave no row');
      reply.code(201);
      return { effect_id: effect.id, note: body.note };
    },
  );
}

// A route that pins its response in its transaction (as the job, utility and upload routes do),
// with a response schema whose key order is neither the handler's object's nor the one jsonb
// would store (shorter keys first): the replay must still be the first response's bytes.
const Pinned = Type.Object(
  {
    zeta_long_name: Type.String(),
    id: Type.Integer(),
    nested: Type.Object({ second_key: Type.String(), a: Type.Array(Type.Integer()) }),
  },
  { additionalProperties: false },
);
async function pinnedProbe(app: FastifyInstance, services: Services) {
  app.post('/test/pinned', { config: { idempotency: true }, schema: { body: Type.Object({ note: Type.String() }), response: { 201: Pinned } } }, async (request, reply) => {
    const note = (request.body as { note: string }).note;
    const answer = { id: 7, nested: { a: [3, 1, 2], second_key: note }, zeta_long_name: `z ${note}` };
    await services.db.transaction(async (tx) => request.idempotency?.saveInTx(tx, 201, answer));
    reply.code(201);
    return answer;
  });
}

for (const backend of BACKENDS) {
  describe(`idempotency [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { plugins: [probe, pinnedProbe] });
    });
    after(async () => h?.close());

    const effects = async (userId: string) => {
      const [row] = (await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM test_effects WHERE user_id = $1', [userId])).rows;
      assert.ok(row, 'count(*) gives a row');
      return row.n;
    };

    it('replays the first response for the same key and body, with Idempotent-Replayed', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      const headers = { 'idempotency-key': 'key-1' };
      const first = await h.req('POST', '/api/v1/test/effects', { key: k.secret, headers, body: { note: 'a', delay_ms: 0 } });
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      // Same body, keys in another order: still the same request.
      const again = await h.req('POST', '/api/v1/test/effects', { key: k.secret, headers, body: { delay_ms: 0, note: 'a' } });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal(await effects(u.userId), 1, 'one effect');
      // The key is scoped to the account: another account with the same key is a new request.
      const v = await h.user();
      const other = await h.req('POST', '/api/v1/test/effects', { token: v.token, headers, body: { note: 'a', delay_ms: 0 } });
      assert.equal(other.status, 201);
      assert.equal(other.headers.get('idempotent-replayed'), null);
      // The same account through an access token shares the key space with its API keys.
      const viaToken = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'a', delay_ms: 0 } });
      assert.equal(viaToken.headers.get('idempotent-replayed'), 'true');
    });

    it('replays the first response byte for byte, with its status and content type, also when pinned in a transaction', async () => {
      const u = await h.user();
      for (const [path, body] of [
        ['/api/v1/test/pinned', { note: 'tx' }],
        ['/api/v1/test/effects', { note: 'hook', delay_ms: 0 }],
      ] as const) {
        const headers = { 'idempotency-key': `bytes-${path}` };
        const first = await h.req('POST', path, { token: u.token, headers, body });
        const again = await h.req('POST', path, { token: u.token, headers, body });
        assert.equal(first.status, 201, first.text);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
        assert.equal(again.status, first.status);
        assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
        assert.equal(again.text, first.text, `${path}: the replay is the first response's bytes`);
        const [row] = (
          await h.services.db.query<{ response_body: string }>('SELECT response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2', [u.userId, headers['idempotency-key']])
        ).rows;
        assert.equal(row?.response_body, first.text, 'the stored body is the text sent');
      }
      // The response schema's order, which is neither the handler's nor jsonb's.
      const r = await h.req('POST', '/api/v1/test/pinned', { token: u.token, headers: { 'idempotency-key': 'bytes-order' }, body: { note: 'x' } });
      assert.equal(r.text, '{"zeta_long_name":"z x","id":7,"nested":{"second_key":"x","a":[3,1,2]}}');
    });

    it('answers 409 idempotency-key-reused for a different body', async () => {
      const u = await h.user();
      const headers = { 'idempotency-key': 'key-2' };
      assert.equal((await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'a' } })).status, 201);
      const r = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'b' } });
      assert.equal(r.status, 409);
      assert.equal(r.body.type, '/api/v1/problems/idempotency-key-reused');
      assert.equal(r.body.retry, 'conflict');
      assert.equal(await effects(u.userId), 1);
    });

    it('answers 409 idempotency-key-in-progress to a duplicate while the first is in flight', async () => {
      const u = await h.user();
      const headers = { 'idempotency-key': 'key-3' };
      const body = { note: 'slow', delay_ms: 600 };
      const firstP = h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body });
      await new Promise((r) => setTimeout(r, 150));
      const dups = await Promise.all([1, 2, 3].map(() => h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body })));
      for (const d of dups) {
        assert.equal(d.status, 409);
        assert.equal(d.body.type, '/api/v1/problems/idempotency-key-in-progress');
      }
      const first = await firstP;
      assert.equal(first.status, 201);
      assert.equal(await effects(u.userId), 1);
      const after = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body });
      assert.equal(after.headers.get('idempotent-replayed'), 'true');
    });

    it('lets exactly one of many simultaneous first attempts run', async () => {
      const u = await h.user();
      const headers = { 'idempotency-key': 'key-race' };
      const body = { note: 'race', delay_ms: 200 };
      const results = await Promise.all(Array.from({ length: 8 }, () => h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body })));
      // One ran; the others were refused while it ran, or (on a slow machine, arriving after it) replayed it.
      const ran = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      const replayed = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
      const refused = results.filter((r) => r.status === 409 && r.body.type === '/api/v1/problems/idempotency-key-in-progress');
      assert.equal(ran.length, 1);
      assert.equal(ran.length + replayed.length + refused.length, 8);
      assert.ok(refused.length >= 1, 'simultaneous duplicates were refused');
      const [winner] = ran;
      assert.ok(winner);
      for (const r of replayed) assert.deepEqual(r.body, winner.body);
      assert.equal(await effects(u.userId), 1);
    });

    it('does not pin a 5xx: the same key may be retried', async () => {
      const u = await h.user();
      const headers = { 'idempotency-key': 'key-4' };
      const failed = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'x', fail: true } });
      assert.equal(failed.status, 500);
      const retry = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'x', fail: true } });
      assert.equal(retry.status, 500);
      assert.equal(retry.headers.get('idempotent-replayed'), null, 'a 500 is never replayed');
    });

    it('requires the key from API-key callers (400 missing-idempotency-key) but not from access tokens', async () => {
      const u = await h.user();
      const k = await h.key(u.token);
      const r = await h.req('POST', '/api/v1/test/effects', { key: k.secret, body: { note: 'a' } });
      assert.equal(r.status, 400);
      assert.equal(r.body.type, '/api/v1/problems/missing-idempotency-key');
      assert.equal(await effects(u.userId), 0);
      assert.equal((await h.req('POST', '/api/v1/test/effects', { token: u.token, body: { note: 'a' } })).status, 201);
    });

    it('refuses a key over 255 characters with 422 at ["header","idempotency-key"]', async () => {
      const u = await h.user();
      const r = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers: { 'idempotency-key': 'k'.repeat(256) }, body: { note: 'a' } });
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.errors[0].loc, ['header', 'idempotency-key']);
      assert.equal(await effects(u.userId), 0);
      const ok = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers: { 'idempotency-key': 'k'.repeat(255) }, body: { note: 'a' } });
      assert.equal(ok.status, 201);
    });

    it('stores keys in the database, so a second instance on the same database replays', async () => {
      if (!h.dbUrl) return; // PGlite is one process; the cross-instance case is PostgreSQL's
      const { openPostgres } = await import('../../src/db/postgres.js');
      const { createServices, closeServices } = await import('../../src/instance.js');
      const { buildApp } = await import('../../src/http/app.js');
      const db2 = await openPostgres(h.dbUrl);
      const s2 = await createServices(h.config, db2);
      const app2 = await buildApp(s2, { logger: false, plugins: [probe, pinnedProbe] });
      try {
        const u = await h.user();
        const headers = { 'idempotency-key': 'cross' };
        const first = await h.req('POST', '/api/v1/test/effects', { token: u.token, headers, body: { note: 'c' } });
        const second = await app2.inject({ method: 'POST', url: '/api/v1/test/effects', headers: { ...headers, authorization: `Bearer ${u.token}` }, payload: { note: 'c' } });
        assert.equal(second.statusCode, 201);
        assert.equal(second.headers['idempotent-replayed'], 'true');
        assert.deepEqual(second.json(), first.body);
        assert.equal(await effects(u.userId), 1);
      } finally {
        await app2.close();
        await closeServices(s2);
      }
    });
  });
}
