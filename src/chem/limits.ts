// Input limits and per-item error codes of the chemistry endpoints (/depict, /depict/reactions,
// /describe). The figures are documented in docs/chemistry-service.md.

/** An input (molecule SMILES or reaction SMILES) longer than this is `too_large` without being parsed. */
export const MAX_INPUT_CHARS = 2_000;
/** A molecule with more heavy atoms than this (a reaction: all its molecules together) is `too_large`. */
export const MAX_HEAVY_ATOMS = 200;
/** Items per request on every chemistry endpoint. */
export const MAX_ITEMS = 20;

export const MOLECULE_SIZE = { width: { min: 100, max: 600, default: 300 }, height: { min: 100, max: 600, default: 220 } } as const;
export const REACTION_SIZE = { width: { min: 200, max: 900, default: 600 }, height: { min: 100, max: 600, default: 220 } } as const;

export type DepictError = 'unparseable' | 'too_large' | 'render_failed';
export type DescribeError = 'unparseable' | 'too_large' | 'describe_failed';

/**
 * Inputs that are not SMILES are `unparseable` even where RDKit's `get_mol` would read them
 * (it also accepts MDL molblocks and CommonChem JSON): the API takes SMILES only.
 * Empty and blank strings are unparseable too (RDKit would read them as a molecule with no atoms).
 */
export function notSmiles(input: string): boolean {
  return input.trim() === '' || /[\n\r\0]/.test(input) || input.trimStart().startsWith('{') || /^\s*InChI=/i.test(input);
}
