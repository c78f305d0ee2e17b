// Job rules, callable without a request: validate and estimate per type, submit (reserve +
// insert + enqueue in one transaction), list, read, cancel and delete. The run itself is
// runtime.ts. Errors are AppErrors located relative to the caller's input (a job request:
// ["payload", ...], ["resource"]); routes, workflows and the Assistant root them.
import crypto from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { StructureInfoOptions, StructureInfoOutcome } from '../chem/jobs/types.js';
import type { ChemPool } from '../chem/pool.js';
import type { Database, Queryable } from '../db/database.js';
import { AppError, invalid, invalidInput, notFound, type Issue } from '../errors.js';
import { compileJsonValidator, isUuid, validationIssues } from '../validation.js';
import { runtimeLimitSec, type JobType } from './job-type.js';
import type { ComputePorts } from './ports.js';
import { ENGINES } from '../engines/catalog.js';
import { laneOf } from './lanes.js';
import type { JobQueue } from './queue.js';
import { JOB_TYPES, REQUEST_TYPES } from './registry.js';
import { RESOURCE_NAMES, RESOURCES, type Resource } from './resources.js';
import { ACTIVE_STATUSES, JOB_STATUSES, jobsStore, TERMINAL, type JobOrigin, type JobRow } from './store.js';
import { finishJob } from './transitions.js';
import { workersStore } from './workers-store.js';
import { commaValues, sortOrder } from '../db/list-query.js';
import { runRdkitHere } from '../engines/rdkit/program.js';

/** Who submits: the account, the API key used (if any) and its monthly spend ceiling. */
export interface Submitter {
  userId: string;
  keyId: string | null;
  tier: number;
  spendCeilingMicros: number | null;
}

export interface JobRequest {
  job_type: string;
  payload: unknown;
  resource?: string;
  job_name?: string;
}

export interface JobEstimate {
  jobType: string;
  resource: Resource;
  expectedRuntimeSec: number;
  costMicros: number;
  runtimeLimitSec: number;
  assumptions: Record<string, unknown>;
}

export interface SubmitOptions {
  /** Runs in the submit transaction after the rows are written (e.g. pinning an idempotent response). */
  inTransaction?(tx: Queryable, ids: string[]): Promise<void>;
  /** Recorded in the rows' `info` beside the estimate's assumptions (e.g. a request's allowance units). */
  info?: Record<string, unknown>;
}

export const JOB_SORT_FIELDS = ['created_at', 'job_name', 'status', 'runtime_seconds', 'charged_amount'] as const;
const SORT_COLUMNS: Record<(typeof JOB_SORT_FIELDS)[number], string> = {
  created_at: 'created_at',
  job_name: 'job_name',
  status: 'status',
  runtime_seconds: 'runtime_seconds',
  charged_amount: 'charged_micros',
};

export interface JobListQuery {
  status?: string;
  job_type?: string;
  q?: string;
  sort?: string;
  limit?: number;
  offset?: number;
}

export const MAX_RESULT_MULTIPLE = 50;

interface Planned extends JobEstimate {
  id: string;
  name: string;
  payload: unknown;
}

