// The worker thread that turns depictions (RDKit's SVG, labels drawn as paths, no fonts needed)
// into PNG with resvg compiled to WebAssembly: 20 to 60 ms an image, off the event loop (png.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

const require = createRequire(import.meta.url);
const ready = initWasm(fs.readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));

export default async function render(svg: string): Promise<Uint8Array> {
  await ready;
  return new Resvg(svg, { background: '#ffffff' }).render().asPng();
}
