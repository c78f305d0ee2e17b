// Assistant (docs/console.md, docs/assistant.md): sessions beside the open one
// (#/assistant/<session_id>): a chat whose answers stream in (tool calls as they happen, plan
// cards to approve or reject, the cost of each turn), resumed after a lost connection.
import { useCallback, useEffect, useState } from 'react';
import { api, ok } from '../api/client.ts';
import { Conversation } from './assistant/Conversation.tsx';
import { Sessions } from './assistant/Sessions.tsx';
import { usd } from '../lib/units.ts';
import './Assistant.css';

interface Model {
  model: string;
  provider: string;
  input_price_per_mtok_usd: number;
  output_price_per_mtok_usd: number;
  hold_per_turn_usd: number;
}

export default function Assistant({ rest = [] }: { rest?: string[] }) {
  const session = rest[0] ?? null;
  const [listed, setListed] = useState(0);
  const [model, setModel] = useState<Model | null>(null);
  const changed = useCallback(() => setListed((n) => n + 1), []);

  useEffect(() => {
    ok(api.GET('/api/v1/assistant/models')).then(
      (r) => setModel(r.models.find((m) => m.model === r.default_model) ?? r.models[0] ?? null),
      () => setModel(null),
    );
  }, []);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Assistant</h1>
      {model && (
        <p className="muted small model-line">
          {model.model} ({model.provider}): {usd(model.input_price_per_mtok_usd, { digits: 2 })} in, {usd(model.output_price_per_mtok_usd, { digits: 2 })} out per million tokens; a
          turn holds up to {usd(model.hold_per_turn_usd)} while it runs. Plans run only when you approve them.
        </p>
      )}
      <div className="assistant-page">
        <Sessions current={session} refresh={listed} onChanged={changed} />
        {session ? (
          <Conversation key={session} sessionId={session} onChanged={changed} />
        ) : (
          <div className="conversation empty">
            <p className="muted">Open a session, or start a new one.</p>
          </div>
        )}
      </div>
    </section>
  );
}
