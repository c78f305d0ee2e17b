// `crucible mcp` over stdio (issue 27; docs/mcp.md, "Connect a desktop assistant"), spawned as a process and
// driven by the MCP SDK's own client, against a server on each database: the same tools as over
// HTTP, a describe, an image, a job submitted and awaited, a read-only key refused a submit,
// another user's job not found, a tool error answered without a crash; and, reading its raw
// output, that stdout carries nothing but JSON-RPC messages (its own messages go to stderr), that
// it answers what was asked before it ends at the end of its input, and that a server it cannot
// reach or a refused key is a JSON-RPC error, not a crash, and so is a line over 10 MiB (the
// lines after it are served).
// Run: node --import tsx --test test/mcp/stdio.test.ts
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_LINE_BYTES } from '../../src/mcp/stdio.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { httpClient, jsonOf, MCP_COMMAND, mcpEnv, pngSize, ROOT, stdioClient, toolErrorOf, WRITE_TOOLS, type StdioClient } from './helpers.js';

/** Runs `crucible mcp` with `lines` on its stdin (then end of input): its exit code, stdout lines and stderr. */
async function runRaw(env: Record<string, string>, lines: unknown[]): Promise<{ code: number | null; out: string[]; err: string }> {
  const child = spawn(MCP_COMMAND.command, MCP_COMMAND.args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdin.end(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)) + '\n').join(''));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, out: out.split('\n').filter((l) => l !== ''), err };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const DESCRIBE = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'describe_molecules', arguments: { smiles: ['c1ccccc1'] } } };

/** Every stdout line is one JSON-RPC 2.0 message. */
function assertProtocolOnly(out: string[]): Record<string, any>[] {
  return out.map((line) => {
    const m = JSON.parse(line) as Record<string, any>;
    assert.equal(m.jsonrpc, '2.0', `a JSON-RPC message: ${line.slice(0, 200)}`);
    return m;
  });
}

