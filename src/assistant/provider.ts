// The language model behind the Assistant (docs/assistant.md, "Providers"): one interface,
// two providers. `builtin` (src/assistant/builtin.ts) is an embedded deterministic planner;
// `openai` (src/assistant/providers/openai.ts) speaks to any OpenAI-compatible Chat
// Completions server. The turn runner (src/modules/assistant/runner.ts) calls `complete` once
// per model step: it streams text and tool calls; the runner runs the tools and calls again
// with their results until the model answers without calling a tool.

/** One tool call the model made: `arguments` is the JSON text the model wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The conversation handed to the model, in the Chat Completions roles. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool the model may call: `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/**
 * What one model step streams: text as it comes, each tool call once it is complete, and the
 * step's token usage (at the end; a step that was stopped may end without it, and the
 * runner then counts the tokens itself with `countTokens`).
 */
export type ProviderEvent = { type: 'delta'; text: string } | { type: 'tool_call'; call: ToolCall } | { type: 'usage'; usage: Usage };

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** The most output tokens this step may write. */
  maxTokens: number;
  /** Aborted on stop: the provider ends its stream promptly (within 1 s). */
  signal: AbortSignal;
}

export interface ModelInfo {
  id: string;
  provider: string;
  description: string;
  context_tokens: number;
  input_price_per_mtok_usd: number;
  output_price_per_mtok_usd: number;
}

export interface Provider {
  readonly name: 'builtin' | 'openai';
  /** One model step. Throws ProviderError when the model cannot be reached or answers an error. */
  complete(req: CompletionRequest): AsyncIterable<ProviderEvent>;
  /** Tokens of a text in this provider's tokenizer (billing of steps that report no usage). */
  countTokens(text: string): number;
  /**
   * The input tokens of one step's prompt as this provider reads it (docs/assistant.md,
   * "Money"): a language model reads everything it is sent, tool definitions included; the
   * builtin planner reads the conversation only. The runner bounds a turn and counts a stopped
   * step with it, and the turn estimate quotes it.
   */
  promptTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number;
}

/** The model could not be reached or refused the request; `status` is the HTTP status when there was one. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
