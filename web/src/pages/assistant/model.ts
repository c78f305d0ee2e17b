// What the Assistant page shows of a turn: the user's message, then blocks in the order they
// happened (text, a tool call with its result, a plan card), its status and its cost. Built
// either from the turn's stream events (a live turn) or from the session's stored messages and
// the turn list (a turn that has ended).
import type { components } from 'crucible-client';
import { numberText } from '../../lib/units.ts';
import type { SseEvent } from './sse.ts';

export type Session = components['schemas']['AssistantSession'];
export type SessionDetail = components['schemas']['AssistantSessionDetail'];
export type StoredTurn = components['schemas']['AssistantTurn'];
export type StoredPlan = components['schemas']['AssistantPlan'];
type Message = SessionDetail['messages'][number];

/** A plan card, from the `plan` event or the stored card. */
export interface Plan {
  plan_id: string;
  title: string;
  status: StoredPlan['status'];
  expires_at: string;
  cost_usd: number;
  expected_runtime_sec: number;
  steps: { step_id: string; job_type: string; cost_usd: number; expected_runtime_sec: number }[];
  run_id: string | null;
}

export type Block =
  { kind: 'text'; text: string } | { kind: 'tool'; callId: string; name: string; args: unknown; result?: { ok: boolean; result: unknown } } | { kind: 'plan'; planId: string };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface TurnView {
  turnId: string;
  message: string;
  status: StoredTurn['status'];
  blocks: Block[];
  usage: Usage | null;
  error: string | null;
  /** The last event applied (a live turn resumes after it). */
  lastEventId: number;
}

export function planFromStored(p: StoredPlan): Plan {
  return {
    plan_id: p.plan_id,
    title: p.title,
    status: p.status,
    expires_at: p.expires_at,
    cost_usd: p.estimate.cost_usd,
    expected_runtime_sec: p.estimate.expected_runtime_sec,
    steps: p.estimate.steps,
    run_id: p.run_id,
  };
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** One stream event applied to a turn (a new object: React state). Plans go to `onPlan`. */
export function applyEvent(t: TurnView, e: SseEvent, onPlan: (p: Plan) => void): TurnView {
  if (e.id <= t.lastEventId) return t;
  const d = obj(e.data);
  const blocks = [...t.blocks];
  const next: TurnView = { ...t, blocks, lastEventId: e.id };
  switch (e.event) {
    case 'delta': {
      const tail = blocks.at(-1);
      const text = typeof d.text === 'string' ? d.text : '';
      if (tail?.kind === 'text') blocks[blocks.length - 1] = { kind: 'text', text: tail.text + text };
      else blocks.push({ kind: 'text', text });
      break;
    }
    case 'tool_call':
      blocks.push({ kind: 'tool', callId: String(d.call_id), name: String(d.name), args: d.arguments });
      break;
    case 'tool_result': {
      const i = blocks.findIndex((b) => b.kind === 'tool' && b.callId === d.call_id);
      if (i >= 0) blocks[i] = { ...(blocks[i] as Extract<Block, { kind: 'tool' }>), result: { ok: d.ok === true, result: d.result } };
      break;
    }
    case 'plan': {
      const p = d as unknown as Omit<Plan, 'run_id'>;
      onPlan({ ...p, run_id: null });
      blocks.push({ kind: 'plan', planId: p.plan_id });
      break;
    }
    case 'usage':
      next.usage = { input_tokens: Number(d.input_tokens), output_tokens: Number(d.output_tokens), cost_usd: Number(d.cost_usd) };
      break;
    case 'done':
      next.status = (d.status as TurnView['status']) ?? 'completed';
      break;
    case 'error':
      next.status = 'error';
      next.error = typeof d.message === 'string' ? d.message : 'the turn failed';
      break;
  }
  return next;
}

/** The plan a stored tool answer names (propose_plan, propose_engine_job). */
function planIdOf(content: string): string | null {
  try {
    const v = obj(JSON.parse(content));
    return typeof v.plan_id === 'string' ? v.plan_id : null;
  } catch {
    return null;
  }
}

/** The ended turns of a session from its stored messages, cards and turn list. */
export function turnsFromStored(detail: SessionDetail, turns: StoredTurn[]): TurnView[] {
  const byTurn = new Map<string, Message[]>();
  for (const m of [...detail.messages].sort((a, b) => a.seq - b.seq)) {
    const list = byTurn.get(m.turn_id) ?? [];
    list.push(m);
    byTurn.set(m.turn_id, list);
  }
  return turns.map((t) => {
    const blocks: Block[] = [];
    const placed = new Set<string>();
    const plans = detail.plans.filter((p) => p.turn_id === t.turn_id);
    for (const m of byTurn.get(t.turn_id) ?? []) {
      if (m.role === 'assistant') {
        if (m.content) blocks.push({ kind: 'text', text: m.content });
        for (const c of m.tool_calls ?? []) {
          let args: unknown = c.arguments;
          try {
            args = JSON.parse(c.arguments);
          } catch {
            // kept as text
          }
          blocks.push({ kind: 'tool', callId: c.id, name: c.name, args });
        }
      } else if (m.role === 'tool') {
        const i = blocks.findIndex((b) => b.kind === 'tool' && b.callId === m.tool_call_id);
        let result: unknown = m.content;
        try {
          result = JSON.parse(m.content);
        } catch {
          // kept as text
        }
        const failed = obj(result).error !== undefined;
        if (i >= 0) blocks[i] = { ...(blocks[i] as Extract<Block, { kind: 'tool' }>), result: { ok: !failed, result } };
        const pid = planIdOf(m.content);
        if (pid && plans.some((p) => p.plan_id === pid)) {
          // After the tool answers of this step (the plan event follows its tool_result).
          blocks.push({ kind: 'plan', planId: pid });
          placed.add(pid);
        }
      }
    }
    // Cards no stored tool answer names: after the turn's blocks.
    for (const p of plans) if (!placed.has(p.plan_id)) blocks.push({ kind: 'plan', planId: p.plan_id });
    const ended = t.status !== 'running';
    return {
      turnId: t.turn_id,
      message: t.message,
      status: t.status,
      blocks,
      usage: ended ? { input_tokens: t.input_tokens, output_tokens: t.output_tokens, cost_usd: t.cost_usd } : null,
      error: t.error,
      lastEventId: 0,
    };
  });
}

/** The text of a turn's assistant answers, as shown (blocks joined by a blank line). */
export function shownText(t: TurnView): string {
  return t.blocks
    .filter((b): b is Extract<Block, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text)
    .join('\n\n');
}

export function duration(sec: number): string {
  if (sec < 60) return `${numberText(sec, 1)} s`;
  if (sec < 3600) return `${numberText(sec / 60, 1)} min`;
  return `${numberText(sec / 3600, 1)} h`;
}
