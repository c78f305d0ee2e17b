// SVG depictions as PNG image content: MCP clients pass images on to their models, which take
// PNG but not SVG. One worker thread, started on first use and ended when idle (png-worker.ts).
import { Piscina } from 'piscina';
import { RUNNING_FROM_SOURCE, siblingModule } from '../paths.js';

export class PngRenderer {
  private pool: Piscina | null = null;

  async render(svg: string): Promise<Buffer> {
    this.pool ??= new Piscina({
      filename: RUNNING_FROM_SOURCE ? new URL('./png-worker-tsx.mjs', import.meta.url).href : siblingModule(import.meta.url, 'png-worker').href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });
    return Buffer.from((await this.pool.run(svg)) as Uint8Array);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
