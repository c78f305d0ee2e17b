// Structure drawings with RDKit MinimalLib. Runs inside a chemistry worker thread (worker.ts),
// never on the event loop. Every RDKit object is deleted in a finally block.
import type { Mol, Reaction } from '@rdkit/rdkit';
import type { RDKitModule } from './rdkit.js';
import { explainReaction, explainSmiles } from './explain.js';
import { countAtomTokens, MOLECULE_SIZE, notSmiles, tooLargeToParse, tooManyAtomsDetail, type DepictError } from './limits.js';
import { sanitizeSvg, SvgRejected, type SvgSize } from './svg.js';
import { isWasmFatal } from './wasm.js';

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
  return tooLargeToParse(smiles) === null ? parseSizedSmiles(rdkit, smiles) : null;
}

/** parseSmiles of an input already found not too large to parse (tooLargeToParse): the check is not repeated. */
export function parseSizedSmiles(rdkit: RDKitModule, smiles: string): Mol | null {
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

/** /depict's default size, also the size of the substructure utility's highlighted drawings. */
export const DEFAULT_MOLECULE_SIZE: SvgSize = { width: MOLECULE_SIZE.width.default, height: MOLECULE_SIZE.height.default };

/** Atoms and bonds to highlight (RDKit indices). */
export interface Highlights {
  atoms: number[];
  bonds: number[];
}

/**
 * RDKit drawing options of every molecule drawing (/depict and the substructure utility's
 * highlighted matches, so both look alike): the size, and atom labels as SVG <text>
 * (noFreetype) rather than glyph outlines: a third faster to draw, a smaller document, and
 * selectable text. The labels are plain text in the document, escaped by the sanitizer like
 * everything else. Colours, font, background and bond width are RDKit's defaults.
 */
export function moleculeDrawOptions(size: SvgSize, highlights?: Highlights): string {
  const base = { width: size.width | 0, height: size.height | 0, noFreetype: true };
  if (!highlights) return JSON.stringify(base);
  // RDKit draws highlighted heteroatoms (their labels and bond halves) black unless told to keep
  // the standard colours, which /depict shows.
  return JSON.stringify({ ...base, atoms: highlights.atoms, bonds: highlights.bonds, standardColoursForHighlightedAtoms: true });
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

/** How much of its size a reaction's "+" keeps (givePlusRoom). */
export const PLUS_SCALE = 0.6;
const PLUS_PAIR = /<path d="M (-?[\d.]+),(-?[\d.]+) L (-?[\d.]+),(-?[\d.]+)"( style="[^"]*")\/>(\s*)<path d="M (-?[\d.]+),(-?[\d.]+) L (-?[\d.]+),(-?[\d.]+)"( style="[^"]*")\/>/g;

/**
 * RDKit leaves one gap between the molecules of a reaction and fills two thirds of it with its
 * "+" (two strokes without a class, vertical then horizontal, crossing at their middles), so the
 * sign almost touched the labels beside it. Each "+" is redrawn about the same centre at
 * PLUS_SCALE of its size: about the size of a label's "+" glyph, with room on both sides.
 * Works on the sanitized document (attributes double-quoted, in RDKit's order).
 */
export function givePlusRoom(svg: string): string {
  return svg.replace(PLUS_PAIR, (all: string, ...g: string[]) => {
    const [x1, y1, x2, y2] = g.slice(0, 4).map(Number) as [number, number, number, number];
    const [x3, y3, x4, y4] = g.slice(6, 10).map(Number) as [number, number, number, number];
    const cx = x1;
    const cy = (y1 + y2) / 2;
    const half = Math.abs(y2 - y1) / 2;
    const near = (a: number, b: number) => Math.abs(a - b) < 0.11; // RDKit writes one decimal
    if (x1 !== x2 || y3 !== y4 || !near((x3 + x4) / 2, cx) || !near(y3, cy) || !near(Math.abs(x4 - x3) / 2, half) || half === 0) return all;
    const n = half * PLUS_SCALE;
    const f = (v: number) => v.toFixed(1);
    return `<path d="M ${f(cx)},${f(cy - n)} L ${f(cx)},${f(cy + n)}"${g[4]}/>${g[5]}<path d="M ${f(cx - n)},${f(cy)} L ${f(cx + n)},${f(cy)}"${g[10]}/>`;
  });
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
  const mol = parseSizedSmiles(rdkit, smiles);
  if (!mol) return fail('unparseable', explainSmiles(rdkit, smiles));
  try {
    const many = tooManyAtomsOf(mol);
    if (many) return fail('too_large', many);
    const out = render(() => mol.get_svg_with_highlights(moleculeDrawOptions(opts)), opts);
    if (out.svg !== null && opts.key) out.key = canonicalSmiles(mol, smiles);
    return out;
  } finally {
    mol.delete();
  }
}

/**
 * Draws a parsed molecule with atoms and bonds highlighted (the substructure utility's matches)
 * with /depict's options and sanitizer, so that it looks like /depict's drawing of the molecule
 * plus RDKit's highlights. The caller owns (and deletes) the molecule.
 */
export function depictHighlighted(mol: Mol, highlights: Highlights, size: SvgSize = DEFAULT_MOLECULE_SIZE): DepictOutcome {
  return render(() => mol.get_svg_with_highlights(moleculeDrawOptions(size, highlights)), size);
}

/** A structure to draw with marked atoms (the reactivity job's sites of attack: docs/engines.md, "Reactivity"). */
export interface MarkedDrawing {
  /** V2000 molblock; its hydrogens are kept as atoms (read with removeHs off), so atom indices are the molblock's. */
  molblock: string;
  /** Atom index -> highlight colours (#RRGGBB; an atom with two is drawn half in each). */
  atoms: Record<number, string[]>;
  /** A line above the drawing (cut at 56 characters). */
  title: string;
  /** One row below the drawing per colour: a swatch and what it marks. */
  legend: { colour: string; text: string }[];
}

const TITLE_ROW = 24;
const LEGEND_ROW = 20;
const HEX_COLOUR = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;
const rgb = (hex: string): [number, number, number] => {
  const m = HEX_COLOUR.exec(hex);
  return m ? [parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255] : [0.8, 0.8, 0.8];
};
const xmlText = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Draws a molblock in 2D (RDKit's depiction, new coordinates) with atoms highlighted in the given
 * colours and every atom's index shown, under a title and over a legend of the colours, all in
 * one document of `size`, passed through the sanitizer like every drawing.
 */
export function depictMarked(rdkit: RDKitModule, input: MarkedDrawing, size: SvgSize): DepictOutcome {
  const mol = rdkit.get_mol(input.molblock, JSON.stringify({ removeHs: false }));
  if (!mol) return fail('unparseable', 'RDKit cannot read the structure');
  try {
    if (!mol.is_valid() || mol.get_num_atoms() === 0) return fail('unparseable', 'RDKit cannot read the structure');
    const many = tooManyAtomsOf(mol);
    if (many) return fail('too_large', many);
    mol.set_new_coords();
    const legendHeight = input.legend.length * LEGEND_ROW + 8;
    const inner = { width: size.width | 0, height: (size.height | 0) - TITLE_ROW - legendHeight };
    const colours = Object.fromEntries(Object.entries(input.atoms).map(([i, cs]) => [i, cs.map(rgb)]));
    // /depict's options (moleculeDrawOptions), plus the colours and the indices.
    const details = {
      ...(JSON.parse(moleculeDrawOptions(inner)) as Record<string, unknown>),
      atoms: Object.keys(input.atoms).map(Number),
      highlightAtomMultipleColors: colours,
      addAtomIndices: true,
      standardColoursForHighlightedAtoms: true,
    };
    const drawn = render(() => mol.get_svg_with_highlights(JSON.stringify(details)), inner);
    if (!drawn.svg) return drawn;
    const body = drawn.svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
    const title = input.title.length > 56 ? `${input.title.slice(0, 55)}\u2026` : input.title;
    const text = (x: number, y: number, t: string, extra = '') => `<text x="${x}" y="${y}" font-family="sans-serif" font-size="12" fill="#000000"${extra}>${xmlText(t)}</text>`;
    const rows = input.legend.map((row, k) => {
      const y = TITLE_ROW + inner.height + 4 + k * LEGEND_ROW;
      return `<rect x="10" y="${y + 2}" width="14" height="14" rx="3" fill="${HEX_COLOUR.test(row.colour) ? row.colour : '#CCCCCC'}"/>${text(30, y + 14, row.text)}`;
    });
    const doc = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width | 0}" height="${size.height | 0}" viewBox="0 0 ${size.width | 0} ${size.height | 0}">`,
      `<rect x="0" y="0" width="${size.width | 0}" height="${size.height | 0}" fill="#FFFFFF"/>`,
      text((size.width | 0) / 2, 17, title, ' text-anchor="middle"'),
      `<g transform="translate(0,${TITLE_ROW})">${body}</g>`,
      ...rows,
      '</svg>',
    ].join('');
    return render(() => doc, size);
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
    if (out.svg !== null) out.svg = givePlusRoom(out.svg);
    if (out.svg !== null && opts.key) out.key = rxnSmiles.trim();
    return out;
  } finally {
    rxn?.delete();
  }
}
