// Drawings of molecules and reactions as plain data: what POST /depict and POST
// /depict/reactions answer, callable without a request (by workflows and the Assistant). Items
// in input order; a bad input is an item with `error` and `detail`; only a pool with no working
// thread fails the whole call. Sizes default as in the API (src/chem/limits.ts).
import type { DepictOutcome } from '../../chem/depict.js';
import { MOLECULE_SIZE, REACTION_SIZE } from '../../chem/limits.js';
import type { ChemPool, ItemOutcome } from '../../chem/pool.js';
import { AppError } from '../../errors.js';

export interface DepictionItem {
  svg: string | null;
  error: DepictOutcome['error'];
  detail: string | null;
}

export interface DepictCommand {
  smiles: string[];
  width?: number;
  height?: number;
}

export interface DepictReactionsCommand {
  reactions: string[];
  width?: number;
  height?: number;
}

function toItems(results: ItemOutcome<DepictOutcome>[]): { items: DepictionItem[] } {
  if (results.length > 0 && results.every((r) => !r.ok && r.failure === 'unavailable')) {
    throw new AppError('unavailable', 'the chemistry workers are not available; try again shortly');
  }
  return {
    items: results.map((r) => (r.ok ? { svg: r.value.svg, error: r.value.error, detail: r.value.detail ?? null } : { svg: null, error: 'render_failed', detail: r.message })),
  };
}

export async function depictMolecules(chem: ChemPool, cmd: DepictCommand): Promise<{ items: DepictionItem[] }> {
  const { smiles, width = MOLECULE_SIZE.width.default, height = MOLECULE_SIZE.height.default } = cmd;
  return toItems(await chem.runCached('depict', smiles, { width, height, key: false }, `${width}x${height}`));
}

export async function depictReactions(chem: ChemPool, cmd: DepictReactionsCommand): Promise<{ items: DepictionItem[] }> {
  const { reactions, width = REACTION_SIZE.width.default, height = REACTION_SIZE.height.default } = cmd;
  return toItems(await chem.runCached('depict_reaction', reactions, { width, height, key: false }, `${width}x${height}`));
}
