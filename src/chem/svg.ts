// Rebuilds an SVG drawing from RDKit through a strict allowlist, so the document is safe to
// inline in a web page whatever the input molecule carried (atom labels, aliases, notes):
//
// - only plain drawing elements survive (svg, g, path, rect, circle, ellipse, line, polyline,
//   polygon, text, tspan, title, desc); any other element is dropped with everything inside it
//   (script, style, foreignObject, a, use, image, animate, set, metadata, ...);
// - only presentation attributes survive, each value checked against a pattern for its kind
//   (numbers, path data, colours, class names); no event handler (on*), no href of any kind,
//   no url(), no parentheses in styles at all, no namespaced attributes;
// - comments, processing instructions, DOCTYPE and CDATA are removed; entities are decoded and
//   everything is re-escaped on output;
// - the root element is written anew with the requested width, height and viewBox.
//
// Anything that does not tokenize as the simple XML RDKit writes makes the drawing fail
// (render_failed) instead of being passed through.

export class SvgRejected extends Error {}

const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc']);

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:px|%)?$/;
// Path data is the bulk of a drawing (atom labels are glyph outlines): checked with a table.
const PATH_CHARS = new Uint8Array(128);
for (const c of 'MmLlHhVvCcSsQqTtAaZz0123456789eE.,+- \t\n\r') PATH_CHARS[c.charCodeAt(0)] = 1;
const PATH_DATA = {
  test(v: string): boolean {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 128 || PATH_CHARS[c] === 0) return false;
    }
    return true;
  },
};
const POINTS = /^[0-9eE.,\s+-]*$/;
// Colours and keywords: #hex, names, numbers, lists of numbers (dash arrays). No parentheses,
// so no url(), expression(), var(), attr(), image-set(), ...
const SAFE_VALUE = /^[#A-Za-z0-9.,%\s-]*$/;
const CLASS_VALUE = /^[A-Za-z0-9_\s-]*$/;
const FONT_FAMILY = /^[A-Za-z0-9\s,'"-]*$/;
const TRANSFORM = /^(?:\s*(?:matrix|translate|scale|rotate|skewX|skewY)\s*\(\s*[-+0-9eE.,\s]*\)\s*,?)*\s*$/;

type Check = { test(value: string): boolean };
const ATTRIBUTES: Record<string, Check> = {
  class: CLASS_VALUE,
  d: PATH_DATA,
  points: POINTS,
  x: NUMBER,
  y: NUMBER,
  x1: NUMBER,
  y1: NUMBER,
  x2: NUMBER,
  y2: NUMBER,
  cx: NUMBER,
  cy: NUMBER,
  r: NUMBER,
  rx: NUMBER,
  ry: NUMBER,
  dx: NUMBER,
  dy: NUMBER,
  width: NUMBER,
  height: NUMBER,
  transform: TRANSFORM,
  fill: SAFE_VALUE,
  'fill-opacity': NUMBER,
  'fill-rule': SAFE_VALUE,
  stroke: SAFE_VALUE,
  'stroke-width': NUMBER,
  'stroke-opacity': NUMBER,
  'stroke-linecap': SAFE_VALUE,
  'stroke-linejoin': SAFE_VALUE,
  'stroke-miterlimit': NUMBER,
  'stroke-dasharray': SAFE_VALUE,
  opacity: NUMBER,
  'font-family': FONT_FAMILY,
  'font-size': NUMBER,
  'font-weight': SAFE_VALUE,
  'font-style': SAFE_VALUE,
  'text-anchor': SAFE_VALUE,
  'dominant-baseline': SAFE_VALUE,
};

const STYLE_PROPERTIES = new Set([
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
]);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '';
      return String.fromCodePoint(code);
    }
    const named = NAMED_ENTITIES[body];
    if (named === undefined) throw new SvgRejected(`unknown entity ${m}`);
    return named;
  });
}

function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const NEEDS_ATTR_ESCAPE = /[&<>"]/;
function escapeAttr(s: string): string {
  if (!NEEDS_ATTR_ESCAPE.test(s)) return s;
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** Drops control characters other than tab, newline and carriage return: they never belong in a drawing. */
function stripControl(s: string): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) {
      out += s.slice(from, k);
      from = k + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

// A drawing repeats a handful of style strings many times: remember their cleaned form.
const styleMemo = new Map<string, string | null>();

function cleanStyle(value: string): string | null {
  const known = styleMemo.get(value);
  if (known !== undefined) return known;
  const cleaned = cleanStyleUncached(value);
  if (styleMemo.size >= 1024) styleMemo.clear();
  styleMemo.set(value, cleaned);
  return cleaned;
}

function cleanStyleUncached(value: string): string | null {
  const out: string[] = [];
  for (const decl of value.split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    const prop = decl.slice(0, colon).trim().toLowerCase();
    const val = decl.slice(colon + 1).trim();
    if (!STYLE_PROPERTIES.has(prop)) continue;
    const check = prop === 'font-family' ? FONT_FAMILY : SAFE_VALUE;
    if (!check.test(val)) continue;
    out.push(`${prop}:${val}`);
  }
  return out.length ? out.join(';') : null;
}

function cleanAttribute(name: string, rawValue: string): string | null {
  if (name === 'style') return cleanStyle(rawValue);
  const check = ATTRIBUTES[name];
  if (!check) return null;
  const v = rawValue.trim();
  return check.test(v) ? v : null;
}

// One XML token at a time: tags (with attributes), text, comments, declarations.
const NAME = '[A-Za-z_][A-Za-z0-9_.:-]*';
const ATTR_RE = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:'([^'<]*)'|"([^"<]*)")`, 'y');
const OPEN_NAME_RE = new RegExp(`<(${NAME})`, 'y');
const CLOSE_RE = new RegExp(`</(${NAME})\\s*>`, 'y');
const TAG_END_RE = /\s*(\/?)>/y;

