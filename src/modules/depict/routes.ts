// POST /depict and POST /depict/reactions: SVG drawings from SMILES and reaction SMILES, drawn
// by RDKit in the chemistry worker pool, cached by canonical input and size.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { DepictOutcome } from '../../chem/depict.js';
import { MOLECULE_SIZE, REACTION_SIZE } from '../../chem/limits.js';
import type { ItemOutcome } from '../../chem/pool.js';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import { DEPICT_SCHEMAS, DepictReactionsRequest, DepictRequest, DepictResponse } from './schemas.js';

export { DEPICT_SCHEMAS };

interface DepictionItem {
  svg: string | null;
  error: DepictOutcome['error'];
  detail: string | null;
}

function toItems(results: ItemOutcome<DepictOutcome>[]): { items: DepictionItem[] } {
  if (results.length > 0 && results.every((r) => !r.ok && r.failure === 'unavailable')) {
    throw new AppError('unavailable', 'the chemistry workers are not available; try again shortly');
  }
  return {
    items: results.map((r) => (r.ok ? { svg: r.value.svg, error: r.value.error, detail: r.value.detail ?? null } : { svg: null, error: 'render_failed', detail: r.message })),
  };
}

export const depictRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['chemistry'];
  // Drawing changes nothing: the read scope covers it (docs/api-decisions.md, "Scopes").
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
      const { smiles, width = MOLECULE_SIZE.width.default, height = MOLECULE_SIZE.height.default } = request.body;
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
      const { reactions, width = REACTION_SIZE.width.default, height = REACTION_SIZE.height.default } = request.body;
      const results = await services.chem.runCached('depict_reaction', reactions, { width, height, key: false }, `${width}x${height}`);
      return toItems(results);
    },
  );
};
