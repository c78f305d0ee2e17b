// Structure drawings with RDKit MinimalLib. Runs inside a chemistry worker thread (worker.ts),
// never on the event loop. Every RDKit object is deleted in a finally block.
import type { MainModule, Mol, Reaction } from '@rdkit/rdkit';
import { MAX_HEAVY_ATOMS, MAX_INPUT_CHARS, notSmiles, type DepictError } from './limits.js';
import { sanitizeSvg, SvgRejected, type SvgSize } from './svg.js';
import { isWasmFatal } from './wasm.js';

export type RDKitModule = MainModule;

export interface DepictOptions extends SvgSize {
  /** Return the canonical cache key (costs one canonicalisation; skipped when caching is off). */
  key: boolean;
}

export interface DepictOutcome {
  /** Canonical input for the cache, or null when not asked for or not drawable. */
  key: string | null;
  svg: string | null;
  error: DepictError | null;
}

const fail = (error: DepictError): DepictOutcome => ({ key: null, svg: null, error });

/**
 * Beyond MAX_HEAVY_ATOMS heavy atoms, or beyond this many atoms in the graph (explicit hydrogens
 * such as deuterium, and dummy atoms `*`, which are not heavy atoms, included).
 */
export const MAX_GRAPH_ATOMS = (3 * MAX_HEAVY_ATOMS) / 2;

/** too_large by atom count (heavy atoms, and all explicit atoms so that `*` or [H] floods count). */
export function tooManyAtoms(mol: Mol): boolean {
  return mol.get_num_atoms(true) > MAX_HEAVY_ATOMS || mol.get_num_atoms() > MAX_GRAPH_ATOMS;
}

/** CXSMILES extensions (after whitespace, between bars) carry coordinates, labels and enhanced stereo. */
function hasCxExtension(smiles: string): boolean {
  return /\s\|/.test(smiles.trim());
}

/** Parses a SMILES the way every chemistry endpoint does; null when RDKit cannot read it. */
export function parseSmiles(rdkit: RDKitModule, smiles: string): Mol | null {
  if (notSmiles(smiles)) return null;
  const mol = rdkit.get_mol(smiles);
  if (!mol) return null;
  if (!mol.is_valid() || mol.get_num_atoms() === 0) {
    mol.delete();
    return null;
  }
  return mol;
}

/** The canonical form used as cache key: canonical SMILES, or canonical CXSMILES when the input had an extension. */
export function canonicalSmiles(mol: Mol, input: string): string {
  return hasCxExtension(input) ? mol.get_cxsmiles() : mol.get_smiles();
}

/**
 * RDKit drawing options: the size, and atom labels as SVG <text> (noFreetype) rather than glyph
 * outlines: a third faster to draw, a smaller document, and selectable text. The labels are
 * plain text in the document, escaped by the sanitizer like everything else.
 */
function drawDetails(size: SvgSize): string {
  return `{"width":${size.width | 0},"height":${size.height | 0},"noFreetype":true}`;
}

function render(draw: () => string, size: SvgSize): DepictOutcome {
  let raw: string;
  try {
    raw = draw();
  } catch (err) {
    if (isWasmFatal(err)) throw err; // the worker must be replaced
    return fail('render_failed');
  }
  if (!raw || !raw.includes('<svg')) return fail('render_failed');
  try {
    return { key: null, svg: sanitizeSvg(raw, size), error: null };
  } catch (err) {
    if (err instanceof SvgRejected) return fail('render_failed');
    throw err;
  }
}

/**
 * Draws one molecule, from the molecule as given (as native RDKit does). With `key` it also
 * returns the canonical SMILES, under which the cache keeps the drawing: another spelling of
 * the same molecule may then be served that drawing.
 */
export function depictMolecule(rdkit: RDKitModule, smiles: string, opts: DepictOptions): DepictOutcome {
  if (smiles.length > MAX_INPUT_CHARS) return fail('too_large');
  const mol = parseSmiles(rdkit, smiles);
  if (!mol) return fail('unparseable');
  try {
    if (tooManyAtoms(mol)) return fail('too_large');
    const out = render(() => mol.get_svg_with_highlights(drawDetails(opts)), opts);
    if (out.svg !== null && opts.key) out.key = canonicalSmiles(mol, smiles);
    return out;
  } finally {
    mol.delete();
  }
}

/** Counts atoms of a SMILES fragment without RDKit: bracket atoms, organic-subset atoms and `*`. */
export function countAtomTokens(smiles: string): number {
  const noBrackets = smiles.replace(/\[[^\]]*\]/g, 'X');
  return (noBrackets.match(/Cl|Br|[BCNOSPFIXbcnosp*]/g) ?? []).length;
}

/** Splits `reactants>agents>products` (ignoring any CXSMILES extension); null if not three parts. */
export function reactionParts(rxn: string): string[] | null {
  const core = rxn.trim().split(/\s+/)[0] ?? '';
  const parts = core.split('>');
  return parts.length === 3 ? parts : null;
}

/** Heavy atoms of all molecules of a reaction together (see limits.ts). */
function reactionTooLarge(rdkit: RDKitModule, parts: string[]): boolean {
  let heavy = 0;
  let all = 0;
  for (const part of parts) {
    if (!part) continue;
    const mol = rdkit.get_mol(part);
    try {
      if (mol && mol.is_valid()) {
        heavy += mol.get_num_atoms(true);
        all += mol.get_num_atoms();
      } else {
        const n = countAtomTokens(part);
        heavy += n;
        all += n;
      }
    } finally {
      mol?.delete();
    }
    if (heavy > MAX_HEAVY_ATOMS || all > MAX_GRAPH_ATOMS) return true;
  }
  return false;
}

/**
 * Draws one reaction (reactants, arrow, agents above the arrow when present, products) with
 * RDKit's reaction drawer. Components are read as SMILES (not SMARTS). The cache key is the
 * reaction text as given (trimmed): a reaction's drawing depends on the order of its components.
 */
export function depictReaction(rdkit: RDKitModule, rxnSmiles: string, opts: DepictOptions): DepictOutcome {
  if (rxnSmiles.length > MAX_INPUT_CHARS) return fail('too_large');
  if (rxnSmiles.trim() === '' || /[\n\r\0]/.test(rxnSmiles)) return fail('unparseable');
  const parts = reactionParts(rxnSmiles);
  if (!parts || parts.every((p) => p === '')) return fail('unparseable');
  let rxn: Reaction | null = null;
  try {
    rxn = rdkit.get_rxn(rxnSmiles, JSON.stringify({ useSmiles: true }));
    if (!rxn) return fail('unparseable');
    if (reactionTooLarge(rdkit, parts)) return fail('too_large');
    const drawRxn = rxn;
    const out = render(() => drawRxn.get_svg_with_highlights(drawDetails(opts)), opts);
    if (out.svg !== null && opts.key) out.key = rxnSmiles.trim();
    return out;
  } finally {
    rxn?.delete();
  }
}
