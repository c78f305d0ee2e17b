import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import type { Services } from '../../services.js';
import { ApiKeyCreatedResponse, ApiKeyListItem, ApiKeyListResponse, CreateApiKeyRequest, KeyIdParams, RenameApiKeyRequest } from './schemas.js';

export const keyRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { keys } = services;
  const base = { config: { auth: 'token' as const } };
  const tags = ['api keys'];

  app.get('/auth/api-keys', { ...base, schema: { tags, summary: 'List your API keys', response: { 200: Type.Ref(ApiKeyListResponse) } } }, async (request) => {
    const p = principalOf(request);
    return keys.list(p.userId, p.tier);
  });

  app.post(
    '/auth/api-keys',
    {
      ...base,
      schema: { tags, summary: 'Create an API key (the secret is returned once)', body: Type.Ref(CreateApiKeyRequest), response: { 200: Type.Ref(ApiKeyCreatedResponse) } },
    },
    async (request) => {
      const p = principalOf(request);
      return keys.create(p.userId, p.tier, request.body);
    },
  );

  app.get('/auth/api-keys/:key_id', { ...base, schema: { tags, summary: 'Get one API key', params: KeyIdParams, response: { 200: Type.Ref(ApiKeyListItem) } } }, async (request) =>
    keys.get(principalOf(request).userId, request.params.key_id),
  );

  app.patch(
    '/auth/api-keys/:key_id',
    {
      ...base,
      schema: {
        tags,
        summary: 'Rename a key or change allow_structure_search',
        params: KeyIdParams,
        body: Type.Ref(RenameApiKeyRequest),
        response: { 200: Type.Ref(ApiKeyListItem) },
      },
    },
    async (request) => keys.rename(principalOf(request).userId, request.params.key_id, request.body as never),
  );

  app.delete(
    '/auth/api-keys/:key_id',
    { ...base, schema: { tags, summary: 'Revoke (delete) an API key', params: KeyIdParams, response: { 200: Type.Ref('MessageResponse') } } },
    async (request) => keys.revoke(principalOf(request).userId, request.params.key_id),
  );

  app.post(
    '/auth/api-keys/:key_id/rotate',
    { ...base, schema: { tags, summary: 'Rotate: new secret now, the old one stops working at once', params: KeyIdParams, response: { 200: Type.Ref(ApiKeyCreatedResponse) } } },
    async (request) => keys.rotate(principalOf(request).userId, request.params.key_id),
  );
};

export const KEY_SCHEMAS = [ApiKeyListItem, ApiKeyCreatedResponse, ApiKeyListResponse, CreateApiKeyRequest, RenameApiKeyRequest];
