// The Assistant (docs/assistant.md): sessions, streamed turns with tools, holds and debits,
// plan cards approved into workflow runs. The language model is a provider
// (src/assistant/provider.ts): the embedded `builtin` planner or an `openai` server.
import type { Module } from '../../api/module.js';
import { BuiltinProvider } from '../../assistant/builtin.js';
import type { Provider } from '../../assistant/provider.js';
import { loadTokenizer } from '../../assistant/tokens.js';
import type { AssistantConfig } from '../../config.js';
import { assistantRoutes } from './routes/index.js';
import { TurnRunner } from './runner.js';
import { ASSISTANT_SCHEMAS } from './schemas.js';
import { AssistantService } from './service.js';
import { TURN_CHANNEL } from './store.js';
import { TurnWaiters } from './stream.js';

declare module '../../services.js' {
  interface Services {
    assistant: AssistantService;
  }
}

/** The configured provider; the openai client is loaded only when it is the one configured. */
async function providerFor(c: AssistantConfig): Promise<Provider> {
  if (c.provider !== 'openai') return new BuiltinProvider();
  const { OpenAIProvider } = await import('../../assistant/providers/openai.js');
  return new OpenAIProvider({ baseURL: c.url!, apiKey: c.apiKey ?? '' });
}

/** Each instance's NOTIFY subscription (several instances may share a process in tests). */
const unlistens = new WeakMap<object, () => Promise<void>>();

export const assistantModule: Module = {
  name: 'assistant',
  async provide(s) {
    const waiters = new TurnWaiters();
    const provider = await providerFor(s.config.assistant);
    const runner = new TurnRunner({
      db: s.db,
      log: s.log,
      wallet: s.wallet,
      provider,
      config: s.config.assistant,
      tools: s,
      wake: (id, events) => waiters.wake(id, events),
    });
    return { assistant: new AssistantService(s.db, { config: s.config.assistant, wallet: s.wallet, runs: s.workflowRuns, runner, waiters }) };
  },
  schemas: ASSISTANT_SCHEMAS,
  routes: assistantRoutes,
  tasks: (s) => [{ name: 'assistant-turn-sweep', everyMs: 5_000, run: () => s.assistant.runner.sweep() }],
  async start(s) {
    // In the background: a process listens without waiting for the encoding.
    loadTokenizer().catch((err: unknown) => s.log.error({ err }, 'the Assistant tokenizer failed to load'));
    const unlisten = await s.db.listen(TURN_CHANNEL, (payload) => {
      const id = payload.slice(2);
      // This process's own turns wake their streams as they write; NOTIFY wakes the others'.
      if (payload.startsWith('e:')) {
        if (!s.assistant.runner.runs(id)) s.assistant.waiters.wake(id);
      } else if (payload.startsWith('s:')) s.assistant.runner.abort(id);
    });
    unlistens.set(s.assistant, unlisten);
  },
  async stop(s) {
    await s.assistant.runner.stopAll();
    await unlistens
      .get(s.assistant)?.()
      .catch(() => undefined);
    unlistens.delete(s.assistant);
  },
};
