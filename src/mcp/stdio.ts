// `crucible mcp`: the MCP server over stdio for desktop assistants, as a client of a running
// Crucible server (docs/mcp.md, "Over stdio"). It relays each JSON-RPC message between stdin
// and stdout and the server's POST /mcp (Streamable HTTP) with the API key of CRUCIBLE_API_KEY,
// so the tools, their checks and the database are the server's: one implementation, one set of
// checks. stdout carries protocol messages only; everything else goes to stderr.
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export const DEFAULT_URL = 'http://127.0.0.1:8000';

export class McpSetupError extends Error {}

/** JSON-RPC codes of the relay's own errors (the implementation-defined server error range). */
const UNREACHABLE = -32000;
const REFUSED = -32001;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const say = (line: string) => process.stderr.write(`crucible mcp: ${line}\n`);

/** What went wrong on the way to the server, in one line a user can act on. */
export function relayError(err: unknown, endpoint: string): { code: number; message: string } {
  const e = err as { code?: unknown; message?: string; cause?: { code?: string; message?: string } };
  if (err instanceof StreamableHTTPError && typeof e.code === 'number' && e.code > 0) {
    // StreamableHTTPError: "Error POSTing to endpoint: <the problem+json body>".
    const body = (e.message ?? '').replace(/^[^{]*/, '');
    let detail = e.message ?? '';
    try {
      const p = JSON.parse(body) as { detail?: string; title?: string };
      detail = p.detail ?? p.title ?? detail;
    } catch {
      /* not a problem document */
    }
    const hint = e.code === 401 ? ' (check CRUCIBLE_API_KEY)' : '';
    return { code: REFUSED, message: `Crucible at ${endpoint} answered HTTP ${e.code}: ${detail}${hint}` };
  }
  const cause = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
  return { code: UNREACHABLE, message: `cannot reach Crucible at ${endpoint}: ${cause} (is the server running? start it with npm start, or set CRUCIBLE_URL)` };
}

export async function runStdioRelay(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = env.CRUCIBLE_API_KEY?.trim();
  if (!key) throw new McpSetupError('set CRUCIBLE_API_KEY to an API key (create one with POST /api/v1/auth/api-keys; a read-only key gets the read-only tools)');
  const base = (env.CRUCIBLE_URL?.trim() || DEFAULT_URL).replace(/\/+$/, '');
  let endpoint: URL;
  try {
    endpoint = new URL(`${base}/mcp`);
  } catch {
    throw new McpSetupError(`CRUCIBLE_URL is not a URL: ${base}`);
  }

  const stdio = new StdioServerTransport();
  const http = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'x-api-key': key } } });
  /** Requests relayed and not yet answered: stdin's end waits for them. */
  const pending = new Set<RequestId>();
  let initializeId: RequestId | null = null;
  let drained: (() => void) | null = null;
  const settle = (id: RequestId) => {
    pending.delete(id);
    if (!pending.size) drained?.();
  };

  http.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && message.id !== undefined && !('method' in message)) {
      // The version agreed at initialize goes on every later request (MCP-Protocol-Version).
      if (message.id === initializeId && isJSONRPCResultResponse(message)) http.setProtocolVersion(String(message.result.protocolVersion));
      settle(message.id);
    }
    void stdio.send(message);
  };
  let stopping = false;
  // Closing aborts the answers' streams still open: those errors are expected, not reported.
  http.onerror = (err) => {
    if (!stopping) say(relayError(err, endpoint.href).message);
  };
  stdio.onerror = (err) => {
    say(`unreadable input: ${err.message}`);
    // A line that is not JSON, or not a JSON-RPC message: answered as JSON-RPC says (id unknown).
    const code = err instanceof SyntaxError ? PARSE_ERROR : err.name === 'ZodError' ? INVALID_REQUEST : null;
    if (code !== null)
      void stdio.send({ jsonrpc: '2.0', id: null, error: { code, message: code === PARSE_ERROR ? 'parse error: a line that is not JSON' : 'not a JSON-RPC message' } } as never);
  };
  stdio.onmessage = (message: JSONRPCMessage) => {
    const request = isJSONRPCRequest(message) ? message : null;
    if (request) {
      pending.add(request.id);
      if (request.method === 'initialize') initializeId = request.id;
    }
    http.send(message).catch((err: unknown) => {
      const { code, message: text } = relayError(err, endpoint.href);
      if (!request) return;
      void stdio.send({ jsonrpc: '2.0', id: request.id, error: { code, message: text } });
      settle(request.id);
    });
  };

  await http.start();
  await stdio.start();
  say(`relaying MCP between stdio and ${endpoint.href}`);

  const stop = async (code: number) => {
    stopping = true;
    await http.close().catch(() => undefined);
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  };
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));
  // The client closed stdin: answer what is in flight, then end.
  process.stdin.once('end', () => {
    if (!pending.size) return void stop(0);
    drained = () => void stop(0);
  });
}
