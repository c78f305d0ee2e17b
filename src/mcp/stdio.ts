// `crucible mcp`: the MCP server over stdio for desktop assistants, as a client of a running
// Crucible server (docs/mcp.md, "Connect a desktop assistant"). It relays each JSON-RPC message between stdin
// and stdout and the server's POST /mcp (Streamable HTTP) with the API key of CRUCIBLE_API_KEY,
// so the tools, their checks and the database are the server's: one implementation, one set of
// checks. stdout carries protocol messages only; everything else goes to stderr.
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export const DEFAULT_URL = 'http://127.0.0.1:8000';

export class McpSetupError extends Error {}

/** JSON-RPC codes of the relay's own errors (the implementation-defined server error range). */
const UNREACHABLE = -32000;
const REFUSED = -32001;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const say = (line: string) => process.stderr.write(`crucible mcp: ${line}\n`);

/** The longest line (one JSON-RPC message) read from stdin: the MCP SDK's own limit for stdio. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * stdin as lines of at most MAX_LINE_BYTES. A longer line is reported once, when it passes the
 * limit, and skipped to its end; the lines after it are read as usual. (The SDK's stdio
 * transport, over its limit, stops reading and the process ends: docs/mcp.md, "Errors".)
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the line being skipped, or -1. */
  private skipped = -1;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Buffer): void {
    for (let start = 0; start <= chunk.length;) {
      const nl = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.skipped >= 0) this.skipped += piece.length;
      else if (this.size + piece.length > MAX_LINE_BYTES) {
        this.skipped = this.size + piece.length;
        this.parts = [];
        this.size = 0;
        this.onTooLong();
      } else if (piece.length) {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      if (this.skipped >= 0) this.skipped = -1;
      else {
        const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
        this.parts = [];
        this.size = 0;
        if (line.trim()) this.onLine(line);
      }
      start = nl + 1;
    }
  }
}

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
    void send(message);
  };
  let stopping = false;
  // Closing aborts the answers' streams still open: those errors are expected, not reported.
  http.onerror = (err) => {
    if (!stopping) say(relayError(err, endpoint.href).message);
  };
  /** Writes one message on stdout, waiting for it to drain when its buffer is full. */
  const send = (message: JSONRPCMessage) =>
    new Promise<void>((resolve) => {
      if (process.stdout.write(serializeMessage(message))) resolve();
      else process.stdout.once('drain', resolve);
    });
  /** An input that is not a message: answered as JSON-RPC says (id unknown), with a line on stderr. */
  const refuse = (code: number, message: string) => {
    say(`unreadable input: ${message}`);
    void send({ jsonrpc: '2.0', id: null, error: { code, message } } as never);
  };
  const relay = (message: JSONRPCMessage) => {
    const request = isJSONRPCRequest(message) ? message : null;
    if (request) {
      pending.add(request.id);
      if (request.method === 'initialize') initializeId = request.id;
    }
    http.send(message).catch((err: unknown) => {
      const { code, message: text } = relayError(err, endpoint.href);
      if (!request) return;
      void send({ jsonrpc: '2.0', id: request.id, error: { code, message: text } });
      settle(request.id);
    });
  };
  const lines = new LineReader(
    (line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return refuse(PARSE_ERROR, 'parse error: a line that is not JSON');
      }
      const message = JSONRPCMessageSchema.safeParse(value);
      if (!message.success) return refuse(INVALID_REQUEST, 'not a JSON-RPC message');
      relay(message.data);
    },
    () => refuse(INVALID_REQUEST, `a line over ${MAX_LINE_BYTES / 1024 / 1024} MiB: not read (one message per line, at most ${MAX_LINE_BYTES} bytes)`),
  );

  await http.start();
  process.stdin.on('data', (chunk: Buffer) => lines.push(chunk));
  process.stdin.on('error', (err) => say(`stdin: ${err.message}`));
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
