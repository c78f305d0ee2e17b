// How the drawings look, checked on their geometry and styles rather than pixels: a reaction's
// "+" keeps clear of the molecules beside it, and the substructure utility's highlighted
// drawings are /depict's drawings (same options: size, colours, font, background, bond width)
// with RDKit's highlights added (docs/chemistry-service.md, "Drawings").
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { depictMolecule, depictReaction, givePlusRoom } from '../../src/chem/depict.js';
import { loadRDKit, type RDKitModule } from '../../src/chem/rdkit.js';
import { substructure } from '../../src/chem/utilities/handlers.js';
import { assertSafeSvg } from './svg-check.js';
import { elementsOf, plusClearances, plusSigns } from './svg-geometry.js';

/** Reactions whose "+" sits between labels, charges, rings and chains. */
const REACTIONS = [
  'Brc1ccccc1.OB(O)c1ccccc1>[Pd]>c1ccc(-c2ccccc2)cc1',
  'CCO.CC(=O)O>[H+]>CC(=O)OCC',
  'Cl.N>>[NH4+].[Cl-]',
  '[Na+].[Cl-]>>[Na]Cl',
  'OC(=O)c1ccccc1.NCC>>O=C(NCC)c1ccccc1',
  'CC(=O)O.OCC>[H+].O>CC(=O)OCC.O',
  'C=CC=C.C=C>>C1=CCCCC1',
  'O.O.O>>[OH-].[H+]',
];

/** The root tag and the background rectangle: the frame every drawing shares. */
function frameOf(svg: string): string[] {
  return [/^<svg[^>]*>/.exec(svg)?.[0] ?? '', /<rect [^>]*>/.exec(svg)?.[0] ?? ''];
}

/** A style without its font size (RDKit fits the font to the drawing's scale, which highlights change slightly). */
const withoutFontSize = (style: string) => style.replace(/font-size:[^;]*;?/, '');