export interface SvgSize {
  width: number;
  height: number;
}

/** Returns a standalone, inline-safe SVG document of exactly `size`, or throws SvgRejected. */
export function sanitizeSvg(raw: string, size: SvgSize): string {
  const out: string[] = [];
  const stack: string[] = []; // open element names (lower case), allowed or not
  let skipDepth = 0; // > 0 while inside a dropped element
  let sawRoot = false;
  let rootClosed = false;
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const lt = raw.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const text = raw.slice(i, textEnd);
      if (text.includes('>')) throw new SvgRejected('stray ">" in text');
      if (skipDepth === 0 && stack.length > 0 && /\S/.test(text)) {
        out.push(escapeText(stripControl(decodeEntities(text))));
      } else if (skipDepth === 0 && stack.length > 0) {
        out.push(text.includes('\n') ? '\n' : ' ');
      }
      i = textEnd;
      if (lt < 0) break;
    }
    // raw[i] === '<'
    if (raw.startsWith('<!--', i)) {
      const end = raw.indexOf('-->', i + 4);
      if (end < 0) throw new SvgRejected('unterminated comment');
      i = end + 3;
      continue;
    }
    if (raw.startsWith('<?', i)) {
      if (sawRoot) throw new SvgRejected('processing instruction inside the drawing');
      const end = raw.indexOf('?>', i + 2);
      if (end < 0) throw new SvgRejected('unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (raw.startsWith('<!', i)) throw new SvgRejected('DOCTYPE, CDATA and other declarations are not accepted');
    if (raw.startsWith('</', i)) {
      CLOSE_RE.lastIndex = i;
      const closeName = CLOSE_RE.exec(raw)?.[1];
      if (closeName === undefined) throw new SvgRejected('malformed end tag');
      const name = closeName.toLowerCase();
      const open = stack.pop();
      if (open !== name) throw new SvgRejected(`end tag </${name}> does not match <${open ?? ''}>`);
      if (skipDepth > 0) skipDepth--;
      else out.push(`</${name}>`);
      if (stack.length === 0) rootClosed = true;
      i = CLOSE_RE.lastIndex;
      continue;
    }
    OPEN_NAME_RE.lastIndex = i;
    const openName = OPEN_NAME_RE.exec(raw)?.[1];
    if (openName === undefined) throw new SvgRejected('malformed tag');
    const name = openName.toLowerCase();
    let j = OPEN_NAME_RE.lastIndex;
    const attrs: [string, string][] = [];
    for (;;) {
      ATTR_RE.lastIndex = j;
      const am = ATTR_RE.exec(raw);
      const attrName = am?.[1];
      if (am === null || attrName === undefined) break;
      attrs.push([attrName, am[2] ?? am[3] ?? '']);
      j = ATTR_RE.lastIndex;
    }
    TAG_END_RE.lastIndex = j;
    const em = TAG_END_RE.exec(raw);
    if (!em) throw new SvgRejected(`malformed attributes in <${name}>`);
    i = TAG_END_RE.lastIndex;
    const selfClosing = em[1] === '/';

    if (!sawRoot) {
      if (name !== 'svg') throw new SvgRejected('the document element is not <svg>');
      sawRoot = true;
      out.push(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}">`);
      if (selfClosing) {
        out.push('</svg>');
        rootClosed = true;
      } else stack.push(name);
      continue;
    }
    if (rootClosed) throw new SvgRejected('content after the document element');

    const keep = skipDepth === 0 && ALLOWED_ELEMENTS.has(name) && name !== 'svg';
    if (keep) {
      let tag = `<${name}`;
      const seen = new Set<string>();
      for (const [an, av] of attrs) {
        const lname = an.toLowerCase();
        if (seen.has(lname)) continue;
        seen.add(lname);
        // Every allowed value pattern excludes control characters, quotes aside only in fonts.
        const value = cleanAttribute(lname, decodeEntities(av));
        if (value !== null) tag += ` ${lname}="${escapeAttr(value)}"`;
      }
      out.push(selfClosing ? `${tag}/>` : `${tag}>`);
      if (!selfClosing) stack.push(name);
    } else if (!selfClosing) {
      stack.push(name);
      skipDepth++;
    }
  }
  if (!sawRoot || !rootClosed || stack.length > 0) throw new SvgRejected('incomplete document');
  return out.join('');
}