for (const backend of onlyOn('postgres')) {
  describe(`crucible mcp over stdio [${backend.name}]`, () => {
    let h: Harness;
    let owner: Awaited<ReturnType<Harness['user']>>;
    let full: StdioClient;
    let readOnly: StdioClient;
    before(async () => {
      h = await startHarness(backend, {}, { workers: 1 });
      owner = await h.user();
      await h.credit(owner.userId, 5);
      [full, readOnly] = await Promise.all([stdioClient(h.base, (await h.key(owner.token)).secret), stdioClient(h.base, (await h.key(owner.token, { scopes: ['read'] })).secret)]);
    });
    after(async () => {
      await full?.client.close();
      await readOnly?.client.close();
      await h?.close();
    });

    it('lists the same tools as over HTTP, and describes, draws, submits and awaits', async () => {
      const overHttp = await httpClient(h.base, (await h.key(owner.token)).secret);
      try {
        assert.deepEqual((await full.client.listTools()).tools, (await overHttp.listTools()).tools);
      } finally {
        await overHttp.close();
      }
      assert.equal(full.client.getServerVersion()?.name, 'crucible');
      const d = jsonOf(await full.client.callTool({ name: 'describe_molecules', arguments: { smiles: ['c1ccccc1O'] } }));
      assert.equal(d.items[0].properties.formula, 'C6H6O');
      const img = ((await full.client.callTool({ name: 'depict_molecules', arguments: { smiles: ['c1ccccc1O'] } })) as CallToolResult).content.find((c) => c.type === 'image');
      assert.ok(img && img.type === 'image' && img.mimeType === 'image/png');
      assert.deepEqual(pngSize(Buffer.from(img.data, 'base64')), { width: 300, height: 220 });

      const submitted = jsonOf(await full.client.callTool({ name: 'submit_job', arguments: { job_name: 'stdio', job_type: 'properties', payload: { smiles: ['CCO'] } } }));
      assert.ok(submitted.reserved_usd > 0);
      const progress: number[] = [];
      const done = jsonOf(
        await full.client.callTool({ name: 'wait_for_job', arguments: { process_id: submitted.process_id, timeout_seconds: 60 } }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        }),
      );
      assert.ok(progress.length >= 1, 'progress notifications come through the relay');
      assert.equal(done.status, 'completed');
      const result = jsonOf(await full.client.callTool({ name: 'get_job_result', arguments: { process_id: submitted.process_id } }));
      assert.equal(result.items[0].properties.formula, 'C2H6O');

      // Another user's job is not found through their own stdio server.
      const stranger = await h.user();
      const theirs = await stdioClient(h.base, (await h.key(stranger.token)).secret);
      try {
        assert.match(toolErrorOf(await theirs.client.callTool({ name: 'get_job_result', arguments: { process_id: submitted.process_id } })), /HTTP 404/);
      } finally {
        await theirs.client.close();
      }
      assert.deepEqual(full.errors, [], 'stdout held only protocol messages');
      assert.match(full.stderr(), /crucible mcp: relaying MCP between stdio and http:\/\/127\.0\.0\.1:\d+\/mcp/);
    });

    it('gives a read-only key no write tool and refuses its submit; a tool error is not a crash', async () => {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      for (const n of WRITE_TOOLS) assert.ok(!names.includes(n), `${n} is not listed`);
      await assert.rejects(
        readOnly.client.callTool({ name: 'submit_job', arguments: { job_name: 'x', job_type: 'wait', payload: { seconds: 1 } } }),
        (err: Error & { code?: number }) => {
          assert.equal(err.code, -32602);
          assert.match(err.message, /needs the "write" scope/);
          return true;
        },
      );
      assert.match(toolErrorOf(await readOnly.client.callTool({ name: 'describe_molecules', arguments: { smiles: [] } })), /HTTP 422/);
      assert.equal(jsonOf(await readOnly.client.callTool({ name: 'describe_molecules', arguments: { smiles: ['O'] } })).items[0].properties.formula, 'H2O', 'it goes on');
      assert.deepEqual(readOnly.errors, []);
    });

    it('writes only protocol messages on stdout, and answers what it was given before it ends', async () => {
      const key = (await h.key(owner.token)).secret;
      const r = await runRaw(mcpEnv(h.base, key), [INIT, INITIALIZED, 'not json', DESCRIBE]);
      assert.equal(r.code, 0, r.err);
      const messages = assertProtocolOnly(r.out);
      // The parse error is answered at once, the others when the server has answered.
      const byId = new Map(messages.map((m) => [m.id, m]));
      assert.deepEqual([...byId.keys()].sort(), [1, 2, null].sort());
      assert.equal(messages.length, 3);
      assert.equal(byId.get(null)!.error.code, -32700, 'a line that is not JSON is a parse error');
      const described = byId.get(2)!;
      assert.equal(byId.get(1)!.result.serverInfo.name, 'crucible');
      assert.equal(JSON.parse(described.result.content[0].text).items[0].properties.formula, 'C6H6');
      assert.match(r.err, /unreadable input/);

      const refused = await runRaw(mcpEnv(h.base, 'crk_notakey_000000000000000000000000000000000'), [INIT, INITIALIZED, DESCRIBE]);
      assert.equal(refused.code, 0);
      const answers = assertProtocolOnly(refused.out);
      assert.deepEqual(
        answers.map((m) => [m.id, m.error?.code]),
        [
          [1, -32001],
          [2, -32001],
        ],
      );
      assert.match(answers[0]!.error.message, /answered HTTP 401: .*check CRUCIBLE_API_KEY/);
    });

    it('answers a line over 10 MiB with a JSON-RPC error and goes on serving', async () => {
      const key = (await h.key(owner.token)).secret;
      const huge = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"describe_molecules","arguments":{"smiles":["${'C'.repeat(MAX_LINE_BYTES + 1024)}"]}}}`;
      const r = await runRaw(mcpEnv(h.base, key), [INIT, INITIALIZED, huge, DESCRIBE]);
      assert.equal(r.code, 0, r.err);
      const messages = assertProtocolOnly(r.out);
      assert.deepEqual(
        messages.map((m) => [m.id, m.error?.code ?? null]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
        [
          [1, null],
          [2, null],
          [null, -32600],
        ],
      );
      const refused = messages.find((m) => m.id === null)!;
      assert.match(refused.error.message, /a line over 10 MiB/);
      assert.equal(JSON.parse(messages.find((m) => m.id === 2)!.result.content[0].text).items[0].properties.formula, 'C6H6', 'the next request is answered');
      assert.match(r.err, /unreadable input: a line over 10 MiB/);
    });
  });
}

describe('crucible mcp without a server or a key', () => {
  it('answers each request with an error naming the URL when no server listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await runRaw(mcpEnv(`http://127.0.0.1:${port}`, 'crk_whatever'), [INIT, DESCRIBE]);
    assert.equal(r.code, 0);
    const answers = assertProtocolOnly(r.out);
    assert.deepEqual(
      answers.map((m) => [m.id, m.error?.code]),
      [
        [1, -32000],
        [2, -32000],
      ],
    );
    assert.match(answers[0]!.error.message, new RegExp(`cannot reach Crucible at http://127\\.0\\.0\\.1:${port}/mcp: ECONNREFUSED \\(is the server running`));
    assert.match(r.err, /cannot reach Crucible/);
  });

  it('exits 2 with a one-line reason on stderr, and nothing on stdout, without CRUCIBLE_API_KEY', async () => {
    const r = await runRaw(mcpEnv('http://127.0.0.1:8000', null), [INIT]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.out, []);
    assert.match(r.err, /^crucible: mcp: set CRUCIBLE_API_KEY to an API key/);
  });
});
