// The `openai` provider (docs/assistant.md, "Providers") against the Chat Completions stand-in:
// text streams out as deltas in order with the usage of the final chunk; tool calls whose
// arguments arrive in fragments come out whole; the conversation and tools go out in the
// protocol's formats; a stop ends the step quietly within 1 s and the server sees the client
// go away; error answers, refused connections, dropped streams and slow servers become
// ProviderErrors that name the server and never the API key.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ProviderError, type ChatMessage, type CompletionRequest, type ProviderEvent, type ToolSpec } from '../../src/assistant/provider.js';
import { OpenAIProvider } from '../../src/assistant/providers/openai.js';
import { countTokens, loadTokenizer } from '../../src/assistant/tokens.js';
import { startChatStandIn, type ChatStandIn } from './chat-stand-in.js';

// Token counts below need the encoding (loaded lazily by the service).
await loadTokenizer();

const KEY = 'sk-test-0123456789abcdef';
const USER: ChatMessage[] = [
  { role: 'system', content: 'You are the Crucible assistant.' },
  { role: 'user', content: 'What is the molecular weight of caffeine?' },
];
const TOOLS: ToolSpec[] = [
  {
    name: 'lookup_compound',
    description: 'Look a compound up by name.',
    parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
];

const request = (over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  model: 'gpt-test',
  messages: USER,
  tools: [],
  maxTokens: 512,
  signal: new AbortController().signal,
  ...over,
});

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the step to fail');
}

