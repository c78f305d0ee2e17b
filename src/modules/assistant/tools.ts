// The Assistant's tools at work (docs/assistant.md, "Tools"): each call runs the service behind
// the matching endpoint directly (never over HTTP) as the caller, so it sees only the caller's
// own jobs, runs and artifacts. Lookups never send a structure, whoever asks. Each call answers
// the model (`forModel`, the JSON of src/assistant/tool-specs.ts's ToolResults) and the client
// (`forClient`: the same, with drawings). propose_plan and propose_engine_job (engine-jobs.ts)
// store a plan card; nothing here starts charged work.
import { TOOL_NAMES, type DescribedMolecule, type ListedArtifact, type ToolError, type WorkflowQuote } from '../../assistant/tool-specs.js';
import { roundSec } from '../../api/rounding.js';
import { listJobTypes } from '../../catalogue/job-types.js';
import { usd } from '../../api/schemas.js';
import { AppError } from '../../errors.js';
import { LookupRequestError, SourceDisabledError, type EndpointName } from '../../lookups/index.js';
import type { Services } from '../../services.js';
import type { Principal } from '../../api/principal.js';
import { depictMolecules } from '../depict/service.js';
import { describeMolecules } from '../describe/service.js';
import type { RunStartBody } from '../workflows/runs.js';
import { EngineJobArgumentError, quoteEngineJob } from './engine-jobs.js';
import { jobResultSummary } from './job-results.js';

export interface ToolContext {
  who: Principal;
  requestId: string;
  /** Stores a plan card for the session's user (the turn's service does it). */
  proposePlan(title: string, request: RunStartBody, quote: WorkflowQuote): Promise<{ plan_id: string; expires_at: string }>;
}

export interface ToolOutcome {
  forModel: unknown;
  forClient: unknown;
  /** Set by propose_plan: the card the `plan` event announces. */
  plan?: Record<string, unknown>;
}

type Args = Record<string, unknown>;
type Deps = Pick<Services, 'chem' | 'lookups' | 'jobs' | 'workflowRuns' | 'artifacts'>;

const LOOKUPS: Record<string, EndpointName> = {
  lookup_compounds: 'compounds',
  lookup_bioactivity: 'bioactivity',
  lookup_targets: 'targets',
  lookup_proteins: 'proteins',
  lookup_structures: 'structures',
  lookup_properties: 'properties',
};

class ToolArgumentError extends Error {}

const str = (a: Args, k: string): string => {
  const v = a[k];
  if (typeof v !== 'string' || v.length === 0) throw new ToolArgumentError(`"${k}" should be a non-empty string`);
  return v;
};
const optInt = (a: Args, k: string, max: number): number | undefined => {
  const v = a[k];
  if (v === undefined || v === null) return undefined;
  if (!Number.isSafeInteger(v) || (v as number) < 1 || (v as number) > max) throw new ToolArgumentError(`"${k}" should be an integer from 1 to ${max}`);
  return v as number;
};
const smilesOf = (a: Args): string[] => {
  const v = a.smiles;
  if (!Array.isArray(v) || v.length < 1 || v.length > 20 || !v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 500))
    throw new ToolArgumentError('"smiles" should be a list of 1 to 20 SMILES');
  return v as string[];
};
const runBody = (a: Args): RunStartBody => {
  const body: RunStartBody = {};
  if (a.template_id !== undefined) body.template_id = str(a, 'template_id');
  if (a.spec !== undefined) body.spec = a.spec;
  if (a.inputs !== undefined) {
    if (typeof a.inputs !== 'object' || a.inputs === null || Array.isArray(a.inputs)) throw new ToolArgumentError('"inputs" should be an object');
    body.inputs = a.inputs as Record<string, unknown>;
  }
  return body;
};
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function quote(s: Deps, who: Principal, body: RunStartBody): Promise<WorkflowQuote> {
  const q = await s.workflowRuns.quote(who, body);
  return {
    cost_usd: usd(q.totalMicros)!,
    expected_runtime_sec: q.expectedRuntimeSec,
    steps: q.steps.map((x) => ({ step_id: x.step_id, job_type: x.job_type, cost_usd: usd(x.cost_micros)!, expected_runtime_sec: x.expected_runtime_sec })),
  };
}

