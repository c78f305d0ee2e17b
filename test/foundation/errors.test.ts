import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const PROBLEM_KEYS = ['detail', 'instance', 'request_id', 'retry', 'status', 'title', 'type'];

// Routes that exist only in this test: a server fault, and a body/query with nested rules.
async function probeRoutes(app: FastifyInstance) {
  app.get('/test/boom', async () => {
    throw new Error('secret internals: SELECT * FROM users');
  });
  app.post(
    '/test/echo',
    {
      schema: {
        body: Type.Object(
          { smiles: Type.Array(Type.String({ maxLength: 5 }), { minItems: 1, maxItems: 3 }), width: Type.Optional(Type.Integer({ minimum: 100, maximum: 600 })) },
          { additionalProperties: false },
        ),
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
      },
    },
    async (request) => ({ ok: true, body: request.body }),
  );
}

for (const backend of onlyOn('pglite')) {
  describe(`errors are problem+json [${backend.name}]`, () => {
    let h: Harness;
    let token: string;
    before(async () => {
      h = await startHarness(backend, {}, { plugins: [probeRoutes] });
      token = (await h.user()).token;
    });
    after(async () => h?.close());

    function assertProblem(r: { status: number; headers: Headers; body: any }, status: number, slug: string) {
      assert.equal(r.status, status);
      assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      for (const k of PROBLEM_KEYS) assert.ok(k in r.body, `problem has ${k}`);
      assert.equal(r.body.type, `/api/v1/problems/${slug}`);
      assert.equal(r.body.status, status);
      assert.equal(r.body.request_id, r.headers.get('x-request-id'));
      assert.ok(r.body.detail.length > 10, 'a useful detail');
    }

    it('404 for an unknown route, with X-Request-Id', async () => {
      const r = await h.req('GET', '/api/v1/no/such/thing');
      assertProblem(r, 404, 'http-404');
      assert.equal(r.body.instance, '/api/v1/no/such/thing');
      assert.equal(r.body.retry, 'terminal');
    });

    it('405 with Allow for a known path and the wrong method', async () => {
      const r = await h.req('PUT', '/api/v1/auth/check', { token });
      assertProblem(r, 405, 'http-405');
      assert.equal(r.headers.get('allow'), 'GET');
      const r2 = await h.req('DELETE', '/api/v1/auth/refresh');
      assert.equal(r2.status, 405);
      assert.equal(r2.headers.get('allow'), 'GET, POST');
    });

    it('400 for malformed JSON', async () => {
      const r = await h.req('POST', '/api/v1/test/echo', { token, raw: { body: '{"smiles": [', type: 'application/json' } });
      assertProblem(r, 400, 'http-400');
      assert.match(r.body.detail, /not valid JSON/);
    });

    it('415 for a content type the route does not take', async () => {
      const r = await h.req('POST', '/api/v1/test/echo', { token, raw: { body: 'smiles=C', type: 'text/plain' } });
      assertProblem(r, 415, 'http-415');
    });

    it('413 payload-too-large over 1 MiB', async () => {
      const big = JSON.stringify({ smiles: ['C'.repeat(1024 * 1024 + 10)] });
      const r = await h.req('POST', '/api/v1/test/echo', { token, raw: { body: big, type: 'application/json' } });
      assertProblem(r, 413, 'payload-too-large');
    });

    it('422 with errors[] whose loc points at the field', async () => {
      const r = await h.req('POST', '/api/v1/test/echo?limit=0', { token, body: { smiles: ['C', 'CCCCCCCC', 7], width: 50, extra: true } });
      assertProblem(r, 422, 'http-422');
      assert.equal(r.body.retry, 'validation');
      const byLoc = new Map(r.body.errors.map((e: any) => [JSON.stringify(e.loc), e]));
      assert.equal((byLoc.get('["body","smiles",1]') as any)?.type, 'string_too_long');
      assert.equal((byLoc.get('["body","smiles",1]') as any)?.input, 'CCCCCCCC');
      assert.equal((byLoc.get('["body","smiles",2]') as any)?.type, 'string_type');
      assert.equal((byLoc.get('["body","width"]') as any)?.type, 'greater_than_equal');
      assert.equal((byLoc.get('["body","extra"]') as any)?.type, 'extra_forbidden');
      for (const e of r.body.errors) assert.deepEqual(Object.keys(e).sort(), ['input', 'loc', 'msg', 'type']);
      const q = await h.req('POST', '/api/v1/test/echo?limit=0', { token, body: { smiles: ['C'] } });
      assert.equal(q.status, 422);
      assert.deepEqual(q.body.errors[0].loc, ['query', 'limit']);
      assert.equal(q.body.errors[0].type, 'greater_than_equal');
      const many = await h.req('POST', '/api/v1/test/echo', { token, body: { smiles: ['C', 'C', 'C', 'C'] } });
      assert.deepEqual(many.body.errors[0].loc, ['body', 'smiles']);
      assert.equal(many.body.errors[0].type, 'too_long');
    });

    it('422 for a nullable field with a bad value: one issue at its loc, not a second "none_type" one', async () => {
      for (const [body, type] of [
        [{ name: 'n1', expires_at: '2030-01-01T00:00:00' }, 'datetime_parsing'],
        [{ name: 'n2', expires_at: 5 }, 'string_type'],
        [{ name: 'n3', spend_ceiling_usd: -1 }, 'greater_than_equal'],
        [{ name: 'n4', scopes: ['admin'] }, 'enum'],
      ] as const) {
        const r = await h.req('POST', '/api/v1/auth/api-keys', { token, body });
        assertProblem(r, 422, 'http-422');
        const field = Object.keys(body)[1];
        const at = r.body.errors.filter((e: any) => e.loc[1] === field);
        assert.equal(at.length, 1, `${JSON.stringify(body)}: ${JSON.stringify(r.body.errors)}`);
        assert.equal(at[0].type, type);
        assert.ok(!r.body.errors.some((e: any) => e.type === 'none_type'));
      }
      const keys = await h.req('GET', '/api/v1/auth/api-keys', { token });
      assert.equal(keys.body.keys.length, 0, 'nothing written');
    });

    it('500 without internals', async () => {
      const r = await h.req('GET', '/api/v1/test/boom', { token });
      assertProblem(r, 500, 'http-500');
      assert.ok(!r.text.includes('SELECT'), 'no SQL');
      assert.ok(!r.text.includes('secret internals'));
      assert.ok(!/at .*\.ts:\d+/.test(r.text), 'no stack');
    });

    it('401 problems carry the auth retry hint; every response has X-Request-Id', async () => {
      const r = await h.req('GET', '/api/v1/auth/check');
      assertProblem(r, 401, 'http-401');
      assert.equal(r.body.retry, 'auth');
      const ok = await h.req('GET', '/api/v1/health/live');
      assert.match(ok.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      const mine = await h.req('GET', '/api/v1/health/live', { headers: { 'x-request-id': 'trace-123' } });
      assert.equal(mine.headers.get('x-request-id'), 'trace-123');
    });

    it('health probes answer without credentials', async () => {
      const live = await h.req('GET', '/api/v1/health/live');
      assert.equal(live.status, 200);
      assert.equal(live.body.status, 'ok');
      const ready = await h.req('GET', '/api/v1/health/ready');
      assert.equal(ready.status, 200);
      assert.match(ready.body.checks.database, new RegExp(`^ok \\(${backend.name}`));
    });
  });
}
