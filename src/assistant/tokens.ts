// Token counts for billing (docs/assistant.md, "Money"): the o200k_base encoding of the
// gpt-tokenizer package, the tokenizer of current OpenAI models. The builtin provider bills
// every step with it; the runner uses it for an `openai` step that ended without reporting
// its usage (a stopped stream).
import type { ChatMessage, ToolSpec } from './provider.js';

let count: ((text: string) => number) | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the encoding once. It is several megabytes of merge ranks (about half a second to
 * parse), so a process does not load it before it listens: the Assistant module starts it in
 * the background, and whatever counts tokens awaits it first.
 */
export function loadTokenizer(): Promise<void> {
  return (loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    count = m.countTokens;
  }));
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (!count) throw new Error('the tokenizer is not loaded yet: await loadTokenizer() first');
  return count(text);
}

/** The tokens of a conversation as it is sent to a model: each message's role, text and tool calls, and the tool definitions. */
export function countPromptTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number {
  let n = 0;
  for (const m of messages) {
    let k = messageTokens.get(m);
    if (k === undefined) messageTokens.set(m, (k = countMessageTokens(m)));
    n += k;
  }
  for (const t of tools) {
    let k = toolTokens.get(t);
    if (k === undefined) toolTokens.set(t, (k = countTokens(JSON.stringify(t))));
    n += k;
  }
  return n;
}

/** The tool definitions are constant objects: each is tokenized once, not at every model step. */
const toolTokens = new WeakMap<ToolSpec, number>();

/**
 * A message is never changed once it is in a conversation (the runner and the providers only
 * append messages): each is tokenized once, not at every step of its turn nor by both the
 * runner's bound and the provider's usage.
 */
const messageTokens = new WeakMap<ChatMessage, number>();

function countMessageTokens(m: ChatMessage): number {
  // Chat formats add a few tokens of framing per message.
  let n = 4 + countTokens(m.content);
  if (m.role === 'assistant') for (const c of m.tool_calls ?? []) n += 4 + countTokens(c.name) + countTokens(c.arguments);
  return n;
}