/** The distinct styles of a drawing's elements (text, bonds, highlights...), font sizes left out. */
function stylesOf(svg: string): Set<string> {
  return new Set([...svg.matchAll(/<(?:path|text|ellipse)[^>]* style="([^"]*)"/g)].map((m) => withoutFontSize(m[1]!)));
}

/** The atom labels: [text, fill colour] in document order. */
function labelsOf(svg: string): string[][] {
  return [...svg.matchAll(/<text [^>]*style="[^"]*fill:(#[0-9A-Fa-f]{6})[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => [m[2]!, m[1]!]);
}

const fontSizes = (svg: string) => [...svg.matchAll(/<text [^>]*font-size:(\d+(?:\.\d+)?)px/g)].map((m) => Number(m[1]));

describe('drawing style', () => {
  let rdkit: RDKitModule;
  before(async () => {
    rdkit = await loadRDKit();
  });

  it('a reaction\'s "+" keeps at least 5 px from the labels and bonds beside it at the default size, 8 px at 900x600', () => {
    for (const [size, least] of [
      [{ width: 600, height: 220 }, 5],
      [{ width: 900, height: 600 }, 8],
    ] as const) {
      for (const rxn of REACTIONS) {
        const out = depictReaction(rdkit, rxn, { ...size, key: false });
        assert.ok(out.svg, `${rxn} is drawn`);
        assertSafeSvg(out.svg, size.width, size.height);
        const pluses = plusClearances(out.svg);
        const [reactants, , products] = rxn.split('>') as [string, string, string];
        assert.equal(pluses.length, reactants.split('.').length - 1 + products.split('.').length - 1, `${rxn}: one "+" between each two reactants and each two products`);
        for (const p of pluses) {
          assert.ok(
            p.clearance >= least,
            `${rxn} at ${size.width}x${size.height}: the "+" at x ${p.plus.x0.toFixed(1)}..${p.plus.x1.toFixed(1)} is ${p.clearance.toFixed(1)} px from ${p.nearest.text || p.nearest.cls || p.nearest.tag}`,
          );
          // Still a "+" of about a label's size, not a dot.
          const fonts = fontSizes(out.svg);
          const font = fonts.length ? Math.max(...fonts) : 12;
          assert.ok(p.plus.x1 - p.plus.x0 >= 0.5 * font, `${rxn}: the "+" is ${(p.plus.x1 - p.plus.x0).toFixed(1)} px wide`);
        }
      }
    }
  });

  it('the "+" is redrawn about its own centre; bonds, labels and the arrow are untouched', () => {
    const rdkitPlus =
      '<path d="M 177.0,102.0 L 177.0,118.0" style="fill:none;fill-rule:evenodd;stroke:#000000;stroke-width:2.0px"/>\n<path d="M 169.0,110.0 L 185.0,110.0" style="fill:none;fill-rule:evenodd;stroke:#000000;stroke-width:2.0px"/>';
    const bond =
      '<path class="bond-0 atom-0 atom-1" d="M 10.0,20.0 L 10.0,40.0" style="stroke:#000000"/>\n<path class="bond-1 atom-1 atom-2" d="M 0.0,30.0 L 20.0,30.0" style="stroke:#000000"/>';
    const arrow = '<path d="M 326.0,110.0 L 366.0,110.0" style="fill:none"/>\n<path d="M 361.2,112.7 L 366.0,110.0 L 361.2,107.3" style="fill:none"/>';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="220">${bond}\n${rdkitPlus}\n${arrow}</svg>`;
    const out = givePlusRoom(svg);
    assert.ok(out.includes(bond) && out.includes(arrow));
    const [plus] = plusSigns(out);
    assert.ok(plus);
    assert.deepEqual([plus.box.x0, plus.box.x1, plus.box.y0, plus.box.y1], [172.2 - 1, 181.8 + 1, 105.2 - 1, 114.8 + 1], 'centred at (177, 110), 60 % of its size');
    assert.equal(
      givePlusRoom(out.replace('M 172.2,110.0', 'M 170.0,110.0')),
      out.replace('M 172.2,110.0', 'M 170.0,110.0'),
      'strokes that do not cross at their middles are left alone',
    );
  });

  it("the substructure utility's highlighted drawing is /depict's drawing with highlights: same frame, colours, font, bond width", () => {
    const cases: [string, string][] = [
      ['OCc1ccc(O)cc1', '[OX2H]'],
      ['CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'c1ncnc1'],
      ['Clc1ccc(S(=O)(=O)N)cc1', 'S(=O)(=O)N'],
      ['CC(=O)Oc1ccccc1C(=O)O', 'C(=O)O'],
    ];
    for (const [smiles, query] of cases) {
      const depicted = depictMolecule(rdkit, smiles, { width: 300, height: 220, key: false }).svg;
      const sub = substructure(rdkit, smiles, { query, queryFormat: 'smarts', useChirality: false, maxMatches: 1000, svg: true, inputFormat: 'smiles' });
      assert.ok(depicted && sub.svg, `${smiles}: both drawn`);
      assert.ok(sub.matched);
      assertSafeSvg(sub.svg, 300, 220);
      assert.deepEqual(frameOf(sub.svg), frameOf(depicted), `${smiles}: the same size and background`);
      // Labels are text in /depict's font and element colours (RDKit would draw highlighted heteroatoms black).
      assert.deepEqual(labelsOf(sub.svg), labelsOf(depicted), `${smiles}: the same labels in the same colours`);
      assert.ok(labelsOf(depicted).length > 0);
      const [a, b] = [fontSizes(sub.svg), fontSizes(depicted)];
      assert.ok(
        a.every((s, i) => Math.abs(s - b[i]!) <= 0.1 * b[i]!),
        `${smiles}: font sizes ${a.join(',')} vs ${b.join(',')}`,
      );
      // Every style of /depict's drawing is in the highlighted one; the only new ones are the highlights.
      const [subStyles, depStyles] = [stylesOf(sub.svg), stylesOf(depicted)];
      for (const s of depStyles) assert.ok(subStyles.has(s), `${smiles}: /depict's style ${s} is in the highlighted drawing`);
      const added = [...subStyles].filter((s) => !depStyles.has(s));
      assert.ok(added.length > 0, `${smiles}: highlights are drawn`);
      for (const s of added) assert.match(s, /#FF7F7F/, `${smiles}: ${s} is a highlight`);
      // The highlights cover the matched atoms.
      const highlighted = new Set(
        elementsOf(sub.svg)
          .filter((e) => e.tag === 'ellipse')
          .map((e) => e.cls),
      );
      for (const atom of sub.matches!.flat()) assert.ok(highlighted.has(`atom-${atom}`), `${smiles}: atom ${atom} is highlighted`);
    }
  });
});
