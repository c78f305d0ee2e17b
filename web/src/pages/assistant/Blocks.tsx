// The pieces of a turn: a tool call (name, arguments, then its result) and a plan card with its
// estimate and Approve / Reject (docs/assistant.md, "Plan cards"). Approval charges the wallet, so
// it carries an Idempotency-Key, kept for the card so that a retry after a lost answer is the
// same request; the run it started is linked (#/workflows/runs/<id>).
import { useRef, useState } from 'react';
import { idempotencyKey } from 'crucible-client';
import { api, ok } from '../../api/client.ts';
import { toProblem, type Problem } from '../../api/problem.ts';
import { ProblemView } from '../../components/ProblemView.tsx';
import { href } from '../../router.ts';
import { duration, type Block, type Plan } from './model.ts';
import { usd } from '../../lib/units.ts';
import { ListTable } from '../../components/ListTable.tsx';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Arguments in one line: `smiles: CCO, c1ccccc1` (lists joined, objects as JSON). */
export function summarize(args: unknown): string {
  if (args == null) return '';
  if (typeof args !== 'object') return clip(typeof args === 'string' ? args : JSON.stringify(args), 160);
  const parts = Object.entries(args as Record<string, unknown>).map(([k, v]) => {
    const shown = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : typeof v === 'string' ? v : JSON.stringify(v);
    return `${k}: ${shown}`;
  });
  return clip(parts.join('; '), 200);
}

function resultLine(ok: boolean, result: unknown): string {
  const r = result && typeof result === 'object' ? (result as Record<string, unknown>) : {};
  const err = r.error as { code?: string; message?: string } | undefined;
  if (!ok || err) return `failed: ${err?.message ?? err?.code ?? 'error'}`;
  if (typeof r.plan_id === 'string') return `plan card ${r.plan_id}`;
  for (const key of ['items', 'jobs', 'runs', 'artifacts', 'activities', 'compounds']) {
    const v = r[key];
    if (Array.isArray(v)) return `${v.length} ${key === 'items' ? (v.length === 1 ? 'item' : 'items') : key}`;
  }
  if (typeof r.cost_usd === 'number') return `estimate ${usd(r.cost_usd)}${typeof r.expected_runtime_sec === 'number' ? `, ${duration(r.expected_runtime_sec)}` : ''}`;
  return 'done';
}

/** Depictions a tool answered (depict_molecules carries SVG). */
function svgs(result: unknown): { smiles: string; svg: string }[] {
  const items = (result as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  return items
    .filter((i): i is { smiles: string; svg: string } => !!i && typeof (i as { svg?: unknown }).svg === 'string')
    .slice(0, 8)
    .map((i) => ({ smiles: String(i.smiles ?? ''), svg: i.svg }));
}

export function ToolCall({ block }: { block: Extract<Block, { kind: 'tool' }> }) {
  const pictures = block.result ? svgs(block.result.result) : [];
  return (
    <div className={`tool${block.result && !block.result.ok ? ' bad' : ''}`} role="group" aria-label={`Tool call ${block.name}`}>
      <div className="tool-head">
        <span className="tool-name mono">{block.name}</span>
        <span className="muted small wrap">{summarize(block.args)}</span>
      </div>
      <div className="tool-result small">
        {block.result ? (
          <span>
            <span aria-hidden="true">{block.result.ok ? '✓ ' : '✗ '}</span>
            {resultLine(block.result.ok, block.result.result)}
          </span>
        ) : (
          <span className="muted">running…</span>
        )}
      </div>
      {pictures.length > 0 && (
        <div className="tool-pictures">
          {pictures.map((p, i) => (
            <img key={i} className="tool-picture" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(p.svg)}`} alt={`Structure of ${p.smiles}`} />
          ))}
        </div>
      )}
    </div>
  );
}

export function PlanCard({ plan, onChange }: { plan: Plan | undefined; onChange: (p: Plan) => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const key = useRef<string | null>(null);
  if (!plan) return null;
  const titleId = `plan-${plan.plan_id}`;

  async function decide(approve: boolean) {
    if (!plan) return;
    setBusy(true);
    setProblem(null);
    try {
      if (approve) {
        key.current ??= idempotencyKey();
        const r = await ok(api.POST('/api/v1/assistant/plans/{plan_id}/approve', { params: { path: { plan_id: plan.plan_id }, header: { 'idempotency-key': key.current } } }));
        onChange({ ...plan, status: r.status, run_id: r.run_id });
      } else {
        const r = await ok(api.POST('/api/v1/assistant/plans/{plan_id}/reject', { params: { path: { plan_id: plan.plan_id } } }));
        onChange({ ...plan, status: r.status, run_id: r.run_id });
      }
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className={`plan plan-${plan.status}`} aria-labelledby={titleId}>
      <div className="plan-head">
        <h3 id={titleId}>{plan.title}</h3>
        <span className={`state state-${plan.status}`}>{plan.status}</span>
      </div>
      <p className="plan-estimate">
        Estimate: <strong>{usd(plan.cost_usd)}</strong> reserved on approval, about {duration(plan.expected_runtime_sec)}
      </p>
      {plan.steps.length > 0 && (
        <ListTable label={`Steps of ${plan.title}`} columns={['Step', 'Job', 'Cost', 'Runtime']} className="list plan-steps" scrolls={false}>
          {plan.steps.map((s) => (
            <tr key={s.step_id}>
              <td>{s.step_id}</td>
              <td>{s.job_type}</td>
              <td>{usd(s.cost_usd)}</td>
              <td>{duration(s.expected_runtime_sec)}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <p className="muted small">
        Plan {plan.plan_id}
        {plan.status === 'proposed' && <> · expires {new Date(plan.expires_at).toLocaleString()}</>}
      </p>
      <ProblemView problem={problem} />
      {plan.status === 'proposed' && (
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void decide(true)}>
            Approve
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void decide(false)}>
            Reject
          </button>
        </div>
      )}
      {plan.run_id && (
        <p className="plan-run" role="status">
          Approved: <a href={href('workflows', 'runs', plan.run_id)}>workflow run {plan.run_id}</a>
        </p>
      )}
      {plan.status === 'rejected' && (
        <p className="plan-run" role="status">
          Rejected: nothing was run or charged.
        </p>
      )}
    </article>
  );
}
