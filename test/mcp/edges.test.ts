// The MCP server's edges (issue 32; docs/mcp.md): params that do not fit a method are -32602,
// a call's images stop at MAX_IMAGE_DATA with a line saying what was left out, PNG drawings and
// plots carry their text (DejaVu Sans handed to resvg: an [NH4+] drawing is nothing but its
// label), and a tool's validation error names every allowed value as the API does.
// Run: node --import tsx --test test/mcp/edges.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { irSpectrumSvg } from '../../src/engines/qm/plots.js';
import { PngRenderer } from '../../src/mcp/png.js';
import { MAX_IMAGE_DATA } from '../../src/mcp/tool-kit.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { decodePng, httpClient, inkOf, toolErrorOf } from './helpers.js';

/** A peptide of about 190 heavy atoms: at 600x600 its drawing is tens of KB of PNG. */
const PEPTIDE = 'NC(CO)C(=O)' + 'NC(CS)C(=O)NC(CC(N)=O)C(=O)NC(CO)C(=O)'.repeat(8) + 'O';

const images = (r: unknown) => (r as CallToolResult).content.filter((c) => c.type === 'image') as { data: string; mimeType: string }[];
const texts = (r: unknown) => (r as CallToolResult).content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

describe('PNG drawings carry their text', () => {
  const png = new PngRenderer();
  after(() => png.close());

  it("a plot's title, axis labels and ticks are drawn", async () => {
    const svg = irSpectrumSvg({ title: 'Water', method: 'gfn2', frequencies: [1600, 3650, 3750], intensities: [60, 10, 40] });
    const image = await png.render(svg);
    // The title (top left, above the frame) and the x axis label (under the ticks) are text only.
    assert.ok(inkOf(image, { x0: 70, y0: 5, x1: 400, y1: 30 }) > 300, 'the title has ink');
    assert.ok(inkOf(image, { x0: 250, y0: 405, x1: 520, y1: 435 }) > 200, 'the x axis label has ink');
    // The same plot without its text: only the frame, grid and bands are left.
    const bare = await png.render(svg.replace(/<text[^>]*>[^<]*<\/text>/g, ''));
    assert.ok(inkOf(image) > inkOf(bare) + 2000, `text adds ink (${inkOf(image)} vs ${inkOf(bare)})`);
    // Families a drawing may name that no font is called: they fall back to DejaVu Sans.
    for (const family of ['sans-serif', 'Helvetica, Arial', 'Some Font']) {
      const t = await png.render(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="50"><text x="5" y="35" font-family="${family}" font-size="28">NO</text></svg>`);
      assert.ok(inkOf(t) > 100, `${family}: ${inkOf(t)}`);
    }
  });
});

for (const backend of onlyOn('pglite')) {
  describe(`MCP edges [${backend.name}]`, () => {
    let h: Harness;
    let client: Client;
    let key = '';
    before(async () => {
      h = await startHarness(backend);
      const u = await h.user();
      key = (await h.key(u.token)).secret;
      client = await httpClient(h.base, key);
    });
    after(async () => {
      await client?.close();
      await h?.close();
    });

    it('answers params that do not fit the method with -32602 (Invalid params)', async () => {
      const rpc = async (method: string, params: unknown) => {
        const r = await h.req('POST', '/mcp', { key, body: { jsonrpc: '2.0', id: 7, method, params }, headers: { accept: 'application/json, text/event-stream' } });
        const data = /^data: (.*)$/m.exec(r.text)?.[1] ?? r.text;
        return JSON.parse(data) as { id: number; error?: { code: number; message: string } };
      };
      for (const [method, params, field] of [
        ['tools/call', {}, /name/],
        ['tools/call', { name: 5 }, /name/],
        ['tools/call', { name: 'describe_molecules', arguments: 'CCO' }, /arguments/],
        ['resources/read', {}, /uri/],
        ['prompts/get', { name: 7 }, /name/],
      ] as const) {
        const answer = await rpc(method, params);
        assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
        assert.match(answer.error!.message, field);
      }
    });

    it('draws an [NH4+] label: a single-atom drawing has ink, and only where its label is', async () => {
      const r = await client.callTool({ name: 'depict_molecules', arguments: { smiles: ['[NH4+]'] } });
      const [image] = images(r);
      assert.ok(image, JSON.stringify(r).slice(0, 300));
      const data = Buffer.from(image.data, 'base64');
      const { width, height } = decodePng(data);
      const ink = inkOf(data);
      assert.ok(ink > 100, `the label has ink (${ink} dark pixels)`);
      // The label sits in the middle: the borders are empty.
      assert.equal(inkOf(data, { x0: 0, y0: 0, x1: width, y1: Math.round(height * 0.2) }), 0, 'nothing at the top');
      assert.equal(inkOf(data, { x0: 0, y0: 0, x1: Math.round(width * 0.2), y1: height }), 0, 'nothing at the left');
    });

    it("stops a call's images at their limit and says what was left out", async () => {
      const smiles = Array.from({ length: 20 }, (_, i) => PEPTIDE + 'C'.repeat(i));
      const r = await client.callTool({ name: 'depict_molecules', arguments: { smiles, width: 600, height: 600 } });
      const shown = images(r);
      const bytes = shown.reduce((n, i) => n + i.data.length, 0);
      assert.ok(bytes <= MAX_IMAGE_DATA, `${bytes} bytes of images`);
      assert.ok(shown.length >= 1 && shown.length < 20, `${shown.length} images`);
      const left = 20 - shown.length;
      const lines = texts(r);
      assert.equal(lines.filter((t) => /drawing left out/.test(t)).length, left);
      assert.match(lines.at(-1)!, new RegExp(`^${left} drawings? (is|are) left out: one answer carries at most 768 KiB of images`));
      // A call within the limit has every drawing.
      const small = await client.callTool({ name: 'depict_molecules', arguments: { smiles: Array(20).fill('c1ccccc1O') } });
      assert.equal(images(small).length, 20);
      assert.ok(!texts(small).some((t) => /left out/.test(t)));
    });

    it('names every allowed solvent and method in a tool error', async () => {
      const text = toolErrorOf(
        await client.callTool({ name: 'estimate_job', arguments: { job_type: 'singlepoint', payload: { molecules: ['CCO'], method: 'm06-2x', solvent: 'ethanol' } } }),
      );
      assert.match(text, /HTTP 422/);
      for (const v of ['"gfn2"', '"gfn1"', '"gfnff"', '"pm7"', '"pm6"', '"b3lyp"', '"b3lyp-d3bj"', '"water"', '"acetone"', '"toluene"'])
        assert.ok(text.includes(v.replace(/"/g, '\\"')), `${v} in ${text}`);
    });
  });
}
