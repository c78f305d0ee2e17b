// The MCP SDK's own client against a test server: over Streamable HTTP at /mcp, or over stdio
// through `crucible mcp` spawned as a process (docs/mcp.md).
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** `crucible mcp` from the sources (as spawnCrucible runs the CLI): node --import tsx src/main.ts mcp. */
export const MCP_COMMAND = { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'mcp'] };

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
