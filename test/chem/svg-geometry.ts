// Geometry of the drawings the depiction code returns: bounding boxes of their elements, and
// the "+" signs of reaction drawings, so that tests can check spacing without comparing pixels.
// Labels are SVG <text> (src/chem/depict.ts draws with noFreetype): their boxes are estimated
// from the font size with generous glyph widths, so a gap measured here is never larger than
// the one a renderer shows.

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Element {
  tag: string;
  cls: string | null;
  box: Box;
  /** The text of a <text> element, else ''. */
  text: string;
}

const num = (s: string | undefined): number => (s === undefined ? NaN : Number(s.replace(/px$/, '')));
const attr = (attrs: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1];
const styleOf = (attrs: string, prop: string): string | undefined => new RegExp(`(?:^|;)${prop}:([^;]*)`).exec(attr(attrs, 'style') ?? '')?.[1];

/** Half the stroke width of an element (its ink reaches that far past its path). */
function halfStroke(attrs: string): number {
  const w = num(styleOf(attrs, 'stroke-width') ?? attr(attrs, 'stroke-width'));
  return Number.isFinite(w) ? w / 2 : 0;
}

/**
 * Advance widths as a fraction of the font size, rounded up from DejaVu Sans (the widest of the
 * common sans-serif fonts a renderer picks): a glyph's ink is never wider than its advance.
 */
function glyphWidth(c: string): number {
  if (/[MWmw@]/.test(c)) return 1.0;
  if (/[A-Z]/.test(c)) return 0.8;
  if (/[ijl.,:;'|!]/.test(c)) return 0.3;
  if (/[frt-]/.test(c)) return 0.42;
  if (/[+=]/.test(c)) return 0.84;
  return 0.64;
}

function boxOfPoints(xs: number[], ys: number[], pad: number): Box {
  return { x0: Math.min(...xs) - pad, y0: Math.min(...ys) - pad, x1: Math.max(...xs) + pad, y1: Math.max(...ys) + pad };
}

/** The drawn elements of a document (not the root, not the background rectangle). */
export function elementsOf(svg: string): Element[] {
  const out: Element[] = [];
  for (const m of svg.matchAll(/<(path|ellipse|text|polygon|polyline|line|circle|rect)(\s[^>]*?)?\/?>(?:([^<]*)<\/text>)?/g)) {
    const tag = m[1]!;
    const attrs = m[2] ?? '';
    const cls = attr(attrs, 'class') ?? null;
    if (tag === 'rect') continue; // the background
    if (tag === 'path' || tag === 'polygon' || tag === 'polyline') {
      const data = attr(attrs, tag === 'path' ? 'd' : 'points') ?? '';
      const nums = (data.match(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi) ?? []).map(Number);
      if (nums.length < 2) continue;
      out.push({
        tag,
        cls,
        text: '',
        box: boxOfPoints(
          nums.filter((_, i) => i % 2 === 0),
          nums.filter((_, i) => i % 2 === 1),
          halfStroke(attrs),
        ),
      });
    } else if (tag === 'line') {
      const pad = halfStroke(attrs);
      out.push({ tag, cls, text: '', box: boxOfPoints([num(attr(attrs, 'x1')), num(attr(attrs, 'x2'))], [num(attr(attrs, 'y1')), num(attr(attrs, 'y2'))], pad) });
    } else if (tag === 'ellipse' || tag === 'circle') {
      const cx = num(attr(attrs, 'cx'));
      const cy = num(attr(attrs, 'cy'));
      const rx = num(attr(attrs, tag === 'circle' ? 'r' : 'rx'));
      const ry = num(attr(attrs, tag === 'circle' ? 'r' : 'ry'));
      const pad = halfStroke(attrs);
      out.push({ tag, cls, text: '', box: { x0: cx - rx - pad, y0: cy - ry - pad, x1: cx + rx + pad, y1: cy + ry + pad } });
    } else {
      const text = m[3] ?? '';
      const x = num(attr(attrs, 'x'));
      const y = num(attr(attrs, 'y'));
      const size = num(styleOf(attrs, 'font-size') ?? attr(attrs, 'font-size'));
      const width = [...text].reduce((w, c) => w + glyphWidth(c) * size, 0);
      const anchor = styleOf(attrs, 'text-anchor') ?? 'start';
      const x0 = anchor === 'middle' ? x - width / 2 : anchor === 'end' ? x - width : x;
      // From the cap height above the baseline to the descenders below it.
      out.push({ tag, cls, text, box: { x0, y0: y - 0.8 * size, x1: x0 + width, y1: y + 0.25 * size } });
    }
  }
  return out;
}

/** The gap between two boxes (0 when they touch or overlap). */
export function gap(a: Box, b: Box): number {
  const dx = Math.max(0, a.x0 - b.x1, b.x0 - a.x1);
  const dy = Math.max(0, a.y0 - b.y1, b.y0 - a.y1);
  return Math.hypot(dx, dy);
}

/** The "+" signs of a reaction drawing: a vertical and a horizontal stroke without a class, crossing at their middles. */
export function plusSigns(svg: string): { box: Box; parts: Element[] }[] {
  const strokes = elementsOf(svg).filter((e) => e.tag === 'path' && e.cls === null);
  const out: { box: Box; parts: Element[] }[] = [];
  for (const v of strokes) {
    const vw = v.box.x1 - v.box.x0;
    const vh = v.box.y1 - v.box.y0;
    if (vh <= vw) continue;
    const cx = (v.box.x0 + v.box.x1) / 2;
    const cy = (v.box.y0 + v.box.y1) / 2;
    const hz = strokes.find(
      (s) =>
        s !== v &&
        s.box.x1 - s.box.x0 > s.box.y1 - s.box.y0 &&
        Math.abs((s.box.x0 + s.box.x1) / 2 - cx) < 0.6 &&
        Math.abs((s.box.y0 + s.box.y1) / 2 - cy) < 0.6 &&
        Math.abs(s.box.x1 - s.box.x0 - vh) < 1,
    );
    if (!hz) continue;
    out.push({ box: { x0: hz.box.x0, y0: v.box.y0, x1: hz.box.x1, y1: v.box.y1 }, parts: [v, hz] });
  }
  return out;
}

/** For each "+", the smallest gap between it and any other element of the drawing. */
export function plusClearances(svg: string): { plus: Box; clearance: number; nearest: Element }[] {
  const all = elementsOf(svg);
  return plusSigns(svg).map((p) => {
    let best: { clearance: number; nearest: Element } | null = null;
    for (const e of all) {
      if (p.parts.includes(e) || p.parts.some((q) => q.box.x0 === e.box.x0 && q.box.y0 === e.box.y0 && q.box.x1 === e.box.x1 && q.box.y1 === e.box.y1)) continue;
      const g = gap(p.box, e.box);
      if (!best || g < best.clearance) best = { clearance: g, nearest: e };
    }
    if (!best) throw new Error('a "+" alone in the drawing');
    return { plus: p.box, ...best };
  });
}
