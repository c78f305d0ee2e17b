// POST /depict and POST /depict/reactions: SVG drawings from SMILES and reaction SMILES, drawn
// by RDKit in the chemistry worker pool, cached by canonical input and size.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { DEPICT_SCHEMAS, DepictReactionsRequest, DepictRequest, DepictResponse } from './schemas.js';
import { depictMolecules, depictReactions } from './service.js';

export { DEPICT_SCHEMAS };

export const depictRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['chemistry'];
  // Drawing changes nothing: the read scope covers it (docs/api-decisions.md, "The contract the code relies on").
  const config = { scope: 'read' as const };

  app.post(
    '/depict',
    {
      config,
      schema: {
        operationId: 'depictMolecules',
        tags,
        summary: 'Draw molecules (SVG) from SMILES',
        description: 'One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.',
        body: Type.Ref(DepictRequest),
        response: { 200: Type.Ref(DepictResponse, { description: 'An SVG drawing per molecule, in input order' }) },
      },
    },
    async (request) => depictMolecules(services.chem, request.body),
  );

  app.post(
    '/depict/reactions',
    {
      config,
      schema: {
        operationId: 'depictReactions',
        tags,
        summary: 'Draw reactions (SVG) from reaction SMILES',
        description: 'Reactants, arrow, agents (above the arrow) when present, and products. One item per input, in input order.',
        body: Type.Ref(DepictReactionsRequest),
        response: { 200: Type.Ref(DepictResponse, { description: 'An SVG drawing per reaction, in input order' }) },
      },
    },
    async (request) => depictReactions(services.chem, request.body),
  );
};
