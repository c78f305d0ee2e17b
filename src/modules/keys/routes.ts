import { Type } from '@sinclair/typebox';
import { ok, routeFactory } from '../../api/declare-route.js';
import { routeSequence } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { ApiKeyCreatedResponse, ApiKeyListItem, ApiKeyListResponse, CreateApiKeyRequest, KeyIdParams, RenameApiKeyRequest } from './schemas.js';

const route = routeFactory({ tags: ['api keys'], config: { auth: 'token' } });

export const keyRoutes = routeSequence(
  route('GET /auth/api-keys', 'listApiKeys', {
    summary: 'List your API keys',
    response: ok(ApiKeyListResponse, 'Your API keys (never their secrets)'),
    handler: async ({ keys }, request) => {
      const p = principalOf(request);
      return keys.list(p.userId, p.tier);
    },
  }),
  route('POST /auth/api-keys', 'createApiKey', {
    summary: 'Create an API key (the secret is returned once)',
    body: Type.Ref(CreateApiKeyRequest),
    response: ok(ApiKeyCreatedResponse, 'The new key, with its secret shown this once'),
    handler: async ({ keys }, request) => {
      const p = principalOf(request);
      return keys.create(p.userId, p.tier, request.body);
    },
  }),
  route('GET /auth/api-keys/:key_id', 'getApiKey', {
    summary: 'Get one API key',
    params: KeyIdParams,
    response: ok(ApiKeyListItem, 'The key (never its secret)'),
    handler: async ({ keys }, request) => keys.get(principalOf(request).userId, request.params.key_id),
  }),
  route('PATCH /auth/api-keys/:key_id', 'renameApiKey', {
    summary: 'Rename a key or change allow_structure_search',
    params: KeyIdParams,
    body: Type.Ref(RenameApiKeyRequest),
    response: ok(ApiKeyListItem, 'The key, renamed'),
    handler: async ({ keys }, request) => keys.rename(principalOf(request).userId, request.params.key_id, request.body as never),
  }),
  route('DELETE /auth/api-keys/:key_id', 'revokeApiKey', {
    summary: 'Revoke (delete) an API key',
    params: KeyIdParams,
    response: ok('MessageResponse', 'The key is deleted and stops working at once'),
    handler: async ({ keys }, request) => keys.revoke(principalOf(request).userId, request.params.key_id),
  }),
  route('POST /auth/api-keys/:key_id/rotate', 'rotateApiKey', {
    summary: 'Rotate: new secret now, the old one stops working at once',
    params: KeyIdParams,
    response: ok(ApiKeyCreatedResponse, 'The key with a new secret, shown this once; the old secret stops working'),
    handler: async ({ keys }, request) => keys.rotate(principalOf(request).userId, request.params.key_id),
  }),
);

export const KEY_SCHEMAS = [ApiKeyListItem, ApiKeyCreatedResponse, ApiKeyListResponse, CreateApiKeyRequest, RenameApiKeyRequest];