async function until(what: string, cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw HTTP server for failures the stand-in does not script (a dropped stream, no answer). */
async function rawServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('OpenAIProvider', () => {
  let chat: ChatStandIn;
  let provider: OpenAIProvider;
  before(async () => {
    chat = await startChatStandIn();
    provider = new OpenAIProvider({ baseURL: chat.url, apiKey: KEY });
  });
  after(() => chat?.close());
  beforeEach(() => {
    chat.requests.length = 0;
    chat.authorizations.length = 0;
    chat.onRequest = undefined;
  });

  it('streams text as deltas in order, then the usage; the request is a streamed Chat Completions request', async () => {
    chat.script([{ text: ['Caffeine ', 'weighs ', '194.19 g/mol.'], usage: { prompt_tokens: 31, completion_tokens: 9 }, delayMs: 5 }]);
    const events = await collect(provider.complete(request()));
    assert.deepEqual(events, [
      { type: 'delta', text: 'Caffeine ' },
      { type: 'delta', text: 'weighs ' },
      { type: 'delta', text: '194.19 g/mol.' },
      { type: 'usage', usage: { input_tokens: 31, output_tokens: 9 } },
    ]);
    assert.equal(provider.name, 'openai');
    assert.deepEqual(chat.authorizations, [`Bearer ${KEY}`]);
    const body = chat.requests[0];
    assert.deepEqual(body.messages, USER);
    assert.equal(body.model, 'gpt-test');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, 512);
    assert.equal('tools' in body, false, 'no tools key when there are no tools');
  });

  it('tool calls whose arguments arrive in fragments come out whole, after the text, with ids and names', async () => {
    const args0 = JSON.stringify({ name: 'caffeine', fields: ['mw', 'smiles', 'inchikey'] });
    const args1 = JSON.stringify({ name: 'theobromine' });
    chat.script([
      {
        text: ['Looking both up.'],
        toolCalls: [
          { id: 'call_caf', name: 'lookup_compound', arguments: args0 },
          { name: 'lookup_compound', arguments: args1 },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 42 },
      },
    ]);
    const events = await collect(provider.complete(request({ tools: TOOLS, maxTokens: 300 })));
    // The stand-in names the second call itself (call_<request>_<i>), as a server would.
    const second = events[2];
    assert.ok(second?.type === 'tool_call' && /^call_\d+_1$/.test(second.call.id), JSON.stringify(second));
    assert.deepEqual(events, [
      { type: 'delta', text: 'Looking both up.' },
      { type: 'tool_call', call: { id: 'call_caf', name: 'lookup_compound', arguments: args0 } },
      { type: 'tool_call', call: { id: second.call.id, name: 'lookup_compound', arguments: args1 } },
      { type: 'usage', usage: { input_tokens: 120, output_tokens: 42 } },
    ]);
    assert.deepEqual(chat.requests[0].tools, [
      { type: 'function', function: { name: 'lookup_compound', description: 'Look a compound up by name.', parameters: TOOLS[0]!.parameters } },
    ]);
    assert.equal(chat.requests[0].max_tokens, 300);
  });

  it("a second step carries the assistant's tool_calls and the tool result with its tool_call_id", async () => {
    chat.onRequest = (body) => {
      const last = body.messages.at(-1);
      return last.role === 'tool' ? { text: [`result for ${last.tool_call_id}: `, last.content] } : undefined;
    };
    const messages: ChatMessage[] = [
      ...USER,
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_caf', name: 'lookup_compound', arguments: '{"name":"caffeine"}' }] },
      { role: 'tool', tool_call_id: 'call_caf', content: '{"mw":194.19}' },
    ];
    const events = await collect(provider.complete(request({ messages, tools: TOOLS })));
    assert.deepEqual(
      events.filter((e) => e.type === 'delta'),
      [
        { type: 'delta', text: 'result for call_caf: ' },
        { type: 'delta', text: '{"mw":194.19}' },
      ],
    );
    assert.deepEqual(chat.requests[0].messages.slice(2), [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_caf', type: 'function', function: { name: 'lookup_compound', arguments: '{"name":"caffeine"}' } }] },
      { role: 'tool', tool_call_id: 'call_caf', content: '{"mw":194.19}' },
    ]);
    // The stand-in's default usage (about 4 characters a token) is reported when the server sends one.
    const usage = events.find((e) => e.type === 'usage');
    assert.ok(usage && usage.usage.input_tokens > 0 && usage.usage.output_tokens > 0);
  });

  it('an abort mid-stream ends the step within 1 s without throwing, with no half tool call, and the server sees the client go away', async () => {
    const before = chat.closedByClient;
    chat.script([{ text: ['Thinking', ' hard'], toolCalls: [{ name: 'lookup_compound', arguments: '{"name":"caffeine"}' }], hang: true }]);
    const ac = new AbortController();
    const events: ProviderEvent[] = [];
    let abortedAt = 0;
    for await (const e of provider.complete(request({ tools: TOOLS, signal: ac.signal }))) {
      events.push(e);
      if (events.length === 2) {
        // The stand-in has sent all it will; the stream now waits for more.
        setTimeout(() => {
          abortedAt = Date.now();
          ac.abort();
        }, 100);
      }
    }
    const took = Date.now() - abortedAt;
    assert.ok(abortedAt > 0, 'the stream ended before the abort');
    assert.ok(took < 1000, `ended ${took} ms after the abort`);
    assert.deepEqual(events, [
      { type: 'delta', text: 'Thinking' },
      { type: 'delta', text: ' hard' },
    ]);
    await until('the stand-in to see the client go away', () => chat.closedByClient === before + 1);
  });

  it('a step aborted before it starts yields nothing and does not throw', async () => {
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual(await collect(provider.complete(request({ signal: ac.signal }))), []);
  });

  it('a 500 answer becomes a ProviderError with status 500 naming the server', async () => {
    chat.script([{ status: 500, errorMessage: 'The server had an error while processing your request.' }]);
    const err = await failure(collect(provider.complete(request())));
    assert.equal(err.status, 500);
    assert.equal(err.message, `the language model at ${chat.url} answered 500: The server had an error while processing your request.`);
  });

  it('a 401 answer becomes a ProviderError with status 401; the API key is masked even if the server echoes it', async () => {
    chat.script([{ status: 401, errorMessage: `Incorrect API key provided: ${KEY}.` }]);
    const err = await failure(collect(provider.complete(request())));
    assert.equal(err.status, 401);
    assert.equal(err.message, `the language model at ${chat.url} answered 401: Incorrect API key provided: ***.`);
    assert.ok(!err.message.includes(KEY) && !String(err.stack).includes(KEY));
  });

  it('a refused connection becomes a ProviderError with status null', async () => {
    const closed = await rawServer(() => {});
    await closed.close();
    const p = new OpenAIProvider({ baseURL: closed.url, apiKey: KEY });
    const err = await failure(collect(p.complete(request())));
    assert.equal(err.status, null);
    assert.equal(err.message, `the language model at ${closed.url} could not be reached: connection refused`);
  });

  it('a stream the server breaks off becomes a ProviderError; a server that never answers times out', async () => {
    const dropping = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'par' }, finish_reason: null, logprobs: null }] };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => setTimeout(() => res.socket?.destroy(), 20));
    });
    const silent = await rawServer(() => {});
    try {
      const events: ProviderEvent[] = [];
      const err = await failure(
        (async () => {
          for await (const e of new OpenAIProvider({ baseURL: dropping.url, apiKey: KEY }).complete(request())) events.push(e);
        })(),
      );
      assert.deepEqual(events, [{ type: 'delta', text: 'par' }]);
      assert.equal(err.status, null);
      assert.match(err.message, new RegExp(`^the language model at ${dropping.url.replace(/\./g, '\\.')} broke off its answer: `));

      const t0 = Date.now();
      const slow = await failure(collect(new OpenAIProvider({ baseURL: silent.url, apiKey: KEY, timeoutMs: 200 }).complete(request())));
      assert.equal(slow.status, null);
      assert.equal(slow.message, `the language model at ${silent.url} did not answer within 200 ms`);
      assert.ok(Date.now() - t0 < 2000);
    } finally {
      await dropping.close();
      await silent.close();
    }
  });

  it('usage null: no usage event', async () => {
    chat.script([{ text: ['no ', 'usage'], usage: null }]);
    assert.deepEqual(await collect(provider.complete(request())), [
      { type: 'delta', text: 'no ' },
      { type: 'delta', text: 'usage' },
    ]);
  });

  it('an empty API key sends no Authorization header; countTokens is the o200k count', async () => {
    const keyless = new OpenAIProvider({ baseURL: chat.url, apiKey: '' });
    const events = await collect(keyless.complete(request()));
    assert.deepEqual(events[0], { type: 'delta', text: 'ok' });
    assert.deepEqual(chat.authorizations, [undefined]);
    assert.equal(keyless.countTokens('caffeine is 1,3,7-trimethylxanthine'), countTokens('caffeine is 1,3,7-trimethylxanthine'));
    assert.ok(keyless.countTokens('caffeine') > 0);
  });

  it('the stand-in speaks the protocol: SSE chunks, a final usage chunk with no choices, [DONE]; JSON when not streamed', async () => {
    chat.script([
      { text: ['hi'], usage: { prompt_tokens: 3, completion_tokens: 1 } },
      { toolCalls: [{ id: 'call_x', name: 'lookup_compound', arguments: '{"name":"caffeine"}' }], usage: null },
      { text: ['plain'] },
    ]);
    const post = (body: unknown) => fetch(`${chat.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const sse = await post({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true, stream_options: { include_usage: true } });
    assert.match(sse.headers.get('content-type') ?? '', /^text\/event-stream/);
    const frames = (await sse.text()).split('\n\n').filter(Boolean);
    assert.equal(frames.at(-1), 'data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.replace(/^data: /, '')));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0].id));
    assert.deepEqual(chunks[0].choices[0].delta, { role: 'assistant', content: '', refusal: null });
    assert.deepEqual(chunks.at(-2).choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    assert.deepEqual([chunks.at(-1).choices, chunks.at(-1).usage], [[], { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }]);
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));

    const toolFrames = (await (await post({ model: 'm', messages: [], stream: true })).text()).split('\n\n').filter(Boolean);
    const toolChunks = toolFrames.slice(0, -1).map((f) => JSON.parse(f.replace(/^data: /, '')));
    const parts = toolChunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    assert.deepEqual(parts[0], { index: 0, id: 'call_x', type: 'function', function: { name: 'lookup_compound', arguments: '' } });
    assert.ok(parts.length >= 3, 'the arguments come in several fragments');
    assert.equal(parts.map((p) => p.function.arguments).join(''), '{"name":"caffeine"}');
    assert.equal(toolChunks.at(-1).choices[0].finish_reason, 'tool_calls');
    assert.ok(
      toolChunks.every((c) => !('usage' in c)),
      'no usage fields unless include_usage was asked for',
    );

    const json: any = await (await post({ model: 'm', messages: [], stream: false })).json();
    assert.equal(json.object, 'chat.completion');
    assert.deepEqual(json.choices[0].message, { role: 'assistant', content: 'plain', refusal: null });
  });
});
