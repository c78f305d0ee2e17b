// The MCP SDK's own client against a test server: over Streamable HTTP at /mcp, or over stdio
// through `crucible mcp` spawned as a process (docs/mcp.md).
import assert from 'node:assert/strict';
import path from 'node:path';
import zlib from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { crucibleArgv } from '../helpers/cli.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** `crucible mcp` from the sources (as spawnCrucible runs the CLI): node --import tsx src/main.ts mcp. */
export const MCP_COMMAND = { command: process.execPath, args: crucibleArgv(['mcp']) };

/** The environment of a spawned `crucible mcp`: only what it needs (PATH for tsx, the URL and the key). */
export function mcpEnv(base: string, key: string | null): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CRUCIBLE_URL: base, ...(key === null ? {} : { CRUCIBLE_API_KEY: key }) };
}

export async function httpClient(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'crucible-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

export interface StdioClient {
  client: Client;
  /** What the process wrote to stderr. */
  stderr(): string;
  /** Errors the client transport met reading stdout (a line that is not a JSON-RPC message among them). */
  errors: Error[];
}

export async function stdioClient(base: string, key: string): Promise<StdioClient> {
  const transport = new StdioClientTransport({ ...MCP_COMMAND, cwd: ROOT, env: mcpEnv(base, key), stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const errors: Error[] = [];
  const client = new Client({ name: 'crucible-test', version: '1.0.0' });
  await client.connect(transport);
  // Set after connect: the client installs its own handler, which this one wraps.
  const own = transport.onerror;
  transport.onerror = (e) => {
    errors.push(e);
    own?.(e);
  };
  return { client, stderr: () => err, errors };
}

/** The first text block of a tool result. */
export function textOf(r: unknown): string {
  const block = (r as CallToolResult).content.find((c) => c.type === 'text');
  assert.ok(block && block.type === 'text', `a text block in ${JSON.stringify(r).slice(0, 300)}`);
  return block.text;
}

/** A successful tool result's JSON. */
export function jsonOf<T = any>(r: unknown): T {
  assert.notEqual((r as CallToolResult).isError, true, `the tool succeeded: ${JSON.stringify(r).slice(0, 500)}`);
  return JSON.parse(textOf(r)) as T;
}

/** A tool error's text (isError: true). */
export function toolErrorOf(r: unknown): string {
  assert.equal((r as CallToolResult).isError, true, `a tool error: ${JSON.stringify(r).slice(0, 500)}`);
  return textOf(r);
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(data: Buffer): { width: number; height: number } {
  assert.equal(data.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** The tools a key with the write scope has beyond a read-only key's. */
export const WRITE_TOOLS = ['cancel_job', 'predict', 'run_utility', 'start_workflow_run', 'submit_job'];

/** An 8-bit RGB or RGBA PNG (what resvg writes) as RGBA pixels: enough to look at what was drawn. */
export function decodePng(data: Buffer): { width: number; height: number; rgba: Uint8Array } {
  const { width, height } = pngSize(data);
  const depth = data[24];
  const colour = data[25];
  assert.ok(depth === 8 && (colour === 6 || colour === 2) && data[28] === 0, `an 8-bit, non-interlaced RGB(A) PNG (depth ${depth}, colour ${colour})`);
  const channels = colour === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(data.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter!] ?? 0;
      cur[i] = (line[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 3; k++) out[(y * width + x) * 4 + k] = cur[x * channels + k]!;
      out[(y * width + x) * 4 + 3] = channels === 4 ? cur[x * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** Pixels of a PNG clearly darker than its white background, in a box (the whole image by default). */
export function inkOf(data: Buffer, box?: { x0: number; y0: number; x1: number; y1: number }): number {
  const { width, height, rgba } = decodePng(data);
  const b = box ?? { x0: 0, y0: 0, x1: width, y1: height };
  let n = 0;
  for (let y = Math.max(0, b.y0); y < Math.min(height, b.y1); y++)
    for (let x = Math.max(0, b.x0); x < Math.min(width, b.x1); x++) {
      const i = (y * width + x) * 4;
      if (rgba[i]! + rgba[i + 1]! + rgba[i + 2]! < 3 * 200) n++;
    }
  return n;
}
