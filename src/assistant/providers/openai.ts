// The `openai` provider of the Assistant (docs/assistant.md, "Providers"): one model step over
// the OpenAI Chat Completions protocol, streamed (server-sent `chat.completion.chunk` objects),
// against any compatible server (OpenAI itself, vLLM, llama.cpp, Ollama, a gateway). It maps
// the conversation and tool specs to the protocol's message and `function` tool formats, turns
// the stream into ProviderEvents (text deltas as they come; each tool call whole, once its
// fragments are in; the usage of the final chunk), stops quietly and promptly on abort, and
// turns every other failure into a ProviderError that names the server, never the API key.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ProviderError, type ChatMessage, type CompletionRequest, type Provider, type ProviderEvent, type ToolCall, type ToolSpec } from '../provider.js';
import { countPromptTokens, countTokens } from '../tokens.js';

export interface OpenAIProviderOptions {
  /** The server's API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; empty for a server that needs none (no header then). */
  apiKey: string;
  /** How long to wait for the server to start answering (the stream itself may take longer). */
  timeoutMs?: number;
}

export class OpenAIProvider implements Provider {
  readonly name = 'openai' as const;
  private readonly client: OpenAI;
  /** The server as named in error messages: the base URL without any credentials in it. */
  private readonly server: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;

  constructor(o: OpenAIProviderOptions) {
    this.apiKey = o.apiKey;
    this.timeoutMs = o.timeoutMs ?? 60_000;
    this.server = displayURL(o.baseURL);
    this.client = new OpenAI({
      baseURL: o.baseURL,
      // The SDK refuses to start without a key; a keyless server gets no Authorization header.
      apiKey: o.apiKey || 'unused',
      ...(o.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      // Nothing from the environment: this server is configured here alone.
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
  }

  async *complete(req: CompletionRequest): AsyncGenerator<ProviderEvent> {
    let stream;
    try {
      stream = await this.client.chat.completions.create(
        {
          model: req.model,
          messages: req.messages.map(toMessageParam),
          ...(req.tools.length ? { tools: req.tools.map(toTool) } : {}),
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: req.maxTokens,
        },
        { signal: req.signal },
      );
    } catch (err) {
      if (req.signal.aborted) return;
      throw this.failure(err);
    }

    // Tool calls of choice 0 as their fragments arrive, by the fragment's `index`.
    const pending = new Map<number, ToolCall>();
    const completed = function* (): Generator<ProviderEvent> {
      const calls = [...pending.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
      pending.clear();
      for (const call of calls) yield { type: 'tool_call', call };
    };
    try {
      for await (const chunk of stream) {
        for (const choice of chunk.choices ?? []) {
          if (choice.index !== 0) continue;
          const delta = choice.delta;
          if (delta?.content) yield { type: 'delta', text: delta.content };
          for (const part of delta?.tool_calls ?? []) {
            let call = pending.get(part.index);
            if (!call) pending.set(part.index, (call = { id: '', name: '', arguments: '' }));
            if (part.id) call.id = part.id;
            if (part.function?.name) call.name += part.function.name;
            if (part.function?.arguments) call.arguments += part.function.arguments;
          }
          if (choice.finish_reason) yield* completed();
        }
        if (chunk.usage) yield { type: 'usage', usage: { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 } };
      }
    } catch (err) {
      if (req.signal.aborted) return;
      throw this.failure(err);
    }
    // The SDK ends the iteration quietly when the signal aborts it mid-stream: no half calls then.
    if (req.signal.aborted) return;
    yield* completed();
  }

  countTokens(text: string): number {
    return countTokens(text);
  }

  /** A model reads all it is sent: the system message, the conversation and the tool definitions. */
  promptTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
    return countPromptTokens(messages, tools);
  }

  /** Any failure of a step as a ProviderError naming the server (the key masked should the server echo it). */
  private failure(err: unknown): ProviderError {
    const at = `the language model at ${this.server}`;
    let message: string;
    let status: number | null = null;
    if (err instanceof OpenAI.APIConnectionTimeoutError) {
      message = `${at} did not answer within ${this.timeoutMs} ms`;
    } else if (err instanceof OpenAI.APIConnectionError) {
      message = `${at} could not be reached: ${networkReason(err)}`;
    } else if (err instanceof OpenAI.APIError) {
      status = typeof err.status === 'number' ? err.status : null;
      const said = serverMessage(err);
      message = status === null ? `${at} answered an error: ${said}` : `${at} answered ${status}: ${said}`;
    } else {
      // E.g. undici's "terminated" when the connection drops mid-stream, or a chunk that is not JSON.
      message = `${at} broke off its answer: ${networkReason(err)}`;
    }
    if (this.apiKey.length >= 4) message = message.split(this.apiKey).join('***');
    return new ProviderError(message, status);
  }
}

function toMessageParam(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    case 'assistant': {
      const calls = m.tool_calls ?? [];
      if (!calls.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        // The protocol's own form of a message that only calls tools is `content: null`.
        content: m.content === '' ? null : m.content,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      };
    }
  }
}

function toTool(t: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}

/** The base URL for messages: no user or password in it, no trailing slash. */
function displayURL(baseURL: string): string {
  try {
    const u = new URL(baseURL);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return '(an invalid URL)';
  }
}

/** What the server said in an error answer: `error.message` of its JSON, else the SDK's text. */
function serverMessage(err: { error?: unknown; message: string }): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  const text = err.message.replace(/^\d{3}\s+/, '');
  return text || 'no message';
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
};

/** The innermost cause of a network failure, in words (undici nests the system error in `cause`). */
function networkReason(err: unknown): string {
  let last = 'unknown error';
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e && typeof e === 'object'; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && NETWORK_CODES[code]) return NETWORK_CODES[code];
    if (typeof message === 'string' && message) last = message;
    e = cause;
  }
  return last;
}
