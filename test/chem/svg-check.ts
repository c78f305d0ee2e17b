// An independent check that an SVG document is safe to inline in a web page, used by the
// depiction tests on every drawing they get back. Deliberately written apart from
// src/chem/svg.ts (it does not reuse its allowlist), so a sanitizer bug cannot hide itself.
import assert from 'node:assert/strict';

const DRAWING_ELEMENTS = new Set(['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc']);

/** The tags of a document without the text between them. */
export function markupOf(svg: string): string {
  return (svg.match(/<[^>]*>/g) ?? []).join('');
}

/** Asserts `svg` is one <svg> document of the given size with nothing active or external in it. */
export function assertSafeSvg(svg: string, width: number, height: number): void {
  assert.ok(svg.startsWith('<svg '), 'the document starts with <svg');
  assert.ok(svg.trimEnd().endsWith('</svg>'), 'the document ends with </svg>');
  const root = /^<svg([^>]*)>/.exec(svg)?.[1];
  assert.ok(root !== undefined, 'the document starts with an <svg> tag');
  assert.match(root, /\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(root, new RegExp(`\\swidth="${width}"`));
  assert.match(root, new RegExp(`\\sheight="${height}"`));
  assert.match(root, new RegExp(`\\sviewBox="0 0 ${width} ${height}"`));
  assert.equal((svg.match(/<svg[\s>]/g) ?? []).length, 1, 'one svg element');

  assert.doesNotMatch(svg, /<!|<\?|\]\]>/, 'no DOCTYPE, CDATA, comments or processing instructions');
  // Markup only (text between tags is escaped and may say anything).
  const tags = markupOf(svg);
  assert.doesNotMatch(tags, /script/i);
  assert.doesNotMatch(tags, /javascript:|vbscript:|data:/i);
  assert.doesNotMatch(tags, /url\s*\(|expression\s*\(|@import/i, 'no url(), expression() or @import');
  assert.doesNotMatch(tags, /href/i, 'no href or xlink:href');
  assert.doesNotMatch(tags, /foreignObject|<iframe|<object|<embed|<image|<use[\s>/]|<style|<a[\s>]|<animate|<set[\s>/]/i);

  let depth = 0;
  for (const m of svg.matchAll(/<(\/?)([A-Za-z][\w:.-]*)([^>]*)>/g)) {
    const [, closing, name, rest] = m;
    assert.ok(name !== undefined && rest !== undefined); // (both groups always take part in a match)
    assert.ok(DRAWING_ELEMENTS.has(name), `element <${name}> is a plain drawing element`);
    if (closing) {
      depth--;
      continue;
    }
    if (!rest.endsWith('/')) depth++;
    for (const a of rest.matchAll(/\s([^\s=/]+)\s*=\s*"([^"]*)"/g)) {
      const [, attrName, value] = a;
      assert.ok(attrName !== undefined && value !== undefined);
      const attr = attrName.toLowerCase();
      assert.ok(!attr.startsWith('on'), `no event handler attribute (${attr})`);
      assert.ok(!attr.includes(':') || attr === 'xmlns', `no namespaced attribute (${attr})`);
      assert.doesNotMatch(value, /[<>]/, 'attribute values are escaped');
    }
    // Every attribute is name="value": nothing unquoted or half-open slips through.
    assert.equal(rest.replace(/\s[^\s=/]+\s*=\s*"[^"]*"/g, '').replace(/\s*\/?$/, ''), '', `attributes of <${name}> are all quoted`);
  }
  assert.equal(depth, 0, 'tags are balanced');
  // Text between tags never carries a raw '<' or '>'.
  for (const t of svg.split(/<[^>]*>/)) assert.doesNotMatch(t, /[<>]/);
}
