// A Chat Completions stand-in for the tests: a node:http server on loopback answering
// POST /v1/chat/completions the way an OpenAI-compatible server does (docs/assistant.md,
// "Providers"). A streamed answer is server-sent events: `data: <chat.completion.chunk JSON>`
// lines (a first chunk with the role, content chunks, tool-call fragments by `index`, a chunk
// with the finish_reason), then, when the request asked for `stream_options.include_usage`, a
// chunk with `choices: []` and the usage (every earlier chunk then carries `usage: null`), then
// `data: [DONE]`. A request with `stream: false` gets one `chat.completion` JSON object.
// Scripted: `script([...])` queues replies taken one per request; with none queued, `onRequest`
// may answer from the request body, else the reply is the text "ok".
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  /** Content chunks, streamed in order. */
  text?: string[];
  /** Tool calls (ids default to `call_<request>_<i>`); each one's arguments are streamed in several fragments. */
  toolCalls?: { id?: string; name: string; arguments: string }[];
  /** The usage chunk's counts; null sends no usage chunk; left out, counts of about 4 characters a token. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Pause before each chunk after the first. */
  delayMs?: number;
  /** Answer this HTTP status with an OpenAI-style error body `{error: {message, type, code}}` instead. */
  status?: number;
  errorMessage?: string;
  /** Send the role, content and tool-call chunks, then neither finish nor close until the client goes away. */
  hang?: boolean;
}

export interface ChatStandIn {
  /** The API root to give a client, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Every request body, parsed, in order of arrival. */
  requests: any[];
  /** The Authorization header of every request (undefined when there was none), in the same order. */
  authorizations: (string | undefined)[];
  /** Answers a request when no scripted reply is queued; undefined falls back to the text "ok". */
  onRequest?: (body: any) => Reply | undefined;
  /** Queue replies, consumed one per request. */
  script(replies: Reply[]): void;
  /** TCP connections open now. */
  readonly openConnections: number;
  /** Requests whose client went away before the answer was finished. */
  readonly closedByClient: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const approxTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

/** Splits a string into up to `n` non-empty pieces, in order. */
function fragments(s: string, n = 3): string[] {
  if (s.length === 0) return [];
  const size = Math.ceil(s.length / n);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_exceeded';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

export async function startChatStandIn(): Promise<ChatStandIn> {
  const queue: Reply[] = [];
  let open = 0;
  let closedByClient = 0;
  let served = 0;

  const sendError = (res: http.ServerResponse, status: number, message: string, code: string | null = null) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: errorType(status), param: null, code } }));
  };

  const answer = async (res: http.ServerResponse, body: any, reply: Reply, n: number) => {
    if (reply.status !== undefined && reply.status >= 400) {
      const code = reply.status === 401 ? 'invalid_api_key' : null;
      return sendError(res, reply.status, reply.errorMessage ?? `stand-in error ${reply.status}`, code);
    }
    const id = `chatcmpl-standin${n}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model ?? 'stand-in');
    const text = reply.text ?? [];
    const calls = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, name: c.name, arguments: c.arguments }));
    const finish = calls.length ? 'tool_calls' : 'stop';
    const promptText = (body.messages ?? []).map((m: any) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    const outText = text.join('') + calls.map((c) => c.name + c.arguments).join('');
    const u = reply.usage === undefined ? { prompt_tokens: approxTokens(promptText), completion_tokens: approxTokens(outText) } : reply.usage;
    const usage = u && { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens };

    if (body.stream !== true) {
      const message = {
        role: 'assistant',
        content: text.length || !calls.length ? text.join('') : null,
        refusal: null,
        ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}),
      };
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${n}` });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage }));
      return;
    }

    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_standin',
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    });
    const choice = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason });

    const events: unknown[] = [chunk([choice({ role: 'assistant', content: '', refusal: null })])];
    for (const t of text) events.push(chunk([choice({ content: t })]));
    calls.forEach((c, index) => {
      events.push(chunk([choice({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })]));
      for (const piece of fragments(c.arguments)) events.push(chunk([choice({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    });
    if (!reply.hang) {
      events.push(chunk([choice({}, finish)]));
      if (includeUsage && usage) events.push(chunk([], { usage }));
    }

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-request-id': `req_${n}` });
    res.flushHeaders();
    for (const [i, e] of events.entries()) {
      if (i > 0 && reply.delayMs) await sleep(reply.delayMs);
      if (res.closed) return;
      res.write(`data: ${JSON.stringify(e)}\n\n`);
    }
    if (reply.hang) {
      await new Promise<void>((resolve) => (res.closed ? resolve() : res.once('close', () => resolve())));
      return;
    }
    res.end('data: [DONE]\n\n');
  };

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      res.once('close', () => {
        if (!res.writableFinished) closedByClient++;
      });
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
        return sendError(res, 404, `no route ${req.method} ${req.url}`, 'unknown_url');
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        return sendError(res, 400, 'the request body is not JSON');
      }
      const n = ++served;
      stand.requests.push(body);
      stand.authorizations.push(req.headers.authorization);
      const reply = queue.shift() ?? stand.onRequest?.(body) ?? { text: ['ok'] };
      answer(res, body, reply, n).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stand: ChatStandIn = {
    url: `http://127.0.0.1:${port}/v1`,
    requests: [],
    authorizations: [],
    script: (replies) => void queue.push(...replies),
    get openConnections() {
      return open;
    },
    get closedByClient() {
      return closedByClient;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
