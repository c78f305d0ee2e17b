// Input limits and per-item error codes of the chemistry endpoints (/depict, /depict/reactions,
// /describe). The figures are documented in docs/chemistry-service.md.

/** An input (molecule SMILES or reaction SMILES) longer than this is `too_large` without being parsed. */
export const MAX_INPUT_CHARS = 2_000;
/** A molecule with more heavy atoms than this (a reaction: all its molecules together) is `too_large`. */
export const MAX_HEAVY_ATOMS = 200;
/**
 * Beyond MAX_HEAVY_ATOMS heavy atoms, or beyond this many atoms in the graph (explicit hydrogens
 * such as deuterium, and dummy atoms `*`, which are not heavy atoms, included).
 */
export const MAX_GRAPH_ATOMS = (3 * MAX_HEAVY_ATOMS) / 2;

/** Characters that count as an atom outside brackets (Cl and Br count once through their first letter). */
const ATOM_CHAR = new Uint8Array(128);
for (const c of 'BCNOSPFIXbcnosp*') ATOM_CHAR[c.charCodeAt(0)] = 1;

/**
 * Counts atoms of a SMILES fragment without RDKit: bracket atoms, organic-subset atoms and `*`.
 * The count of `smiles.replace(/\[[^\]]*\]/g, 'X').match(/Cl|Br|[BCNOSPFIXbcnosp*]/g)`, in one
 * pass without allocating (it runs before every parse).
 */
export function countAtomTokens(smiles: string): number {
  let n = 0;
  let closable = true; // false once a "[" has no "]" after it: no later one has either
  for (let i = 0; i < smiles.length; i++) {
    const c = smiles.charCodeAt(i);
    if (c === 91 && closable) {
      const close = smiles.indexOf(']', i + 1);
      if (close !== -1) {
        n++; // a bracket atom, up to the first "]"
        i = close;
        continue;
      }
      closable = false;
    }
    if (c < 128 && ATOM_CHAR[c] === 1) n++;
  }
  return n;
}

/**
 * Why an input is too large to hand to RDKit's parser, or null. Checked before parsing: long
 * chains (about 900 atoms) overflow the WASM parser's stack ("memory access out of bounds").
 */
export function tooLargeToParse(smiles: string): string | null {
  if (smiles.length > MAX_INPUT_CHARS) return `${smiles.length} characters; at most ${MAX_INPUT_CHARS}`;
  const atoms = countAtomTokens(smiles);
  if (atoms > MAX_GRAPH_ATOMS) return `${atoms} atoms; at most ${MAX_HEAVY_ATOMS} heavy atoms (${MAX_GRAPH_ATOMS} atoms in all)`;
  return null;
}

/** Why a parsed molecule is too large, or null. */
export function tooManyAtomsDetail(heavy: number, all: number): string | null {
  if (heavy > MAX_HEAVY_ATOMS) return `${heavy} heavy atoms; at most ${MAX_HEAVY_ATOMS}`;
  if (all > MAX_GRAPH_ATOMS) return `${all} atoms; at most ${MAX_GRAPH_ATOMS} in all`;
  return null;
}

/** Items per request on every chemistry endpoint. */
export const MAX_ITEMS = 20;

export const MOLECULE_SIZE = { width: { min: 100, max: 600, default: 300 }, height: { min: 100, max: 600, default: 220 } } as const;
export const REACTION_SIZE = { width: { min: 200, max: 900, default: 600 }, height: { min: 100, max: 600, default: 220 } } as const;

export type DepictError = 'unparseable' | 'too_large' | 'render_failed';

/**
 * Inputs that are not SMILES are `unparseable` even where RDKit's `get_mol` would read them
 * (it also accepts MDL molblocks and CommonChem JSON): the API takes SMILES only.
 * Empty and blank strings are unparseable too (RDKit would read them as a molecule with no atoms).
 */
export function notSmiles(input: string): boolean {
  return input.trim() === '' || /[\n\r\0]/.test(input) || input.trimStart().startsWith('{') || /^\s*InChI=/i.test(input);
}
