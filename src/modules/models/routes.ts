// Models over HTTP (docs/models.md): the caller's MPNN models and the public catalog.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { GetMPNNModelsResponse, ModelNameQuery, OptionalModelNameQuery, PublicModelsResponse } from './schemas.js';

export const modelRoutes: RoutePlugin = async (app, { services }) => {
  const { models } = services;

  app.get(
    '/user-models/mpnn',
    {
      schema: {
        operationId: 'listUserModels',
        tags: ['models'],
        summary: 'Your trained MPNN models (or the one named)',
        querystring: OptionalModelNameQuery,
        response: { 200: Type.Ref(GetMPNNModelsResponse, { description: 'Your MPNN models by name, with their cards' }) },
      },
    },
    async (request) => models.list(principalOf(request).userId, request.query.model_name),
  );

  app.delete(
    '/user-models/mpnn',
    {
      schema: {
        operationId: 'deleteUserModel',
        tags: ['models'],
        summary: 'Delete one of your MPNN models and its weights',
        querystring: ModelNameQuery,
        response: { 200: Type.Ref('MessageResponse', { description: 'The model and its weights are deleted' }) },
      },
    },
    async (request) => {
      await models.delete(principalOf(request).userId, request.query.model_name);
      return { message: `model ${request.query.model_name} deleted` };
    },
  );

  app.get(
    '/models/public',
    {
      schema: {
        operationId: 'listPublicModels',
        tags: ['models'],
        summary: 'The public models shipped with Crucible, with their model cards',
        response: { 200: Type.Ref(PublicModelsResponse, { description: 'The public models with their model cards' }) },
      },
    },
    async () => ({ models: models.publicCatalog() }),
  );
};
