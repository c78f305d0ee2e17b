// POST /describe: molecular properties (src/chem/properties) computed in the chemistry worker
// pool, cached by canonical SMILES.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { DESCRIBE_SCHEMAS, DescribeRequest, DescribeResponse } from './schemas.js';
import { describeMolecules } from './service.js';

export { DESCRIBE_SCHEMAS };

export const describeRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/describe',
    {
      // Computing properties changes nothing: the read scope covers it (docs/api-decisions.md, "Scopes").
      config: { scope: 'read' },
      schema: {
        operationId: 'describeMolecules',
        tags: ['chemistry'],
        summary: 'Molecular properties from SMILES',
        description: 'One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.',
        body: Type.Ref(DescribeRequest),
        response: { 200: Type.Ref(DescribeResponse, { description: 'The properties of each molecule, in input order' }) },
      },
    },
    async (request) => describeMolecules(services.chem, { smiles: request.body.smiles }),
  );
};
