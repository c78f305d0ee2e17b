// The SVG sanitizer on its own: hostile documents never survive it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeSvg, SvgRejected } from '../../src/chem/svg.js';
import { assertSafeSvg, markupOf } from './svg-check.js';

const size = { width: 300, height: 220 };

const HEADER = `<?xml version='1.0' encoding='iso-8859-1'?>
<svg version='1.1' baseProfile='full'
              xmlns='http://www.w3.org/2000/svg'
                      xmlns:rdkit='http://www.rdkit.org/xml'
                      xmlns:xlink='http://www.w3.org/1999/xlink'
                  xml:space='preserve'
width='300px' height='220px' viewBox='0 0 300 220'>
<!-- END OF HEADER -->
<rect style='opacity:1.0;fill:#FFFFFF;stroke:none' width='300.0' height='220.0' x='0.0' y='0.0'> </rect>
`;

const wrap = (body: string) => `${HEADER}${body}\n</svg>\n`;

describe('SVG sanitizer', () => {
  it('keeps the drawing of an RDKit document and rewrites the root to the requested size', () => {
    const raw = wrap(
      `<path class='bond-0 atom-0 atom-1' d='M 166.2,178.6 L 245.4,178.6' style='fill:none;fill-rule:evenodd;stroke:#000000;stroke-width:2.0px;stroke-linecap:butt;stroke-linejoin:miter;stroke-opacity:1' />\n` +
        `<path class='atom-2' d='M 376.9 138.1\nQ 376.9 135.4, 378.2 134.0\nZ' fill='#FF0000'/>\n` +
        `<ellipse cx='10' cy='12' rx='3' ry='3' style='fill:#000000;stroke:#000000' />\n` +
        `<text x='5' y='9' style='font-size:12px;font-family:sans-serif;text-anchor:start;fill:#0000FF'><tspan>NH</tspan><tspan style='baseline-shift:sub;font-size:8px'>2</tspan></text>`,
    );
    const out = sanitizeSvg(raw, { width: 320, height: 240 });
    assertSafeSvg(out, 320, 240);
    assert.match(out, /<path class="bond-0 atom-0 atom-1" d="M 166\.2,178\.6 L 245\.4,178\.6" style="fill:none;fill-rule:evenodd;stroke:#000000;stroke-width:2\.0px;/);
    assert.match(out, /<path class="atom-2" d="M 376\.9 138\.1\nQ 376\.9 135\.4, 378\.2 134\.0\nZ" fill="#FF0000"\/>/);
    assert.match(out, /<ellipse cx="10" cy="12" rx="3" ry="3"/);
    assert.match(out, /<tspan>NH<\/tspan>/);
    assert.match(out, /<tspan style="font-size:8px">2<\/tspan>/, 'unknown style properties are dropped, known ones kept');
    assert.doesNotMatch(out, /rdkit|xml:space|iso-8859-1|END OF HEADER/);
  });

  const hostile: [string, string][] = [
    ['script element', `<script>alert(1)</script><script type='text/javascript'><![CDATA[alert(2)]]></script>`],
    ['upper-case and namespaced script', `<SCRIPT>alert(1)</SCRIPT><svg:script>alert(2)</svg:script>`],
    ['self-closing script with src', `<script href='https://evil.example/x.js'/><script xlink:href='//evil.example/y.js'/>`],
    ['event handlers', `<path d='M 0 0 L 1 1' onload='alert(1)' onclick="alert(2)" ONMOUSEOVER='alert(3)' onfocusin='x'/>`],
    [
      'foreignObject with HTML',
      `<foreignObject width='100' height='100'><body xmlns='http://www.w3.org/1999/xhtml'><iframe src='javascript:alert(1)'></iframe><img src='x' onerror='alert(1)'/></body></foreignObject>`,
    ],
    [
      'links and use',
      `<a href='javascript:alert(1)'><path d='M 0 0'/></a><a xlink:href='https://evil.example'><text>click</text></a><use href='https://evil.example/s.svg#x'/><use xlink:href='#local'/>`,
    ],
    ['external images', `<image href='https://evil.example/t.png' width='10' height='10'/><image xlink:href='data:image/svg+xml;base64,PHN2Zz4='/>`],
    [
      'url() in styles and attributes',
      `<path d='M 0 0' style='fill:url(https://evil.example/p.svg#g);stroke:#000000'/><rect fill='url(#x)' stroke='url( "https://evil.example" )' width='1' height='1'/><path d='M0 0' style='background-image:url(javascript:alert(1))'/>`,
    ],
    [
      'CSS tricks',
      `<path d='M0 0' style='behavior:url(x.htc);-moz-binding:url(x);width:expression(alert(1));fill:#000\\000;stroke:var(--x)'/><style>@import url(https://evil.example/x.css); *{fill:red}</style>`,
    ],
    ['animation that sets href', `<animate attributeName='href' to='javascript:alert(1)'/><set attributeName='onmouseover' to='alert(1)'/><animateTransform/>`],
    ['entity-encoded javascript', `<path d='M 0 0' fill='&#x6A;avascript:alert(1)' class='&lt;script&gt;'/><text>&lt;script&gt;alert(1)&lt;/script&gt;</text>`],
    ['nested svg and iframe', `<svg onload='alert(1)'><path d='M 0 0'/></svg><iframe src='https://evil.example'></iframe><embed src='x'/><object data='x'></object>`],
    ['metadata with markup', `<metadata><rdkit:mol xmlns:rdkit='http://www.rdkit.org/xml'><rdkit:atom idx='1' label='&lt;img src=x onerror=alert(1)&gt;'/></rdkit:mol></metadata>`],
    ['transform injection', `<g transform='translate(1,2) url(https://evil.example)'><path d='M 0 0 javascript:alert(1)'/></g>`],
  ];

  for (const [what, body] of hostile) {
    it(`removes ${what}`, () => {
      let out: string;
      try {
        out = sanitizeSvg(wrap(body), size);
      } catch (err) {
        // Refusing the whole drawing (render_failed) is also safe.
        assert.ok(err instanceof SvgRejected, String(err));
        return;
      }
      assertSafeSvg(out, size.width, size.height);
      assert.doesNotMatch(markupOf(out), /alert|evil\.example/);
    });
  }

  it('escapes text content: markup in labels is shown, never parsed', () => {
    const out = sanitizeSvg(wrap(`<text x='1' y='2'>&lt;b onmouseover=alert(1)&gt;R&amp;D</text>`), size);
    assertSafeSvg(out, 300, 220);
    assert.match(out, /<text x="1" y="2">&lt;b onmouseover=alert\(1\)&gt;R&amp;D<\/text>/);
  });

  it('keeps a local class and the allowed attributes only', () => {
    const out = sanitizeSvg(wrap(`<path class='atom-1' d='M 1 1' id='x' data-x='1' fill='#00CC00' fill='red' stroke-dasharray='1,1.33333' />`), size);
    assert.match(out, /<path class="atom-1" d="M 1 1" fill="#00CC00" stroke-dasharray="1,1.33333"\/>/);
  });

  const malformed: [string, string][] = [
    ['DOCTYPE with entities', `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg width='1' height='1'><text>&xxe;</text></svg>`],
    ['unknown entity', wrap(`<text>&xxe;</text>`)],
    ['unquoted attribute', wrap(`<path d=M0 onload=alert(1) />`)],
    ['mismatched tags', wrap(`<g><path d='M 0 0'></g></path>`)],
    ['unterminated tag', wrap(`<path d='M 0 0'`)],
    ['a second document after the first', `${wrap('')}<svg onload='alert(1)'></svg>`],
    ['not an svg', `<html><script>alert(1)</script></html>`],
    ['truncated document', HEADER],
    ['CDATA section', wrap(`<text><![CDATA[<script>alert(1)</script>]]></text>`)],
  ];
  for (const [what, raw] of malformed) {
    it(`refuses a document with ${what}`, () => {
      assert.throws(() => sanitizeSvg(raw, size), SvgRejected);
    });
  }
});
