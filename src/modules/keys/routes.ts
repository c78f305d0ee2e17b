import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import type { Services } from '../../services.js';
import { ApiKeyCreatedResponse, ApiKeyListItem, ApiKeyListResponse, CreateApiKeyRequest, KeyIdParams, RenameApiKeyRequest } from './schemas.js';

export const keyRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { keys } = services;
  const base = { config: { auth: 'token' as const } };
  const tags = ['api keys'];

  app.get(
    '/auth/api-keys',
    {
      ...base,
      schema: {
        operationId: 'listApiKeys',
        tags,
        summary: 'List your API keys',
        response: { 200: Type.Ref(ApiKeyListResponse, { description: 'Your API keys (never their secrets)' }) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return keys.list(p.userId, p.tier);
    },
  );

  app.post(
    '/auth/api-keys',
    {
      ...base,
      schema: {
        operationId: 'createApiKey',
        tags,
        summary: 'Create an API key (the secret is returned once)',
        body: Type.Ref(CreateApiKeyRequest),
        response: { 200: Type.Ref(ApiKeyCreatedResponse, { description: 'The new key, with its secret shown this once' }) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return keys.create(p.userId, p.tier, request.body);
    },
  );

  app.get(
    '/auth/api-keys/:key_id',
    {
      ...base,
      schema: {
        operationId: 'getApiKey',
        tags,
        summary: 'Get one API key',
        params: KeyIdParams,
        response: { 200: Type.Ref(ApiKeyListItem, { description: 'The key (never its secret)' }) },
      },
    },
    async (request) => keys.get(principalOf(request).userId, request.params.key_id),
  );

  app.patch(
    '/auth/api-keys/:key_id',
    {
      ...base,
      schema: {
        operationId: 'renameApiKey',
        tags,
        summary: 'Rename a key or change allow_structure_search',
        params: KeyIdParams,
        body: Type.Ref(RenameApiKeyRequest),
        response: { 200: Type.Ref(ApiKeyListItem, { description: 'The key, renamed' }) },
      },
    },
    async (request) => keys.rename(principalOf(request).userId, request.params.key_id, request.body as never),
  );

  app.delete(
    '/auth/api-keys/:key_id',
    {
      ...base,
      schema: {
        operationId: 'revokeApiKey',
        tags,
        summary: 'Revoke (delete) an API key',
        params: KeyIdParams,
        response: { 200: Type.Ref('MessageResponse', { description: 'The key is deleted and stops working at once' }) },
      },
    },
    async (request) => keys.revoke(principalOf(request).userId, request.params.key_id),
  );

  app.post(
    '/auth/api-keys/:key_id/rotate',
    {
      ...base,
      schema: {
        operationId: 'rotateApiKey',
        tags,
        summary: 'Rotate: new secret now, the old one stops working at once',
        params: KeyIdParams,
        response: { 200: Type.Ref(ApiKeyCreatedResponse, { description: 'The key with a new secret, shown this once; the old secret stops working' }) },
      },
    },
    async (request) => keys.rotate(principalOf(request).userId, request.params.key_id),
  );
};

export const KEY_SCHEMAS = [ApiKeyListItem, ApiKeyCreatedResponse, ApiKeyListResponse, CreateApiKeyRequest, RenameApiKeyRequest];