export class JobService {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly ports: ComputePorts,
    private readonly runtimeGraceSec = 60,
    /** RDKit threads, for the engine types' checks of inline structures at submit. */
    private readonly chem?: ChemPool,
  ) {}

  /** RDKit's reading of inline structures, as an engine job's estimate takes it (a workflow step's estimate too). */
  async structureInfo(inputs: string[], options: StructureInfoOptions = {}): Promise<StructureInfoOutcome[]> {
    if (!this.chem) throw new Error('this instance has no chemistry pool');
    const outs = await this.chem.runItems('structure_info', inputs, options, this.chem.threads);
    return outs.map((o) =>
      o.ok ? o.value : { atoms: 0, heavy: 0, elements: [], formalCharge: 0, electrons: 0, has3d: false, smiles: null, error: o.failure === 'timeout' ? 'too_large' : 'failed' },
    );
  }

  private validator(type: JobType): ValidateFunction {
    let v = this.validators.get(type.name);
    if (!v) {
      v = compileJsonValidator(type.payload);
      this.validators.set(type.name, v);
    }
    return v;
  }

  /** Checks a job request against its type's payload schema; every problem located relative to the request. */
  check(req: JobRequest, types: ReadonlyMap<string, JobType> = JOB_TYPES): Issue[] {
    const issues: Issue[] = [];
    const type = types.get(req.job_type);
    if (!type) issues.push({ type: 'enum', loc: ['job_type'], msg: `Input should be one of: ${[...types.keys()].join(', ')}`, input: req.job_type });
    if (!Object.hasOwn(RESOURCES, req.resource ?? 'default'))
      issues.push({ type: 'enum', loc: ['resource'], msg: `Input should be one of: ${RESOURCE_NAMES.join(', ')}`, input: req.resource });
    if (type) {
      const validate = this.validator(type);
      if (!validate(req.payload)) issues.push(...validationIssues(validate.errors ?? [], ['payload'], req.payload));
    }
    return issues;
  }

  /** Validates type, resource and payload and estimates the cost (errors relative to the request). */
  async estimate(who: Submitter, req: JobRequest, types: ReadonlyMap<string, JobType> = JOB_TYPES): Promise<JobEstimate> {
    const issues = this.check(req, types);
    const type = types.get(req.job_type);
    const resource = RESOURCES[req.resource ?? 'default'];
    if (issues.length || !type || !resource) throw invalidInput(issues);
    await this.requireEngines(type, req.payload);
    const est = await type
      .estimate(req.payload, {
        userId: who.userId,
        resource,
        countMolecules: (artifactId, port) => this.ports.artifacts.countMolecules(who.userId, artifactId, port),
        models: this.ports.models,
        structureInfo: (inputs, options) => this.structureInfo(inputs, options),
        readFile: this.ports.artifacts.readFile ? (artifactId, maxBytes) => this.ports.artifacts.readFile!(who.userId, artifactId, maxBytes) : undefined,
        readMolecules: (artifactId, port) => this.ports.artifacts.readMolecules(who.userId, artifactId, port),
        pdb: this.ports.pdb,
        rdkit: (request) => runRdkitHere(request),
        readResult: (artifactId) => this.ports.artifacts.readResult(who.userId, artifactId),
      })
      .catch((err: unknown) => {
        throw err instanceof AppError ? err.at('payload') : err;
      });
    const expected = Math.max(0.001, est.expectedRuntimeSec);
    return {
      jobType: type.name,
      resource,
      expectedRuntimeSec: expected,
      costMicros: Math.max(1, Math.ceil(expected * resource.rateMicrosPerSec)),
      runtimeLimitSec: runtimeLimitSec(expected, this.runtimeGraceSec),
      assumptions: est.assumptions,
    };
  }

  /**
   * 503 engine-unavailable unless a live worker found every engine the payload needs
   * (docs/engines.md); the detail names the Debian packages to install.
   */
  private async requireEngines(type: JobType, payload: unknown): Promise<void> {
    const needed = type.engines?.(payload) ?? [];
    if (!needed.length) return;
    const live = await workersStore.live(this.db);
    const missing = needed.filter((e) => !live.some((w) => w.engines[e]?.available && needed.every((n) => w.engines[n]?.available)));
    if (!missing.length) return;
    const absent = needed.filter((e) => !live.some((w) => w.engines[e]?.available));
    const names = (absent.length ? absent : needed).map((e) => `${e} (Debian package ${ENGINES[e].debianPackage})`);
    throw new AppError(
      'engine-unavailable',
      live.length === 0
        ? `${type.name} needs ${names.join(' and ')}, and this server runs no compute worker (start one with crucible worker, or serve with CRUCIBLE_WORKERS above 0)`
        : `${type.name} needs ${names.join(' and ')}${absent.length ? '' : ' on one worker'}, which no worker of this server has; install with: apt-get install ${needed.map((e) => ENGINES[e].debianPackage).join(' ')}`,
    );
  }

  /** One job; errors located relative to the request. Returns its process id. */
  async submitOne(who: Submitter, req: JobRequest, opts: SubmitOptions = {}): Promise<string> {
    const planned = await this.plan(who, req);
    await this.submitPlanned(who, [planned], opts);
    return planned.id;
  }

  /** All or nothing: every job validated (errors at [index, ...]), the total reserved, every row and queue message written in one transaction. */
  async submit(who: Submitter, reqs: JobRequest[], opts: SubmitOptions = {}): Promise<string[]> {
    const planned: Planned[] = [];
    for (const [i, req] of reqs.entries()) {
      planned.push(
        await this.plan(who, req).catch((err: unknown) => {
          throw err instanceof AppError ? err.at(i) : err;
        }),
      );
    }
    return this.submitPlanned(who, planned, opts);
  }

  /**
   * A feature's asynchronous request (a utility or inference request) as a job of one of its
   * request types (registry.ts): the same runtime, but nothing reserved or charged (the feature
   * counts it against the allowance, in `opts.inTransaction`). Returns its id.
   */
  async submitRequest(who: Submitter, req: JobRequest, origin: Exclude<JobOrigin, 'job'>, opts: SubmitOptions = {}): Promise<string> {
    const planned = await this.plan(who, req, REQUEST_TYPES);
    await this.submitPlanned(who, [planned], opts, origin);
    return planned.id;
  }

  private async plan(who: Submitter, req: JobRequest, types: ReadonlyMap<string, JobType> = JOB_TYPES): Promise<Planned> {
    const est = await this.estimate(who, req, types);
    return { ...est, id: crypto.randomUUID(), name: req.job_name ?? '', payload: req.payload };
  }

  private async submitPlanned(who: Submitter, planned: Planned[], opts: SubmitOptions, origin: JobOrigin = 'job'): Promise<string[]> {
    const ids = planned.map((p) => p.id);
    const charged = origin === 'job';
    await this.db.transaction(async (tx) => {
      for (const p of planned) {
        // The queue message and the row in one statement (the row written once, with its id); both commit together.
        const lane = laneOf(p.jobType, p.payload);
        const message = await this.queue.sendStatement(p.id, lane);
        await jobsStore.insert(
          tx,
          {
            id: p.id,
            origin,
            userId: who.userId,
            keyId: who.keyId,
            name: p.name,
            type: p.jobType,
            resource: p.resource.name,
            payload: p.payload,
            expectedRuntimeSec: p.expectedRuntimeSec,
            rateMicrosPerSec: charged ? p.resource.rateMicrosPerSec : 0,
            reservedMicros: charged ? p.costMicros : 0,
            info: { assumptions: p.assumptions, ...opts.info },
            lane,
          },
          message,
        );
      }
      // The reservation last but for the caller's own rows: its statement locks the account's
      // wallet until the COMMIT (docs/reliability.md, "One lock order").
      if (charged) {
        await this.ports.wallet.reserveAll(
          tx,
          planned.map((p) => ({ userId: who.userId, keyId: who.keyId, jobId: p.id, amountMicros: p.costMicros, ceilingMicros: who.spendCeilingMicros })),
        );
      }
      await opts.inTransaction?.(tx, ids);
    });
    return ids;
  }

  /** The caller's job (404 for anyone else's or an id that is not one). */
  async get(userId: string, processId: string, origin: JobOrigin = 'job'): Promise<JobRow> {
    const job = isUuid(processId) ? await jobsStore.get(this.db, userId, processId, origin) : null;
    if (!job) throw notFound(`job ${processId}`);
    return job;
  }

  /** A page of the caller's jobs; errors located relative to the query (["status"], ["sort"]). */
  async list(userId: string, q: JobListQuery, origin: JobOrigin = 'job') {
    const statuses = commaValues(q.status, JOB_STATUSES, 'status');
    const order = sortOrder(q.sort, SORT_COLUMNS, 'created_at DESC', ' NULLS LAST');
    const limit = q.limit ?? 100;
    const offset = q.offset ?? 0;
    const page = await jobsStore.list(this.db, userId, { origin, statuses, jobType: q.job_type, text: q.q, order, limit, offset });
    return { ...page, limit, offset };
  }

  /** The result document of a completed job (job-not-finished before; a 409 for a job that ended otherwise). */
  async result(userId: string, processId: string): Promise<unknown> {
    return this.resultOf(await this.get(userId, processId));
  }

  private async resultOf(j: JobRow): Promise<unknown> {
    if (!TERMINAL.has(j.status)) throw new AppError('job-not-finished', `job ${j.id} is ${j.status}; its result is available once it completes`);
    if (j.status !== 'completed' || !j.result_artifact_id) {
      throw new AppError('conflict', `job ${j.id} ended with status ${j.status}${j.message ? `: ${j.message}` : ''}; it has no result`, { retry: 'terminal' });
    }
    const result = await this.ports.artifacts.readResult(j.user_id, j.result_artifact_id);
    // `job_type` leads every result document (the discriminator of the OpenAPI document's
    // JobResult); results stored before wait, mpnn_train and mpnn_predict wrote it get it here.
    return result !== null && typeof result === 'object' && !Array.isArray(result) ? { job_type: j.job_type, ...result } : result;
  }

  /** Each id's result or the error it meets (errors relative to the query: ["process_ids"]). */
  async resultMultiple(userId: string, processIds: string): Promise<Map<string, { result: unknown } | { error: AppError }>> {
    const ids = [
      ...new Set(
        processIds
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length === 0 || ids.length > MAX_RESULT_MULTIPLE) {
      throw invalid(['process_ids'], `Give 1 to ${MAX_RESULT_MULTIPLE} comma-separated process ids (got ${ids.length})`, processIds, ids.length ? 'too_long' : 'too_short');
    }
    const out = new Map<string, { result: unknown } | { error: AppError }>();
    for (const id of ids) {
      try {
        out.set(id, { result: await this.resultOf(await this.get(userId, id)) });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        out.set(id, { error: err });
      }
    }
    return out;
  }

  /** Ends the job `cancelled`, charging the runtime used; returns the finished row. */
  async cancel(userId: string, processId: string, origin: JobOrigin = 'job'): Promise<JobRow> {
    await this.get(userId, processId, origin);
    const finished = await this.db.transaction(async (tx) => {
      await this.ports.workflows?.lockRunOf(tx, processId); // the lock order of every writer: run, job, wallet
      const j = await jobsStore.get(tx, userId, processId, origin, true);
      if (!j) throw notFound(`job ${processId}`);
      if (TERMINAL.has(j.status)) throw new AppError('job-already-finished', `job ${processId} already ended with status ${j.status}`);
      return finishJob(tx, this.ports, j.id, { status: 'cancelled', message: 'cancelled by the user', chargeable: true });
    });
    if (!finished) throw new AppError('job-already-finished', `job ${processId} ended before it could be cancelled`);
    return finished;
  }

  /** Deletes a finished job and its result artifact. */
  async delete(userId: string, processId: string, origin: JobOrigin = 'job'): Promise<void> {
    await this.get(userId, processId, origin);
    // The job row and its artifact rows go in one transaction; the files after it commits
    // (a file left by a crash then is an orphan for the sweep, never a visible artifact).
    const keys = await this.db.transaction(async (tx) => {
      const j = await jobsStore.get(tx, userId, processId, origin, true);
      if (!j) throw notFound(`job ${processId}`);
      if (ACTIVE_STATUSES.includes(j.status)) throw new AppError('job-active', `job ${processId} is ${j.status}; cancel it before deleting it`);
      const removed = await this.ports.artifacts.deleteRowsForJob(tx, userId, j.id);
      await jobsStore.delete(tx, userId, j.id);
      return removed;
    });
    await this.ports.artifacts.removeObjects(keys);
  }

  /** Reserves a hold that several jobs will charge against (a workflow run's, under its id): 402/403 as for a submit. */
  reserveHold(tx: Queryable, who: Submitter, holdId: string, amountMicros: number, note: string): Promise<void> {
    return this.ports.wallet.reserveAll(tx, [{ userId: who.userId, keyId: who.keyId, jobId: holdId, amountMicros, ceilingMicros: who.spendCeilingMicros, note }]);
  }

  /**
   * Deletes finished jobs and their result artifacts' rows in the caller's transaction (a
   * finished workflow run's step jobs); returns the storage keys for removeObjects after commit.
   */
  async deleteFinishedInTx(tx: Queryable, userId: string, ids: string[]): Promise<string[]> {
    const keys: string[] = [];
    for (const id of ids) {
      const j = await jobsStore.get(tx, userId, id, 'job', true);
      if (!j) continue;
      if (ACTIVE_STATUSES.includes(j.status)) throw new AppError('job-active', `job ${id} is ${j.status}; cancel it before deleting it`);
      keys.push(...(await this.ports.artifacts.deleteRowsForJob(tx, userId, j.id)));
      await jobsStore.delete(tx, userId, j.id);
    }
    return keys;
  }

  removeObjects(keys: string[]): Promise<void> {
    return this.ports.artifacts.removeObjects(keys);
  }

  /** The runtime limit of a job expected to take `expectedSec`. */
  runtimeLimitSec(expectedSec: number): number {
    return runtimeLimitSec(expectedSec, this.runtimeGraceSec);
  }
}