async function call(s: Deps, ctx: ToolContext, name: string, a: Args): Promise<ToolOutcome> {
  const who = ctx.who;
  const same = (v: unknown): ToolOutcome => ({ forModel: v, forClient: v });
  const lookup = LOOKUPS[name];
  if (lookup) return same(await s.lookups.run(lookup, a, { allowStructures: false, requestId: ctx.requestId }));
  switch (name) {
    case 'describe_molecules': {
      const smiles = smilesOf(a);
      const { items } = await describeMolecules(s.chem, { smiles });
      const out: DescribedMolecule[] = items.map((it, i) => ({
        smiles: smiles[i]!,
        canonical_smiles: it.canonical_smiles,
        formula: it.properties?.formula ?? null,
        mw: it.properties?.mw ?? null,
        clogp: it.properties?.clogp ?? null,
        tpsa: it.properties?.tpsa ?? null,
        hbd: it.properties?.hbd ?? null,
        hba: it.properties?.hba ?? null,
        rotatable_bonds: it.properties?.rotatable_bonds ?? null,
        qed: it.properties?.qed ?? null,
        lipinski_pass: it.properties ? it.properties.lipinski.pass : null,
        alerts: it.properties ? [...it.properties.alerts.pains, ...it.properties.alerts.brenk] : [],
        error: it.error ? `${it.error}${it.detail ? `: ${it.detail}` : ''}` : null,
      }));
      return same({ items: out });
    }
    case 'depict_molecules': {
      const smiles = smilesOf(a);
      const { items } = await depictMolecules(s.chem, { smiles });
      const error = (i: number) => (items[i]!.error ? `${items[i]!.error}${items[i]!.detail ? `: ${items[i]!.detail}` : ''}` : null);
      return {
        forModel: { items: smiles.map((smi, i) => ({ smiles: smi, drawn: items[i]!.svg !== null, error: error(i) })) },
        forClient: { items: smiles.map((smi, i) => ({ smiles: smi, svg: items[i]!.svg, error: error(i) })) },
      };
    }
    case 'list_job_types': {
      // The Assistant reaches no registered schema: a payload schema with a $ref would fail here (and in its test).
      const listing = listJobTypes(a.job_type, () => undefined);
      if (!listing.ok) throw new ToolArgumentError(listing.message);
      return same(listing.value);
    }
    case 'estimate_job': {
      const e = await s.jobs.estimate(who, { job_type: str(a, 'job_type'), payload: a.payload, ...(a.resource !== undefined ? { resource: str(a, 'resource') } : {}) });
      return same({ job_type: e.jobType, resource: e.resource.name, cost_usd: usd(e.costMicros)!, expected_runtime_sec: roundSec(e.expectedRuntimeSec) });
    }
    case 'estimate_workflow':
      return same(await quote(s, who, runBody(a)));
    case 'list_jobs': {
      const page = await s.jobs.list(who.userId, {
        limit: optInt(a, 'limit', 50) ?? 10,
        ...(a.status !== undefined ? { status: str(a, 'status') } : {}),
        ...(a.job_type !== undefined ? { job_type: str(a, 'job_type').slice(0, 100) } : {}),
      });
      return same({
        jobs: page.rows.map((j) => ({ process_id: j.id, job_type: j.job_type, status: j.status, created_at: iso(j.created_at), charged_usd: usd(j.charged_micros) })),
        total: page.total,
      });
    }
    case 'get_job': {
      const j = await s.jobs.get(who.userId, str(a, 'process_id'));
      return same({
        process_id: j.id,
        job_type: j.job_type,
        status: j.status,
        progress: j.progress,
        message: j.message || null,
        created_at: iso(j.created_at),
        charged_usd: usd(j.charged_micros),
      });
    }
    case 'get_job_result':
      return same(await jobResultSummary(s, who, str(a, 'process_id')));
    case 'list_runs': {
      const page = await s.workflowRuns.list(who.userId, { limit: optInt(a, 'limit', 50) ?? 10, ...(a.status !== undefined ? { status: str(a, 'status') } : {}) });
      return same({ runs: page.runs.map((r) => ({ run_id: r.run_id, name: r.name, status: r.status, created_at: r.created_at })), total: page.total });
    }
    case 'get_run': {
      const r = await s.workflowRuns.get(who.userId, str(a, 'run_id'));
      return same({ run_id: r.run_id, name: r.name, status: r.status, steps: (r.steps ?? []).map((x) => ({ step_id: x.step_id, state: x.state })) });
    }
    case 'list_artifacts': {
      const kind = a.kind === undefined || a.kind === null ? undefined : str(a, 'kind').slice(0, 100);
      const page = await s.artifacts.list(who.userId, { limit: optInt(a, 'limit', 50) ?? 10, offset: 0, includeArchive: false, dataKind: kind });
      const artifacts: ListedArtifact[] = page.items.map((x) => ({
        artifact_id: x.artifact_id,
        name: x.name,
        origin: x.origin,
        port: x.port,
        kind: x.data_kind,
        molecules: x.data_kind === 'molecules' ? x.record_count : null,
        created_at: x.created_at ?? '',
      }));
      return same({ artifacts, total: artifacts.length });
    }
    case 'get_artifact': {
      const x = await s.artifacts.get(who.userId, str(a, 'artifact_id'));
      const ports = Object.entries(x.manifest.ports).map(([port, p]) => ({ port, kind: p.kind, format: p.format, records: p.record_count }));
      const sets = ports.filter((p) => p.kind === 'molecules');
      return same({
        artifact_id: x.id,
        name: x.name,
        origin: x.origin,
        ports,
        molecules: sets.length ? sets.reduce((n, p) => n + p.records, 0) : null,
        size_bytes: x.size_bytes,
        created_at: x.created_at,
      });
    }
    case 'estimate_engine_job':
      return same((await quoteEngineJob(s, who, a)).quote);
    case 'propose_engine_job': {
      const title = str(a, 'title').slice(0, 200);
      const { body, quote: q } = await quoteEngineJob(s, who, a, title);
      const card = await ctx.proposePlan(title, body, q);
      const result = { plan_id: card.plan_id, title, status: 'proposed' as const, expires_at: card.expires_at, ...q };
      return { ...same(result), plan: result };
    }
    case 'propose_plan': {
      const title = str(a, 'title').slice(0, 200);
      const body = runBody(a);
      const q = await quote(s, who, body);
      const card = await ctx.proposePlan(title, body, q);
      const result = { plan_id: card.plan_id, title, status: 'proposed' as const, expires_at: card.expires_at, ...q };
      return { ...same(result), plan: result };
    }
  }
  throw new ToolArgumentError(`unknown tool "${name}"; the tools are ${[...TOOL_NAMES].join(', ')}`);
}

/** Runs one tool call; a failure is the tool's answer (`{error}`), never the turn's end. */
export async function runTool(s: Deps, ctx: ToolContext, name: string, argsText: string): Promise<ToolOutcome & { ok: boolean }> {
  const fail = (code: string, message: string): ToolOutcome & { ok: boolean } => {
    const e: ToolError = { error: { code, message } };
    return { forModel: e, forClient: e, ok: false };
  };
  let args: unknown;
  try {
    args = argsText.trim() === '' ? {} : JSON.parse(argsText);
  } catch {
    return fail('invalid-arguments', 'the arguments are not JSON');
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return fail('invalid-arguments', 'the arguments should be a JSON object');
  try {
    return { ...(await call(s, ctx, name, args as Args)), ok: true };
  } catch (err) {
    if (err instanceof ToolArgumentError || err instanceof EngineJobArgumentError) return fail('invalid-arguments', err.message);
    if (err instanceof LookupRequestError) return fail('validation-error', err.message);
    if (err instanceof SourceDisabledError) return fail('source-disabled', err.message);
    if (err instanceof AppError) {
      const where = err.issues?.length ? ` (${err.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')})` : '';
      return fail(err.code, `${err.message}${where}`.slice(0, 2000));
    }
    throw err;
  }
}
