// Models over HTTP (docs/models.md): the caller's MPNN models and the public catalog.
import { ok, routeFactory } from '../../api/declare-route.js';
import { routeSequence } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { GetMPNNModelsResponse, ModelNameQuery, OptionalModelNameQuery, PublicModelsResponse } from './schemas.js';

const route = routeFactory({ tags: ['models'] });

export const modelRoutes = routeSequence(
  route('GET /user-models/mpnn', 'listUserModels', {
    summary: 'Your trained MPNN models (or the one named)',
    querystring: OptionalModelNameQuery,
    response: ok(GetMPNNModelsResponse, 'Your MPNN models by name, with their cards'),
    handler: async ({ models }, request) => models.list(principalOf(request).userId, request.query.model_name),
  }),
  route('DELETE /user-models/mpnn', 'deleteUserModel', {
    summary: 'Delete one of your MPNN models and its weights',
    querystring: ModelNameQuery,
    response: ok('MessageResponse', 'The model and its weights are deleted'),
    handler: async ({ models }, request) => {
      await models.delete(principalOf(request).userId, request.query.model_name);
      return { message: `model ${request.query.model_name} deleted` };
    },
  }),
  route('GET /models/public', 'listPublicModels', {
    summary: 'The public models shipped with Crucible, with their model cards',
    response: ok(PublicModelsResponse, 'The public models with their model cards'),
    handler: async ({ models }) => ({ models: models.publicCatalog() }),
  }),
);
