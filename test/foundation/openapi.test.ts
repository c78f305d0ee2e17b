import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// Routes that take no credential. Every other route in /openapi.json must answer 401 without one.
const PUBLIC = new Set(['POST /api/v1/auth/login-email', 'POST /api/v1/auth/refresh', 'GET /api/v1/auth/refresh', 'GET /api/v1/health/live', 'GET /api/v1/health/ready']);

const backend = BACKENDS[0];

describe('OpenAPI document and the credential walk', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    h = await startHarness(backend);
    const r = await h.req('GET', '/openapi.json');
    assert.equal(r.status, 200);
    doc = r.body;
  });
  after(async () => h?.close());

  it('is OpenAPI 3.1 with both security schemes', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.components.securitySchemes.ApiKeyAuth, { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key: crk_<prefix>_<secret>' });
    assert.equal(doc.components.securitySchemes.BearerAuth.scheme, 'bearer');
    for (const name of ['Problem', 'TokenResponse', 'ApiKeyListItem', 'ApiKeyCreatedResponse', 'ApiKeyListResponse', 'CreateApiKeyRequest', 'MessageResponse']) {
      assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
    }
  });

  it('lists every auth and key route with its security, schemas and problem responses', () => {
    const expected = [
      'POST /api/v1/auth/login-email',
      'GET /api/v1/auth/check',
      'POST /api/v1/auth/refresh',
      'GET /api/v1/auth/refresh',
      'GET /api/v1/auth/logout',
      'GET /api/v1/auth/api-keys',
      'POST /api/v1/auth/api-keys',
      'GET /api/v1/auth/api-keys/{key_id}',
      'PATCH /api/v1/auth/api-keys/{key_id}',
      'DELETE /api/v1/auth/api-keys/{key_id}',
      'POST /api/v1/auth/api-keys/{key_id}/rotate',
      'GET /api/v1/health/live',
      'GET /api/v1/health/ready',
    ];
    for (const e of expected) {
      const [m, p] = e.split(' ');
      assert.ok(m && p, `${e} is "METHOD path"`);
      const op = doc.paths[p]?.[m.toLowerCase()];
      assert.ok(op, `${e} is documented`);
      assert.ok(op.responses['200'], `${e} has a 200 response`);
      const takesInput = (op.parameters ?? []).length > 0 || op.requestBody !== undefined;
      assert.equal(Boolean(op.responses['422']), takesInput, `${e} documents 422 exactly when it takes input`);
    }
    const keyOp = doc.paths['/api/v1/auth/api-keys'].post;
    assert.deepEqual(keyOp.security, [{ BearerAuth: [] }], 'key management is token-only');
    assert.ok(keyOp.requestBody.content['application/json'].schema);
    assert.deepEqual(doc.paths['/api/v1/auth/check'].get.security, [{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
    assert.deepEqual(doc.paths['/api/v1/auth/login-email'].post.security, []);
    assert.ok(doc.paths['/api/v1/auth/login-email'].post.requestBody.content['application/x-www-form-urlencoded']);
    assert.equal(doc.paths['/api/v1/auth/refresh'].get.deprecated, true);
    assert.notEqual(doc.paths['/api/v1/auth/refresh'].post.deprecated, true);
    assert.ok(doc.paths['/api/v1/auth/check'].get.responses['401'], 'problem responses documented');
  });

  it('every non-public route answers 401 without a credential (walks the document, so new routes are covered)', async () => {
    let walked = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const id = `${method.toUpperCase()} ${path}`;
        const isPublic = Array.isArray(ops[method].security) && ops[method].security.length === 0;
        assert.equal(isPublic, PUBLIC.has(id), `${id}: public in the document iff in the public list`);
        if (isPublic) continue;
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const r = await h.req(method.toUpperCase(), url, { body: ['post', 'put', 'patch'].includes(method) ? {} : undefined });
        assert.equal(r.status, 401, `${id} without a credential`);
        assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        walked++;
      }
    }
    assert.ok(walked >= 8, `walked ${walked} protected operations`);
  });

  it('declares every problem response as application/problem+json', () => {
    let checked = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const [status, declared] of Object.entries<any>(op.responses ?? {})) {
          if (Number(status) < 400) continue;
          const id = `${method.toUpperCase()} ${path} ${status}`;
          // The problems operations share are declared once per status (components.responses).
          const resp = declared.$ref ? doc.components.responses[String(declared.$ref).split('/').pop() ?? ''] : declared;
          assert.deepEqual(Object.keys(resp.content ?? {}), ['application/problem+json'], id);
          assert.equal(resp.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem', id);
          checked++;
        }
      }
    }
    assert.ok(checked > 50, `checked ${checked} problem responses`);
  });

  it('serves a browsable reference at /docs', async () => {
    const r = await h.req('GET', '/docs/');
    assert.equal(r.status, 200);
    assert.match(r.text, /swagger/i);
  });
});

describe('OpenAPI: fields with defaults', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
  });
  after(async () => h?.close());

  it('no request body field or query parameter that has a default is marked required', async () => {
    const doc = (await h.req('GET', '/openapi.json')).body;
    const resolve = (s: any): any => (s?.$ref ? doc.components.schemas[String(s.$ref).split('/').pop() ?? ''] : s);
    const bad: string[] = [];
    let checked = 0;
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        for (const p of op.parameters ?? []) {
          checked++;
          if (p.required && p.schema?.default !== undefined) bad.push(`${method.toUpperCase()} ${path} ${p.in} ${p.name}`);
        }
        const body = resolve(op.requestBody?.content?.['application/json']?.schema);
        for (const [name, prop] of Object.entries<any>(body?.properties ?? {})) {
          checked++;
          if ((body.required ?? []).includes(name) && resolve(prop)?.default !== undefined) bad.push(`${method.toUpperCase()} ${path} body ${name}`);
        }
      }
    }
    assert.ok(checked > 50, `checked ${checked} fields`);
    assert.deepEqual(bad, []);
  });
});
