// Utility rules, callable without a request (docs/utilities.md): the catalog, a synchronous
// call (limits, the work in the chemistry pool, then ONE transaction that counts the call
// against the monthly allowance with its record), and asynchronous requests, which are jobs
// of type `utility` on the compute runtime (not charged; counted ceil(molecules / 100) in the
// transaction that creates them). Errors are AppErrors located relative to {tool, input}.
import type { ChemPool } from '../../chem/pool.js';
import { asyncUnits, ASYNC_LIMITS, checkAsyncLimits, checkSyncLimits, moleculeCount, SYNC_LIMITS } from '../../chem/utilities/limits.js';
import { precheckTool, runTool, type ToolContext } from '../../chem/utilities/run.js';
import { TOOL_INPUTS, TOOL_NAMES, type ToolInput, type ToolName } from '../../chem/utilities/schemas.js';
import type { JobService, Submitter } from '../../compute/service.js';
import { listRequests, removeRequest, requestFields } from '../../compute/requests.js';
import type { JobRow } from '../../compute/store.js';
import type { Database, Queryable } from '../../db/database.js';
import { within } from '../../errors.js';
import { RESULT_PORT, RESULT_RECORD } from '../artifacts/names.js';
import type { ArtifactService } from '../artifacts/service.js';
import { submitCountedRequest } from '../usage/requests.js';
import type { UsageService } from '../usage/service.js';

/** Results up to this size come back inline; larger ones in an artifact. */
export const INLINE_RESULT_BYTES = 1024 * 1024;

export interface ToolRequest {
  tool: ToolName;
  input: ToolInput<ToolName>;
}

const SUMMARIES: Record<ToolName, string> = {
  convert: 'Convert molecules between SMILES, CXSMILES, Kekulé SMILES, molblock V2000/V3000, InChI, InChIKey, formula and RDKit JSON',
  fingerprints: 'Fingerprints (Morgan, RDKit, atom pair, topological torsion, MACCS, pattern) as on-bit indices, hex or base64',
  similarity: 'The most similar library molecules of each query (Tanimoto, Dice or cosine on a fingerprint), above a threshold, best top_k',
  substructure: 'Which molecules contain a SMARTS or SMILES query, with the matched atom indices (and highlighted SVGs on request)',
  mcs: 'The maximum common substructure of 2 to 50 molecules (SMARTS, atom and bond counts), within a timeout',
  rgroups: 'R-group decomposition of molecules on one or more cores: a row per molecule with its core and R1..Rn',
};

/** Who calls: the submitter of the job engine plus the tier that sets the allowance. */
export type Caller = Submitter;

export class UtilityService {
  constructor(
    private readonly db: Database,
    private readonly deps: { chem: ChemPool; jobs: JobService; usage: UsageService; artifacts: ArtifactService },
  ) {}

  catalog() {
    return {
      tools: TOOL_NAMES.map((name) => ({
        name,
        summary: SUMMARIES[name],
        input_schema: TOOL_INPUTS[name],
        limits: { sync: { ...SYNC_LIMITS[name] }, async: { ...ASYNC_LIMITS[name] } },
      })),
      counting: 'POST /utilities/run counts 1 call against the monthly allowance; POST /utilities/submit counts ceil(molecules / 100). Calls that fail validation count nothing.',
    };
  }

  private context(userId: string): ToolContext {
    return { pool: this.deps.chem, readMolecules: (id, port) => this.deps.artifacts.readMolecules(userId, id, port) };
  }

  private async artifactCount(userId: string, req: ToolRequest): Promise<number | undefined> {
    const i = req.input as { input_artifact_id?: string; library_artifact_id?: string; port?: string };
    const id = i.input_artifact_id ?? i.library_artifact_id;
    return id === undefined ? undefined : within(['input'], () => this.deps.artifacts.countMolecules(userId, id, i.port));
  }

