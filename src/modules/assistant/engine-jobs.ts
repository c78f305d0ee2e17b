// The Assistant's engine job tools (docs/assistant.md, "Engine jobs"): estimate_engine_job and
// propose_engine_job. An engine job is proposed as a one-step workflow run (an inline spec whose
// one step is the job, its structures a workflow input), so its plan card is an ordinary card:
// approval starts the run with an Idempotency-Key, reserves the card's estimate and decides the
// card in the run's start transaction, and the card expires after 24 h. The job's own estimate
// (POST /jobs/estimate) runs first: it checks the payload (charge and multiplicity against the
// structures too) and that a worker has the engines, with the job's own error locations.
import { JOB_TYPES } from '../../compute/registry.js';
import { usd } from '../../api/schemas.js';
import { ENGINE_JOB_TYPES, type EngineJobQuote } from '../../assistant/tool-specs.js';
import { outputPortsOf, type WorkflowSpec } from '../../workflows/spec.js';
import type { Services } from '../../services.js';
import type { Principal } from '../../api/principal.js';
import type { RunStartBody } from '../workflows/runs.js';

type Args = Record<string, unknown>;
type Deps = Pick<Services, 'jobs' | 'workflowRuns'>;

/** A tool argument that is wrong: the tool answers `invalid-arguments` with this message. */
export class EngineJobArgumentError extends Error {}

/** The arguments that say where the structures are; every other one (but title) is a job parameter. */
const STRUCTURE_ARGS = new Set(['molecules', 'input_artifact_id']);
const NOT_PARAMS = new Set(['job_type', 'title', ...STRUCTURE_ARGS]);

/** The job the arguments describe: its type, its payload, and the one-step run that runs it. */
export function engineJobRequest(a: Args): { jobType: string; payload: Args; body: RunStartBody; structures: string[] | string } {
  const jobType = a.job_type;
  if (typeof jobType !== 'string' || !(ENGINE_JOB_TYPES as readonly string[]).includes(jobType))
    throw new EngineJobArgumentError(`"job_type" should be one of ${ENGINE_JOB_TYPES.join(', ')}`);
  const type = JOB_TYPES.get(jobType);
  if (!type) throw new EngineJobArgumentError(`the ${jobType} job type is not available on this server`);
  const given = [...STRUCTURE_ARGS].filter((k) => a[k] !== undefined && a[k] !== null);
  if (given.length !== 1) throw new EngineJobArgumentError('give the structures as exactly one of "molecules" (SMILES) and "input_artifact_id" (a molecule set)');
  const structures = a[given[0]!];
  if (given[0] === 'molecules' && !(Array.isArray(structures) && structures.length >= 1 && structures.every((x) => typeof x === 'string' && x.length > 0)))
    throw new EngineJobArgumentError('"molecules" should be a list of SMILES');
  if (given[0] === 'input_artifact_id' && (typeof structures !== 'string' || structures.length === 0))
    throw new EngineJobArgumentError('"input_artifact_id" should be an artifact id');
  const params: Args = {};
  for (const [k, v] of Object.entries(a)) if (!NOT_PARAMS.has(k) && v !== undefined) params[k] = v;
  const payload = { ...params, [given[0]!]: structures };
  const outputs = Object.fromEntries(Object.keys(outputPortsOf(type)).map((port) => [port, `$steps.${jobType}.outputs.${port}`]));
  const spec: WorkflowSpec = {
    name: jobType,
    description: `${jobType}: one engine job, proposed by the Assistant`,
    inputs: { structures: { type: 'molecules', description: 'The structures: SMILES, or a molecule set (artifact id)' } },
    steps: [{ id: jobType, job_type: jobType, inputs: { molecules: '$inputs.structures' }, params }],
    outputs,
  };
  return { jobType, payload, body: { spec, inputs: { structures } }, structures: structures as string[] | string };
}

/** The job checked as /jobs/estimate checks it, then priced as its one-step run would reserve. */
export async function quoteEngineJob(s: Deps, who: Principal, a: Args, title?: string): Promise<{ body: RunStartBody; quote: EngineJobQuote }> {
  const req = engineJobRequest(a);
  const job = await s.jobs.estimate(who, { job_type: req.jobType, payload: req.payload });
  if (title) (req.body.spec as WorkflowSpec).name = title;
  const q = await s.workflowRuns.quote(who, req.body);
  const assumed = (job.assumptions ?? {}) as Record<string, unknown>;
  const p = req.payload;
  const docking = req.jobType === 'docking';
  const counted = docking ? assumed.ligands : assumed.structures;
  const box = assumed.box as EngineJobQuote['box'] | undefined;
  return {
    body: req.body,
    quote: {
      job_type: req.jobType,
      method: typeof p.method === 'string' ? p.method : docking ? 'vina' : 'gfn2',
      solvent: typeof p.solvent === 'string' ? p.solvent : null,
      structures: Array.isArray(req.structures) ? req.structures.length : typeof counted === 'number' ? counted : 0,
      ...(docking ? { receptor: [p.pdb_id, p.receptor_artifact_id].find((x) => typeof x === 'string') ?? '' } : {}),
      ...(docking && box ? { box } : {}),
      cost_usd: usd(q.totalMicros)!,
      expected_runtime_sec: q.expectedRuntimeSec,
      steps: q.steps.map((x) => ({ step_id: x.step_id, job_type: x.job_type, cost_usd: usd(x.cost_micros)!, expected_runtime_sec: x.expected_runtime_sec })),
    },
  };
}
