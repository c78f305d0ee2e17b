// `utility`: the job behind an asynchronous utility request (POST /utilities/submit,
// docs/utilities.md). It runs one tool of src/chem/utilities on the job runtime (queue,
// retries, crash safety) but is never submitted through /jobs and never charged: the request
// counts against the monthly allowance instead (JobService.submitRequest). Its result document
// is the tool's result, kept in the result artifact.
import { runTool } from '../../chem/utilities/run.js';
import { toolRequestSchema, type ToolInput, type ToolName } from '../../chem/utilities/schemas.js';
import { moleculeCount } from '../../chem/utilities/limits.js';
import { AppError } from '../../errors.js';
import { JobInputError, type JobType } from '../job-type.js';
import { linearEstimate, type CostName } from './calibration.js';

const Payload = toolRequestSchema('UtilityRequestPayload', 'A utility request: the tool and its input');
interface Payload {
  tool: ToolName;
  input: ToolInput<ToolName>;
}

const COSTS: Record<ToolName, CostName[]> = {
  convert: ['describe'],
  fingerprints: ['fingerprint'],
  similarity: ['fingerprint'],
  substructure: ['substructure'],
  mcs: ['describe'],
  rgroups: ['describe'],
};

/** Seconds beyond the per-molecule model: an MCS may run its whole timeout. */
function extraSec(p: Payload): number {
  return p.tool === 'mcs' ? ((p.input as ToolInput<'mcs'>).timeout_sec ?? 2) : 0;
}

export const utilityRequestJob: JobType<Payload> = {
  name: 'utility',
  runsOn: 'chem-pool',
  methods: ['smiles', 'inchi', 'morgan', 'maccs', 'similarity'],
  summary: 'An asynchronous utility request (convert, fingerprints, similarity, substructure, mcs, rgroups); not charged, counted against the monthly allowance',
  payload: Payload,

  async estimate(p, ctx) {
    const i = p.input as { input_artifact_id?: string; library_artifact_id?: string; port?: string };
    const artifact = i.input_artifact_id ?? i.library_artifact_id;
    const fromArtifact = artifact ? await ctx.countMolecules(artifact, i.port) : 0;
    const n = moleculeCount(p.tool, p.input, fromArtifact);
    return {
      expectedRuntimeSec: linearEstimate(n, artifact ? ['readArtifact', ...COSTS[p.tool]] : COSTS[p.tool], ctx.resource.vcpu, extraSec(p)),
      assumptions: { tool: p.tool, molecules: n, model: 'overhead + molecules x per-molecule cost (docs/jobs.md)' },
    };
  },

  async run(ctx) {
    const p = ctx.payload;
    // Input problems were refused at submit (precheckTool); one found now (an uploaded set
    // deleted meanwhile, say) ends the request `error` with the reason.
    const result = await runTool(
      {
        pool: ctx.deps.chem,
        readMolecules: (id, port) => ctx.readMolecules(id, port),
        signal: ctx.signal,
        progress: (f, m) => ctx.progress(f, m),
        parallel: ctx.resource.vcpu,
      },
      p.tool,
      p.input,
    ).catch((err: unknown) => {
      throw err instanceof AppError ? new JobInputError(err.message) : err;
    });
    return { result: { tool: p.tool, result } };
  },
};