  /**
   * A synchronous call. `record(tx, response)` runs in the transaction that counts the call (an
   * idempotent response is pinned there), so a replay counts nothing and a refused count keeps
   * nothing; without it the call is counted by UsageService.count (no transaction of its own).
   */
  async run(who: Caller, req: ToolRequest, record?: (tx: Queryable, response: unknown) => Promise<void>) {
    await precheckTool(this.context(who.userId), req.tool, req.input);
    checkSyncLimits(req.tool, req.input, await this.artifactCount(who.userId, req));
    await this.deps.usage.assertAvailable(who.userId, who.tier, 1);
    const result = await runTool(this.context(who.userId), req.tool, req.input);
    const json = JSON.stringify(result);
    const count = async (tx: Queryable, response: unknown) => {
      await this.deps.usage.consume(tx, who.userId, who.tier, 'utilities', 1);
      await record?.(tx, response);
    };
    if (Buffer.byteLength(json) <= INLINE_RESULT_BYTES) {
      const response = { tool: req.tool, result, result_artifact_id: null, counted: 1 };
      // With nothing to pin beside it, the count is one statement shared with the caller's concurrent calls.
      if (record) await this.db.transaction((tx) => count(tx, response));
      else await this.deps.usage.count(who.userId, who.tier, 'utilities', 1);
      return response;
    }
    let response: unknown = null;
    await this.deps.artifacts.createFromRecords({
      userId: who.userId,
      jobId: null,
      jobType: `utility:${req.tool}`,
      enforceQuota: true,
      ports: {
        [RESULT_PORT]: {
          format: 'json',
          kind: 'result',
          records: [{ id: RESULT_RECORD, files: { primary: { name: 'result.json', content: json, contentType: 'application/json' } } }],
        },
      },
      inTx: async (tx, artifactId) => {
        response = { tool: req.tool, result: null, result_artifact_id: artifactId, counted: 1 };
        await count(tx, response);
      },
    });
    return response as { tool: ToolName; result: null; result_artifact_id: string; counted: number };
  }

  /** An asynchronous request; answers its id. `record` runs in the creating transaction. */
  async submit(who: Caller, req: ToolRequest, record?: (tx: Queryable, answer: { request_id: string }) => Promise<void>) {
    await precheckTool(this.context(who.userId), req.tool, req.input);
    checkAsyncLimits(req.tool, req.input);
    const molecules = moleculeCount(req.tool, req.input, (await this.artifactCount(who.userId, req)) ?? 0);
    const request = { job_type: 'utility', payload: req };
    return submitCountedRequest(this.deps, who, { request, origin: 'utility', kind: 'utilities', molecules, units: asyncUnits(molecules) }, record);
  }

  async list(userId: string, q: { status?: string; limit?: number; offset?: number }) {
    return listRequests(this.deps.jobs, userId, q, 'utility', summary);
  }

  async get(userId: string, requestId: string) {
    const job = await this.deps.jobs.get(userId, requestId, 'utility');
    let result: Record<string, unknown> | null = null;
    let size: number | null = null;
    if (job.status === 'completed' && job.result_artifact_id) {
      // The stored document is {tool, result}: inline when it is at most 1 MiB.
      const r = await this.deps.artifacts.readPrimaryJsonUpTo(userId, job.result_artifact_id, RESULT_PORT, RESULT_RECORD, INLINE_RESULT_BYTES);
      size = r.size;
      if ('value' in r) result = (r.value as { result?: Record<string, unknown> }).result ?? null;
    }
    return { ...summary(job), result, result_artifact_id: job.status === 'completed' ? job.result_artifact_id : null, result_size_bytes: size };
  }

  /** Cancels a request that has not ended, or deletes one that has (with its result). */
  async remove(userId: string, requestId: string) {
    return removeRequest(this.deps.jobs, userId, requestId, 'utility');
  }
}

function summary(j: JobRow) {
  // A utility job's payload is a validated {tool, input} (compute/types/utility.ts).
  return { ...requestFields(j), tool: (j.payload as { tool: ToolName }).tool };
}
