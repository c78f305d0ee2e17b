// The pixels of a 3D view as the screen shows them (test/web/engines.test.ts,
// test/web/orbitals.test.ts): how many colours, the share that is not white, and the shares that
// are clearly blue or clearly red (an orbital's two phases).
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

export interface Pixels {
  colours: number;
  inked: number;
  blue: number;
  red: number;
  png: string;
}

/** The element's pixels, as the screen shows them: how many colours (quantised) and the share that is not white. */
export async function pixels(page: Page, el: Locator): Promise<Pixels> {
  const png = (await el.screenshot()).toString('base64');
  const stats = await page.evaluate(async (b64: string) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bmp.width, bmp.height);
    const g = canvas.getContext('2d') as unknown as {
      drawImage(b: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    const seen = new Set<number>();
    let inked = 0;
    let blue = 0;
    let red = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
      seen.add(((r >> 4) << 8) | ((gr >> 4) << 4) | (b >> 4));
      if (r < 235 || gr < 235 || b < 235) inked++;
      if (b > r + 30 && b > gr + 30) blue++;
      if (r > gr + 30 && r > b + 30) red++;
    }
    const n = d.length / 4;
    return { colours: seen.size, inked: inked / n, blue: blue / n, red: red / n };
  }, png);
  return { ...stats, png };
}

/** Waits until the canvas shows something other than its background (3Dmol draws after its chunk and the models load). */
export async function drawn(page: Page, el: Locator): Promise<Pixels> {
  for (let i = 0; ; i++) {
    const p = await pixels(page, el);
    if (p.colours > 3 && p.inked > 0.005) return p;
    if (i > 40) assert.fail(`the 3D view stays blank: ${p.colours} colours, ${(p.inked * 100).toFixed(2)} % inked`);
    await page.waitForTimeout(250);
  }
}
