// POST /depict and POST /depict/reactions over real HTTP (PGlite backend: the chemistry routes
// touch the database only for authentication).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChemPool } from '../../src/chem/pool.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertSafeSvg, markupOf } from './svg-check.js';

const pglite = BACKENDS.find((b) => b.name === 'pglite')!;

/** A 200 body, or a problem (422 errors, 403 type) for the failure cases. */
type Body = { items: Item[]; errors: { loc: unknown; type: string }[]; type: string; retry: string };

interface Item {
  svg: string | null;
  error: string | null;
}

/** The drawing of item k of a 200 body, asserted to be there. */
function svgOf(body: Body, k: number): string {
  const svg = body.items[k]?.svg;
  assert.ok(svg, `item ${k} has a drawing`);
  return svg;
}

/** Bounding box of every number pair in a path's d attribute. */
function bbox(d: string): { x0: number; x1: number; y0: number; y1: number } {
  const nums = (d.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const xs = nums.filter((_, i) => i % 2 === 0);
  const ys = nums.filter((_, i) => i % 2 === 1);
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
}

/** The reaction arrow: RDKit's only long horizontal line without a class. */
function arrowOf(svg: string): { x0: number; x1: number; y: number } {
  for (const m of svg.matchAll(/<path d="M ([\d.]+),([\d.]+) L ([\d.]+),([\d.]+)"/g)) {
    const [x0, y0, x1, y1] = m.slice(1).map(Number);
    assert.ok(x0 !== undefined && y0 !== undefined && x1 !== undefined && y1 !== undefined);
    if (y0 === y1 && x1 - x0 > 40) return { x0, x1, y: y0 };
  }
  throw new Error('no arrow in the reaction drawing');
}

/** Atom labels (SVG text) drawn above the arrow, between its ends: the agents. */
function labelsAboveArrow(svg: string): string[] {
  const arrow = arrowOf(svg);
  const out: string[] = [];
  for (const m of svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) {
    const [, x, y, label] = m;
    assert.ok(label !== undefined);
    if (Number(x) >= arrow.x0 - 1 && Number(x) <= arrow.x1 + 1 && Number(y) < arrow.y) out.push(label);
  }
  return out;
}

describe('structure drawings API', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness(pglite, { CRUCIBLE_CHEM_THREADS: '2' });
    token = (await h.user()).token;
  });
  after(async () => h?.close());

  const depict = (body: unknown, auth: { token?: string; key?: string } = { token }) => h.req<Body>('POST', '/api/v1/depict', { ...auth, body });
  const reactions = (body: unknown, auth: { token?: string; key?: string } = { token }) => h.req<Body>('POST', '/api/v1/depict/reactions', { ...auth, body });

  it('draws each molecule, in input order, with per-item errors', async () => {
    const smiles = ['CC(=O)Oc1ccccc1C(=O)O', 'this is not SMILES', 'C'.repeat(2001), 'c1ccccc1', '', 'C'.repeat(201), 'C1CC', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C'];
    const r = await depict({ smiles });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['items']);
    assert.equal(r.body.items.length, smiles.length);
    assert.deepEqual(
      r.body.items.map((i) => i.error),
      [null, 'unparseable', 'too_large', null, 'unparseable', 'too_large', 'unparseable', null],
    );
    for (const item of r.body.items) {
      assert.deepEqual(Object.keys(item).sort(), ['detail', 'error', 'svg']);
      if (item.error) assert.equal(item.svg, null);
      else assertSafeSvg(item.svg!, 300, 220);
    }
    // Each drawing is its own molecule: aspirin 13 bonds, benzene 6, caffeine 15; labels are text.
    const bonds = (svg: string) => new Set(svg.match(/bond-\d+/g)).size;
    assert.equal(bonds(svgOf(r.body, 0)), 13);
    assert.equal(bonds(svgOf(r.body, 3)), 6);
    assert.equal(bonds(svgOf(r.body, 7)), 15);
    const labels = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join('');
    assert.equal(labels(svgOf(r.body, 0)).replace(/[^O]/g, ''), 'OOOO');
    assert.equal(labels(svgOf(r.body, 7)).replace(/[^N]/g, ''), 'NNNN');
  });

  it('honours width and height, with the reference defaults and bounds', async () => {
    const sizes: [number, number][] = [
      [100, 100],
      [600, 600],
      [450, 130],
    ];
    for (const [w, hgt] of sizes) {
      const r = await depict({ smiles: ['c1ccccc1O'], width: w, height: hgt });
      assert.equal(r.status, 200);
      assertSafeSvg(svgOf(r.body, 0), w, hgt);
      assert.match(svgOf(r.body, 0), new RegExp(`<rect [^>]*width="${w}\\.0" height="${hgt}\\.0"`), 'RDKit drew at that size');
    }
    const rx = await reactions({ reactions: ['CCO>>CC=O'] });
    assertSafeSvg(svgOf(rx.body, 0), 600, 220);
    const rx2 = await reactions({ reactions: ['CCO>>CC=O'], width: 900, height: 100 });
    assertSafeSvg(svgOf(rx2.body, 0), 900, 100);
  });

  it('draws reactions: reactants, arrow, agents above it when present, products', async () => {
    const r = await reactions({
      reactions: ['CC(=O)O.OCC>[H+].O>CC(=O)OCC.O', 'CC(=O)O.OCC>>CC(=O)OCC.O', 'CCO', 'C1CC>>CC', 'x'.repeat(2001), `${'C'.repeat(150)}>>${'C'.repeat(60)}`],
    });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.items.map((i) => i.error),
      [null, null, 'unparseable', 'unparseable', 'too_large', 'too_large'],
    );
    const [withAgents, without] = r.body.items.map((i) => i.svg);
    assert.ok(withAgents && without);
    assertSafeSvg(withAgents, 600, 220);
    assertSafeSvg(without, 600, 220);
    // Agents ([H+] and water) are drawn above the arrow; without agents nothing is there.
    const agents = labelsAboveArrow(withAgents).join('');
    assert.equal(agents, 'H+H2O', `agent labels above the arrow: ${agents}`);
    assert.deepEqual(labelsAboveArrow(without), []);
    // Reactants left of the arrow and products right of it (bonds of both sides).
    const arrow = arrowOf(without);
    const bondBoxes = [...without.matchAll(/<path class="bond-\d+[^"]*" d="([^"]*)"/g)].map(([, d]) => {
      assert.ok(d !== undefined);
      return bbox(d);
    });
    assert.ok(bondBoxes.some((b) => b.x1 < arrow.x0));
    assert.ok(bondBoxes.some((b) => b.x0 > arrow.x1));
  });

  it('never lets hostile content through (labels, aliases, non-SMILES formats)', async () => {
    const hostile = [
      '*C |$<script>alert(1)</script>;$|',
      'C[*:1] |$foo" onload="alert(1);$|',
      'CC* |$;;</svg><svg onload=alert(1)>$|',
      "CCO |$<a href='javascript:alert(1)'>x</a>;;$|",
      'c1ccccc1 <script>alert(1)</script>',
      '\n  RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nA    1\n<script>alert(1)</script>\nM  END\n',
      '{"commonchem":{"version":10},"molecules":[{"name":"<script>alert(1)</script>","atoms":[{"z":6}]}]}',
      'InChI=1S/CH4/h1H4',
    ];
    const r = await depict({ smiles: hostile });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.items.map((i) => i.error),
      [null, null, null, null, null, 'unparseable', 'unparseable', 'unparseable'],
    );
    for (const item of r.body.items) if (item.svg) assertSafeSvg(item.svg, 300, 220);
    // Labels are drawn as text, escaped: markup in them is shown, never parsed.
    const text = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join('');
    assert.match(text(svgOf(r.body, 0)), /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    for (const item of r.body.items) if (item.svg) assert.doesNotMatch(markupOf(item.svg), /script|onload|javascript/i);

    const rx = await reactions({ reactions: ['[*:1]C>>[*:1]CO |$<img src=x onerror=alert(1)>;;;;$|', 'CC>[Na+]<script>>CC'] });
    assert.equal(rx.status, 200);
    for (const item of rx.body.items) if (item.svg) assertSafeSvg(item.svg, 600, 220);
    for (const item of rx.body.items) if (item.svg) assert.doesNotMatch(markupOf(item.svg), /script|onerror|<img/i);
    assert.doesNotMatch(rx.text, /<script|<img/i);
  });

  it('rejects malformed requests with 422 and loc at the item or field', async () => {
    const cases: [unknown, (string | number)[], string][] = [
      [{ smiles: [] }, ['body', 'smiles'], 'too_short'],
      [{ smiles: Array.from({ length: 21 }, () => 'C') }, ['body', 'smiles'], 'too_long'],
      [{ smiles: ['C', 'CC', 5] }, ['body', 'smiles', 2], 'string_type'],
      [{ smiles: ['C', null] }, ['body', 'smiles', 1], 'string_type'],
      [{ smiles: 'CCO' }, ['body', 'smiles'], 'list_type'],
      [{}, ['body', 'smiles'], 'missing'],
      [{ smiles: ['C'], width: 99 }, ['body', 'width'], 'greater_than_equal'],
      [{ smiles: ['C'], width: 601 }, ['body', 'width'], 'less_than_equal'],
      [{ smiles: ['C'], height: 601 }, ['body', 'height'], 'less_than_equal'],
      [{ smiles: ['C'], height: 250.5 }, ['body', 'height'], 'int_type'],
      [{ smiles: ['C'], width: '300' }, ['body', 'width'], 'int_type'],
      [{ smiles: ['C'], colour: 'red' }, ['body', 'colour'], 'extra_forbidden'],
    ];
    for (const [body, loc, type] of cases) {
      const r = await depict(body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.ok(
        r.body.errors.some((e: { loc: unknown; type: string }) => JSON.stringify(e.loc) === JSON.stringify(loc) && e.type === type),
        `${JSON.stringify(body)} -> ${JSON.stringify(r.body.errors)}`,
      );
    }
    const rxCases: [unknown, (string | number)[], string][] = [
      [{ reactions: [] }, ['body', 'reactions'], 'too_short'],
      [{ reactions: Array.from({ length: 21 }, () => 'CC>>C') }, ['body', 'reactions'], 'too_long'],
      [{ reactions: ['CC>>C', {}] }, ['body', 'reactions', 1], 'string_type'],
      [{ reactions: ['CC>>C'], width: 199 }, ['body', 'width'], 'greater_than_equal'],
      [{ reactions: ['CC>>C'], width: 901 }, ['body', 'width'], 'less_than_equal'],
      [{ reactions: ['CC>>C'], height: 99 }, ['body', 'height'], 'greater_than_equal'],
      [{ smiles: ['CC>>C'] }, ['body', 'smiles'], 'extra_forbidden'],
    ];
    for (const [body, loc, type] of rxCases) {
      const r = await reactions(body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.ok(
        r.body.errors.some((e: { loc: unknown; type: string }) => JSON.stringify(e.loc) === JSON.stringify(loc) && e.type === type),
        `${JSON.stringify(body)} -> ${JSON.stringify(r.body.errors)}`,
      );
    }
  });

  it('needs a credential with the read scope', async () => {
    const none = await h.req('POST', '/api/v1/depict', { body: { smiles: ['C'] } });
    assert.equal(none.status, 401);
    const u = await h.user();
    const writeOnly = await h.key(u.token, { scopes: ['write'] });
    for (const path of ['/api/v1/depict', '/api/v1/depict/reactions']) {
      const body = path.endsWith('reactions') ? { reactions: ['C>>C'] } : { smiles: ['C'] };
      const denied = await h.req('POST', path, { key: writeOnly.secret, body });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.type, '/api/v1/problems/insufficient-scope');
    }
    const readOnly = await h.key(u.token, { scopes: ['read'] });
    const ok = await depict({ smiles: ['CCO'] }, { key: readOnly.secret });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.items[0]?.error, null);
    const rxOk = await reactions({ reactions: ['CCO>>CC=O'] }, { key: readOnly.secret });
    assert.equal(rxOk.status, 200);
  });

  it('serves repeated drawings from the cache, keyed by canonical SMILES and size', async () => {
    const chem = h.services.chem;
    const first = await depict({ smiles: ['OC(=O)c1ccccc1O', 'CCCCBr'], width: 310 });
    const hits0 = chem.cache.stats().hits;
    const tasks0 = chem.stats().tasks;
    const again = await depict({ smiles: ['CCCCBr', 'OC(=O)c1ccccc1O'], width: 310 });
    assert.equal(chem.stats().tasks, tasks0, 'answered without the workers');
    assert.equal(chem.cache.stats().hits - hits0, 2);
    assert.equal(svgOf(again.body, 0), svgOf(first.body, 1));
    assert.equal(svgOf(again.body, 1), svgOf(first.body, 0));
    // Another size is another drawing.
    const other = await depict({ smiles: ['CCCCBr'], width: 320 });
    assert.ok(chem.stats().tasks > tasks0);
    assertSafeSvg(svgOf(other.body, 0), 320, 220);
    // A new spelling is computed once (the worker canonicalises it), then gets the cached
    // picture: the one drawn from the spelling sent first, as given (drawings are made from the
    // input as given, not from canonical SMILES), returned through the cache entry both share.
    const respelled = await depict({ smiles: ['BrCCCC'], width: 310 });
    assert.equal(svgOf(respelled.body, 0), svgOf(first.body, 1));
  });

  it('a hung or crashing molecule fails alone; the service keeps serving', async () => {
    const original = h.services.chem;
    const faulty = new ChemPool({ threads: 2, itemTimeoutMs: 2_000, faults: { hang: ['CCC(C)(C)C hang'], crash: ['CCC(C)(C)C crash'] } });
    h.services.chem = faulty;
    try {
      const smiles = ['CCO', 'CCC(C)(C)C hang', 'c1ccccc1', 'CCN', 'CCC(C)(C)C crash', 'CC(=O)O'];
      const r = await depict({ smiles });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.items.map((i) => i.error),
        [null, 'render_failed', null, null, 'render_failed', null],
      );
      for (const i of [0, 2, 3, 5]) assertSafeSvg(svgOf(r.body, i), 300, 220);
      const s = faulty.stats();
      assert.equal(s.timeouts, 1);
      assert.equal(s.crashes, 1);
      const next = await depict({ smiles: ['CCO', 'CCN'] });
      assert.deepEqual(
        next.body.items.map((i) => i.error),
        [null, null],
      );
    } finally {
      h.services.chem = original;
      await faulty.close();
    }
  });

  it('is in the OpenAPI document with the read scope and its schemas', async () => {
    const r = await h.req('GET', '/openapi.json');
    const doc = r.body;
    for (const path of ['/api/v1/depict', '/api/v1/depict/reactions']) assert.ok(doc.paths[path]?.post, path);
    const schemas = doc.components.schemas;
    for (const name of ['DepictRequest', 'DepictReactionsRequest', 'Depiction', 'DepictResponse']) assert.ok(schemas[name], name);
    assert.equal(schemas.DepictRequest.properties.width.default, 300);
    assert.equal(schemas.DepictReactionsRequest.properties.width.maximum, 900);
  });
});
