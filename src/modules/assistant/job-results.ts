// The get_job_result tool (docs/assistant.md, "Questions about results"): one of the caller's
// jobs with its stored result, read through the jobs service as GET /jobs/result reads it (the
// caller's own jobs only: anyone else's is not-found), shortened for a prompt. Molblocks, SVGs
// and logs are dropped (strings over 300 characters), lists keep their first entries with
// `<key>_total` beside them, and the whole answer stays under about 12,000 characters.
import type { JobResultSummary } from '../../assistant/tool-specs.js';
import { usd } from '../../api/schemas.js';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../../api/principal.js';

/** Longest string kept; molblocks, drawings and logs are longer. */
const MAX_STRING = 300;
/** The tightest first: items kept, entries of each list kept. */
const BUDGETS: readonly { items: number; entries: number }[] = [
  { items: 10, entries: 10 },
  { items: 5, entries: 5 },
  { items: 2, entries: 3 },
];
const MAX_CHARS = 12_000;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function shorten(v: unknown, entries: number, depth: number): unknown {
  if (typeof v === 'string') return v.length <= MAX_STRING ? v : undefined;
  if (v === null || typeof v !== 'object') return typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
  if (depth > 5) return undefined;
  if (Array.isArray(v)) return v.slice(0, entries).map((x) => shorten(x, entries, depth + 1) ?? null);
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    const s = shorten(x, entries, depth + 1);
    if (s === undefined) continue;
    out[k] = s;
    if (Array.isArray(x) && x.length > entries) out[`${k}_total`] = x.length;
  }
  return out;
}

/** The result document for a prompt: its top-level fields, the first items, each shortened. */
function shortResult(result: unknown, budget: { items: number; entries: number }): Obj | null {
  if (!isObj(result)) return null;
  const { items, ...rest } = result;
  const out = shorten(rest, budget.entries, 0) as Obj;
  if (Array.isArray(items)) {
    out.items = items.slice(0, budget.items).map((x) => shorten(x, budget.entries, 1) ?? null);
    out.items_total = items.length;
  }
  return out;
}

/** The caller's job and its result, for the model. */
export async function jobResultSummary(s: Pick<Services, 'jobs'>, who: Principal, processId: string): Promise<JobResultSummary> {
  const j = await s.jobs.get(who.userId, processId);
  let result: unknown = null;
  if (j.status === 'completed' && j.result_artifact_id) {
    try {
      result = await s.jobs.result(who.userId, j.id);
    } catch (err) {
      // A result that cannot be read is told as the job's message; nothing else leaks.
      if (!(err instanceof AppError)) throw err;
    }
  }
  const p = isObj(j.payload) ? j.payload : {};
  const molecules = Array.isArray(p.molecules) ? p.molecules.slice(0, 20).map((m) => (typeof m !== 'string' ? '' : /\n/.test(m) ? '(molblock)' : m.slice(0, MAX_STRING))) : null;
  const base = {
    process_id: j.id,
    job_name: j.job_name,
    job_type: j.job_type,
    status: j.status,
    progress: j.progress,
    message: j.message || null,
    created_at: new Date(j.created_at).toISOString(),
    finished_at: j.finished_at ? new Date(j.finished_at).toISOString() : null,
    charged_usd: usd(j.charged_micros),
    workflow_run_id: j.workflow_run_id,
    molecules,
    input_artifact_id: typeof p.input_artifact_id === 'string' ? p.input_artifact_id : null,
  };
  for (const budget of BUDGETS) {
    const answer = { ...base, result: shortResult(result, budget) };
    if (JSON.stringify(answer).length <= MAX_CHARS || budget === BUDGETS.at(-1)) return answer;
  }
  return { ...base, result: null };
}
