// POST /describe: molecular properties (src/chem/properties) computed in the chemistry worker
// pool, cached by canonical SMILES.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import { DESCRIBE_SCHEMAS, DescribeRequest, DescribeResponse } from './schemas.js';

export { DESCRIBE_SCHEMAS };

export const describeRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/describe',
    {
      // Computing properties changes nothing: the read scope covers it (docs/api-decisions.md, "Scopes").
      config: { scope: 'read' },
      schema: {
        tags: ['chemistry'],
        summary: 'Molecular properties from SMILES',
        description: 'One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.',
        body: Type.Ref(DescribeRequest),
        response: { 200: Type.Ref(DescribeResponse) },
      },
    },
    async (request) => {
      const { smiles } = request.body;
      const results = await services.chem.runCached('describe', smiles, { key: false }, '');
      if (results.every((r) => !r.ok && r.failure === 'unavailable')) {
        throw new AppError('unavailable', 'the chemistry workers are not available; try again shortly');
      }
      return {
        items: results.map((r) => {
          if (!r.ok) return { properties: null, error: 'describe_failed' as const, detail: r.message, canonical_smiles: null, inchi: null, inchikey: null };
          const ids = r.value.identifiers;
          return {
            properties: r.value.properties,
            error: r.value.error,
            detail: r.value.detail ?? null,
            canonical_smiles: ids?.canonical_smiles ?? null,
            inchi: ids?.inchi ?? null,
            inchikey: ids?.inchikey ?? null,
          };
        }),
      };
    },
  );
};
