// The in-flight claim of an Idempotency-Key is a short lease renewed while its request runs:
// a retry after the owning process died goes through within seconds (it was refused for five
// minutes), a live owner is never displaced, and the work happens exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { canonicalJson, fingerprint, LEASE_SEC } from '../../src/http/idempotency.js';
import type { Services } from '../../src/services.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

async function probe(app: FastifyInstance, services: Services) {
  await services.db.exec('CREATE TABLE IF NOT EXISTS test_lease_effects (id bigserial PRIMARY KEY, user_id uuid, note text)');
  app.post(
    '/test/lease',
    { config: { idempotency: true }, schema: { body: Type.Object({ note: Type.String(), delay_ms: Type.Optional(Type.Integer()) }, { additionalProperties: false }) } },
    async (request, reply) => {
      const body = request.body as { note: string; delay_ms?: number };
      if (body.delay_ms) await new Promise((r) => setTimeout(r, body.delay_ms));
      await services.db.query('INSERT INTO test_lease_effects (user_id, note) VALUES ($1, $2)', [request.principal?.userId, body.note]);
      reply.code(201);
      return { note: body.note };
    },
  );
}

for (const backend of BACKENDS) {
  describe(`idempotency leases [${backend.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(backend, {}, { plugins: [probe] });
    });
    after(async () => h?.close());
    const effects = async (userId: string) =>
      Number((await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM test_lease_effects WHERE user_id = $1', [userId])).rows[0]?.n);

    it('a retry takes over the claim of a dead owner within the lease, and runs once', async () => {
      const u = await h.user();
      const body = { note: 'after a crash' };
      // What a process that claimed the key and was then SIGKILLed leaves behind: a claim whose
      // lease it no longer renews, here with 3 s of it left (it died LEASE_SEC - 3 s after its last renewal).
      await h.services.db.query(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, locked_until, owner)
         VALUES ($1, 'crashed-1', 'POST', '/api/v1/test/lease', $2, 'in_progress', now() + make_interval(secs => $3), 'a-dead-process')`,
        [u.userId, fingerprint('POST', '/api/v1/test/lease', canonicalJson(body)), 3],
      );
      const started = Date.now();
      const first = await h.req('POST', '/api/v1/test/lease', { token: u.token, headers: { 'idempotency-key': 'crashed-1' }, body });
      assert.equal(first.status, 409, 'right after the crash the claim still holds');
      let r = first;
      while (r.status === 409 && Date.now() - started < (LEASE_SEC + 5) * 1000) {
        await new Promise((res) => setTimeout(res, 500));
        r = await h.req('POST', '/api/v1/test/lease', { token: u.token, headers: { 'idempotency-key': 'crashed-1' }, body });
      }
      assert.equal(r.status, 201, r.text);
      assert.ok(Date.now() - started <= 6_000, `went through after ${Date.now() - started} ms, its lease having 3 s left`);
      assert.equal(await effects(u.userId), 1);
      const replay = await h.req('POST', '/api/v1/test/lease', { token: u.token, headers: { 'idempotency-key': 'crashed-1' }, body });
      assert.deepEqual([replay.status, replay.headers.get('idempotent-replayed')], [201, 'true']);
      assert.equal(await effects(u.userId), 1, 'exactly once');
    });

    it('a live owner that runs longer than the lease keeps its claim', async () => {
      const u = await h.user();
      const body = { note: 'slow', delay_ms: (LEASE_SEC + 3) * 1000 };
      const firstP = h.req('POST', '/api/v1/test/lease', { token: u.token, headers: { 'idempotency-key': 'slow-1' }, body });
      await new Promise((res) => setTimeout(res, (LEASE_SEC + 1) * 1000));
      const retry = await h.req('POST', '/api/v1/test/lease', { token: u.token, headers: { 'idempotency-key': 'slow-1' }, body });
      assert.equal(retry.status, 409, 'the renewed lease still holds after LEASE_SEC');
      assert.equal(retry.body.type, '/api/v1/problems/idempotency-key-in-progress');
      assert.equal((await firstP).status, 201);
      assert.equal(await effects(u.userId), 1);
    });
  });
}
