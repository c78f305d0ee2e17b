// POST /depict and POST /depict/reactions: SVG drawings from SMILES and reaction SMILES, drawn
// by RDKit in the chemistry worker pool, cached by canonical input and size.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { DepictOutcome } from '../../chem/depict.js';
import type { ItemOutcome } from '../../chem/pool.js';
import { httpProblem } from '../../http/problems.js';
import type { Services } from '../../services.js';
import { DEPICT_SCHEMAS, DepictReactionsRequest, DepictRequest, DepictResponse } from './schemas.js';

export { DEPICT_SCHEMAS };

interface DepictionItem {
  svg: string | null;
  error: DepictOutcome['error'];
}

function toItems(results: ItemOutcome<DepictOutcome>[]): { items: DepictionItem[] } {
  if (results.length > 0 && results.every((r) => !r.ok && r.failure === 'unavailable')) {
    throw httpProblem(503, 'the chemistry workers are not available; try again shortly');
  }
  return { items: results.map((r) => (r.ok ? { svg: r.value.svg, error: r.value.error } : { svg: null, error: 'render_failed' })) };
}

export const depictRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['chemistry'];
  // Drawing changes nothing: the read scope covers it (CONTRACT.md section 3).
  const config = { scope: 'read' as const };

  app.post(
    '/depict',
    {
      config,
      schema: {
        tags,
        summary: 'Draw molecules (SVG) from SMILES',
        description: 'One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.',
        body: Type.Ref(DepictRequest),
        response: { 200: Type.Ref(DepictResponse) },
      },
    },
    async (request) => {
      const { smiles, width, height } = request.body as DepictRequest;
      const results = await services.chem.runCached('depict', smiles, { width, height, key: false }, `${width}x${height}`);
      return toItems(results);
    },
  );

  app.post(
    '/depict/reactions',
    {
      config,
      schema: {
        tags,
        summary: 'Draw reactions (SVG) from reaction SMILES',
        description: 'Reactants, arrow, agents (above the arrow) when present, and products. One item per input, in input order.',
        body: Type.Ref(DepictReactionsRequest),
        response: { 200: Type.Ref(DepictResponse) },
      },
    },
    async (request) => {
      const { reactions, width, height } = request.body as DepictReactionsRequest;
      const results = await services.chem.runCached('depict_reaction', reactions, { width, height, key: false }, `${width}x${height}`);
      return toItems(results);
    },
  );
};
