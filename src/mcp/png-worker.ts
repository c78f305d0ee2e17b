// The worker thread that turns depictions and plots (SVG with <text> labels: RDKit's atom
// labels, axes, titles) into PNG with resvg compiled to WebAssembly: 20 to 60 ms an image, off
// the event loop (png.ts). resvg-wasm loads no font of its own, and an SVG's text drawn with no
// font is left out: DejaVu Sans (npm dejavu-fonts-ttf, regular and bold) is handed to it as the
// font of every family the SVGs name (sans-serif, Arial, Helvetica...). docs/mcp.md, "Drawings as PNG".
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

const require = createRequire(import.meta.url);
const ready = initWasm(fs.readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));

/** The fonts' family name: what every family in a drawing falls back to. */
export const FONT_FAMILY = 'DejaVu Sans';
const fontBuffers = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => new Uint8Array(fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${f}`))));

export default async function render(svg: string): Promise<Uint8Array> {
  await ready;
  const font = { fontBuffers, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY, serifFamily: FONT_FAMILY, monospaceFamily: FONT_FAMILY };
  return new Resvg(svg, { background: '#ffffff', font }).render().asPng();
}
