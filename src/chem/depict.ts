// Structure drawings with RDKit MinimalLib. Runs inside a chemistry worker thread (worker.ts),
// never on the event loop. Every RDKit object is deleted in a finally block.
import type { MainModule, Mol, Reaction } from '@rdkit/rdkit';
import { explainReaction, explainSmiles } from './explain.js';
import { countAtomTokens, notSmiles, tooLargeToParse, tooManyAtomsDetail, type DepictError } from './limits.js';
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
  /** Why, when error is set (e.g. "unclosed ring", "250 heavy atoms; at most 200"). */
  detail: string | null;
}

const fail = (error: DepictError, detail: string): DepictOutcome => ({ key: null, svg: null, error, detail });

/** too_large by atom count (heavy atoms, and all explicit atoms so that `*` or [H] floods count). */
export function tooManyAtoms(mol: Mol): boolean {
  return tooManyAtomsOf(mol) !== null;
}

/** Why a molecule is too large, or null. */
export function tooManyAtomsOf(mol: Mol): string | null {
  return tooManyAtomsDetail(mol.get_num_atoms(true), mol.get_num_atoms());
}

/** CXSMILES extensions (after whitespace, between bars) carry coordinates, labels and enhanced stereo. */
function hasCxExtension(smiles: string): boolean {
  return /\s\|/.test(smiles.trim());
}

/** Parses a SMILES the way every chemistry endpoint does; null when RDKit cannot read it (or it is too large to parse safely). */
export function parseSmiles(rdkit: RDKitModule, smiles: string): Mol | null {
  if (notSmiles(smiles) || tooLargeToParse(smiles) !== null) return null;
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

/**
 * Reactions also fix the bond length (an upper bound: RDKit still shrinks a large reaction to
 * fit). Without it RDKit scales each agent to fill the space above the arrow on its own, so a
 * one-atom agent such as [H+] came out three times the size of the atom labels over a short
 * arrow, and a larger one tiny; with it, agents are drawn at the scale of the molecules and the
 * arrow grows to hold them.
 */
function reactionDrawDetails(size: SvgSize): string {
  const bond = Math.max(10, Math.round(Math.min(size.width / 20, size.height / 7)));
  return `{"width":${size.width | 0},"height":${size.height | 0},"noFreetype":true,"fixedBondLength":${bond}}`;
}

function render(draw: () => string, size: SvgSize): DepictOutcome {
  let raw: string;
  try {
    raw = draw();
  } catch (err) {
    if (isWasmFatal(err)) throw err; // the worker must be replaced
    return fail('render_failed', `RDKit could not draw it: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!raw || !raw.includes('<svg')) return fail('render_failed', 'RDKit returned no drawing');
  try {
    return { key: null, svg: sanitizeSvg(raw, size), error: null, detail: null };
  } catch (err) {
    if (err instanceof SvgRejected) return fail('render_failed', 'the drawing did not pass the SVG safety check');
    throw err;
  }
}

/**
 * Draws one molecule, from the molecule as given (as native RDKit does). With `key` it also
 * returns the canonical SMILES, under which the cache keeps the drawing: another spelling of
 * the same molecule may then be served that drawing.
 */
export function depictMolecule(rdkit: RDKitModule, smiles: string, opts: DepictOptions): DepictOutcome {
  const large = tooLargeToParse(smiles);
  if (large) return fail('too_large', large);
  const mol = parseSmiles(rdkit, smiles);
  if (!mol) return fail('unparseable', explainSmiles(rdkit, smiles));
  try {
    const many = tooManyAtomsOf(mol);
    if (many) return fail('too_large', many);
    const out = render(() => mol.get_svg_with_highlights(drawDetails(opts)), opts);
    if (out.svg !== null && opts.key) out.key = canonicalSmiles(mol, smiles);
    return out;
  } finally {
    mol.delete();
  }
}

/** Splits `reactants>agents>products` (ignoring any CXSMILES extension); null if not three parts. */
function reactionParts(rxn: string): string[] | null {
  const core = rxn.trim().split(/\s+/)[0] ?? '';
  const parts = core.split('>');
  return parts.length === 3 ? parts : null;
}

/** Heavy atoms of all molecules of a reaction together (see limits.ts): why it is too large, or null. */
function reactionTooLarge(rdkit: RDKitModule, parts: string[]): string | null {
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
    const why = tooManyAtomsDetail(heavy, all);
    if (why) return `the reaction's molecules have ${why.replace(/;/, ' together;')}`;
  }
  return null;
}

/**
 * Draws one reaction (reactants, arrow, agents above the arrow when present, products) with
 * RDKit's reaction drawer. Components are read as SMILES (not SMARTS). The cache key is the
 * reaction text as given (trimmed): a reaction's drawing depends on the order of its components.
 */
export function depictReaction(rdkit: RDKitModule, rxnSmiles: string, opts: DepictOptions): DepictOutcome {
  const large = tooLargeToParse(rxnSmiles);
  if (large) return fail('too_large', large);
  if (rxnSmiles.trim() === '' || /[\n\r\0]/.test(rxnSmiles)) return fail('unparseable', rxnSmiles.trim() === '' ? 'empty input' : 'line breaks or NUL characters are not SMILES');
  const parts = reactionParts(rxnSmiles);
  if (!parts || parts.every((p) => p === '')) return fail('unparseable', explainReaction(rdkit, rxnSmiles));
  let rxn: Reaction | null = null;
  try {
    rxn = rdkit.get_rxn(rxnSmiles, JSON.stringify({ useSmiles: true }));
    if (!rxn) return fail('unparseable', explainReaction(rdkit, rxnSmiles));
    const many = reactionTooLarge(rdkit, parts);
    if (many) return fail('too_large', many);
    const drawRxn = rxn;
    const out = render(() => drawRxn.get_svg_with_highlights(reactionDrawDetails(opts)), opts);
    if (out.svg !== null && opts.key) out.key = rxnSmiles.trim();
    return out;
  } finally {
    rxn?.delete();
  }
}
